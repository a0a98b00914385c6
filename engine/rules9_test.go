package engine

import (
	"strings"
	"testing"
)

// TAPP-RULES.md §9: the rule tests every implementation keeps. One test per group; each
// names the group and the rule ids it checks.

const (
	modern   = "modern"
	modernF  = "modern frage=on"
	classic  = "classic"
	wuerttbg = "wuerttemberg"
)

// §9.1 R-CARD-1, R-CARD-2, R-CARD-4, R-DEAL-1, R-DEAL-2.
func TestPack_S9_1_R_CARD_2_R_DEAL_1_R_DEAL_2(t *testing.T) {
	t.Parallel()
	if FullPack36.Len() != 36 || FullPack36.Points() != 120 {
		t.Fatalf("R-CARD-2: 36-card pack has %d cards, %d points", FullPack36.Len(), FullPack36.Points())
	}
	if FullPack32.Len() != 32 || FullPack32.Points() != 120 {
		t.Fatalf("R-CARD-4: 32-card pack has %d cards, %d points", FullPack32.Len(), FullPack32.Points())
	}
	tests := []struct {
		rules      string
		hand, tapp int
	}{
		{"modern", 11, 3},
		{"modern players=4", 8, 4},
		{"modern pack=32", 10, 2},
		{"modern players=4 pack=32", 7, 4},
		{"classic", 11, 3},
		{"wuerttemberg", 11, 3},
	}
	for _, tc := range tests {
		r := mustRules(t, tc.rules)
		for i := uint64(0); i < 50; i++ {
			d := DealFromSeed(r, 42, i)
			if err := d.Validate(r); err != nil {
				t.Fatalf("%s deal %d: %v", tc.rules, i, err)
			}
			for s := 0; s < r.Players; s++ {
				if d.Hands[s].Len() != tc.hand {
					t.Fatalf("R-DEAL-1 %s: hand %d has %d cards, want %d", tc.rules, s, d.Hands[s].Len(), tc.hand)
				}
			}
			if d.Tapp.Len() != tc.tapp {
				t.Fatalf("R-DEAL-1 %s: tapp has %d cards, want %d", tc.rules, d.Tapp.Len(), tc.tapp)
			}
			if d != DealFromSeed(r, 42, i) {
				t.Fatalf("R-DEAL-2 %s: deal %d does not repeat", tc.rules, i)
			}
			if d == DealFromSeed(r, 43, i) || d == DealFromSeed(r, 42, i+1000) {
				t.Fatalf("R-DEAL-2 %s: different seeds or numbers give the same deal", tc.rules)
			}
			if got, err := ParseDeal(r, d.Format(r)); err != nil || got != d {
				t.Fatalf("R-DEAL-2 %s: Format/ParseDeal round trip: %v", tc.rules, err)
			}
		}
	}
	// The packet order of R-DEAL-1 is visible in a fixed seed: pinned so deals never change.
	r := DefaultRules(Modern)
	if got, want := DealFromSeed(r, 1, 0).Format(r), pinnedDeal; got != want {
		t.Fatalf("R-DEAL-2: seeded deal changed:\n got %s\nwant %s", got, want)
	}
}

// pinnedDeal is DealFromSeed(DefaultRules(Modern), 1, 0): it must never change.
const pinnedDeal = "C8 C9 CJ CT SQ SA H9 HK HA D9 DA | C6 C7 CQ CK SK H6 H7 H8 HT D6 DJ | CA S7 S8 S9 ST HJ HQ D7 D8 DQ DK | S6 SJ DT"

// §9.2 R-PLAY-1, R-MOD-OUVERT: forehand leads to the first trick in every contract but Bettel
// Ouvert, where the declarer leads.
func TestFirstLead_S9_2_R_PLAY_1_R_MOD_OUVERT(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rules, moves string
		lead         Seat
	}{
		{modern, "1:play 2:pass 0:pass 1:solo:S", 0},
		{modern, "1:play 2:pass 0:pass 1:heartsolo", 0},
		{modern, "1:play 2:pass 0:pass 1:bettel", 0},
		{modern, "1:play 2:pass 0:pass 1:rufer:S 1:call:HA 1:give:S6", 0},
		{modern, "1:play 2:pass 0:pass 1:heartrufer 1:call:DK", 0},
		{modern, "1:play 2:pass 0:pass 1:ouvert", 1},
		{modern, "1:pass 2:play 0:pass 2:ouvert", 2},
		{modern, "1:play 2:pass 0:pass 1:durch:D", 0},
		{modern, "1:play 2:pass 0:pass 1:heartdurch", 0},
		{modern, "1:pass 2:pass 0:pass", 0},
		{modernF, "1:play 2:pass 0:pass 1:frage 1:discard:S6 1:discard:S7 1:discard:S8", 0},
		{classic, "0:pass 1:frage 2:pass 1:discard:S6 1:discard:S7 1:discard:S8 1:notout", 0},
		{classic, "0:pass 1:solo 2:pass 1:trump:S 1:notout", 0},
		{classic, "0:pass 1:heartsolo 2:pass 1:tout", 0},
		{wuerttbg, "0:pass 1:solo 2:pass 1:notout", 0},
	}
	for _, tc := range tests {
		s := newGame(t, tc.rules, dealA, tc.moves)
		if s.Decision() != DecideCard || s.ToMove() != tc.lead {
			t.Errorf("%s %q: decision %s, to move %s; want card, %s", tc.rules, tc.moves, s.Decision(), s.ToMove(), tc.lead)
		}
	}
}

