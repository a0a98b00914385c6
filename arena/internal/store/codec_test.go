package store

import (
	"context"
	"encoding/binary"
	"hash/crc32"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/s2"
	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/engine"
	storev1 "github.com/tapparena/tapp/proto/tapp/store/v1"
)

// The stored forms of Outcome and Options name every field: a field added to the engine
// type must be added to codec.go too, or it would be lost on the way through the database.
func TestCodecCoversEngineFields(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		engine, stored reflect.Type
	}{
		{reflect.TypeFor[engine.Outcome](), reflect.TypeFor[outcome]()},
		{reflect.TypeFor[engine.Options](), reflect.TypeFor[options]()},
	} {
		var got, want []string
		for i := range c.engine.NumField() {
			want = append(want, c.engine.Field(i).Name)
		}
		for i := range c.stored.NumField() {
			got = append(got, c.stored.Field(i).Name)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%v fields %v, stored as %v: update codec.go", c.engine, want, got)
		}
	}
}

func TestOutcomeRoundTrip(t *testing.T) {
	t.Parallel()
	for _, o := range []engine.Outcome{
		{},
		{ThrownIn: true, Declarer: engine.NoSeat, Contract: engine.NoContract, Trump: engine.NoSuit},
		{Declarer: engine.NoSeat, Contract: engine.Ramsch, Trump: engine.NoSuit, Points: [4]int{40, 50, 30},
			Tricks: [4]int{4, 4, 3}, Payoff: [4]int{5, -10, 5}},
		{Declarer: 2, Contract: engine.Durch, Trump: engine.Diamonds, Tout: true, Points: [4]int{1, 2, 3, 4},
			Tricks: [4]int{5, 6, 7, 8}, DeclarerWon: true, Draw: true, Payoff: [4]int{-1, -2, -3, 6},
			PotBefore: 12, PotAfter: 3},
	} {
		text := formatOutcome(o)
		got, err := parseOutcome(text)
		if err != nil || got != o {
			t.Errorf("outcome %+v stored as %s read back as %+v, %v", o, text, got, err)
		}
	}
	text := formatOutcome(engine.Outcome{Declarer: 1, Contract: engine.HeartSolo, Trump: engine.Hearts})
	for _, want := range []string{`"declarer":1`, `"contract":"heartsolo"`, `"trump":"H"`} {
		if !strings.Contains(text, want) {
			t.Errorf("stored outcome %s does not hold %s", text, want)
		}
	}
	for _, bad := range []string{`{`, `{"contract":"chess"}`, `{"contract":"solo","trump":"X"}`} {
		if _, err := parseOutcome(bad); err == nil {
			t.Errorf("parseOutcome(%s) succeeded", bad)
		}
	}
}

func TestMovesAndActions(t *testing.T) {
	t.Parallel()
	moves := []engine.Move{
		{Seat: 0, Action: engine.PassAction()},
		{Seat: 1, Action: engine.BidAction(engine.Solo, engine.Clubs)},
		{Seat: 1, Action: engine.CallAction(engine.NewCard(engine.Hearts, engine.Ace))},
		{Seat: 2, Action: engine.CardAction(engine.NewCard(engine.Spades, engine.Ten))},
		{Seat: 3, Action: engine.Action{}},
	}
	text := formatMoves(moves)
	if want := "0:pass\n1:solo:C\n1:call:HA\n2:ST\n3:none"; text != want {
		t.Errorf("formatMoves = %q, want %q", text, want)
	}
	got, err := parseMoves(text)
	if err != nil || !reflect.DeepEqual(got, moves) {
		t.Errorf("parseMoves(%q) = %v, %v; want %v", text, got, err, moves)
	}
	if got, err := parseMoves(""); err != nil || got != nil {
		t.Errorf("parseMoves(\"\") = %v, %v", got, err)
	}
	for _, bad := range []string{"pass", "x:pass", "7:pass", "0:fly"} {
		if _, err := parseMoves(bad); err == nil {
			t.Errorf("parseMoves(%q) succeeded", bad)
		}
	}
	for d := engine.DecideNone; d <= engine.DecideCard; d++ {
		if got, err := parseDecision(formatDecision(d)); err != nil || got != d {
			t.Errorf("decision %v read back as %v, %v", d, got, err)
		}
	}
	if _, err := parseDecision("juggle"); err == nil {
		t.Error(`parseDecision("juggle") succeeded`)
	}
}

