package replay

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// knownCards is what seat may know after the first n moves of a deal (R-INFO-1..4), computed
// from the true deal and the moves alone — independently of the engine's observation and
// redaction code, as arena/internal/server's leak test does: its own hand, every card played, called
// cards, and its private facts (the Frage tapp, the Rufer give, an exposed Ouvert hand).
func knownCards(rules engine.RuleSet, rec *domain.DealRecord, seat engine.Seat, n int) engine.CardSet {
	if n >= len(rec.Moves) {
		return rules.Pack() // the deal is over: everything is revealed (R-INFO-4)
	}
	known := rec.Deal.Hands[seat]
	decl, contract := rec.Outcome.Declarer, rec.Outcome.Contract
	called := engine.NoCard
	declarerPlayed := false
	for _, m := range rec.Moves[:n] {
		a := m.Action
		switch a.Kind {
		case engine.ActCard:
			known = known.With(a.Card)
			declarerPlayed = declarerPlayed || m.Seat == decl
		case engine.ActCall:
			known, called = known.With(a.Card), a.Card // public: which card, and who held it
		case engine.ActGive:
			if seat == m.Seat || rec.Deal.Hands[seat].Has(called) {
				known = known.With(a.Card) // R-INFO-3: the declarer and the former holder
			}
		}
	}
	// The Frage declarer takes up the tapp as soon as the bidding is over (R-INFO-2).
	if contract == engine.Frage && seat == decl && n >= bidMoves(rec.Moves) {
		known |= rec.Deal.Tapp
	}
	if contract == engine.Ouvert && declarerPlayed {
		known |= rec.Deal.Hands[decl] // R-MOD-OUVERT
	}
	return known
}

func bidMoves(moves []engine.Move) int {
	for i, m := range moves {
		if k := m.Action.Kind; k != engine.ActPass && k != engine.ActPlay && k != engine.ActBid {
			return i
		}
	}
	return len(moves)
}

var token = regexp.MustCompile(`[A-Za-z0-9#:]+`)

// cardsShown finds every card a text names: "HA", "1:HA", "discard:HA", "give:C7". A Rufer's
// callable cards ("call:HA" among the legal actions) are not counted: they name cards the
// caller lacks, not where they lie.
func cardsShown(text string) []engine.Card {
	var out []engine.Card
	for _, tok := range token.FindAllString(text, -1) {
		parts := strings.Split(tok, ":")
		c := parts[len(parts)-1]
		if len(c) != 2 || !strings.ContainsRune("CSHD", rune(c[0])) || !strings.ContainsRune("6789TJQKA", rune(c[1])) {
			continue
		}
		if len(parts) > 1 && parts[len(parts)-2] == "call" {
			continue
		}
		card, err := engine.ParseCard(c)
		if err != nil {
			continue
		}
		out = append(out, card)
	}
	return out
}

// TestSeatViewNeverShowsAnUnknownCard renders every step of every deal from every seat, with
// the requests as sent, and checks every card in the text against what that seat could know
// at that moment (TAPP-RULES.md §8), for every variant and table size.
func TestSeatViewNeverShowsAnUnknownCard(t *testing.T) {
	t.Parallel()
	deals := 60
	if testing.Short() {
		deals = 15
	}
	for _, text := range ruleSets {
		t.Run(strings.ReplaceAll(text, " ", "_"), func(t *testing.T) {
			t.Parallel()
			m, recs := play(t, text, deals)
			checked, own := 0, 0
			for i := range recs {
				rec := &recs[i]
				for s := 0; s < m.Rules.Players; s++ {
					seat := engine.Seat(s)
					wk, err := NewWalk(m, rec, SeatView(seat))
					if err != nil {
						t.Fatalf("deal %d: %v", rec.Number, err)
					}
					var head bytes.Buffer
					WriteHeader(&head, wk)
					if cs := cardsShown(head.String()); len(cs) > 0 {
						t.Fatalf("deal %d, seat %d: the header shows cards %v:\n%s", rec.Number, s, cs, head.String())
					}
					for k := range wk.Steps {
						var b bytes.Buffer
						WriteStep(&b, wk, k, RenderOptions{Sent: true})
						known := knownCards(m.Rules, rec, seat, k+1) // a step ends with its own move
						shown := cardsShown(b.String())
						for _, c := range shown {
							if !known.Has(c) {
								t.Fatalf("LEAK: deal %d seen from seat %d shows %s at step %d, which the seat may not know then.\ndeal: %s\nmoves: %v\nstep:\n%s",
									rec.Number, s, c, k, rec.Deal.Format(m.Rules), rec.Moves, b.String())
							}
						}
						checked += len(shown)
						if wk.Steps[k].Own && wk.Steps[k].Request != nil {
							own++
						}
					}
				}
			}
			if checked < deals*m.Rules.Players*20 || own < deals*10 {
				t.Fatalf("only %d cards checked and %d own requests seen in %d deals: the test saw too little", checked, own, deals)
			}
		})
	}
}