// §9.3 R-PLAY-2, R-PLAY-3: follow suit; void → trump if there is one and you hold one;
// Bettel and Ramsch only follow suit; void in both → anything.
func TestLegalCards_S9_3_R_PLAY_2(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, rules, moves string
		want               string // legal cards of the seat to move
	}{
		{"follow suit", modern, "1:play 2:pass 0:pass 1:solo:D 0:SA", "S6 S7 S8 S9 SJ SQ SK"},
		{"no duty to beat (R-PLAY-3)", modern, "1:play 2:pass 0:pass 1:solo:D 0:ST", "S6 S7 S8 S9 SJ SQ SK"},
		{"void: must trump", modern, "1:pass 2:play 0:pass 2:solo:D 0:CA 1:S6", "D6 D7 D8 D9 DJ DQ"},
		{"void in suit and trump: anything", modern, "1:pass 2:play 0:pass 2:solo:D 0:CA", "S6 S7 S8 S9 SJ SQ SK H6 H7 H8 H9"},
		{"heart trump", modern, "1:play 2:pass 0:pass 1:heartsolo 0:CA", "H6 H7 H8 H9"},
		{"bettel: no trump, anything", modern, "1:play 2:pass 0:pass 1:bettel 0:CA", "S6 S7 S8 S9 SJ SQ SK H6 H7 H8 H9"},
		{"ramsch: no trump, anything", modern, "1:pass 2:pass 0:pass 0:CA 1:H6", "HJ HQ HK HT HA D6 D7 D8 D9 DJ DQ"},
		{"ramsch: follow suit", modern, "1:pass 2:pass 0:pass 0:CA 1:H6 2:D6 0:C6 1:S6 2:DQ 0:SA", "S7 S8 S9 SJ SQ SK"},
		{"lead: anything", modern, "1:play 2:pass 0:pass 1:solo:D", "C6 C7 C8 C9 CJ CQ CK CT CA SA ST"},
		{"trump led: follow with trump", classic, "0:pass 1:pass 2:heartsolo 2:notout 0:SA 1:S6 2:HA 2:HJ 0:C6", "H6 H7 H8 H9"},
	}
	for _, tc := range tests {
		s := newGame(t, tc.rules, dealA, tc.moves)
		if got, want := s.LegalCards(), mustCards(t, tc.want); got != want {
			t.Errorf("%s: legal %s, want %s", tc.name, got, want)
		}
		var legal CardSet
		for _, a := range s.LegalActions(nil) {
			legal = legal.With(a.Card)
			if err := s.Check(a); err != nil {
				t.Errorf("%s: listed %s but Check says %v", tc.name, a, err)
			}
		}
		if legal != s.LegalCards() {
			t.Errorf("%s: LegalActions %s, LegalCards %s", tc.name, legal, s.LegalCards())
		}
	}
	s := newGame(t, modern, dealA, "1:play 2:pass 0:pass 1:solo:D 0:SA")
	wantRuleErr(t, s, "H6", "R-PLAY-2")
	wantRuleErr(t, s, "CA", "R-PLAY-2")
	s = newGame(t, modern, dealA, "1:pass 2:play 0:pass 2:solo:D 0:CA 1:S6")
	wantRuleErr(t, s, "HA", "R-PLAY-2")
	if err := s.Check(CardAction(mustCard(t, "HA"))); err == nil || !strings.Contains(err.Error(), "trump") {
		t.Errorf("R-PLAY-2: want a must-trump error, got %v", err)
	}
}

// §9.4 R-PLAY-4: a low trump beats a led ace; an off-suit ace loses to a led six; ten beats king.
func TestTrickWinner_S9_4_R_PLAY_4(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, rules, deal, moves string
		winner                   Seat
	}{
		{"low trump beats led ace", modern, dealA, "1:pass 2:play 0:pass 2:solo:D 0:CA 1:S6 2:D6", 2},
		{"off-suit ace loses to led six", modern, dealA, "1:pass 2:pass 0:pass 0:C6 1:SK 2:HA", 0},
		{"ten beats king", modern, dealA, "1:pass 2:play 0:pass 2:bettel 0:ST 1:SK 2:D6", 0},
		{"higher trump wins", modern, dealB, "1:pass 2:play 0:pass 2:heartsolo 0:H6 1:HK 2:HQ", 1},
		{"trump over trump", modern, dealB, "1:play 2:pass 0:pass 1:heartsolo 0:HT 1:HA 2:HJ", 1},
	}
	for _, tc := range tests {
		s := newGame(t, tc.rules, tc.deal, tc.moves)
		o := s.Observe(0)
		if len(o.Tricks) != 1 || o.Tricks[0].Winner != tc.winner {
			t.Errorf("%s: tricks %+v, want winner %s", tc.name, o.Tricks, tc.winner)
		}
		if s.ToMove() != tc.winner && !s.Terminal() {
			t.Errorf("%s: R-PLAY-4: winner %s should lead, %s to move", tc.name, tc.winner, s.ToMove())
		}
	}
}

// §9.5 R-MOD-FRAGE, R-CL-ORDER, R-INFO-2: hand size after take-up, lay-away count, the
// lay-away counts for the declarer, nobody else observes the tapp or the lay-away.
func TestFrage_S9_5_R_MOD_FRAGE_R_INFO_2(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rules, deal, bid string
		hand, away       int
		discards         string
	}{
		{modernF, dealA, "1:play 2:pass 0:pass 1:frage", 14, 3, "DK DT S6"},
		{classic, dealA, "0:pass 1:frage 2:pass", 14, 3, "DA DT DK"},
		{wuerttbg, dealA, "0:pass 1:frage 2:pass", 14, 3, "S6 S7 DA"},
		{"modern players=4 frage=on", dealC, "1:play 2:pass 3:pass 0:pass 1:frage", 12, 4, "C6 S6 H6 D6"},
	}
	for _, tc := range tests {
		s := newGame(t, tc.rules, tc.deal, tc.bid)
		d := s.Declarer()
		tapp := s.Deal().Tapp
		if s.Decision() != DecideDiscard || s.Hand(d).Len() != tc.hand {
			t.Fatalf("%s: after take-up: decision %s, hand %d; want discard, %d", tc.rules, s.Decision(), s.Hand(d).Len(), tc.hand)
		}
		if o := s.Observe(d); o.Tapp != tapp || !o.Hand.Has(tapp.Lowest()) {
			t.Fatalf("%s: the declarer must see the tapp", tc.rules)
		}
		discards := mustCards(t, tc.discards)
		for _, c := range discards.Cards(nil) {
			wantRuleErr(t, s, "HA", ruleFor(tc.rules))
			play(t, s, d.String()+":discard:"+c.String())
		}
		if s.Hand(d).Len() != tc.hand-tc.away {
			t.Fatalf("%s: hand after lay-away %d", tc.rules, s.Hand(d).Len())
		}
		if s.Decision() == DecideTout {
			play(t, s, d.String()+":notout")
		}
		for !s.Terminal() {
			checkHidden(t, s, d, tapp|discards)
			if err := s.Apply(s.LegalActions(nil)[0]); err != nil {
				t.Fatal(err)
			}
		}
		o := s.Outcome()
		tricks := 0
		for _, tr := range s.Observe(d).Tricks {
			if tr.Winner == d {
				tricks += tr.Points
			}
		}
		if o.Points[d] != tricks+discards.Points() {
			t.Errorf("%s: declarer credited %d, want tricks %d + lay-away %d", tc.rules, o.Points[d], tricks, discards.Points())
		}
		total := 0
		for _, p := range o.Points {
			total += p
		}
		if total != 120 {
			t.Errorf("%s: points sum to %d", tc.rules, total)
		}
		if ob := s.Observe(0); ob.Discards != discards || ob.Reveal == nil || ob.Reveal.Tapp != tapp {
			t.Errorf("%s: R-INFO-4: the end reveals the tapp and lay-away", tc.rules)
		}
	}
}

