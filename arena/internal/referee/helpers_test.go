package referee_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/internal/referee/refereetest"
	"github.com/tapparena/tapp/engine"
)

// clock is the time control of the tests: 1 s per decision, a 2 s bank, 3 strikes. In a
// synctest bubble every duration below is exact.
var clock = domain.TimeControl{PerDecision: time.Second, Overage: 2 * time.Second, MaxStrikes: 3}

// answering answers every request after 100 ms with refereetest.Pick's action.
var answering = refereetest.Answer(100*time.Millisecond, "")

func mustRules(t *testing.T, text string) engine.RuleSet {
	t.Helper()
	r, err := engine.ParseRuleSet(text)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// newTable is deal 0 of match "m" from seed 7 under rules, the seats in seat order, each bot
// ("north", "east", "south", "west") with a clock of its own under tc.
func newTable(t *testing.T, rules string, tc domain.TimeControl, seats ...*refereetest.Seat) *referee.Table {
	t.Helper()
	r := mustRules(t, rules)
	if len(seats) != r.Players {
		t.Fatalf("%d seats for %d players", len(seats), r.Players)
	}
	players := make([]referee.Player, len(seats))
	for i, s := range seats {
		players[i] = referee.Player{Bot: []string{"north", "east", "south", "west"}[i], Conn: s, Clock: referee.NewClock(tc)}
	}
	return &referee.Table{MatchID: "m", Rules: r, Deal: engine.DealFromSeed(r, 7, 0), Players: players, TimeControl: tc}
}

// play plays the table's deal and waits for the seats' last replies.
func play(t *testing.T, table *referee.Table) *domain.DealRecord {
	t.Helper()
	rec, err := referee.Play(context.Background(), table)
	if err != nil {
		t.Fatalf("Play: %v", err)
	}
	for _, p := range table.Players {
		p.Conn.(*refereetest.Seat).Wait()
	}
	return rec
}

// decisionsOf lists a seat's decisions of a deal, in order.
func decisionsOf(rec *domain.DealRecord, seat engine.Seat) []domain.DecisionRecord {
	var out []domain.DecisionRecord
	for _, d := range rec.Decisions {
		if d.Seat == seat {
			out = append(out, d)
		}
	}
	return out
}

// finalState replays a deal record with the engine.
func finalState(t *testing.T, table *referee.Table, rec *domain.DealRecord) *engine.State {
	t.Helper()
	st, err := engine.NewState(table.Rules, rec.Deal, rec.Options)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range rec.Moves {
		if err := st.Apply(m.Action); err != nil {
			t.Fatalf("move %d (%s by seat %d) does not replay: %v", i, m.Action, m.Seat, err)
		}
	}
	return st
}

// attempt is an answer attempt without its text, for comparing what a table says.
type attempt struct {
	After    time.Duration
	Rejected string
}

func attempts(d domain.DecisionRecord) []attempt {
	var out []attempt
	for _, a := range d.Attempts {
		out = append(out, attempt{a.After, a.Rejected})
	}
	return out
}

// rules lists the rule ids of refusals.
func rules(rs []referee.Refusal) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Rule)
	}
	return out
}

// banks lists the overage left that each request of a seat carried.
func banks(as []refereetest.Asked) []time.Duration {
	var out []time.Duration
	for _, a := range as {
		out = append(out, a.OverageLeft)
	}
	return out
}

// ruleOf is the rule id before the reason's first colon.
func ruleOf(reason string) string {
	if i := slices.Index([]byte(reason), ':'); i >= 0 {
		return reason[:i]
	}
	return reason
}
