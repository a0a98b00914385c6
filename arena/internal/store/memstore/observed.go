package memstore

import (
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/encode"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/engine"
)

// rebuildObserved fills in, as Sent, the request each observed decision of d (a bot in
// process handed the engine's observation, domain.DecisionRecord.Observed) stands for: the
// one the referee would have sent over a wire, built from the deal replayed and the
// decision's clock, and encoded as the arena encodes, as the SQL store rebuilds them from a
// record of format 2. The memory store keeps no request of an observed decision: they were
// most of a deal's heap. Its events are those since the seat's last request, as the referee
// counts them for a seat that streams none. A deal whose decisions do not replay (one stored
// by hand) keeps its observed decisions without requests.
func rebuildObserved(d *domain.DealRecord, rules engine.RuleSet) {
	k := 0
	for k < len(d.Decisions) && !d.Decisions[k].Observed {
		k++
	}
	if k == len(d.Decisions) {
		return
	}
	st, err := engine.NewState(rules, d.Deal, d.Options)
	if err != nil {
		return
	}
	gameID := referee.GameID(d.MatchID, d.Number)
	var req referee.Request
	var since [engine.MaxPlayers]int // the log's length at each seat's last request
	for i := range d.Decisions {
		x := &d.Decisions[i]
		if st.Terminal() || x.Index != i || st.ToMove() != x.Seat {
			return
		}
		if x.Observed {
			req.Build(st, gameID, x.RequestID, x.Deadline, x.Overage, since[x.Seat])
			x.Sent = encode.AppendRequest(nil, &req)
		}
		if x.RequestID != "" {
			since[x.Seat] = st.NumEvents()
		}
		if st.Apply(x.Action) != nil {
			return
		}
	}
}