func ruleFor(rules string) string {
	if strings.HasPrefix(rules, "modern") {
		return "R-MOD-FRAGE"
	}
	return "R-CL-ORDER"
}

// checkHidden fails if any seat but except observes a card of hidden that it neither holds
// nor has seen played.
func checkHidden(t testing.TB, s *State, except Seat, hidden CardSet) {
	t.Helper()
	for seat := Seat(0); seat < Seat(s.Rules().Players); seat++ {
		if seat == except {
			continue
		}
		o := s.Observe(seat)
		var seen CardSet
		for _, p := range o.Played {
			seen |= p
		}
		secret := hidden &^ seen &^ o.Dealt
		if leak := observedCards(o) & secret; leak != 0 {
			t.Fatalf("seat %s observes hidden %s", seat, leak)
		}
		for _, e := range s.EventsFor(seat, 0) {
			if leak := eventCards(e) & secret; leak != 0 && e.Kind != EvDealEnd {
				t.Fatalf("seat %s event %s shows hidden %s", seat, e, leak)
			}
		}
	}
}

// observedCards is every card an observation mentions.
func observedCards(o Observation) CardSet {
	set := o.Hand | o.Dealt | o.Tapp | o.Discarded | o.Exposed | o.Discards
	add := func(c Card) {
		if c.Valid() {
			set = set.With(c)
		}
	}
	add(o.Called)
	add(o.Given)
	for _, m := range o.History {
		add(m.Action.Card)
	}
	for _, a := range o.Legal {
		if a.Kind != ActCall { // a callable card names a card, not where it lies
			add(a.Card)
		}
	}
	for _, tr := range append(o.Tricks, o.Current) {
		for _, c := range tr.Cards {
			add(c)
		}
	}
	for _, p := range o.Played {
		set |= p
	}
	if o.Reveal != nil {
		set |= o.Reveal.Tapp
		for _, h := range o.Reveal.Hands {
			set |= h
		}
	}
	return set
}

func eventCards(e Event) CardSet {
	set := e.Cards | e.Discards
	for _, h := range e.Hands {
		set |= h
	}
	if e.Card.Valid() {
		set = set.With(e.Card)
	}
	if e.Action.Card.Valid() {
		set = set.With(e.Action.Card)
	}
	return set
}

// §9.6 R-MOD-SOLO, R-INFO-4: the tapp is never observed before the end; its points count for
// the declarer.
func TestSolo_S9_6_R_MOD_SOLO(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ rules, moves string }{
		{modern, "1:play 2:pass 0:pass 1:solo:S"},
		{modern, "1:pass 2:play 0:pass 2:heartsolo"},
		{classic, "0:pass 1:solo 2:pass 1:trump:S 1:notout"},
		{classic, "0:pass 1:heartsolo 2:pass 1:notout"},
		{wuerttbg, "0:solo 1:pass 2:pass 0:notout"},
	} {
		s := newGame(t, tc.rules, dealB, tc.moves)
		d := s.Declarer()
		tapp := s.Deal().Tapp
		for !s.Terminal() {
			checkHidden(t, s, NoSeat, tapp)
			if err := s.Apply(s.LegalActions(nil)[0]); err != nil {
				t.Fatal(err)
			}
		}
		o := s.Outcome()
		tricks := 0
		for _, tr := range s.Observe(d).Tricks {
			if tr.Winner == d {
				tricks += tr.Points
			}
		}
		if o.Points[d] != tricks+tapp.Points() {
			t.Errorf("%s: declarer credited %d, want %d + tapp %d", tc.rules, o.Points[d], tricks, tapp.Points())
		}
	}
}

// scored builds a finished deal with given declarer points and settles it (the scoring table
// of R-MOD-SETTLE-1, R-CL-SCORE-*, R-WT-*).
func scored(t testing.TB, rules string, c Contract, declPoints int, tout, allTricks bool, pot int) Outcome {
	t.Helper()
	r := mustRules(t, rules)
	s, err := NewState(r, DealFromSeed(r, 1, 1), Options{Pot: pot})
	if err != nil {
		t.Fatal(err)
	}
	s.declarer, s.contract, s.tout = 1, c, tout
	s.deal.Tapp = 0
	s.points = [MaxPlayers]int{0, declPoints, 120 - declPoints}
	s.taken = [MaxPlayers]int{3, 5, 3}
	if allTricks {
		s.taken = [MaxPlayers]int{0, int(s.handSize), 0}
	}
	s.nTricks = s.handSize
	s.finish()
	o := s.Outcome()
	if sumPayoff(o) != 0 {
		t.Fatalf("R-MOD-SETTLE-1: payoff %v pot %d→%d does not sum to zero", o.Payoff, o.PotBefore, o.PotAfter)
	}
	return o
}

