package notation_test

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/notation"
	"github.com/tapparena/tapp/engine"
)

// ruleSets is every variant, table size, pack and option of the engine (engine/rules.go).
var ruleSets = []string{
	"modern players=3 pack=36 frage=off",
	"modern players=3 pack=36 frage=on",
	"modern players=3 pack=32 frage=off",
	"modern players=3 pack=32 frage=on",
	"modern players=4 pack=36 frage=off",
	"modern players=4 pack=36 frage=on",
	"modern players=4 pack=32 frage=off",
	"modern players=4 pack=32 frage=on",
	"modern players=3 stakes=solo:7,bettel:11,ramsch:3",
	"classic tout=2 pot=off",
	"classic tout=3 pot=on",
	"wuerttemberg tout=3 pot=off",
	"wuerttemberg tout=2 pot=on",
}

// randomGame plays deal k of seed with random legal actions: the first legal one (pass, in
// the bidding) a third of the time, else any, so that thrown-in deals occur too.
func randomGame(t testing.TB, rules engine.RuleSet, seed, k uint64, opts engine.Options) *engine.State {
	t.Helper()
	st, err := engine.NewState(rules, engine.DealFromSeed(rules, seed, k), opts)
	if err != nil {
		t.Fatal(err)
	}
	rng := engine.NewRand(seed^0x5eed, k)
	var legal []engine.Action
	for !st.Terminal() {
		legal = st.LegalActions(legal[:0])
		a := legal[rng.IntN(len(legal))]
		if rng.IntN(3) == 0 {
			a = legal[0]
		}
		if err := st.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// recordOf is a finished state as a full record of a seeded match.
func recordOf(st *engine.State, k int, seed uint64) *notation.Record {
	r := st.Rules()
	n := r.Players
	table := []string{"alpha", "bravo", "charlie", "delta"}[:n]
	dealer := k % n
	seating := make([]string, n)
	for s := range seating {
		seating[s] = table[engine.TablePosition(engine.Seat(s), dealer, n)]
	}
	out := st.Outcome()
	rec := &notation.Record{Match: "m-1", League: "night", Deal: k, Group: k, Rules: r, Table: table, Seating: seating,
		Dealer: dealer, Format: "deals", Deals: 100, HasDuplicate: true, Seeded: true, Seed: seed,
		Commitment: strings.Repeat("ab", 32), Nonce: strings.Repeat("0f", 16), Options: st.Options(),
		Started: time.Date(2026, 11, 29, 20, 19, 0, 123000, time.UTC), Hands: st.Deal().Hands, Tapp: st.Deal().Tapp,
		TappKnown: true, Moves: append([]engine.Move(nil), st.History()...), Outcome: &out}
	for s := 0; s < n; s++ {
		rec.Known[s] = true
	}
	rec.SetHolder()
	return rec
}

func text(t testing.TB, r *notation.Record) string {
	t.Helper()
	var b bytes.Buffer
	if err := notation.Write(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func jsonLine(t testing.TB, r *notation.Record) string {
	t.Helper()
	var b bytes.Buffer
	if err := notation.WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// roundTrip checks that a record reads back equal from its text and its JSON twin, and that
// both write back byte for byte.
func roundTrip(t *testing.T, rec *notation.Record) {
	t.Helper()
	txt := text(t, rec)
	back, err := notation.Parse(txt)
	if err != nil {
		t.Fatalf("%v\n%s", err, txt)
	}
	if !reflect.DeepEqual(back, rec) {
		t.Fatalf("text round trip differs:\n%s\ngot  %+v\nwant %+v", txt, back, rec)
	}
	js := jsonLine(t, rec)
	fromJSON, err := notation.Parse(js)
	if err != nil {
		t.Fatalf("%v\n%s", err, js)
	}
	if !reflect.DeepEqual(fromJSON, rec) {
		t.Fatalf("JSON round trip differs:\n%s\ngot  %+v\nwant %+v", js, fromJSON, rec)
	}
	if again := text(t, fromJSON); again != txt {
		t.Fatalf("text → JSON → text differs:\n%s\n%s", txt, again)
	}
}

// Every rule set: full records and every seat's redacted record survive text and JSON.
func TestRoundTripEveryRuleSet(t *testing.T) {
	t.Parallel()
	contracts := map[string]bool{}
	for _, text := range ruleSets {
		rules, err := engine.ParseRuleSet(text)
		if err != nil {
			t.Fatal(err)
		}
		pot := 0
		for k := 0; k < 80; k++ {
			opts := engine.Options{Pot: pot, ForcedRamsch: rules.Variant == engine.Modern && k%10 == 9}
			st := randomGame(t, rules, 31, uint64(k), opts)
			if rules.Pot {
				pot = st.Outcome().PotAfter
			}
			contracts[st.Outcome().Contract.String()] = true
			rec := recordOf(st, k, 31)
			roundTrip(t, rec)
			for s := 0; s < rules.Players; s++ {
				red, err := notation.Redact(rec, engine.Seat(s))
				if err != nil {
					t.Fatal(err)
				}
				roundTrip(t, red)
			}
		}
	}
	for _, c := range []string{"frage", "solo", "heartsolo", "bettel", "rufer", "heartrufer", "ouvert", "durch", "heartdurch", "ramsch", "none"} {
		if !contracts[c] {
			t.Errorf("no random deal played %s: the round trip misses it", c)
		}
	}
}

// A redacted record holds exactly one seat's information set: it is the same for every deal
// the seat cannot tell apart (no hidden card leaks), and it shows everything the engine's
// event stream told the seat before the reveal (nothing is lost).
func TestRedactedHoldsExactlyTheInformationSet(t *testing.T) {
	t.Parallel()
	differed := 0
	for _, text := range ruleSets {
		rules, _ := engine.ParseRuleSet(text)
		for k := 0; k < 25; k++ {
			st := randomGame(t, rules, 47, uint64(k), engine.Options{})
			rec := recordOf(st, k, 47)
			for s := 0; s < rules.Players; s++ {
				seat := engine.Seat(s)
				red, err := notation.Redact(rec, seat)
				if err != nil {
					t.Fatal(err)
				}
				checkAgainstEvents(t, st, seat, red)
				if other := indistinguishable(t, st, seat, uint64(k)); other != nil {
					orec := recordOf(other, k, 47)
					ored, err := notation.Redact(orec, seat)
					if err != nil {
						t.Fatal(err)
					}
					if a, b := textOf(t, red), textOf(t, ored); a != b {
						t.Fatalf("%s deal %d seat %d: two deals the seat cannot tell apart redact differently:\n%s\n%s", text, k, s, a, b)
					}
					if orec.Hands != rec.Hands || orec.Tapp != rec.Tapp {
						differed++
					}
				}
			}
		}
	}
	if differed < 100 {
		t.Fatalf("only %d of the indistinguishable deals had other cards: the test proves little", differed)
	}
}

func textOf(t testing.TB, r *notation.Record) string { return text(t, r) }

// indistinguishable returns another finished deal with the same moves that seat s cannot tell
// from st before the reveal (the engine's determinization of its view before the last move,
// with the last move played), or nil when no sample allows the last move.
func indistinguishable(t *testing.T, st *engine.State, seat engine.Seat, k uint64) *engine.State {
	t.Helper()
	h := st.History()
	if len(h) == 0 {
		return nil
	}
	before, err := engine.NewState(st.Rules(), st.Deal(), st.Options())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range h[:len(h)-1] {
		if err := before.Apply(m.Action); err != nil {
			t.Fatal(err)
		}
	}
	obs := before.Observe(seat)
	last := h[len(h)-1]
	rng := engine.NewRand(k, uint64(seat))
	for try := 0; try < 40; try++ {
		other, err := obs.Sample(rng)
		if err != nil {
			t.Fatalf("sample: %v", err)
		}
		if other.Apply(last.Action) == nil {
			if !reflect.DeepEqual(eventsBeforeReveal(other, seat), eventsBeforeReveal(st, seat)) {
				t.Fatalf("the sampled deal tells seat %d something else", seat)
			}
			return other
		}
	}
	return nil
}

func eventsBeforeReveal(st *engine.State, seat engine.Seat) []engine.Event {
	var out []engine.Event
	for _, e := range st.EventsFor(seat, 0) {
		if e.Kind == engine.EvDealEnd || e.Kind == engine.EvSettled {
			break
		}
		out = append(out, e)
	}
	return out
}

// checkAgainstEvents compares a redacted record with what the engine's redacted event stream
// told the seat before the reveal.
func checkAgainstEvents(t *testing.T, st *engine.State, seat engine.Seat, red *notation.Record) {
	t.Helper()
	n := st.Rules().Players
	var moves []engine.Move
	var known [engine.MaxPlayers]bool
	known[seat] = true
	var tapp engine.CardSet
	holder, called := engine.NoSeat, false
	for _, e := range eventsBeforeReveal(st, seat) {
		switch e.Kind {
		case engine.EvDealt:
			if e.Hands[seat] != red.Hands[seat] {
				t.Fatalf("seat %d was dealt %s, the record shows %s", seat, e.Hands[seat], red.Hands[seat])
			}
		case engine.EvBid, engine.EvDiscard, engine.EvTrump, engine.EvCall, engine.EvGive, engine.EvTout, engine.EvCard:
			moves = append(moves, engine.Move{Seat: e.Seat, Action: e.Action})
		case engine.EvTappTaken:
			tapp = e.Cards
		case engine.EvCalledCard:
			holder, called = e.Holder, true
		case engine.EvOuvertExposed:
			known[e.Seat] = true
			if red.Hands[e.Seat]&e.Cards != e.Cards {
				t.Fatalf("the open Ouvert hand %s is not in the record's %s", e.Cards, red.Hands[e.Seat])
			}
		}
	}
	var got, want []string
	for _, m := range red.Moves {
		got = append(got, notation.MoveText(m))
	}
	for _, m := range moves {
		want = append(want, notation.MoveText(m))
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("seat %d's moves:\n got %v\nwant %v", seat, got, want)
	}
	for s := 0; s < n; s++ {
		if red.Known[s] != known[s] {
			t.Fatalf("seat %d's view shows hand %d: %v, the events: %v", seat, s, red.Known[s], known[s])
		}
	}
	if red.TappKnown != !tapp.Empty() || (red.TappKnown && red.Tapp != tapp) {
		t.Fatalf("seat %d's view of the tapp: %v %s, the events: %s", seat, red.TappKnown, red.Tapp, tapp)
	}
	if red.HasHolder != called || red.Holder != holder {
		t.Fatalf("seat %d's view of the holder: %v %d, the events: %v %d", seat, red.HasHolder, red.Holder, called, holder)
	}
	if red.Seeded || red.Nonce != "" || red.Outcome != nil {
		t.Fatalf("a redacted record with a seed, nonce or result")
	}
}

// The examples of docs/notation.md are these files, read and written back as they are.
func TestDocExample(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../../docs/notation.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"testdata/example.tpn", "testdata/example-seat2.tpn", "testdata/example-seat2.tpn.jsonl"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(doc), "```\n"+strings.TrimSpace(string(b))+"\n```") {
			t.Errorf("docs/notation.md does not show %s as it is", name)
		}
	}
	full, _ := os.ReadFile("testdata/example.tpn")
	seat2, _ := os.ReadFile("testdata/example-seat2.tpn")
	rec, err := notation.Parse(string(full))
	if err != nil {
		t.Fatal(err)
	}
	if red, err := notation.Redact(rec, 2); err != nil || text(t, red) != string(seat2) {
		t.Errorf("the redacted example is not seat 2's view of the full one: %v", err)
	}
	for _, name := range []string{"testdata/example.tpn", "testdata/example-seat2.tpn"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := notation.Parse(string(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := text(t, rec); got != string(b) {
			t.Errorf("%s does not write back as it is:\n%s", name, got)
		}
	}
}

// Bad records are refused with an error that names what is wrong.
func TestReadErrors(t *testing.T) {
	t.Parallel()
	const head = "[TPN \"1\"]\n[Rules \"modern players=3\"]\n[Seating \"a b c\"]\n"
	const hands = "[Hands \"C6 C7 C8 C9 CJ CQ CK CT CA S6 S7 | S8 S9 SJ SQ SK ST SA H6 H7 H8 H9 | HJ HQ HK HT HA D6 D7 D8 D9 DJ DQ | DK DT DA\"]\n"
	tests := []struct {
		name, text, want string
	}{
		{"no version", "[Rules \"modern\"]\n", "starts with [TPN"},
		{"other version", "[TPN \"2\"]\n", `TPN version "2"`},
		{"no hands", head, "no Hands tag"},
		{"bad rules", "[TPN \"1\"]\n[Rules \"bridge\"]\n[Seating \"a b c\"]\n" + hands, "Rules: unknown variant"},
		{"seats", "[TPN \"1\"]\n[Rules \"modern\"]\n[Seating \"a b\"]\n" + hands, "2 bots for a table of 3"},
		{"card twice", head + "[Hands \"C6 C6 C8 C9 CJ CQ CK CT CA S6 S7 | S8 S9 SJ SQ SK ST SA H6 H7 H8 H9 | HJ HQ HK HT HA D6 D7 D8 D9 DJ DQ | DK DT DA\"]\n", "C6 appears twice"},
		{"short hand", head + "[Hands \"C7 C8 C9 CJ CQ CK CT CA S6 S7 | S8 S9 SJ SQ SK ST SA H6 H7 H8 H9 | HJ HQ HK HT HA D6 D7 D8 D9 DJ DQ | DK DT DA\"]\n", "R-DEAL-1"},
		{"bad move", head + hands + "\n1:pass 2:xx\n", `move 1: "2:xx"`},
		{"seat", head + hands + "\n5:pass\n", "no seat 5"},
		{"hidden in full", head + hands + "\n0:discard\n", "a hidden card in a full record"},
		{"tag twice", head + "[Rules \"modern\"]\n" + hands, "Rules given twice"},
		{"quote", "[TPN \"1\"]\n[Match \"a\"b\"]\n", "must be written"},
		{"redacted seed", head + "[Seed \"1\"]\n[View \"0\"]\n[Hands \"C6 C7 C8 C9 CJ CQ CK CT CA S6 S7 | ? | ? | ?\"]\n", "no seed"},
		{"redacted own hand", head + "[View \"1\"]\n[Hands \"C6 C7 C8 C9 CJ CQ CK CT CA S6 S7 | ? | ? | ?\"]\n", "own hand is not shown"},
		{"result", head + hands + "[Result \"contract=solo\"]\n", "no trump= in the result"},
		{"json format", `{"format":"tapp-replay/1"}`, `format "tapp-replay/1"`},
		{"json field", `{"format":"tpn/1","extra":1}`, "unknown field"},
		{"dealer", head + "[Table \"a b c\"]\n[Dealer \"0\"]\n" + hands, "R-SEAT-2"},
	}
	for _, tc := range tests {
		_, err := notation.Parse(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// A file of several records reads record by record; a bad one is reported with its line and
// the others are still read.
func TestReadGoesOnAfterABadRecord(t *testing.T) {
	t.Parallel()
	rules, _ := engine.ParseRuleSet("classic")
	a := recordOf(randomGame(t, rules, 5, 0, engine.Options{}), 0, 5)
	b := recordOf(randomGame(t, rules, 5, 1, engine.Options{}), 1, 5)
	file := text(t, a) + "[TPN \"1\"]\n[Rules \"classic\"]\n\n0:pass\n\n" + jsonLine(t, b)
	var lines []string
	err := notation.Read(strings.NewReader(file), func(line int, rec *notation.Record, err error) error {
		if err != nil {
			lines = append(lines, fmt.Sprintf("%d: %v", line, err))
		} else {
			lines = append(lines, fmt.Sprintf("%d: deal %d", line, rec.Deal))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Count(text(t, a), "\n")
	want := []string{"1: deal 0", fmt.Sprintf("%d: no Seating tag (required)", first+1), fmt.Sprintf("%d: deal 1", first+6)}
	if !reflect.DeepEqual(lines, want) {
		t.Fatalf("got %q, want %q", lines, want)
	}
}
