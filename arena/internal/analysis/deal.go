package analysis

import (
	"fmt"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/bots/doubledummy"
	"github.com/tapparena/tapp/engine"
)

// Version names the analysis method: stored analyses of another version (or other Options)
// are computed again. Raise it whenever a result could change.
const Version = 1

// RamschTricks is how many of a Ramsch's last tricks are analysed: the paranoid search of a
// whole Ramsch takes seconds to minutes a card (docs/BENCHMARKS.md, ramsch-exact).
const RamschTricks = 6

// ParTolerance is how closely a modern point contract's par card points are computed: only
// 61 scores there, and the exact points cost 50–100 times the verdict (docs/BENCHMARKS.md).
const ParTolerance = 8

// Options change what an analysis computes.
type Options struct {
	// BidSamples: 0 values contracts with full information; K > 0 over K deals drawn from
	// what the bidder knew (see the package documentation).
	BidSamples int
	// Seed seeds those draws (with the match and deal number).
	Seed uint64
}

// Key identifies the method and options; an analysis is stored under it.
func (o Options) Key() string {
	return fmt.Sprintf("v%d bid-samples=%d seed=%d", Version, o.BidSamples, o.Seed)
}

// Deal is the analysis of one deal.
type Deal struct {
	Match     string     `json:"match,omitempty"`
	Number    int        `json:"deal"`
	Contract  string     `json:"contract"`        // "solo:C", "heartsolo tout", "ramsch", "thrown in"
	Declarer  int        `json:"declarer"`        // -1 without one
	Unit      string     `json:"unit"`            // the rule set's unit: "cents" or "game points"
	Par       *Par       `json:"par"`             // nil for Ramsch and a thrown-in deal
	Result    int        `json:"declarer_payoff"` // the declarer's actual payoff, ante left out (0 without declarer)
	Seating   []string   `json:"seating"`
	Decisions []Decision `json:"decisions"` // the analysed cards and every seat's last bid, in deal order
	Bidding   []Bid      `json:"bidding,omitempty"`
}

// Par is a deal's result with perfect play by every seat from the first lead.
type Par struct {
	Goal string `json:"goal"` // "points", "all-tricks" or "no-trick"
	// CardPoints is the declarer's card points (the tapp or lay-away included where it counts
	// for him); point contracts only.
	// In modern, where only 61 scores, they are known within ParTolerance: between
	// CardPointsLow and CardPointsHigh (CardPoints is the middle); elsewhere exactly.
	CardPoints     *int    `json:"card_points,omitempty"`
	CardPointsLow  int     `json:"card_points_low,omitempty"`
	CardPointsHigh int     `json:"card_points_high,omitempty"`
	Made           bool    `json:"made"`
	Payoff         float64 `json:"payoff"` // the declarer's payoff in Unit
}

// Decision is one analysed decision.
type Decision struct {
	Index  int    `json:"index"` // the decision's number in the deal (as in tapp replay)
	Seat   int    `json:"seat"`
	Bot    string `json:"bot"`
	Kind   string `json:"kind"`   // "card" or "bid"
	Action string `json:"action"` // the card played, or what the bidder did
	// Loss against par, never negative: a card's (in Unit, or in card points where Unit says
	// so) or the bidding regret.
	Loss float64 `json:"loss"`
	Unit string  `json:"unit,omitempty"` // "card points" where the loss is not in the deal's unit (Ramsch)
	// LossPoints: the card points lost, where they are known exactly (the older variants'
	// point contracts; Ramsch).
	LossPoints *int `json:"loss_points,omitempty"`
	// Best: the cards that keep par, or the best contract.
	Best []string `json:"best,omitempty"`
	// ParBefore and ParAfter: the seat's payoff under perfect play before and after.
	ParBefore float64 `json:"par_before"`
	ParAfter  float64 `json:"par_after"`
}

// Bid is the bidding regret of one seat.
type Bid struct {
	Seat      int     `json:"seat"`
	Bot       string  `json:"bot"`
	Did       string  `json:"did"`        // "declared solo:C", "passed", "named bettel"
	DidValue  float64 `json:"did_value"`  // what that was worth, in Unit
	Best      string  `json:"best"`       // the best contract, or "pass"
	BestValue float64 `json:"best_value"` // what it was worth
	Regret    float64 `json:"regret"`
}

// Analyzer analyses deals with one solver; it is not safe for concurrent use (one per
// goroutine). Its transposition table is kept from deal to deal.
type Analyzer struct {
	opts   Options
	solver *doubledummy.Solver
	buf    []doubledummy.MoveValue
	// Nodes counts the search nodes spent, by part, since the analyzer was made.
	Nodes struct{ Par, Bidding, Cards uint64 }
}

// spent adds the nodes searched since start to *to.
func (a *Analyzer) spent(start uint64, to *uint64) { *to += a.solver.Nodes() - start }

// NewAnalyzer returns an analyzer with its own solver (8 MiB of transposition table).
func NewAnalyzer(o Options) *Analyzer {
	return &Analyzer{opts: o, solver: doubledummy.NewSolver(doubledummy.SolverOptions{})}
}

// unitOf is the rule set's unit.
func unitOf(r engine.RuleSet) string {
	if r.Variant == engine.Modern {
		return "cents"
	}
	return "game points"
}

// contractText is "solo:C", "heartsolo tout", "ramsch" or "thrown in".
func contractText(o engine.Outcome) string {
	switch {
	case o.ThrownIn || o.Contract == engine.NoContract:
		return "thrown in"
	case o.Contract == engine.Ramsch:
		return "ramsch"
	}
	text := o.Contract.String()
	if o.Trump != engine.NoSuit && (o.Contract == engine.Solo || o.Contract == engine.Rufer || o.Contract == engine.Durch) {
		text += ":" + o.Trump.String()
	}
	if o.Tout {
		text += " tout"
	}
	return text
}

