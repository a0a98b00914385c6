package analysis

import (
	"fmt"
	"testing"

	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/engine"
)

// minimax is a plain minimax over the engine itself (its rules, its early ends, its
// settlement): the declarer's payoff when he maximises it and the defenders minimise it, or
// in Ramsch seat ramsch's final card points when it minimises them and the others maximise.
func minimax(st *engine.State, decl, ramsch engine.Seat) int {
	if st.Terminal() {
		o := st.Outcome()
		if ramsch != engine.NoSeat {
			return o.Points[ramsch]
		}
		return o.Payoff[decl]
	}
	seat := st.ToMove()
	maxi := seat == decl
	if ramsch != engine.NoSeat {
		maxi = seat != ramsch
	}
	best := 0
	first := true
	legal := st.LegalCards()
	for _, c := range legal.Cards(nil) {
		child := st.Clone()
		if err := child.Apply(engine.CardAction(c)); err != nil {
			panic(err)
		}
		v := minimax(child, decl, ramsch)
		if first || (maxi && v > best) || (!maxi && v < best) {
			best, first = v, false
		}
	}
	return best
}

// kind is a contract to test: its name, the contract and whether to announce Tout.
type kind struct {
	rules    engine.RuleSet
	contract engine.Contract
	trump    engine.Suit
	tout     bool
}

func (k kind) String() string {
	s := fmt.Sprintf("%s/%dp/%s", k.rules.Variant, k.rules.Players, k.contract)
	if k.trump != engine.NoSuit {
		s += ":" + k.trump.String()
	}
	if k.tout {
		s += "/tout"
	}
	return s
}

// everyKind lists every contract kind: modern with 4 players and Frage on (so that a
// three-trick endgame stays small), and classic for its point scoring, Solo trump and Tout.
func everyKind() []kind {
	m, err := engine.ParseRuleSet("modern players=4 frage=on")
	if err != nil {
		panic(err)
	}
	c := engine.DefaultRules(engine.Classic)
	return []kind{
		{m, engine.Frage, engine.Hearts, false},
		{m, engine.Solo, engine.Spades, false},
		{m, engine.HeartSolo, engine.Hearts, false},
		{m, engine.Bettel, engine.NoSuit, false},
		{m, engine.Rufer, engine.Clubs, false},
		{m, engine.HeartRufer, engine.Hearts, false},
		{m, engine.Ouvert, engine.NoSuit, false},
		{m, engine.Durch, engine.Diamonds, false},
		{m, engine.HeartDurch, engine.Hearts, false},
		{m, engine.Ramsch, engine.NoSuit, false},
		{c, engine.Frage, engine.Hearts, false},
		{c, engine.Solo, engine.Clubs, false},
		{c, engine.HeartSolo, engine.Hearts, false},
		{c, engine.HeartSolo, engine.Hearts, true},
	}
}

// suitedSeat is the seat whose hand suits the contract best, as bidding would choose it:
// the most trumps (then the highest), or for a null game the lowest cards.
func suitedSeat(r engine.RuleSet, d engine.Deal, k kind) engine.Seat {
	best, seat := -1<<30, engine.Seat(0)
	for s := 0; s < r.Players; s++ {
		h := d.Hands[s]
		v := 0
		for _, c := range h.Cards(nil) {
			if k.trump == engine.NoSuit {
				v -= int(c.Rank())
			} else if c.Suit() == k.trump {
				v += 100 + int(c.Rank())
			}
		}
		if v > best {
			best, seat = v, engine.Seat(s)
		}
	}
	return seat
}

// strengthen gives decl the five best cards for an every-trick contract with trump (the
// highest trumps), or for a null game (trump NoSuit) the five lowest cards, swapping them
// for his other cards, so that the contract often lasts to the endgame.
func strengthen(d engine.Deal, decl engine.Seat, trump engine.Suit) engine.Deal {
	var want []engine.Card
	if trump == engine.NoSuit {
		for r := engine.Six; len(want) < 5; r++ {
			for su := engine.Suit(0); su < engine.NumSuits && len(want) < 5; su++ {
				want = append(want, engine.NewCard(su, r))
			}
		}
	} else {
		for r := engine.Rank(engine.NumRanks - 1); len(want) < 5; r-- {
			want = append(want, engine.NewCard(trump, r))
		}
	}
	for _, c := range want {
		if d.Hands[decl].Has(c) {
			continue
		}
		// a card of decl's that is not wanted goes where c was
		give := engine.NoCard
		for _, g := range d.Hands[decl].Cards(nil) {
			keep := false
			for _, w := range want {
				keep = keep || w == g
			}
			if !keep {
				give = g
				break
			}
		}
		for s := range d.Hands {
			if d.Hands[s].Has(c) {
				d.Hands[s] = d.Hands[s].Without(c).With(give)
			}
		}
		if d.Tapp.Has(c) {
			d.Tapp = d.Tapp.Without(c).With(give)
		}
		d.Hands[decl] = d.Hands[decl].Without(give).With(c)
	}
	return d
}

