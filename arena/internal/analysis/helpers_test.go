package analysis

import (
	"context"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/engine"
)

// decider decides for one seat; it sees the live state (the oracle bot needs it), which a
// real bot never does.
type decider func(st *engine.State, obs *engine.Observation) engine.Action

// botDecider is an ordinary bot: it sees only its observation.
func botDecider(b bots.Bot) decider {
	return func(_ *engine.State, obs *engine.Observation) engine.Action {
		a, err := b.Decide(context.Background(), obs)
		if err != nil {
			return obs.Legal[0]
		}
		return a
	}
}

// seated is a decider with its bot name, for a deal record's seating.
type seated struct {
	name   string
	decide decider
}

// playDeal plays deal n of rule set r dealt from seed with one decider per seat and returns
// its record as the arena would store it (decision records are not needed by an analysis).
func playDeal(t testing.TB, r engine.RuleSet, seed uint64, n int, table []seated) *domain.DealRecord {
	t.Helper()
	return playGiven(t, r, engine.DealFromSeed(r, seed, uint64(n)), n, table)
}

func playGiven(t testing.TB, r engine.RuleSet, deal engine.Deal, n int, table []seated) *domain.DealRecord {
	t.Helper()
	st, err := engine.NewState(r, deal, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := &domain.DealRecord{MatchID: "test", Number: n, Deal: deal}
	for _, s := range table[:r.Players] {
		rec.Seating = append(rec.Seating, s.name)
	}
	for !st.Terminal() {
		seat := st.ToMove()
		obs := st.Observe(seat)
		a := table[seat].decide(st, &obs)
		rec.Moves = append(rec.Moves, engine.Move{Seat: seat, Action: a})
		if err := st.Apply(a); err != nil {
			t.Fatalf("%s: %v", table[seat].name, err)
		}
	}
	rec.Outcome = st.Outcome()
	return rec
}

// oracle plays, in trick play, a card that keeps par, seeing every card (test harness only);
// pick chooses among the par-keeping cards. Everything else the heuristic bot decides.
func oracle(a *Analyzer, pick func(n int) int) decider {
	h := botDecider(heuristic.New())
	return func(st *engine.State, obs *engine.Observation) engine.Action {
		if obs.Decision != engine.DecideCard {
			return h(st, obs)
		}
		vals, ok, err := a.CardValues(st)
		if err != nil || !ok {
			return h(st, obs)
		}
		cards, _ := BestCards(vals, maximises(st))
		return engine.CardAction(cards[pick(len(cards))])
	}
}

// contractScript bids so that seat decl declares contract c (trump where it takes one,
// tout in the older variants) and everyone else passes; play decides every other decision.
func contractScript(decl engine.Seat, c engine.Contract, trump engine.Suit, tout bool, play decider) decider {
	h := botDecider(heuristic.New())
	find := func(obs *engine.Observation, ok func(a engine.Action) bool) engine.Action {
		for _, a := range obs.Legal {
			if ok(a) {
				return a
			}
		}
		return obs.Legal[0]
	}
	return func(st *engine.State, obs *engine.Observation) engine.Action {
		me := obs.Seat == decl
		switch obs.Decision {
		case engine.DecideBid:
			return find(obs, func(a engine.Action) bool {
				if !me {
					return a.Kind == engine.ActPass
				}
				return a.Kind == engine.ActPlay || (a.Kind == engine.ActBid && a.Contract == c)
			})
		case engine.DecideContract:
			return find(obs, func(a engine.Action) bool {
				return a.Kind == engine.ActBid && a.Contract == c && (a.Suit == trump || a.Suit == engine.NoSuit)
			})
		case engine.DecideTrump:
			return find(obs, func(a engine.Action) bool { return a.Kind == engine.ActTrump && a.Suit == trump })
		case engine.DecideTout:
			return find(obs, func(a engine.Action) bool { return (a.Kind == engine.ActTout) == tout })
		case engine.DecideCard:
			return play(st, obs)
		}
		return h(st, obs)
	}
}

// shortOr is short with -short (go test -short: a quick run), else full.
func shortOr(short, full int) int {
	if testing.Short() {
		return short
	}
	return full
}
