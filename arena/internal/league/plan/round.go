package plan

import (
	"slices"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
)

// Round returns the matches of round r (and their jobs), given the tables. history is the
// results of the league so far, which only the ladder reads (see LadderTables).
func (p *Plan) Round(r int, tables [][]string) ([]domain.LeagueMatch, []*domain.Match, []domain.Job, error) {
	text, err := p.RoundDeals(r)
	if err != nil {
		return nil, nil, nil, err
	}
	var places []domain.LeagueMatch
	var matches []*domain.Match
	var jobs []domain.Job
	for i, bots := range tables {
		spec := domain.MatchSpec{
			Rules: p.Rules, Bots: bots, Deals: p.Deals, Seed: p.roundSeed(r), Duplicate: p.Duplicate,
			DealsText: text, TimeControl: p.TimeControl, LeagueID: p.League,
		}
		plan, err := match.Plan(spec)
		if err != nil {
			return nil, nil, nil, err
		}
		// Every league and SPRT match commits to its deals before the first, as a stand-alone
		// one does. Hosts that schedule the same round each draw a nonce; the store keeps the
		// first host's match, commitment and all, and every host plays the stored one.
		m := &domain.Match{ID: p.MatchID(r, i), Spec: spec}
		if err := match.Commit(m); err != nil {
			return nil, nil, nil, err
		}
		matches = append(matches, m)
		places = append(places, domain.LeagueMatch{LeagueID: p.League, Seq: p.FirstPosition(r) + i, Round: r, MatchID: m.ID})
		jobs = append(jobs, Jobs(p.League, r, m.ID, plan, p.Rules.Players, p.Duplicate)...)
	}
	return places, matches, jobs, nil
}

// Jobs splits a match's tables into jobs: one duplicate group each in duplicate play, and
// otherwise a round of dealers (players deal sources, so every bot deals once per job).
func Jobs(league string, round int, matchID string, tables []match.Table, players int, duplicate bool) []domain.Job {
	per := 1
	if !duplicate {
		per = players
	}
	count := map[int]int{}
	last := -1
	for _, t := range tables {
		count[t.Group]++
		last = max(last, t.Group)
	}
	var jobs []domain.Job
	for g := 0; g <= last; g += per {
		j := domain.Job{LeagueID: league, Round: round, MatchID: matchID, FirstGroup: g, Groups: min(per, last+1-g)}
		for k := g; k < g+j.Groups; k++ {
			j.Deals += count[k]
		}
		jobs = append(jobs, j)
	}
	return jobs
}

// FixedTables returns the tables of a round of a round robin, a gauntlet or an SPRT (nil for
// a ladder, whose tables depend on results).
func (p *Plan) FixedTables(r int) [][]string {
	n := p.Rules.Players
	var out [][]string
	switch p.Format {
	case RoundRobin:
		for _, c := range combinations(len(p.Bots), n) {
			out = append(out, pick(p.Bots, c))
		}
	case Gauntlet:
		var field []string
		for _, b := range p.Bots {
			if b != p.Candidate {
				field = append(field, b)
			}
		}
		for _, c := range combinations(len(field), n-1) {
			out = append(out, append([]string{p.Candidate}, pick(field, c)...))
		}
	case SPRTFormat:
		combos := combinations(len(p.Field), n-1)
		others := pick(p.Field, combos[r%len(combos)])
		out = append(out, append([]string{p.Candidate}, others...), append([]string{p.Baseline}, others...))
	}
	return out
}

// combinations lists the k-subsets of 0..n-1 in lexicographic order.
func combinations(n, k int) [][]int {
	if k <= 0 || k > n {
		return nil
	}
	var out [][]int
	c := make([]int, k)
	for i := range c {
		c[i] = i
	}
	for {
		out = append(out, slices.Clone(c))
		i := k - 1
		for i >= 0 && c[i] == n-k+i {
			i--
		}
		if i < 0 {
			return out
		}
		c[i]++
		for j := i + 1; j < k; j++ {
			c[j] = c[j-1] + 1
		}
	}
}

func pick(names []string, idx []int) []string {
	out := make([]string, len(idx))
	for i, k := range idx {
		out[i] = names[k]
	}
	return out
}