// TestCardValuesAgreeWithMinimax checks the analysis' card values (Analyzer.CardValues, what
// every loss comes from) against a plain minimax over the engine on endgames of every
// contract kind: the declarer plays a par-keeping card, the defenders at random, and every
// position with few tricks left is checked card by card (R-PLAY-2, R-PLAY-4, R-PLAY-6,
// R-MOD-SETTLE-1, R-CL-SCORE-1..3, R-MOD-RAMSCH).
func TestCardValuesAgreeWithMinimax(t *testing.T) {
	t.Parallel()
	for _, k := range everyKind() {
		t.Run(k.String(), func(t *testing.T) {
			t.Parallel()
			r := k.rules
			left := 3 // tricks left in a checked endgame
			if r.Players == 4 {
				left = 2
			}
			a := NewAnalyzer(Options{})
			checked, enough := 0, shortOr(2, 6) // endgames per contract kind
			for n := 0; n < 150 && checked < enough; n++ {
				deal := engine.DealFromSeed(r, 2026, uint64(n))
				decl := suitedSeat(r, deal, k)
				if (k.contract >= engine.Bettel && k.contract != engine.Ramsch) || k.tout {
					deal = strengthen(deal, decl, k.trump)
				}
				if k.contract == engine.Ramsch {
					decl = engine.NoSeat
				}
				rnd := random.New(uint64(n))
				play := func(st *engine.State, obs *engine.Observation) engine.Action {
					if st.Decision() == engine.DecideCard && r.HandSize()-st.TricksPlayed() <= left {
						checkEndgame(t, a, st)
						checked++
					}
					if obs.Seat == decl {
						return oracle(a, func(int) int { return 0 })(st, obs)
					}
					return botDecider(rnd)(st, obs)
				}
				table := make([]seated, r.Players)
				for s := range table {
					table[s] = seated{fmt.Sprint("s", s), contractScript(decl, k.contract, k.trump, k.tout, play)}
				}
				rec := playGiven(t, r, deal, n, table)
				if got := rec.Outcome.Contract; got != k.contract {
					t.Fatalf("deal %d: the script made %s, not %s", n, got, k.contract)
				}
			}
			if checked < 6 {
				t.Errorf("only %d endgames reached in 150 deals", checked)
			}
		})
	}
}

// checkEndgame compares every legal card's value with minimax.
func checkEndgame(t *testing.T, a *Analyzer, st *engine.State) {
	t.Helper()
	vals, ok, err := a.CardValues(st)
	if err != nil || !ok {
		t.Fatalf("CardValues: ok %v, %v", ok, err)
	}
	r := st.Rules()
	seat := st.ToMove()
	ramsch := engine.NoSeat
	if st.Contract() == engine.Ramsch {
		ramsch = seat
	}
	for _, v := range vals {
		child := st.Clone()
		if err := child.Apply(engine.CardAction(v.Card)); err != nil {
			t.Fatal(err)
		}
		m := minimax(child, st.Declarer(), ramsch)
		var want float64
		switch {
		case ramsch != engine.NoSeat:
			if v.Value != m {
				t.Errorf("Ramsch, %s plays %s: own points %d, minimax %d", seat, v.Card, v.Value, m)
			}
			continue
		case seat == st.Declarer():
			want = float64(m)
		default:
			want = -float64(m) / float64(r.Players-1)
		}
		if v.Payoff != want {
			t.Errorf("%s, %s (declarer %s) plays %s: payoff %v, minimax %v", st.Contract(), seat, st.Declarer(), v.Card, v.Payoff, want)
		}
	}
}

// scriptedTable seats decl as the declarer of c (everyone else passes), the heuristic bot
// playing the cards.
func scriptedTable(r engine.RuleSet, decl engine.Seat, c engine.Contract, trump engine.Suit) []seated {
	h := botDecider(heuristic.New())
	table := make([]seated, r.Players)
	for s := range table {
		table[s] = seated{fmt.Sprint("s", s), contractScript(decl, c, trump, false, h)}
	}
	return table
}

