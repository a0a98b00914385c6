package app

import (
	"os"
	"testing"

	"github.com/tapparena/tapp/arena/internal/testbot"
)

// botEnv makes the test binary a bot program (testbot): its value is the built-in bot it
// plays. Leagues in these tests launch it as they launch any bot's command.
const botEnv = "TAPP_APP_TEST_BOT"

func TestMain(m *testing.M) {
	testbot.RunIfAsked(botEnv, nil)
	os.Exit(m.Run())
}