// Analyze analyses one recorded deal of a match with rule set r. The moves are replayed with
// the engine; a record that does not replay is an error.
func (a *Analyzer) Analyze(r engine.RuleSet, rec *domain.DealRecord) (*Deal, error) {
	st, err := engine.NewState(r, rec.Deal, rec.Options)
	if err != nil {
		return nil, fmt.Errorf("deal %d: %w", rec.Number, err)
	}
	out := &Deal{Match: rec.MatchID, Number: rec.Number, Declarer: -1, Unit: unitOf(r),
		Seating: append([]string(nil), rec.Seating...), Decisions: []Decision{}}
	bidder := newBidding(r, rec)
	parDone := false
	for k, mv := range rec.Moves {
		if st.Terminal() {
			return nil, fmt.Errorf("deal %d: move %d (%s) after the end", rec.Number, k, mv)
		}
		if st.ToMove() != mv.Seat {
			return nil, fmt.Errorf("deal %d: move %d is %s's, but %s is to move", rec.Number, k, mv.Seat, st.ToMove())
		}
		switch st.Decision() {
		case engine.DecideBid, engine.DecideContract:
			bidder.see(st, k, mv)
		case engine.DecideCard:
			if !parDone {
				parDone = true
				n0 := a.solver.Nodes()
				err := a.par(st, out)
				a.spent(n0, &a.Nodes.Par)
				if err != nil {
					return nil, fmt.Errorf("deal %d: %w", rec.Number, err)
				}
			}
			n0 := a.solver.Nodes()
			d, ok, err := a.card(st, k, mv, rec)
			a.spent(n0, &a.Nodes.Cards)
			if err != nil {
				return nil, fmt.Errorf("deal %d, decision %d: %w", rec.Number, k, err)
			}
			if ok {
				out.Decisions = append(out.Decisions, d)
			}
		}
		if err := st.Apply(mv.Action); err != nil {
			return nil, fmt.Errorf("deal %d: move %d (%s): %w", rec.Number, k, mv, err)
		}
	}
	if !st.Terminal() {
		return nil, fmt.Errorf("deal %d: the record ends before the deal does", rec.Number)
	}
	o := st.Outcome()
	out.Contract = contractText(o)
	if o.Declarer != engine.NoSeat {
		out.Declarer = int(o.Declarer)
		out.Result = o.Payoff[o.Declarer]
		if r.Pot && int(o.Declarer) == r.Players-1 {
			out.Result += 2 // the dealer's ante
		}
	}
	n0 := a.solver.Nodes()
	bids, err := bidder.regrets(a, o, out.Par, rec)
	a.spent(n0, &a.Nodes.Bidding)
	if err != nil {
		return nil, fmt.Errorf("deal %d: bidding: %w", rec.Number, err)
	}
	out.Bidding = bids
	out.Decisions = mergeBids(out.Decisions, bids, bidder.last)
	return out, nil
}

// mergeBids adds each seat's bidding regret as a decision at its last bid, in deal order.
func mergeBids(cards []Decision, bids []Bid, last map[int]int) []Decision {
	var all []Decision
	for _, b := range bids {
		d := Decision{Index: last[b.Seat], Seat: b.Seat, Bot: b.Bot, Kind: "bid", Action: b.Did,
			Loss: b.Regret, Best: []string{b.Best}, ParBefore: b.BestValue, ParAfter: b.DidValue}
		all = append(all, d)
	}
	// bids come before every card
	sortByIndex(all)
	return append(all, cards...)
}

func sortByIndex(ds []Decision) {
	for i := 1; i < len(ds); i++ {
		for j := i; j > 0 && ds[j].Index < ds[j-1].Index; j-- {
			ds[j], ds[j-1] = ds[j-1], ds[j]
		}
	}
}

// par solves the position at the first lead.
func (a *Analyzer) par(st *engine.State, out *Deal) error {
	c := st.Contract()
	if c == engine.Ramsch {
		return nil
	}
	p, err := doubledummy.PositionOf(st, st.Declarer())
	if err != nil {
		return err
	}
	r := st.Rules()
	decl := int(st.Declarer())
	pay := func(v int) float64 { return doubledummy.Payoff(r, st.Options(), c, st.Tout(), decl, decl, v) }
	par := &Par{Goal: p.Goal.String()}
	s := a.solver
	switch p.Goal {
	case doubledummy.GoalPoints:
		if r.Variant == engine.Modern {
			// only 61 scores: the card points within ParTolerance (61 itself settled exactly)
			lo, hi := s.Approx(&p, ParTolerance, 61)
			par.Made = lo >= 61
			v := (lo + hi + 1) / 2
			if !par.Made {
				v = min(v, 60)
			}
			par.CardPoints, par.CardPointsLow, par.CardPointsHigh = &v, lo, hi
			par.Payoff = pay(lo)
			break
		}
		v := s.Value(&p)
		par.CardPoints, par.CardPointsLow, par.CardPointsHigh = &v, v, v
		par.Made = v >= 61
		par.Payoff = pay(v)
	case doubledummy.GoalAllTricks:
		h := r.HandSize()
		par.Made = s.DeclarerWins(&p)
		par.Payoff = pay(h - 1)
		if par.Made {
			par.Payoff = pay(h)
		}
	case doubledummy.GoalNoTrick:
		par.Made = s.DeclarerWins(&p)
		par.Payoff = pay(1)
		if par.Made {
			par.Payoff = pay(0)
		}
	}
	out.Par = par
	return nil
}