// The records are meant to be read with the sqlite3 or psql shell: engine values are in their
// own notation. A deal's decisions are in its decision log, in the documented format (a format
// byte, a CRC-32C and an S2 block of a tapp.store.v1.DecisionLog in the same notations); this
// test reads it with nothing but an S2 decoder and the generated protobuf code.
func TestStoredRecordsAreReadable(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m := newMatch(t, s, "", "a", "b", "c")
		d := sampleDeal(t, m, 0, 6, 50)
		if err := s.SaveDeal(ctx, d); err != nil {
			t.Fatal(err)
		}
		var rules, bots, seed, deal, moves, outcome string
		var blob []byte
		if err := s.r.QueryRow(s.rebind(`SELECT m.rules, m.bots, m.seed, d.deal, d.moves, d.outcome, d.decision_log
FROM deals d JOIN matches m ON m.id = d.match_id WHERE d.match_id = ?`), m.ID).
			Scan(&rules, &bots, &seed, &deal, &moves, &outcome, &blob); err != nil {
			t.Fatal(err)
		}
		if len(blob) < 5 || blob[0] != 1 {
			t.Fatalf("decision_log starts with % x, want format 1", blob[:min(len(blob), 5)])
		}
		raw, err := s2.Decode(nil, blob[5:])
		if err != nil {
			t.Fatalf("decision_log does not hold an S2 block: %v", err)
		}
		if sum := crc32.Checksum(raw, crc32.MakeTable(crc32.Castagnoli)); sum != binary.LittleEndian.Uint32(blob[1:5]) {
			t.Errorf("decision_log checksum %08x, computed %08x", binary.LittleEndian.Uint32(blob[1:5]), sum)
		}
		var log storev1.DecisionLog
		if err := proto.Unmarshal(raw, &log); err != nil {
			t.Fatalf("decision_log does not hold a DecisionLog: %v", err)
		}
		if len(log.Decisions) != 6 {
			t.Fatalf("decision_log holds %d decisions, want 6", len(log.Decisions))
		}
		x := log.Decisions[4]
		for _, c := range []struct{ name, got, want string }{
			{"rules", rules, m.Spec.Rules.String()},
			{"bots", bots, `["a","b","c"]`},
			{"seed", seed, "9223372036854788153"},
			{"deal", deal, d.Deal.Format(m.Spec.Rules)},
			{"moves", strings.SplitN(moves, "\n", 5)[3], "0:solo:C"},
			{"decision", x.Decision, "card"},
			{"action", x.Action, d.Decisions[4].Action.String()},
			{"rejected", x.Attempts[0].Rejected, "R-PLAY-1: not in hand"},
			{"bot", x.Bot, "b"},
			{"sent", string(x.Sent), string(d.Decisions[4].Sent)},
		} {
			if c.got != c.want {
				t.Errorf("stored %s = %q, want %q", c.name, c.got, c.want)
			}
		}
		if x.Index != 4 || x.Seat != 1 || x.LatencyUs != 1004 || x.Attempts[1].AfterUs != 1004 || !log.Decisions[5].Strike ||
			x.ThinkNs != int64(d.Decisions[4].Think) {
			t.Errorf("stored decision 4 = %v, decision 5 = %v", x, log.Decisions[5])
		}
		if !strings.Contains(outcome, `"contract":"solo"`) {
			t.Errorf("stored outcome %s does not name the contract", outcome)
		}
	})
}
