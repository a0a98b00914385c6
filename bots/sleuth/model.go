package sleuth

import (
	"context"
	"math"

	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/engine"
)

// The opponent model: how likely each action another seat took is, given what that seat saw.
//
// Every other seat is assumed to be one of two kinds of player, each with prior probability
// one half and fixed for the deal:
//   - a rule-of-thumb player, who takes the heuristic bot's choice (package heuristic) with
//     probability Model.Sharp[kind] and otherwise any other legal action alike;
//   - a player of its own mind, who takes the heuristic's choice with the smaller probability
//     Model.Loose[kind] (good players often agree with the rules of thumb; a random one rarely).
//
// The likelihood of a seat's actions in a world is the mixture of the two, so that a seat
// which keeps to the rules of thumb is read sharply (its every pass and card tells much) and
// one that does not still counts, but softly. The parameters per decision kind are fitted to
// recorded deals (see train.go and model.json).

// Kind is a class of decisions with parameters of their own in the model.
type Kind uint8

// The decision kinds the model reads; the others (a hidden lay-away or give) tell nothing the
// bot can check.
const (
	KindBid     Kind = iota // modern round one, or an auction bid
	KindName                // modern round two: the contract named
	KindCard                // a card played
	KindDeclare             // classic trump, Rufer call, Tout answer
	NumKinds
)

var kindNames = [NumKinds]string{"bid", "name", "card", "declare"}

func (k Kind) String() string { return kindNames[k] }

// kindOf returns the model's kind of decision d, false for one it does not read.
func kindOf(d engine.Decision) (Kind, bool) {
	switch d {
	case engine.DecideBid:
		return KindBid, true
	case engine.DecideContract:
		return KindName, true
	case engine.DecideCard:
		return KindCard, true
	case engine.DecideTrump, engine.DecideCall, engine.DecideTout:
		return KindDeclare, true
	}
	return 0, false
}

// Model holds the opponent model's parameters: per decision kind, the probability that a
// rule-of-thumb player (Sharp) and a player of its own mind (Loose) take the heuristic bot's
// choice, and the prior probability of the rule-of-thumb kind.
type Model struct {
	Sharp [NumKinds]float64 `json:"sharp"`
	Loose [NumKinds]float64 `json:"loose"`
	Prior float64           `json:"prior"`
}

// Valid reports whether every probability lies strictly between 0 and 1.
func (m *Model) Valid() bool {
	in := func(p float64) bool { return p > 0 && p < 1 }
	for k := range NumKinds {
		if !in(m.Sharp[k]) || !in(m.Loose[k]) {
			return false
		}
	}
	return in(m.Prior)
}

// seatEvidence accumulates one seat's log-likelihood under both kinds of player.
type seatEvidence struct {
	sharp, loose float64
}

// add records one decision with nLegal legal actions, agreeing with the heuristic or not.
func (m *Model) add(e *seatEvidence, k Kind, nLegal int, agree bool) {
	if nLegal < 2 {
		return
	}
	if agree {
		e.sharp += math.Log(m.Sharp[k])
		e.loose += math.Log(m.Loose[k])
		return
	}
	others := math.Log(float64(nLegal - 1))
	e.sharp += math.Log(1-m.Sharp[k]) - others
	e.loose += math.Log(1-m.Loose[k]) - others
}

// logLikelihood is log P(actions | world) of one seat: the mixture of the two kinds.
func (m *Model) logLikelihood(e seatEvidence) float64 {
	a := math.Log(m.Prior) + e.sharp
	b := math.Log(1-m.Prior) + e.loose
	if a < b {
		a, b = b, a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// reader replays a world's history and scores every other seat's readable decisions under
// the model. It keeps its scratch state between calls; not safe for concurrent use.
type reader struct {
	model   *Model
	policy  heuristic.Bot
	scratch *engine.State
}

// agreement is one readable decision of another seat: its kind, how many legal actions it
// had, and whether it took the heuristic's choice.
type agreement struct {
	seat   engine.Seat
	kind   Kind
	nLegal int
	agree  bool
}

// readWorld replays the history of world st (a full state consistent with me's observation)
// and appends to hist, for every decision of another seat among moves from..to-1, whether it
// agreed with the rule of thumb (the moves before from are replayed without reading).
func (rd *reader) readWorld(st *engine.State, me engine.Seat, from, to int, hist []agreement) ([]agreement, error) {
	if rd.scratch == nil {
		var err error
		if rd.scratch, err = engine.NewState(st.Rules(), st.Deal(), st.Options()); err != nil {
			return hist, err
		}
	} else if err := rd.scratch.Reset(st.Rules(), st.Deal(), st.Options()); err != nil {
		return hist, err
	}
	sc := rd.scratch
	for i, mv := range st.History()[:to] {
		if i >= from && mv.Seat != me {
			if k, ok := kindOf(sc.Decision()); ok {
				obs := sc.Observe(mv.Seat)
				if len(obs.Legal) > 1 {
					h, err := rd.policy.Decide(context.Background(), &obs)
					if err == nil {
						hist = append(hist, agreement{seat: mv.Seat, kind: k, nLegal: len(obs.Legal),
							agree: h.Canonical() == mv.Action.Canonical()})
					}
				}
			}
		}
		if err := sc.Apply(mv.Action); err != nil {
			return hist, err
		}
	}
	return hist, nil
}

// score is the log-likelihood of a world's readable decisions (from readWorld) under the
// model: the product over seats of each seat's mixture.
func (m *Model) score(hist []agreement, players int) float64 {
	var ev [engine.MaxPlayers]seatEvidence
	var seen [engine.MaxPlayers]bool
	for _, a := range hist {
		m.add(&ev[a.seat], a.kind, a.nLegal, a.agree)
		seen[a.seat] = true
	}
	total := 0.0
	for s := 0; s < players; s++ {
		if seen[s] {
			total += m.logLikelihood(ev[s])
		}
	}
	return total
}

// ruleOfThumb returns, for every seat, the posterior probability that it is a rule-of-thumb
// player given its readable decisions (hist); the prior for a seat that made none.
func (m *Model) ruleOfThumb(hist []agreement, players int) [engine.MaxPlayers]float64 {
	var ev [engine.MaxPlayers]seatEvidence
	for _, a := range hist {
		m.add(&ev[a.seat], a.kind, a.nLegal, a.agree)
	}
	var out [engine.MaxPlayers]float64
	for s := 0; s < players; s++ {
		out[s] = math.Exp(math.Log(m.Prior) + ev[s].sharp - m.logLikelihood(ev[s]))
	}
	return out
}