// §9.7 R-MOD-SOLO, R-CL-SCORE-1, R-CL-SCORE-2, R-CL-SCORE-3, R-WT-SCORE-1, R-WT-TOUT: 61 wins,
// 60 loses in modern; 60–60 is a draw in classic and wuerttemberg; ⌈s/4⌉, ⌈s/2⌉, s.
func TestScoring_S9_7_R_CL_SCORE(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		rules    string
		contract Contract
		points   int
		tout     bool
		all      bool
		decl     int // declarer's payoff (3 players: each defender pays half of it)
		won      bool
		draw     bool
	}{
		{"modern solo 61 wins", modern, Solo, 61, false, false, 10, true, false},
		{"modern solo 60 loses", modern, Solo, 60, false, false, -10, false, false},
		{"modern heartsolo 61", modern, HeartSolo, 61, false, false, 20, true, false},
		{"modern frage 60 loses", modernF, Frage, 60, false, false, -10, false, false},
		{"modern frage-on solo stake 10", modernF, Solo, 90, false, false, 20, true, false},
		{"classic frage 60 draw", classic, Frage, 60, false, false, 0, false, true},
		{"classic solo 60 draw", classic, Solo, 60, false, false, 0, false, true},
		{"classic frage s=1 → 1", classic, Frage, 61, false, false, 2, true, false},
		{"classic frage s=4 → 1", classic, Frage, 64, false, false, 2, true, false},
		{"classic frage s=5 → 2", classic, Frage, 65, false, false, 4, true, false},
		{"classic frage lost s=7 → 2", classic, Frage, 53, false, false, -4, false, false},
		{"classic solo s=15 → 8", classic, Solo, 75, false, false, 16, true, false},
		{"classic solo lost s=1 → 1", classic, Solo, 59, false, false, -2, false, false},
		{"classic heartsolo s=15 → 15", classic, HeartSolo, 75, false, false, 30, true, false},
		{"classic heartsolo s=60", classic, HeartSolo, 120, false, true, 120, true, false},
		{"classic tout frage won: 15×2", classic, Frage, 120, true, true, 60, true, false},
		{"classic tout solo won: 30×2", classic, Solo, 120, true, true, 120, true, false},
		{"classic tout heartsolo lost: 60×2", classic, HeartSolo, 110, true, false, -240, false, false},
		{"wuerttemberg frage s=10", wuerttbg, Frage, 70, false, false, 20, true, false},
		{"wuerttemberg solo s=10 doubled", wuerttbg, Solo, 70, false, false, 40, true, false},
		{"wuerttemberg 60 draw", wuerttbg, Solo, 60, false, false, 0, false, true},
		{"wuerttemberg tout frage: 60×3", wuerttbg, Frage, 120, true, true, 360, true, false},
		{"wuerttemberg tout solo: 120×3", wuerttbg, Solo, 120, true, true, 720, true, false},
		{"wuerttemberg tout ×2 (Anton)", "wuerttemberg tout=2", Solo, 120, true, true, 480, true, false},
		{"wuerttemberg tout lost", wuerttbg, Frage, 100, true, false, -360, false, false},
	}
	for _, tc := range tests {
		o := scored(t, tc.rules, tc.contract, tc.points, tc.tout, tc.all, 0)
		if o.Payoff[1] != tc.decl || o.DeclarerWon != tc.won || o.Draw != tc.draw {
			t.Errorf("%s: payoff %v won %v draw %v; want declarer %d won %v draw %v", tc.name, o.Payoff, o.DeclarerWon, o.Draw, tc.decl, tc.won, tc.draw)
		}
		if o.Payoff[0] != -tc.decl/2 || o.Payoff[2] != -tc.decl/2 {
			t.Errorf("%s: defenders %v, want %d each", tc.name, o.Payoff, -tc.decl/2)
		}
	}
}

// R-POT: ante, Frage lost pays the pot, Solo won takes it, Solo lost doubles it, Frage won and
// draw leave it.
func TestPot_R_POT(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		rules          string
		contract       Contract
		points, potIn  int
		decl, potAfter int
	}{
		{"frage lost pays the pot", "classic pot=on", Frage, 53, 10, -2 * 3, 10 + 2 + 2},
		{"frage won leaves the pot", "classic pot=on", Frage, 65, 10, 4, 12},
		{"solo won takes the pot", "classic pot=on", Solo, 75, 10, 16 + 12, 0},
		{"solo lost doubles the pot", "classic pot=on", Solo, 59, 10, -2 - 12, 24},
		{"draw leaves the pot", "wuerttemberg pot=on", Solo, 60, 7, 0, 9},
		{"wuerttemberg solo won", "wuerttemberg pot=on", Solo, 61, 0, 4 + 2, 0},
	}
	for _, tc := range tests {
		o := scored(t, tc.rules, tc.contract, tc.points, false, false, tc.potIn)
		if o.Payoff[1] != tc.decl || o.PotAfter != tc.potAfter || o.PotBefore != tc.potIn {
			t.Errorf("%s: payoff %v pot %d→%d; want declarer %d pot →%d", tc.name, o.Payoff, o.PotBefore, o.PotAfter, tc.decl, tc.potAfter)
		}
	}
}

