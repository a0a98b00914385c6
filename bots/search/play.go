package search

import (
	"github.com/tapparena/tapp/bots/doubledummy"
	"github.com/tapparena/tapp/bots/internal/pimc"
	"github.com/tapparena/tapp/engine"
)

// card decides a card: every sampled deal is solved for every legal card, and the card with
// the best mean payoff is played (PIMC). What the solver is asked is pimc.CardQuery's; in
// Ramsch the first ramschHeuristicTricks tricks are the heuristic bot's, the paranoid search
// being both too slow and too pessimistic there.
const ramschHeuristicTricks = 3

func (d *decision) card() (engine.Action, bool) {
	obs := d.obs
	actions, index := pimc.CardActions(obs.Legal)
	if len(actions) == 0 {
		return engine.Action{}, false
	}
	if obs.Contract == engine.Ramsch && len(obs.Tricks) < ramschHeuristicTricks {
		return engine.Action{}, false // too early for the solver: the heuristic bot plays
	}
	q := pimc.NewCardQuery(obs)
	mean, n := d.evaluate(len(actions), func(st *engine.State, s *doubledummy.Solver, out []float64) bool {
		var mvBuf [16]doubledummy.MoveValue
		p, err := doubledummy.PlayPosition(st, obs)
		if err != nil {
			return false
		}
		buf := q.MoveValues(s, &p, mvBuf[:0])
		if s.Aborted() || len(buf) != len(actions) {
			return false
		}
		for _, mv := range buf {
			out[index[mv.Card]] = q.Utility(mv.Value)
		}
		return true
	})
	return d.choose(mean, n, actions)
}