// TestSeatViewOfAHiddenMove checks the two hidden moves directly: another seat's Frage
// lay-away and a Rufer give are shown without their card, with everything else about them.
func TestSeatViewOfAHiddenMove(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "modern frage=on", 80)
	seenDiscard, seenGive := false, false
	for i := range recs {
		rec := &recs[i]
		for k, mv := range rec.Moves {
			if mv.Action.Kind != engine.ActDiscard && mv.Action.Kind != engine.ActGive {
				continue
			}
			other := (mv.Seat + 1) % engine.Seat(m.Rules.Players)
			if mv.Action.Kind == engine.ActGive && rec.Deal.Hands[other].Has(calledOf(rec)) {
				other = (other + 1) % engine.Seat(m.Rules.Players) // the former holder knows the give
			}
			wk, err := NewWalk(m, rec, SeatView(other))
			if err != nil {
				t.Fatal(err)
			}
			s := wk.Steps[k]
			if s.Own || s.Action.Kind != mv.Action.Kind || s.Action.Card != engine.NoCard || s.Request != nil ||
				len(s.Record.Attempts) != 0 || len(s.Record.Sent) != 0 {
				t.Fatalf("deal %d, decision %d (%s) seen from seat %d: step %+v, want the move without its card, request or answers",
					rec.Number, k, mv, other, s)
			}
			var b bytes.Buffer
			WriteStep(&b, wk, k, RenderOptions{Sent: true})
			if !strings.Contains(b.String(), "hidden from this seat") {
				t.Fatalf("deal %d, decision %d: the step does not say the card is hidden:\n%s", rec.Number, k, b.String())
			}
			full, err := NewWalk(m, rec, FullView)
			if err != nil {
				t.Fatal(err)
			}
			if got := full.Steps[k].Action; got != mv.Action {
				t.Fatalf("full view of decision %d: action %s, want %s", k, got, mv.Action)
			}
			seenDiscard = seenDiscard || mv.Action.Kind == engine.ActDiscard
			seenGive = seenGive || mv.Action.Kind == engine.ActGive
		}
	}
	if !seenDiscard || !seenGive {
		t.Fatalf("saw a discard: %v, a give: %v; want both in 80 deals", seenDiscard, seenGive)
	}
}

func calledOf(rec *domain.DealRecord) engine.Card {
	for _, m := range rec.Moves {
		if m.Action.Kind == engine.ActCall {
			return m.Action.Card
		}
	}
	return engine.NoCard
}

// TestWalkFollowsTheRecord checks the walk's shape against the record: a step per decision
// with the recorded seat, kind, timing and request, then the end with the settlement.
func TestWalkFollowsTheRecord(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "classic pot=on", 12)
	for i := range recs {
		rec := &recs[i]
		wk, err := NewWalk(m, rec, FullView)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := wk.Decisions(), len(rec.Moves); got != want {
			t.Fatalf("deal %d: %d decisions, want %d", rec.Number, got, want)
		}
		for k, d := range rec.Decisions {
			s := wk.Steps[k]
			if s.Index != k || s.Seat != d.Seat || s.Decision != d.Decision || s.Action != d.Action || s.Record.Latency != d.Latency ||
				s.Request.GetRequestId() != d.RequestID || len(s.Legal) == 0 {
				t.Fatalf("deal %d step %d = %+v, want the record %+v", rec.Number, k, s, d)
			}
		}
		end := wk.Steps[len(wk.Steps)-1]
		if !end.End || end.Outcome != rec.Outcome {
			t.Fatalf("deal %d end = %+v, want the recorded outcome %+v", rec.Number, end, rec.Outcome)
		}
		var b bytes.Buffer
		WriteWalk(&b, wk, RenderOptions{})
		for _, want := range []string{"end of deal", "payoff", "game points", "pot "} {
			if !strings.Contains(b.String(), want) {
				t.Fatalf("deal %d: the walk does not mention %q:\n%s", rec.Number, want, b.String())
			}
		}
	}
}

// TestWalkShowsStrikesAndFallbacks plays a seat whose bot never answers: its requests end in
// strikes, then (forfeited) in fallbacks without a request, and the walk says so.
func TestWalkShowsStrikesAndFallbacks(t *testing.T) {
	t.Parallel()
	silent := func(*tappv1.DecisionRequest) []string { return nil }
	m, recs := play(t, "modern", 2, nil, silent)
	var text strings.Builder
	strikes, fallbacks := 0, 0
	for i := range recs {
		wk, err := NewWalk(m, &recs[i], FullView)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range wk.Steps {
			if s.Record.Strike {
				strikes++
			} else if s.Record.Fallback {
				fallbacks++
			}
		}
		var b bytes.Buffer
		WriteWalk(&b, wk, RenderOptions{})
		text.WriteString(b.String())
	}
	if strikes != testClock.MaxStrikes || fallbacks == 0 {
		t.Fatalf("%d strikes and %d fallbacks, want %d strikes and then fallbacks", strikes, fallbacks, testClock.MaxStrikes)
	}
	for _, want := range []string{"STRIKE", "no legal answer within", "FALLBACK", "no request was sent",
		"timing    handed over at ", "no answer came while the deal was played"} {
		if !strings.Contains(text.String(), want) {
			t.Fatalf("the walk does not say %q", want)
		}
	}
}

func TestNewWalkRefusesABrokenRecord(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "modern", 1)
	rec := recs[0]
	rec.Moves = rec.Moves[:len(rec.Moves)-1]
	if _, err := NewWalk(m, &rec, FullView); err == nil || !strings.Contains(err.Error(), "before the deal is over") {
		t.Fatalf("NewWalk(truncated) = %v, want an error saying the moves end early", err)
	}
	if _, err := NewWalk(m, &recs[0], SeatView(3)); err == nil || !strings.Contains(err.Error(), "no seat 3") {
		t.Fatalf("NewWalk(seat 3 of 3) = %v, want an error naming the seat", err)
	}
}