// §9.8 R-MOD-BID-1..4: all pass → Ramsch; equal contracts → the player nearer forehand; a
// higher contract beats a nearer player; "pass" in round one is final.
func TestModernBidding_S9_8_R_MOD_BID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, rules, moves string
		declarer           Seat
		contract           Contract
		trump              Suit
	}{
		{"R-MOD-BID-4 all pass: ramsch", modern, "1:pass 2:pass 0:pass", NoSeat, Ramsch, NoSuit},
		{"R-MOD-BID-3 equal: forehand", modern, "1:play 2:play 0:play 1:solo:C 2:solo:D 0:solo:S", 0, Solo, Spades},
		{"R-MOD-BID-3 equal: middlehand over rearhand", modern, "1:play 2:play 0:pass 1:solo:D 2:solo:C", 1, Solo, Diamonds},
		{"R-MOD-BID-3 higher beats nearer", modern, "1:play 2:play 0:play 1:solo:C 2:heartsolo 0:solo:S", 2, HeartSolo, Hearts},
		{"R-MOD-BID-2 lower may be named", modern, "1:play 2:play 0:play 1:heartdurch 2:bettel 0:solo:C", 1, HeartDurch, Hearts},
		{"R-MOD-BID-2 single player names", modern, "1:pass 2:pass 0:play 0:solo:C", 0, Solo, Clubs},
		{"R-MOD-BID-1 pass is final", modern, "1:pass 2:play 0:play 2:bettel 0:durch:C", 0, Durch, Clubs},
		{"four players", "modern players=4", "1:play 2:play 3:play 0:pass 1:bettel 2:ouvert 3:ouvert", 2, Ouvert, NoSuit},
	}
	for _, tc := range tests {
		s := newGame(t, tc.rules, map[bool]string{true: dealC, false: dealA}[strings.Contains(tc.rules, "players=4")], tc.moves)
		if s.Declarer() != tc.declarer || s.Contract() != tc.contract || s.Trump() != tc.trump {
			t.Errorf("%s: declarer %s %s trump %s; want %s %s %s", tc.name, s.Declarer(), s.Contract(), s.Trump(), tc.declarer, tc.contract, tc.trump)
		}
		o := s.Observe(0)
		if len(o.Bids) != len(strings.Fields(tc.moves)) {
			t.Errorf("%s: %d bids observed", tc.name, len(o.Bids))
		}
	}
	// R-MOD-BID-1: middlehand speaks first, forehand last; round two asks only "play" seats.
	s := newGame(t, modern, dealA, "")
	if s.ToMove() != 1 || s.Decision() != DecideBid {
		t.Fatalf("R-MOD-BID-1: first speaker %s %s", s.ToMove(), s.Decision())
	}
	play(t, s, "1:pass 2:play 0:play")
	if s.ToMove() != 2 || s.Decision() != DecideContract {
		t.Fatalf("R-MOD-BID-2: round two starts with %s %s, want 2 contract", s.ToMove(), s.Decision())
	}
	wantRuleErr(t, s, "pass", "R-MOD-BID-2")
	wantRuleErr(t, s, "play", "R-MOD-BID-2")
	wantRuleErr(t, s, "solo", "R-MOD-BID-2")
	wantRuleErr(t, s, "solo:H", "R-MOD-BID-2")
	wantRuleErr(t, s, "frage", "R-MOD-BID-2")
	wantRuleErr(t, s, "HA", "R-MOD-BID-2")
	if n := len(s.LegalActions(nil)); n != 14 {
		t.Errorf("R-MOD-BID-2: %d contracts offered, want 14", n)
	}
	s = newGame(t, modernF, dealA, "1:play 2:pass 0:pass")
	if n := len(s.LegalActions(nil)); n != 15 {
		t.Errorf("R-MOD-BID-2: %d contracts offered with frage on, want 15", n)
	}
	s = newGame(t, modern, dealA, "")
	wantRuleErr(t, s, "solo:C", "R-MOD-BID-1")
}

// §9.9 R-AUCTION, R-CL-PASS, R-SEAT-2: holding, overbidding, all pass → thrown in and the deal
// passes on.
func TestAuction_S9_9_R_AUCTION(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, rules, moves string
		declarer           Seat
		contract           Contract
	}{
		{"holding", classic, "0:frage 1:solo 2:pass 0:solo 1:heartsolo 0:heartsolo 1:pass", 0, HeartSolo},
		{"overbidding", classic, "0:frage 1:solo 2:heartsolo 0:pass 1:pass", 2, HeartSolo},
		{"last in wins at once", classic, "0:pass 1:pass 2:frage", 2, Frage},
		{"one bid, others pass", wuerttbg, "0:frage 1:pass 2:pass", 0, Frage},
		{"wuerttemberg hold solo", wuerttbg, "0:frage 1:solo 2:pass 0:solo 1:pass", 0, Solo},
		{"middlehand holds over rearhand", classic, "0:pass 1:frage 2:solo 1:solo 2:heartsolo 1:heartsolo 2:pass", 1, HeartSolo},
	}
	for _, tc := range tests {
		s := newGame(t, tc.rules, dealA, tc.moves)
		if s.Declarer() != tc.declarer || s.Contract() != tc.contract {
			t.Errorf("%s: declarer %s %s; want %s %s", tc.name, s.Declarer(), s.Contract(), tc.declarer, tc.contract)
		}
	}
	s := newGame(t, classic, dealA, "0:frage")
	wantRuleErr(t, s, "frage", "R-AUCTION") // middlehand may not hold forehand's bid
	wantRuleErr(t, s, "solo:C", "R-CL-BID-1")
	wantRuleErr(t, s, "bettel", "R-CL-BID-1")
	play(t, s, "1:solo 2:pass")
	if got := s.LegalActions(nil); len(got) != 3 || got[1].String() != "solo" {
		t.Errorf("R-AUCTION: forehand may hold solo: legal %v", got)
	}
	s = newGame(t, wuerttbg, dealA, "")
	wantRuleErr(t, s, "heartsolo", "R-CL-BID-1")
	// All pass: thrown in, the dealer antes to the pot, the deal passes on.
	for _, rules := range []string{classic, "classic pot=on", wuerttbg} {
		s = newGame(t, rules, dealA, "0:pass 1:pass 2:pass")
		o := s.Outcome()
		if !s.Terminal() || !o.ThrownIn || o.Declarer != NoSeat || sumPayoff(o) != 0 {
			t.Errorf("R-CL-PASS %s: %+v", rules, o)
		}
		if strings.Contains(rules, "pot=on") && (o.Payoff[2] != -2 || o.PotAfter != 2) {
			t.Errorf("R-POT: thrown-in deal: payoff %v pot %d", o.Payoff, o.PotAfter)
		}
	}
	if NextDealer(2, 3) != 0 || NextDealer(0, 3) != 1 || NextDealer(3, 4) != 0 {
		t.Errorf("R-SEAT-2: NextDealer")
	}
}

