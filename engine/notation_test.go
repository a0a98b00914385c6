package engine

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// R-CARD-5 and the action notation: every listed form parses and prints back.
func TestActionNotation_R_CARD_5(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want Action
	}{
		{"pass", PassAction()},
		{"play", PlayAction()},
		{"frage", BidAction(Frage, NoSuit)},
		{"solo", BidAction(Solo, NoSuit)},
		{"solo:C", BidAction(Solo, Clubs)},
		{"heartsolo", BidAction(HeartSolo, NoSuit)},
		{"bettel", BidAction(Bettel, NoSuit)},
		{"rufer:S", BidAction(Rufer, Spades)},
		{"heartrufer", BidAction(HeartRufer, NoSuit)},
		{"ouvert", BidAction(Ouvert, NoSuit)},
		{"durch:D", BidAction(Durch, Diamonds)},
		{"heartdurch", BidAction(HeartDurch, NoSuit)},
		{"tout", ToutAction(true)},
		{"notout", ToutAction(false)},
		{"trump:C", TrumpAction(Clubs)},
		{"discard:DT", DiscardAction(NewCard(Diamonds, Ten))},
		{"call:HA", CallAction(NewCard(Hearts, Ace))},
		{"give:C7", GiveAction(NewCard(Clubs, Seven))},
		{"HA", CardAction(NewCard(Hearts, Ace))},
		{"D6", CardAction(NewCard(Diamonds, Six))},
	}
	for _, tc := range tests {
		got, err := ParseAction(tc.text)
		if err != nil || got != tc.want {
			t.Errorf("ParseAction(%q) = %+v, %v; want %+v", tc.text, got, err, tc.want)
		}
		if s := got.String(); s != tc.text {
			t.Errorf("String() = %q, want %q", s, tc.text)
		}
		if low, err := ParseAction(strings.ToLower(tc.text)); err != nil || low != tc.want {
			t.Errorf("lower case %q: %v", strings.ToLower(tc.text), err)
		}
	}
	for _, bad := range []string{"", "xx", "solo:X", "heartsolo:H", "trump:Z", "discard:Z9", "card:", "ramsch", "C1", "call"} {
		if a, err := ParseAction(bad); err == nil {
			t.Errorf("ParseAction(%q) = %v, want an error", bad, a)
		}
	}
	if a, _ := ParseAction("card:sq"); a != CardAction(NewCard(Spades, Queen)) {
		t.Errorf("card:sq")
	}
	for k := Decision(0); k < numDecisions; k++ {
		if k.String() == "" || strings.HasPrefix(k.String(), "decision(") {
			t.Errorf("decision %d has no name", k)
		}
	}
	want := []string{"none", "bid", "contract", "trump", "discard", "call", "give", "tout", "card"}
	for i, w := range want {
		if Decision(i).String() != w {
			t.Errorf("Decision(%d) = %s, want %s", i, Decision(i), w)
		}
	}
}

// Rule sets: the canonical text round-trips; defaults fill in; errors are clear.
func TestRuleSetText(t *testing.T) {
	t.Parallel()
	for v := Variant(0); v < NumVariants; v++ {
		r := DefaultRules(v)
		if err := r.Validate(); err != nil {
			t.Fatalf("DefaultRules(%s): %v", v, err)
		}
		back, err := ParseRuleSet(r.String())
		if err != nil || back != r {
			t.Errorf("%s: round trip %q: %v", v, r.String(), err)
		}
		if p, err := ParseVariant(v.String()); err != nil || p != v {
			t.Errorf("ParseVariant(%s)", v)
		}
	}
	if got := DefaultRules(Modern).String(); got != "modern players=3 pack=36 frage=off stakes=solo:5,heartsolo:10,bettel:15,rufer:15,heartrufer:30,ouvert:30,durch:30,heartdurch:60,ramsch:5" {
		t.Errorf("modern canonical form: %s", got)
	}
	if got := DefaultRules(Classic).String(); got != "classic players=3 pack=36 tout=2 pot=off" {
		t.Errorf("classic canonical form: %s", got)
	}
	if got := DefaultRules(Wuerttemberg).String(); got != "wuerttemberg players=3 pack=36 tout=3 pot=off" {
		t.Errorf("wuerttemberg canonical form: %s", got)
	}
	good := map[string]string{
		"modern frage=on":               "modern players=3 pack=36 frage=on stakes=frage:5,solo:10,heartsolo:15,bettel:20,rufer:20,heartrufer:30,ouvert:30,durch:30,heartdurch:60,ramsch:5",
		"MODERN players=4 pack=32":      "modern players=4 pack=32 frage=off stakes=solo:5,heartsolo:10,bettel:15,rufer:15,heartrufer:30,ouvert:30,durch:30,heartdurch:60,ramsch:5",
		"modern stakes=solo:7":          "modern players=3 pack=36 frage=off stakes=solo:7,heartsolo:10,bettel:15,rufer:15,heartrufer:30,ouvert:30,durch:30,heartdurch:60,ramsch:5",
		"classic players=3":             "classic players=3 pack=36 tout=2 pot=off",
		"wuerttemberg tout=2 pot=on":    "wuerttemberg players=3 pack=36 tout=2 pot=on",
		"classic   pot=on   tout=3    ": "classic players=3 pack=36 tout=3 pot=on",
	}
	for in, want := range good {
		r, err := ParseRuleSet(in)
		if err != nil || r.String() != want {
			t.Errorf("ParseRuleSet(%q) = %q, %v; want %q", in, r.String(), err, want)
		}
	}
	bad := map[string]string{
		"":                           "empty",
		"skat":                       "unknown variant",
		"classic players=4":          "players=4",
		"modern players=5":           "players=5",
		"modern pack=24":             "pack=24",
		"classic pack=32":            "pack=32",
		"modern pot=on":              "pot",
		"modern tout=2":              "tout",
		"classic stakes=solo:5":      "stakes",
		"classic frage=off":          "frage",
		"modern stakes=frage:5":      "frage=off",
		"modern stakes=solo:0":       "positive",
		"modern stakes=solo":         "contract:cents",
		"modern stakes=skat:5":       "unknown contract",
		"modern colour=on":           "unknown option",
		"modern players=3 players=3": "twice",
		"modern players":             "key=value",
		"classic tout=0":             "tout=0",
		"modern frage=maybe":         "on or off",
	}
	for in, want := range bad {
		_, err := ParseRuleSet(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseRuleSet(%q): %v; want an error mentioning %q", in, err, want)
		}
	}
}

