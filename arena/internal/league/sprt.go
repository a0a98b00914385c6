package league

import (
	"fmt"
	"slices"

	"github.com/tapparena/tapp/arena"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// SPRT plan: "is the candidate B stronger than the baseline A?" is asked by playing, in each
// round, two duplicate matches on the same deals: B with field bots and A with the same field
// bots, B in A's table position, so B holds exactly the cards A held against opponents that
// hold the same cards and seats. A pair is one duplicate group of each: the scored unit. Its
// score compares B's total over the group's seatings with A's: 1 when B won more, ½ when
// equal, 0 when less — a bounded score that the heavy tail of a few big contracts cannot
// dominate. The scores feed rating.SPRT (normalized Elo, fishtest-style).
//
// Pairs are taken in schedule order (round, group), and only the complete prefix counts, so
// the decision is reached at the same pair however the test is interrupted and resumed.

// SPRTPair is one duplicate group played by the candidate and by the baseline.
type SPRTPair struct {
	Round, Group int
	Candidate    int64   // the candidate's total over the group
	Baseline     int64   // the baseline's total over the same deals and seatings
	Deals        int     // deals per side
	Score        float64 // 1, ½ or 0 from the candidate's point of view
}

// Diff is the candidate's advantage per deal in this pair.
func (p SPRTPair) Diff() float64 { return float64(p.Candidate-p.Baseline) / float64(p.Deals) }

// NewSPRTPlan returns the plan of an SPRT league: candidate and baseline against the field,
// in duplicate play, deals deal sources per match and round, without a round limit.
func NewSPRTPlan(league string, base Plan, candidate, baseline string, field []string) (*Plan, error) {
	p := base
	p.League, p.Format, p.Candidate, p.Baseline = league, SPRTFormat, candidate, baseline
	p.Field = slices.Clone(field)
	p.Duplicate, p.Rounds = true, 0
	if candidate == baseline {
		return nil, fmt.Errorf("candidate and baseline are the same bot %q", candidate)
	}
	if len(field) < p.Rules.Players-1 {
		return nil, fmt.Errorf("a table of %d needs at least %d field bots, got %d", p.Rules.Players, p.Rules.Players-1, len(field))
	}
	seen := map[string]bool{candidate: true, baseline: true}
	p.Bots = []string{candidate, baseline}
	for _, f := range field {
		if seen[f] {
			return nil, fmt.Errorf("bot %q is listed twice (candidate, baseline and field must differ)", f)
		}
		seen[f] = true
		p.Bots = append(p.Bots, f)
	}
	if p.Deals <= 0 {
		p.Deals = DefaultDeals
	}
	return &p, nil
}

// SPRTPairs returns the complete prefix of the pairs of an SPRT league, in schedule order.
func SPRTPairs(p *Plan, matches []arena.Match, rows []arena.ResultRow) []SPRTPair {
	byID := make(map[string]*arena.Match, len(matches))
	for i := range matches {
		byID[matches[i].ID] = &matches[i]
	}
	type key struct {
		match string
		group int
	}
	units := map[key]Unit{}
	for _, u := range Units(byID, rows) {
		units[key{u.MatchID, u.Group}] = u
	}
	total := func(u Unit, bot string) int64 {
		if i := slices.Index(u.Bots, bot); i >= 0 {
			return u.Net[i]
		}
		return 0
	}
	var out []SPRTPair
	for r := 0; ; r++ {
		cm, bm := byID[p.MatchID(r, 0)], byID[p.MatchID(r, 1)]
		if cm == nil || bm == nil {
			return out
		}
		groups := p.TablesPerMatch() / len(match.Seatings(p.Rules.Players))
		for g := range groups {
			cu, ok1 := units[key{cm.ID, g}]
			bu, ok2 := units[key{bm.ID, g}]
			if !ok1 || !ok2 || !cu.Complete || !bu.Complete {
				return out
			}
			pair := SPRTPair{Round: r, Group: g, Candidate: total(cu, p.Candidate), Baseline: total(bu, p.Baseline),
				Deals: cu.Deals, Score: 0.5}
			switch {
			case pair.Candidate > pair.Baseline:
				pair.Score = 1
			case pair.Candidate < pair.Baseline:
				pair.Score = 0
			}
			out = append(out, pair)
		}
	}
}

// SPRTSummary is the state of a test after some pairs.
type SPRTSummary struct {
	Report rating.SPRTReport
	Pairs  int
	// Diff is the candidate's advantage in payoff per deal over the baseline, with its 95%
	// interval, one value per pair.
	Diff rating.Interval
	// Elo is the score of the pairs as an Elo difference (and normalized Elo) with its margin.
	Elo         rating.EloEstimate
	W, D, L     int
	DecidedPair int // pairs used for the decision (0 while continuing)
}

// RunSPRT feeds the pairs, in order, to a fresh test and stops at the first decision.
func RunSPRT(pairs []SPRTPair, nelo0, nelo1, alpha, beta float64) (SPRTSummary, error) {
	t, err := rating.NewSPRT(nelo0, nelo1, alpha, beta)
	if err != nil {
		return SPRTSummary{}, err
	}
	var s SPRTSummary
	var diffs, scores []float64
	for _, p := range pairs {
		if err := t.AddScores(p.Score); err != nil {
			return s, err
		}
		diffs = append(diffs, p.Diff())
		scores = append(scores, p.Score)
		switch p.Score {
		case 1:
			s.W++
		case 0:
			s.L++
		default:
			s.D++
		}
		if t.Status() != rating.SPRTContinue {
			s.DecidedPair = t.N()
			break
		}
	}
	s.Report, s.Pairs = t.Report(), t.N()
	s.Diff = rating.CentsPerDeal(diffs)
	s.Elo, err = rating.EloFromScores(scores)
	return s, err
}