// §9.10 R-MOD-BETTEL, R-MOD-OUVERT, R-PLAY-6: lost on the first trick taken; the Ouvert hand is
// in every observation after the declarer's first card and not before.
func TestBettelOuvert_S9_10_R_MOD_BETTEL_R_MOD_OUVERT(t *testing.T) {
	t.Parallel()
	s := newGame(t, modern, dealB, "1:pass 2:play 0:pass 2:bettel 0:S6 1:S7")
	if s.Terminal() {
		t.Fatal("ended too early")
	}
	play(t, s, "2:S8")
	o := s.Outcome()
	if !s.Terminal() || o.DeclarerWon || o.Payoff != [MaxPlayers]int{15, 15, -30, 0} {
		t.Errorf("R-MOD-BETTEL: after the declarer's first trick: terminal %v %+v", s.Terminal(), o)
	}
	s = newGame(t, modern, dealB, "1:pass 2:play 0:pass 2:ouvert")
	for seat := Seat(0); seat < 3; seat++ {
		if s.Observe(seat).Exposed != 0 {
			t.Errorf("R-MOD-OUVERT: exposed before the first card")
		}
	}
	play(t, s, "2:C6")
	want := s.Hand(2)
	for seat := Seat(0); seat < 3; seat++ {
		if got := s.Observe(seat).Exposed; got != want || got.Len() != 10 {
			t.Errorf("R-MOD-OUVERT: seat %s sees %s, want %s", seat, got, want)
		}
	}
	if ev := s.Events()[len(s.Events())-1]; ev.Kind != EvOuvertExposed || ev.Cards != want {
		t.Errorf("R-MOD-OUVERT: last event %s", ev)
	}
	play(t, s, "0:CA 1:C9 0:S6 1:S7 2:SQ")
	if !s.Terminal() || s.Outcome().DeclarerWon || s.Outcome().Payoff[2] != -60 {
		t.Errorf("R-MOD-OUVERT: declarer took a trick: %+v", s.Outcome())
	}
	if got := s.Observe(0).Exposed; got != s.Hand(2) {
		t.Errorf("R-MOD-OUVERT: exposed %s, hand %s", got, s.Hand(2))
	}
	// A Bettel the declarer wins: no trick in a whole deal.
	s = newGame(t, modern, dealA, "1:pass 2:pass 0:play 0:bettel")
	finishFirst(t, s)
	if o := s.Outcome(); o.DeclarerWon != (o.Tricks[0] == 0) {
		t.Errorf("R-MOD-BETTEL: won %v with %d tricks", o.DeclarerWon, o.Tricks[0])
	}
}

// §9.11 R-MOD-RUFER, R-INFO-3: calling a held card is refused; the exchange; the called card in
// the tapp; who learns what.
func TestRufer_S9_11_R_MOD_RUFER_R_INFO_3(t *testing.T) {
	t.Parallel()
	s := newGame(t, modern, dealB, "1:play 2:pass 0:pass 1:rufer:D")
	if s.Decision() != DecideCall || s.ToMove() != 1 || s.Trump() != Diamonds {
		t.Fatalf("R-MOD-RUFER: %s %s trump %s", s.Decision(), s.ToMove(), s.Trump())
	}
	wantRuleErr(t, s, "call:D8", "R-MOD-RUFER")
	wantRuleErr(t, s, "pass", "R-MOD-RUFER")
	if n := len(s.LegalActions(nil)); n != 25 {
		t.Errorf("R-MOD-RUFER: %d cards callable, want 25", n)
	}
	inTapp := s.Clone()
	play(t, s, "1:call:DA")
	if s.Decision() != DecideGive || s.ToMove() != 1 || !s.Hand(1).Has(mustCard(t, "DA")) || s.Hand(0).Has(mustCard(t, "DA")) {
		t.Fatalf("R-MOD-RUFER: the holder hands DA over: %s, hands %s / %s", s.Decision(), s.Hand(0), s.Hand(1))
	}
	wantRuleErr(t, s, "give:DA", "R-MOD-RUFER")
	wantRuleErr(t, s, "give:CA", "R-MOD-RUFER")
	play(t, s, "1:give:S7")
	if !s.Hand(0).Has(mustCard(t, "S7")) || s.Hand(0).Len() != 11 || s.Hand(1).Len() != 11 {
		t.Fatalf("R-MOD-RUFER: exchange: %s / %s", s.Hand(0), s.Hand(1))
	}
	s7 := mustCard(t, "S7")
	for seat, wantGiven := range []Card{s7, s7, NoCard} {
		o := s.Observe(Seat(seat))
		if o.Called != mustCard(t, "DA") || o.CalledHolder != 0 || o.CalledInTapp {
			t.Errorf("R-INFO-1: seat %d: called %s holder %s", seat, o.Called, o.CalledHolder)
		}
		if o.Given != wantGiven {
			t.Errorf("R-INFO-3: seat %d sees given %s, want %s", seat, o.Given, wantGiven)
		}
		for _, e := range s.EventsFor(Seat(seat), 0) {
			if e.Kind == EvGive && e.Card != wantGiven {
				t.Errorf("R-INFO-3: seat %d give event %s", seat, e)
			}
		}
		for _, m := range o.History {
			if m.Action.Kind == ActGive && m.Action.Card != wantGiven {
				t.Errorf("R-INFO-3: seat %d history %s", seat, m)
			}
		}
	}
	if s.Decision() != DecideCard || s.ToMove() != 0 {
		t.Fatalf("forehand leads after the give")
	}
	play(t, inTapp, "1:call:DJ")
	for seat := Seat(0); seat < 3; seat++ {
		o := inTapp.Observe(seat)
		if !o.CalledInTapp || o.CalledHolder != NoSeat || o.Called != mustCard(t, "DJ") {
			t.Errorf("R-MOD-RUFER: called card in the tapp: seat %s %+v", seat, o)
		}
	}
	if inTapp.Decision() != DecideCard || inTapp.ToMove() != 0 || inTapp.Hand(1).Len() != 11 {
		t.Errorf("R-MOD-RUFER: no exchange when the card is in the tapp")
	}
	// The declarer must take every trick (R-PLAY-6 ends it at the first lost).
	play(t, inTapp, "0:CA 1:C9 2:C6")
	if o := inTapp.Outcome(); !inTapp.Terminal() || o.DeclarerWon || o.Payoff[1] != -30 {
		t.Errorf("R-MOD-RUFER: lost trick: %+v", o)
	}
}

