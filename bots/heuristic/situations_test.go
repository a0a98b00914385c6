package heuristic

import (
	"context"
	"testing"

	"github.com/tapparena/tapp/engine"
)

// setup starts a deal of the rule set given as text from an explicit deal in card notation
// (hands in seat order, then the tapp) and applies the moves given in action notation.
func setup(t *testing.T, rules, deal string, opts engine.Options, moves ...string) *engine.State {
	t.Helper()
	r, err := engine.ParseRuleSet(rules)
	if err != nil {
		t.Fatal(err)
	}
	d, err := engine.ParseDeal(r, deal)
	if err != nil {
		t.Fatal(err)
	}
	s, err := engine.NewState(r, d, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves {
		a, err := engine.ParseAction(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Apply(a); err != nil {
			t.Fatalf("move %s by seat %s: %v", m, s.ToMove(), err)
		}
	}
	return s
}

// ask returns the heuristic's answer for the seat to move.
func ask(t *testing.T, s *engine.State) engine.Action {
	t.Helper()
	obs := s.Observe(s.ToMove())
	a, err := New().Decide(context.Background(), &obs)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(a); err != nil {
		t.Fatalf("answer %s is illegal: %v", a, err)
	}
	return a
}

func want(t *testing.T, got engine.Action, want ...string) {
	t.Helper()
	for _, w := range want {
		a, err := engine.ParseAction(w)
		if err != nil {
			t.Fatal(err)
		}
		if got == a {
			return
		}
	}
	t.Errorf("got %s, want one of %v", got, want)
}

// Modern bidding: seat 1 speaks first in round one, forehand last (R-MOD-BID-1).

// A defender smears an ace on a trick his fellow defender wins when nobody after him can beat
// it; when the declarer still plays after him he plays low instead (R-PLAY-2, R-MOD-SOLO).
func TestDefenderSmearsAceOnPartnersTrick(t *testing.T) {
	t.Parallel()
	const deal = "HA HT HK HQ HJ H9 S7 S8 C6 C7 D6 | SA ST SK SQ SJ S9 H6 H7 H8 C8 D7 | CA CK CQ CJ C9 DA DK DQ DJ D9 D8 | S6 CT DT"
	// Seat 0 plays Heart Solo and leads S7; seat 1 wins with SA; seat 2, void in spades and
	// hearts, plays last.
	s := setup(t, "modern", deal, engine.Options{}, "pass", "pass", "play", "heartsolo", "S7", "SA")
	got := ask(t, s)
	if got.Card.Rank() != engine.Ace {
		t.Errorf("last defender on partner's SA: got %s, want an ace smeared", got)
	}
	// Next trick: seat 1 leads SK, the declarer plays after seat 2 and might beat it: play low.
	if err := s.Apply(got); err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(engine.CardAction(mustCard(t, "SK"))); err != nil {
		t.Fatal(err)
	}
	if got := ask(t, s); got.Card.Points() != 0 {
		t.Errorf("second hand with the declarer still to play: got %s, want a card without points", got)
	}
}

// A declarer with five trumps headed by the ace draws trumps at once; without the top trump he
// leads a low one (R-MOD-SOLO).
func TestDeclarerWithFiveTrumpsLeadsTrump(t *testing.T) {
	t.Parallel()
	s := setup(t, "modern", "CA CT CK C9 C8 SA S7 HA H7 D7 D8 | C7 C6 SK SQ SJ S9 H6 H8 H9 D6 D9 | CQ CJ ST S8 S6 HT HK HQ DA DT DK | HJ DQ DJ",
		engine.Options{}, "pass", "pass", "play", "solo:C")
	want(t, ask(t, s), "CA")

	s = setup(t, "modern", "CK CQ CJ C9 C8 SA S7 HA H7 D7 D8 | C7 C6 SK SQ SJ S9 H6 H8 H9 D6 D9 | CA CT ST S8 S6 HT HK HQ DA DT DK | HJ DQ DJ",
		engine.Options{}, "pass", "pass", "play", "solo:C")
	want(t, ask(t, s), "C8")
}

// A defender follows with the lowest card that wins the trick: ST over the declarer's SK,
// keeping SA (R-PLAY-3: no duty to beat, but the trick is worth taking).
func TestFollowsWithLowestWinningCard(t *testing.T) {
	t.Parallel()
	s := setup(t, "modern", "CA CT CK C9 C8 SK S7 HA H7 D7 D8 | SA ST SQ C7 C6 H6 H8 H9 D6 D9 S9 | CQ CJ SJ S8 S6 HT HK HQ DA DT DK | HJ DQ DJ",
		engine.Options{}, "pass", "pass", "play", "solo:C", "SK")
	want(t, ask(t, s), "ST")
}

// Bettel declarer: void in the suit led, he throws his most dangerous card, the bare-standing
// SA; following suit he plays the highest card still under the trick (R-MOD-BETTEL).
func TestBettelDeclarerDiscardsDangerousCard(t *testing.T) {
	t.Parallel()
	const deal = "CA CT CK CQ CJ SQ ST HA HT HK D8 | S6 SK SA H6 H7 H8 H9 D6 D7 D9 DJ | C6 C7 C8 C9 S7 S8 S9 SJ HQ HJ DA | DQ DK DT"
	s := setup(t, "modern", deal, engine.Options{}, "play", "pass", "pass", "bettel", "CA")
	want(t, ask(t, s), "SA")

	s = setup(t, "modern", deal, engine.Options{}, "play", "pass", "pass", "bettel", "HT")
	want(t, ask(t, s), "H9")
}

// Bettel defender on lead: a low card of a suit the declarer has shown he holds, not a suit
// he is void in.
func TestBettelDefenderLeadsLowInDeclarersSuit(t *testing.T) {
	t.Parallel()
	const deal = "CA CT CK CQ CJ SQ ST HA HT HK D8 | S6 SK SA H6 H7 H8 H9 D6 D7 D9 DJ | C6 C7 C8 C9 S7 S8 S9 SJ HQ HJ DA | DQ DK DT"
	// Trick 1: clubs, the declarer (seat 1) discards; seat 0 wins and leads again.
	s := setup(t, "modern", deal, engine.Options{}, "play", "pass", "pass", "bettel", "CJ", "SA", "C6")
	got := ask(t, s)
	if got.Card.Suit() == engine.Clubs {
		t.Errorf("lead %s into the declarer's void, want a suit he holds", got)
	}
	if got.Card.Rank() > engine.Queen {
		t.Errorf("lead %s, want a low card", got)
	}
}

// Ramsch: void in the suit led, dump the card with most points; following, duck under the
// trick with the highest card that does (R-MOD-RAMSCH).
func TestRamschDumpsPointsAndDucks(t *testing.T) {
	t.Parallel()
	const deal = "C6 C7 C8 S6 S7 S8 H6 H7 D6 D7 D8 | CA CT CK SA ST SK DA DT DK DQ DJ | C9 CJ CQ S9 H8 H9 HJ HQ HK HT HA | SJ SQ D9"
	// Seat 0 leads H6; seat 1 has no heart (R-SESSION-3 forced Ramsch: no bidding).
	s := setup(t, "modern", deal, engine.Options{ForcedRamsch: true}, "H6")
	want(t, ask(t, s), "CA", "SA", "DA")

	// Seat 0 leads C8; seat 1 holds CA CT CK (all above it): it cannot duck, so lowest card.
	s = setup(t, "modern", deal, engine.Options{ForcedRamsch: true}, "C8")
	want(t, ask(t, s), "CK")
	// Seat 2 after CK: ducks with CQ, the highest card under it.
	if err := s.Apply(engine.CardAction(mustCard(t, "CK"))); err != nil {
		t.Fatal(err)
	}
	want(t, ask(t, s), "CQ")
}

// Bidding by hand strength: a very strong heart hand says play and names Heart Solo (modern)
// or bids it in the auction (classic); a weak hand passes (R-MOD-BID-1, R-AUCTION).
func TestBidsHeartSoloWithStrongHeartsPassesWeak(t *testing.T) {
	t.Parallel()
	const strong = "C6 C7 C8 S6 S7 S8 S9 SQ D7 D8 D9 | HA HT HK HQ H9 H7 CA CT SA DK D6 | CQ CJ C9 CK SJ SK ST HJ H8 H6 DA | DT DQ DJ"
	s := setup(t, "modern", strong, engine.Options{})
	want(t, ask(t, s), "play")
	s = setup(t, "modern", strong, engine.Options{}, "play", "pass", "pass")
	want(t, ask(t, s), "heartsolo")

	// Classic: seat 1 holds the strong hand; forehand (seat 0) passes first.
	s = setup(t, "classic", strong, engine.Options{}, "pass")
	want(t, ask(t, s), "heartsolo")

	const weak = "C6 C8 CJ S6 S7 S9 ST H6 H8 D7 D8 | CK C9 C7 SQ SJ S8 HQ H9 H7 DK DQ | CA CT CQ SA SK HA HT HK DA DT D9 | HJ DJ D6"
	s = setup(t, "modern", weak, engine.Options{})
	want(t, ask(t, s), "pass")
	s = setup(t, "classic", weak, engine.Options{}, "pass")
	want(t, ask(t, s), "pass")
}

func mustCard(t *testing.T, text string) engine.Card {
	t.Helper()
	c, err := engine.ParseCard(text)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Frage lay-away: the bare ST goes first (the laid-away points count for the declarer), and
// no trump is ever laid away; with that hand no Tout (R-MOD-FRAGE, R-CL-ORDER).
func TestFrageLaysAwayBareTenKeepsTrumps(t *testing.T) {
	t.Parallel()
	const deal = "HA HK HQ H9 H8 H7 ST CK C7 DA D9 | C6 C8 C9 CJ CQ CT CA S6 S7 S8 S9 | SQ SK SA HT HJ D6 D7 DJ DQ DK DT | D8 SJ H6"
	s := setup(t, "classic", deal, engine.Options{}, "frage", "pass", "pass")
	got := ask(t, s)
	want(t, got, "discard:ST")
	for s.Decision() == engine.DecideDiscard {
		a := ask(t, s)
		if a.Card.Suit() == engine.Hearts {
			t.Errorf("laid away trump %s", a)
		}
		if err := s.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	if h := s.Hand(0).OfSuit(engine.Hearts).Len(); h != 7 {
		t.Errorf("after the lay-away the declarer keeps %d hearts, want all 7", h)
	}
	want(t, ask(t, s), "notout")
}

// Tout only with an overwhelming hand: every trump can be drawn and every side card stands
// (R-CL-TOUT).
func TestToutWithOverwhelmingHand(t *testing.T) {
	t.Parallel()
	const deal = "HA HT HK HQ HJ H9 H8 CA CT SA DA | CK CQ CJ C9 C8 C7 C6 ST SK SQ SJ | S9 S8 S7 S6 H7 H6 DT DK DQ DJ D9 | D8 D7 D6"
	s := setup(t, "classic", deal, engine.Options{}, "heartsolo", "pass", "pass")
	want(t, ask(t, s), "tout")
	s = setup(t, "wuerttemberg", deal, engine.Options{}, "solo", "pass", "pass")
	want(t, ask(t, s), "tout")
}

// Rufer: call the highest missing trump, then give away the card that would lose a trick
// (R-MOD-RUFER).
func TestRuferCallsMissingTrumpGivesLoser(t *testing.T) {
	t.Parallel()
	const deal = "C7 C6 SQ SJ S9 S8 S7 S6 H6 H7 H8 | CA CK CQ CJ C9 C8 SA ST SK DA D7 | CT HA HT HK HQ HJ H9 DT DK DQ DJ | D9 D8 D6"
	s := setup(t, "modern", deal, engine.Options{}, "play", "pass", "pass", "rufer:C")
	want(t, ask(t, s), "call:CT")
	s = setup(t, "modern", deal, engine.Options{}, "play", "pass", "pass", "rufer:C", "call:CT")
	want(t, ask(t, s), "give:D7")
}

// Classic Solo: the trump named is the longest, strongest suit (R-CL-ORDER).
func TestClassicSoloNamesLongestSuit(t *testing.T) {
	t.Parallel()
	const deal = "SA ST SK SQ S9 S7 CA C6 D7 H6 H7 | CK CQ CJ C9 C8 C7 CT SJ S8 S6 HA | HT HK HQ HJ H9 H8 DA DT DK DQ DJ | D9 D8 D6"
	s := setup(t, "classic", deal, engine.Options{}, "solo", "pass", "pass")
	want(t, ask(t, s), "trump:S")
}