// R-DEAL-2: explicit deals: a duplicate, missing or unknown card, or a wrong count, is an error
// naming the problem.
func TestDealText_R_DEAL_2(t *testing.T) {
	t.Parallel()
	r := DefaultRules(Modern)
	d := mustDeal(t, r, dealA)
	if d.Format(r) != strings.Replace(dealA, "SA ST", "ST SA", 1) {
		t.Errorf("Format: %s", d.Format(r))
	}
	bad := map[string]string{
		strings.Replace(dealA, "C6", "C7", 1):                 "C7 appears twice in seat 0",
		strings.Replace(dealA, "S6", "CA", 1):                 "CA is dealt twice",
		strings.Replace(dealA, "C6 ", "", 1):                  "missing from the deal: C6",
		strings.Replace(dealA, "C6", "X9", 1):                 "unknown card \"X9\"",
		strings.Replace(dealA, " | DK DT DA", "", 1):          "want 3 hands and the tapp",
		strings.Replace(dealA, "| DK DT DA", "DK | DT DA", 1): "has 12 cards, want 11",
	}
	for in, want := range bad {
		_, err := ParseDeal(r, in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseDeal(%q): %v; want %q", in, err, want)
		}
	}
	r32 := mustRules(t, "modern pack=32")
	d32 := DealFromSeed(r32, 1, 1)
	withSix := d32
	withSix.Tapp = withSix.Tapp.With(NewCard(Hearts, Six))
	if err := withSix.Validate(r32); err == nil || !strings.Contains(err.Error(), "H6") || !strings.Contains(err.Error(), "32-card") {
		t.Errorf("a six in the 32-card pack: %v", err)
	}
	file := "# two deals\n\n" + dealA + "  # the first\n" + dealB + "\n"
	ds, err := ParseDeals(r, file)
	if err != nil || len(ds) != 2 || ds[1] != mustDeal(t, r, dealB) {
		t.Errorf("ParseDeals: %v %d", err, len(ds))
	}
	if crlf, err := ParseDeals(r, strings.ReplaceAll(file, "\n", "\r\n")); err != nil || len(crlf) != 2 || crlf[1] != ds[1] {
		t.Errorf("ParseDeals of the same file with CRLF line ends: %v %d", err, len(crlf))
	}
	_, err = ParseDeals(r, file+"\n"+strings.Replace(dealA, "CA", "CK", 1))
	if err == nil || !strings.HasPrefix(err.Error(), "line 6: ") {
		t.Errorf("ParseDeals error: %v", err)
	}
}

// R-DEAL-2: the PRNG is PCG-DXSM as math/rand/v2's PCG, seeded through SplitMix64.
func TestRandMatchesPCG_R_DEAL_2(t *testing.T) {
	t.Parallel()
	for _, seed := range [][2]uint64{{0, 0}, {1, 2}, {12345, 99}, {^uint64(0), 7}} {
		ours := NewRand(seed[0], seed[1])
		ref := rand.NewPCG(SplitMix64(seed[0]), SplitMix64(seed[1]^streamSalt))
		for i := 0; i < 100; i++ {
			if a, b := ours.Uint64(), ref.Uint64(); a != b {
				t.Fatalf("seed %v step %d: %x != %x", seed, i, a, b)
			}
		}
	}
	r := NewRand(3, 4)
	if got := []uint64{r.Uint64(), r.Uint64()}; got[0] != pinnedRand[0] || got[1] != pinnedRand[1] {
		t.Errorf("Rand(3,4) output changed: %x", got)
	}
	var hist [7]int
	for i := 0; i < 70000; i++ {
		hist[r.IntN(7)]++
	}
	for i, h := range hist {
		if h < 9400 || h > 10600 {
			t.Errorf("IntN(7): bucket %d has %d", i, h)
		}
	}
	if r.IntN(0) != 0 || r.IntN(-5) != 0 || r.IntN(1) != 0 {
		t.Errorf("IntN(n <= 1) must be 0")
	}
}

var pinnedRand = [2]uint64{0xde8995a7b9aa3ac0, 0x7ffbbbcf982f8e1e}