// §9.12 R-MOD-DURCH, R-PLAY-6: Durch loses on the first trick lost.
func TestDurch_S9_12_R_MOD_DURCH(t *testing.T) {
	t.Parallel()
	s := newGame(t, modern, dealB, "1:play 2:pass 0:pass 1:durch:D 0:CA 1:C9 2:C6")
	o := s.Outcome()
	if !s.Terminal() || o.DeclarerWon || o.Payoff != [MaxPlayers]int{30, -60, 30, 0} || o.Tricks[0] != 1 {
		t.Errorf("R-MOD-DURCH: %+v", o)
	}
	s = newGame(t, modern, dealB, "1:play 2:pass 0:pass 1:heartdurch 0:CA 1:C9 2:C6")
	if o := s.Outcome(); o.Payoff[1] != -120 {
		t.Errorf("R-MOD-DURCH: heart durch stake: %+v", o)
	}
	// A Durch won: forehand holds every club and both top spades.
	s = newGame(t, modern, dealA, "1:pass 2:pass 0:play 0:durch:C")
	finishFirst(t, s)
	if o := s.Outcome(); !o.DeclarerWon || o.Tricks[0] != 11 || o.Payoff[0] != 60 {
		t.Errorf("R-MOD-DURCH won: %+v", o)
	}
	// A classic Tout lost ends at once too (R-CL-TOUT).
	s = newGame(t, classic, dealB, "0:pass 1:heartsolo 2:pass 1:tout 0:CA 1:C9 2:C6")
	if o := s.Outcome(); !s.Terminal() || o.DeclarerWon || o.Payoff[1] != -240 {
		t.Errorf("R-CL-TOUT: %+v", o)
	}
}

// ramschScored settles a Ramsch with the given points and tricks (R-MOD-RAMSCH).
func ramschScored(t testing.TB, rules string, points, tricks [MaxPlayers]int) Outcome {
	t.Helper()
	r := mustRules(t, rules)
	s, err := NewState(r, DealFromSeed(r, 1, 1), Options{ForcedRamsch: true})
	if err != nil {
		t.Fatal(err)
	}
	s.deal.Tapp = 0
	s.points, s.taken = points, tricks
	s.finish()
	o := s.Outcome()
	if sumPayoff(o) != 0 {
		t.Fatalf("R-MOD-RAMSCH: payoff %v does not sum to zero", o.Payoff)
	}
	return o
}

// §9.13 R-MOD-RAMSCH: the tapp to the last trick; most points pays; Jungfer gets 10; ties;
// 40–40–40.
func TestRamsch_S9_13_R_MOD_RAMSCH(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		rules          string
		points, tricks [MaxPlayers]int
		want           [MaxPlayers]int
	}{
		{"most pays 5 each", modern, [4]int{70, 30, 20}, [4]int{5, 3, 3}, [4]int{-10, 5, 5}},
		{"Jungfer gets 10", modern, [4]int{70, 50, 0}, [4]int{5, 6, 0}, [4]int{-15, 5, 10}},
		{"tie for most: both pay", modern, [4]int{50, 50, 20}, [4]int{4, 4, 3}, [4]int{-5, -5, 10}},
		{"tie for most, Jungfer", modern, [4]int{60, 60, 0}, [4]int{5, 6, 0}, [4]int{-10, -10, 20}},
		{"40–40–40: nobody pays", modern, [4]int{40, 40, 40}, [4]int{4, 4, 3}, [4]int{}},
		{"four players", "modern players=4", [4]int{60, 30, 30, 0}, [4]int{4, 2, 2, 0}, [4]int{-20, 5, 5, 10}},
		{"four players, 30 each", "modern players=4", [4]int{30, 30, 30, 30}, [4]int{2, 2, 2, 2}, [4]int{}},
		{"stake option", "modern stakes=ramsch:10", [4]int{70, 50, 0}, [4]int{5, 6, 0}, [4]int{-30, 10, 20}},
	}
	for _, tc := range tests {
		if o := ramschScored(t, tc.rules, tc.points, tc.tricks); o.Payoff != tc.want {
			t.Errorf("%s: payoff %v, want %v", tc.name, o.Payoff, tc.want)
		}
	}
	// A full Ramsch: the last trick's winner takes the tapp.
	s := newGame(t, modern, dealA, "1:pass 2:pass 0:pass")
	finishFirst(t, s)
	o := s.Outcome()
	last := s.Observe(0).Tricks[10]
	total := 0
	for _, p := range o.Points {
		total += p
	}
	if total != 120 || o.Points[last.Winner] != trickPoints(s, last.Winner)+s.Deal().Tapp.Points() {
		t.Errorf("R-MOD-RAMSCH: tapp to the last trick: points %v", o.Points)
	}
}

func trickPoints(s *State, seat Seat) int {
	sum := 0
	for _, tr := range s.Observe(seat).Tricks {
		if tr.Winner == seat {
			sum += tr.Points
		}
	}
	return sum
}

// §9.14 R-MOD-DEAL-4, R-MOD-BID-5: four players, 1 against 3, Frage lays away 4, payments sum
// to zero.
func TestFourPlayers_S9_14_R_MOD_DEAL_4(t *testing.T) {
	t.Parallel()
	s := newGame(t, "modern players=4 frage=on", dealC, "1:play 2:pass 3:pass 0:pass 1:frage 1:discard:C6 1:discard:S6 1:discard:H6 1:discard:D6")
	if s.Decision() != DecideCard || s.ToMove() != 0 || s.Hand(1).Len() != 8 {
		t.Fatalf("R-MOD-DEAL-4: after 4 discards: %s %s hand %d", s.Decision(), s.ToMove(), s.Hand(1).Len())
	}
	finishFirst(t, s)
	o := s.Outcome()
	if sumPayoff(o) != 0 || o.Payoff[0] != o.Payoff[2] || o.Payoff[2] != o.Payoff[3] || o.Payoff[1] != -3*o.Payoff[0] {
		t.Errorf("R-MOD-BID-5: 1 against 3: %v", o.Payoff)
	}
	s = newGame(t, "modern players=4", dealC, "1:pass 2:pass 3:play 0:pass 3:durch:D")
	finishFirst(t, s)
	if o := s.Outcome(); o.Payoff != [MaxPlayers]int{30, 30, 30, -90} && o.Payoff != [MaxPlayers]int{-30, -30, -30, 90} {
		t.Errorf("R-MOD-DEAL-4: durch payoffs %v", o.Payoff)
	}
}