func mustDeal(t *testing.T, r engine.RuleSet, text string) engine.Deal {
	t.Helper()
	d, err := engine.ParseDeal(r, text)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestParOfCraftedDeals: deals whose par is known by hand (R-MOD-DURCH, R-MOD-BETTEL,
// R-MOD-SETTLE-1).
func TestParOfCraftedDeals(t *testing.T) {
	t.Parallel()
	r := engine.DefaultRules(engine.Modern)
	cases := []struct {
		name     string
		deal     string
		decl     engine.Seat
		contract engine.Contract
		trump    engine.Suit
		made     bool
	}{
		// every club and the two other aces: nobody can take a trick from him
		{"durch with every trump and ace", "CA CT CK CQ CJ C9 C8 C7 C6 SA HA | ST SK SQ SJ S9 S8 HT HK HQ HJ H9 | S7 S6 H8 H7 H6 DA DT DK DQ DJ D9 | D8 D7 D6",
			0, engine.Durch, engine.Clubs, true},
		// the lowest cards of every suit: he can always play under
		{"bettel with the lowest cards", "CA CT CK SA ST SK HA HT HK DA DT | C8 C7 C6 S8 S7 S6 H8 H7 H6 D7 D6 | CQ CJ C9 SQ SJ S9 HQ HJ H9 DK DQ | DJ D9 D8",
			1, engine.Bettel, engine.NoSuit, true},
		// the same hand cannot take every trick
		{"durch with the lowest cards", "CA CT CK SA ST SK HA HT HK DA DT | C8 C7 C6 S8 S7 S6 H8 H7 H6 D7 D6 | CQ CJ C9 SQ SJ S9 HQ HJ H9 DK DQ | DJ D9 D8",
			1, engine.Durch, engine.Clubs, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			deal := mustDeal(t, r, tc.deal)
			rec := playGiven(t, r, deal, 0, scriptedTable(r, tc.decl, tc.contract, tc.trump))
			d, err := NewAnalyzer(Options{}).Analyze(r, rec)
			if err != nil {
				t.Fatal(err)
			}
			if d.Declarer != int(tc.decl) || d.Par == nil {
				t.Fatalf("declarer %d, par %v; want declarer %d and a par", d.Declarer, d.Par, tc.decl)
			}
			stake := float64(r.Stakes[tc.contract] * (r.Players - 1))
			want := stake
			if !tc.made {
				want = -stake
			}
			if d.Par.Made != tc.made || d.Par.Payoff != want {
				t.Errorf("par made %v payoff %v, want made %v payoff %v", d.Par.Made, d.Par.Payoff, tc.made, want)
			}
		})
	}
}

// TestParCardPointsOfASoloThatTakesEverything: a Solo declarer holding every trump and ace
// takes every trick: par is all 120 card points, within the tolerance in modern and exactly
// in classic (R-CARD-2, R-MOD-SOLO, R-CL-SCORE-2). With -short, classic only.
func TestParCardPointsOfASoloThatTakesEverything(t *testing.T) {
	t.Parallel()
	text := "CA CT CK CQ CJ C9 C8 C7 C6 SA HA | ST SK SQ SJ S9 S8 HT HK HQ HJ H9 | S7 S6 H8 H7 H6 DA DT DK DQ DJ D9 | D8 D7 D6"
	variants := []engine.Variant{engine.Modern, engine.Classic}
	if testing.Short() {
		variants = variants[1:]
	}
	for _, v := range variants {
		r := engine.DefaultRules(v)
		deal := mustDeal(t, r, text)
		rec := playGiven(t, r, deal, 0, scriptedTable(r, 0, engine.Solo, engine.Clubs))
		d, err := NewAnalyzer(Options{}).Analyze(r, rec)
		if err != nil {
			t.Fatal(err)
		}
		p := d.Par
		if p == nil || p.CardPoints == nil || !p.Made || p.CardPointsHigh != 120 || p.CardPointsLow < 120-ParTolerance {
			t.Fatalf("%s: par %+v, want made with 120 card points", v, p)
		}
		if v == engine.Classic && (*p.CardPoints != 120 || p.Payoff != 2*30) {
			t.Errorf("classic: par %d points, payoff %v; want 120 and 2 × ⌈60/2⌉ = 60", *p.CardPoints, p.Payoff)
		}
	}
}

// TestBiddingRegretOfAPassedDurch: a seat that passes with a hand that makes Durch regrets
// the whole Durch (R-MOD-DURCH, R-MOD-SETTLE-1); with determinized values the regret is
// reproducible and never negative.
func TestBiddingRegretOfAPassedDurch(t *testing.T) {
	t.Parallel()
	r := engine.DefaultRules(engine.Modern)
	deal := mustDeal(t, r, "CA CT CK CQ CJ C9 C8 C7 C6 SA HA | ST SK SQ SJ S9 S8 HT HK HQ HJ H9 | S7 S6 H8 H7 H6 DA DT DK DQ DJ D9 | D8 D7 D6")
	rec := playGiven(t, r, deal, 0, scriptedTable(r, 1, engine.Solo, engine.Spades))
	d, err := NewAnalyzer(Options{}).Analyze(r, rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Bidding) != 3 {
		t.Fatalf("bidding regrets of %d seats, want 3: %+v", len(d.Bidding), d.Bidding)
	}
	b := d.Bidding[0]
	if b.Did != "passed" || b.Best != "durch:C" || b.BestValue != 60 || b.Regret != 60 {
		t.Errorf("seat 0: %+v; want passed, best durch:C worth 60, regret 60", b)
	}
	if got := d.Bidding[1]; d.Par == nil || got.DidValue != d.Par.Payoff || got.Regret != got.BestValue-got.DidValue {
		t.Errorf("declarer: %+v; want his par %+v as what he did, the regret best minus that", got, d.Par)
	}
	var regrets [2][]float64
	for i := range regrets {
		ds, err := NewAnalyzer(Options{BidSamples: 3, Seed: 3}).Analyze(r, rec)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range ds.Bidding {
			if b.Regret < 0 {
				t.Errorf("negative regret %+v", b)
			}
			regrets[i] = append(regrets[i], b.Regret)
		}
	}
	if fmt.Sprint(regrets[0]) != fmt.Sprint(regrets[1]) {
		t.Errorf("determinized regrets differ between runs: %v, %v", regrets[0], regrets[1])
	}
}
