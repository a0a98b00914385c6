package reask

import (
	"context"
	"os"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/arena/internal/replay/replaytest"
	"github.com/tapparena/tapp/arena/internal/testbot"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/engine"
)

// botEnv makes the test binary a bot program (testbot): its value names the bot, "last" or a
// built-in one.
const botEnv = "TAPP_REASK_TEST_BOT"

func TestMain(m *testing.M) {
	testbot.RunIfAsked(botEnv, func(kind string) (bots.Bot, bool) { return lastLegalBot(), kind == "last" })
	os.Exit(m.Run())
}

// lastLegalBot always plays the last legal action.
func lastLegalBot() bots.Bot {
	return bots.Func(func(_ context.Context, obs *engine.Observation) (engine.Action, error) {
		return obs.Legal[len(obs.Legal)-1], nil
	})
}

// testClock is the fast clock the test matches are played under.
var testClock = replaytest.Clock

// play plays a seeded match of n deals among in-process answer functions (replaytest.Play)
// and returns its replay context and records.
func play(t testing.TB, rulesText string, n int, answers ...replaytest.Answers) (replay.Match, []domain.DealRecord) {
	t.Helper()
	m, recs := replaytest.Play(t, rulesText, n, answers...)
	return replay.MatchOf(m), recs
}