// §9.15 R-SESSION-1..4: the ace-of-hearts ending, the last round, the forced Ramsch round; the
// net is zero.
func TestSession_S9_15_R_SESSION(t *testing.T) {
	t.Parallel()
	r := DefaultRules(Modern)
	ha := NewCard(Hearts, Ace)
	// dealWithHA returns a deal where seat holds the ace of hearts (seat -1: the tapp).
	dealWithHA := func(seat int) Deal {
		for i := uint64(0); ; i++ {
			d := DealFromSeed(r, 99, i)
			if (seat < 0 && d.Tapp.Has(ha)) || (seat >= 0 && d.Hands[seat].Has(ha)) {
				return d
			}
		}
	}
	ss := NewSession(3, 2, 1)
	var dealers []int
	var forced []bool
	rng := NewRand(5, 5)
	deals := 0
	for {
		dealer, f, done := ss.Next()
		if done {
			break
		}
		dealers = append(dealers, dealer)
		forced = append(forced, f)
		var d Deal
		switch deals {
		case 6: // the first deciding deal: ace of hearts in the tapp
			d = dealWithHA(-1)
		case 7: // the second: seat 1 holds it
			d = dealWithHA(1)
		default:
			d = DealFromSeed(r, 7, uint64(deals))
		}
		s, err := NewState(r, d, Options{ForcedRamsch: f})
		if err != nil {
			t.Fatal(err)
		}
		if f && s.Contract() != Ramsch {
			t.Fatalf("R-SESSION-3: forced deal is %s", s.Contract())
		}
		var buf []Action
		for !s.Terminal() {
			buf = s.LegalActions(buf[:0])
			if err := s.Apply(buf[rng.IntN(len(buf))]); err != nil {
				t.Fatal(err)
			}
		}
		if err := ss.Record(d, dealer, s.Outcome()); err != nil {
			t.Fatal(err)
		}
		deals++
		if deals > 100 {
			t.Fatal("session does not end")
		}
	}
	// Rounds: 1 2 0 1 2 0; deciding deals by 1 (HA in tapp) then 2 (HA to seat 1 = position
	// TablePosition(1, 2, 3) = 1); last round 1 2 0; forced Ramsch 1 2 0.
	wantDealers := []int{1, 2, 0, 1, 2, 0, 1, 2, 1, 2, 0, 1, 2, 0}
	wantForced := []bool{false, false, false, false, false, false, false, false, false, false, false, true, true, true}
	if len(dealers) != len(wantDealers) {
		t.Fatalf("R-SESSION: dealers %v, want %v", dealers, wantDealers)
	}
	for i := range dealers {
		if dealers[i] != wantDealers[i] || forced[i] != wantForced[i] {
			t.Fatalf("R-SESSION: dealers %v forced %v; want %v %v", dealers, forced, wantDealers, wantForced)
		}
	}
	sum := 0
	for _, v := range ss.Net() {
		sum += v
	}
	if sum+ss.PotLeft() != 0 || !ss.Done() {
		t.Errorf("R-SESSION-4: net %v", ss.Net())
	}
	if err := ss.Record(Deal{}, 0, Outcome{}); err == nil {
		t.Errorf("Record after the end must fail")
	}
}

// R-SEAT-1, R-SEAT-2: seats and table positions.
func TestSeating_R_SEAT_1_R_SEAT_2(t *testing.T) {
	t.Parallel()
	for _, n := range []int{3, 4} {
		for dealer := 0; dealer < n; dealer++ {
			if TablePosition(Seat(n-1), dealer, n) != dealer {
				t.Errorf("R-SEAT-1: the dealer sits in the last seat")
			}
			if TablePosition(0, dealer, n) != NextDealer(dealer, n) {
				t.Errorf("R-SEAT-2: forehand deals next")
			}
			for seat := Seat(0); seat < Seat(n); seat++ {
				if SeatOf(TablePosition(seat, dealer, n), dealer, n) != seat {
					t.Errorf("SeatOf/TablePosition do not invert")
				}
			}
		}
	}
}

// §9.16: every settlement sums to zero over the players (and the pot) — here on every §9 deal
// played out with every first legal choice; the property tests cover random deals.
func TestZeroSum_S9_16(t *testing.T) {
	t.Parallel()
	for _, rules := range []string{modern, modernF, classic, "classic pot=on", wuerttbg, "wuerttemberg pot=on"} {
		for _, deal := range []string{dealA, dealB} {
			s := newGame(t, rules, deal, "")
			finishFirst(t, s)
			if o := s.Outcome(); sumPayoff(o) != 0 {
				t.Errorf("%s: %+v", rules, o)
			}
		}
	}
}

// R-INFO-1..4: a seat outside the table gets the public view, never the full one.
func TestPublicView_R_INFO_4(t *testing.T) {
	t.Parallel()
	s := newGame(t, modernF, dealA, "1:play 2:pass 0:pass 1:frage 1:discard:S6")
	for _, seat := range []Seat{NoSeat, 4, 100, -100} {
		o := s.Observe(seat)
		if o.Hand != 0 || o.Dealt != 0 || o.Tapp != 0 || o.Legal != nil {
			t.Errorf("seat %d: %+v", seat, o)
		}
		for _, e := range s.EventsFor(seat, 0) {
			if e.Hands != [MaxPlayers]CardSet{} || (e.Kind == EvTappTaken && e.Cards != 0) || (e.Kind == EvDiscard && e.Card != NoCard) {
				t.Errorf("seat %d sees %s", seat, e)
			}
		}
	}
}
