package plan

import (
	"iter"
	"slices"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
)

// RoundPart is a part of a round as it is stored: whole matches with their places and all
// their jobs, at most about a chunk's jobs at a time (RoundParts), so that scheduling a round
// holds no more than one part whatever the round's size.
type RoundPart struct {
	Places  []domain.LeagueMatch
	Matches []*domain.Match
	Jobs    []domain.Job
}

// RoundChunk is the number of jobs a RoundPart holds at most (unless one match has more).
const RoundChunk = 2048

// RoundParts yields round r's matches with their jobs (see RoundPart), given its tables, in
// parts of about chunk jobs (chunk ≤ 0: the whole round in one part). A part ends after a
// whole match, so that a stored match always has all its jobs. The first part holds about
// a sixteenth of chunk, and each next one twice the last up to chunk: a league plays a part's
// jobs as soon as it is stored, so a large round starts playing at once (the first of 2,048
// jobs took 2.4 s to make and store at load 9), and its later parts share their transactions'
// cost among many jobs.
func (p *Plan) RoundParts(r int, tables iter.Seq[[]string], chunk int) iter.Seq2[RoundPart, error] {
	return func(yield func(RoundPart, error) bool) {
		text, whole, err := p.roundDeals(r)
		if err != nil {
			yield(RoundPart{}, err)
			return
		}
		var part RoundPart
		size := max(chunk/16, 1) // this part's size
		i := 0
		for bots := range tables {
			spec := domain.MatchSpec{
				Rules: p.Rules, Bots: bots, Deals: p.Deals, Seed: p.roundSeed(r), Duplicate: p.Duplicate,
				DealsText: text, TimeControl: p.TimeControl, LeagueID: p.League, Board: p.Board,
			}
			if whole {
				spec.Deals = 0 // a file of fewer than Deals deals is played whole
			}
			sched, err := match.NewSchedule(spec)
			if err != nil {
				yield(RoundPart{}, err)
				return
			}
			// Every league and SPRT match commits to its deals before the first, as a stand-alone
			// one does. Hosts that schedule the same round each draw a nonce; the store keeps the
			// first host's match, commitment and all, and every host plays the stored one.
			m := &domain.Match{ID: p.MatchID(r, i), Spec: spec}
			if err := match.Commit(m); err != nil {
				yield(RoundPart{}, err)
				return
			}
			part.Matches = append(part.Matches, m)
			part.Places = append(part.Places, domain.LeagueMatch{LeagueID: p.League, Seq: p.FirstPosition(r) + i, Round: r, MatchID: m.ID})
			for j := range JobsOf(p.League, r, m.ID, sched, p.Rules.Players, p.Duplicate) {
				part.Jobs = append(part.Jobs, j)
			}
			i++
			if chunk > 0 && len(part.Jobs) >= size {
				if !yield(part, nil) {
					return
				}
				part, size = RoundPart{}, min(2*size, chunk)
			}
		}
		if len(part.Matches) > 0 {
			yield(part, nil)
		}
	}
}

// Round returns the matches of round r (and their jobs), given the tables, all at once: for
// tests and small rounds (the league's scheduler stores RoundParts).
func (p *Plan) Round(r int, tables [][]string) ([]domain.LeagueMatch, []*domain.Match, []domain.Job, error) {
	var all RoundPart
	for part, err := range p.RoundParts(r, slices.Values(tables), 0) {
		if err != nil {
			return nil, nil, nil, err
		}
		all.Places = append(all.Places, part.Places...)
		all.Matches = append(all.Matches, part.Matches...)
		all.Jobs = append(all.Jobs, part.Jobs...)
	}
	return all.Places, all.Matches, all.Jobs, nil
}

// JobsOf splits a match's tables into jobs: one duplicate group each in duplicate play, and
// otherwise a round of dealers (players deal sources, so every bot deals once per job).
func JobsOf(league string, round int, matchID string, s *match.Schedule, players int, duplicate bool) iter.Seq[domain.Job] {
	per := 1
	if !duplicate {
		per = players
	}
	return func(yield func(domain.Job) bool) {
		groups := s.Groups()
		for g := 0; g < groups; g += per {
			n := min(per, groups-g)
			j := domain.Job{LeagueID: league, Round: round, MatchID: matchID, FirstGroup: g, Groups: n, Deals: n * s.PerGroup()}
			if !yield(j) {
				return
			}
		}
	}
}

// jobsPerMatch is the number of jobs of each of the plan's matches (JobsOf).
func (p *Plan) jobsPerMatch() int {
	per := 1
	if !p.Duplicate {
		per = p.Rules.Players
	}
	groups := p.TablesPerMatch()
	if p.Duplicate {
		groups /= len(match.Seatings(p.Rules.Players))
	}
	return (groups + per - 1) / per
}

// JobsPerRound is the number of jobs of a round: what a round fully scheduled holds.
func (p *Plan) JobsPerRound() int { return p.matchesPerRound() * p.jobsPerMatch() }

// FixedTables returns the tables of a round of a round robin, a gauntlet or an SPRT (nil for
// a ladder, whose tables depend on results), all at once (FixedTableSeq yields them).
func (p *Plan) FixedTables(r int) [][]string { return slices.Collect(p.FixedTableSeq(r)) }

// FixedTableSeq yields the tables of a round of a round robin, a gauntlet or an SPRT (none
// for a ladder), each made as it is asked for.
func (p *Plan) FixedTableSeq(r int) iter.Seq[[]string] {
	n := p.Rules.Players
	return func(yield func([]string) bool) {
		switch p.Format {
		case RoundRobin:
			for c := range combinationSeq(len(p.Bots), n) {
				if !yield(pick(p.Bots, c)) {
					return
				}
			}
		case Gauntlet:
			var field []string
			for _, b := range p.Bots {
				if b != p.Candidate {
					field = append(field, b)
				}
			}
			for c := range combinationSeq(len(field), n-1) {
				if !yield(append([]string{p.Candidate}, pick(field, c)...)) {
					return
				}
			}
		case SPRTFormat:
			k := binomial(len(p.Field), n-1)
			if k <= 0 {
				return
			}
			var others []string
			i := 0
			for c := range combinationSeq(len(p.Field), n-1) {
				if i == r%k {
					others = pick(p.Field, c)
					break
				}
				i++
			}
			if yield(append([]string{p.Candidate}, others...)) {
				yield(append([]string{p.Baseline}, others...))
			}
		}
	}
}

// combinationSeq yields the k-subsets of 0..n-1 in lexicographic order (the slice is reused:
// copy it to keep it).
func combinationSeq(n, k int) iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		if k <= 0 || k > n {
			return
		}
		c := make([]int, k)
		for i := range c {
			c[i] = i
		}
		for {
			if !yield(c) {
				return
			}
			i := k - 1
			for i >= 0 && c[i] == n-k+i {
				i--
			}
			if i < 0 {
				return
			}
			c[i]++
			for j := i + 1; j < k; j++ {
				c[j] = c[j-1] + 1
			}
		}
	}
}

// binomial is the number of k-subsets of n things (0 when there are none), saturating at
// the largest int rather than overflowing.
func binomial(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	k = min(k, n-k)
	out := 1
	for i := 1; i <= k; i++ {
		next := out * (n - k + i)
		if next/(n-k+i) != out {
			return int(^uint(0) >> 1)
		}
		out = next / i
	}
	return out
}

func pick(names []string, idx []int) []string {
	out := make([]string, len(idx))
	for i, k := range idx {
		out[i] = names[k]
	}
	return out
}
