package plan

import (
	"iter"
	"math"
	"slices"

	"github.com/tapparena/tapp/arena/internal/rating"
)

// LadderTables chooses the tables of ladder round r from units, the results of the rounds
// before r−1 (see Units). Matchmaking favours the most uncertain ratings:
//
//  1. A Bradley–Terry fit of the units gives every bot a rating and a standard error; a bot
//     without results counts as more uncertain than any other.
//  2. Each table starts from the bot with the largest uncertainty, discounted by the tables
//     it already has this round: SE/√(1 + tables).
//  3. It is filled, one seat at a time, with the bot that maximises that bot's discounted
//     uncertainty times the closeness of the game, 4·p·(1 − p) for p the expected score
//     between its rating and the mean rating of the table so far — an uncertain bot learns
//     most from close games.
//  4. Fairness bounds both (see fairSeat): a bot is seated only while its matches (scheduled,
//     the matches of each bot in the rounds before r, plus its tables this round) stay within
//     a factor 1.5 of the fewest any bot has, so that an uncertain bot is not seated at every
//     table and each bot's figures come from a comparable field. A nil scheduled counts the
//     matches in units, which lag a round behind.
//
// Ties are broken by fewest matches played, then by a hash of the seed, the round and the
// bot's name, so the choice is a pure function of the plan and the results.
func (p *Plan) LadderTables(r int, units []Unit, scheduled map[string]int) [][]string {
	if scheduled == nil {
		scheduled = matchesPlayed(units)
	}
	return p.LadderTablesFromPairs(r, PairResults(units), scheduled)
}

// LadderTablesFromPairs is LadderTables from the pairwise results of the units (PairResults,
// in any order and summed or not: the fit sums them), as the store keeps them for a running
// league (Store.LadderPairs), and each bot's matches in the rounds before r.
func (p *Plan) LadderTablesFromPairs(r int, pairs []rating.PairResult, scheduled map[string]int) [][]string {
	return slices.Collect(p.LadderTableSeq(r, pairs, scheduled))
}

// LadderTableSeq yields the tables of LadderTablesFromPairs one at a time, each chosen when
// it is asked for: what a round holds while it is chosen does not grow with its matches.
func (p *Plan) LadderTableSeq(r int, pairs []rating.PairResult, scheduled map[string]int) iter.Seq[[]string] {
	return func(yield func([]string) bool) { p.ladderTables(r, pairs, scheduled, yield) }
}

func (p *Plan) ladderTables(r int, pairs []rating.PairResult, scheduled map[string]int, yield func([]string) bool) {
	n := p.Rules.Players
	ratingOf := map[string]float64{}
	seOf := map[string]float64{}
	if bt, err := rating.BradleyTerry(pairs, nil); err == nil {
		for i, b := range bt.Players {
			ratingOf[b], seOf[b] = bt.Ratings[i], bt.SE[i]
		}
	}
	uncertainty := func(b string) float64 {
		if se, ok := seOf[b]; ok && !math.IsNaN(se) && !math.IsInf(se, 0) {
			return se
		}
		return 1e6 // unrated: more uncertain than any rated bot, yet discounted like them
	}
	seated := map[string]int{}
	played := scheduled
	if played == nil {
		played = map[string]int{}
	}
	tie := func(b string) uint64 { return hashString(p.Seed, uint64(r), b) }
	better := func(a, b string, sa, sb float64) bool {
		if fa, fb := fairSeat(p.Bots, a, played, seated), fairSeat(p.Bots, b, played, seated); fa != fb {
			return fa
		}
		if sa != sb {
			return sa > sb
		}
		if ca, cb := played[a]+seated[a], played[b]+seated[b]; ca != cb {
			return ca < cb
		}
		return tie(a) > tie(b)
	}
	for range p.matchesPerRound() {
		var table []string
		in := map[string]bool{}
		for len(table) < n {
			best, bestScore := "", math.Inf(-1)
			for _, b := range p.Bots {
				if in[b] || !p.familyFits(table, b) {
					continue
				}
				score := uncertainty(b) / math.Sqrt(1+float64(seated[b]))
				if len(table) > 0 {
					mean := 0.0
					for _, t := range table {
						mean += ratingOf[t]
					}
					mean /= float64(len(table))
					e := rating.EloExpected(ratingOf[b], mean)
					score *= 4 * e * (1 - e)
				}
				if best == "" || better(b, best, score, bestScore) {
					best, bestScore = b, score
				}
			}
			table = append(table, best)
			in[best] = true
		}
		for _, b := range table {
			seated[b]++
		}
		if !yield(table) {
			return
		}
	}
}

// familyFits reports whether b may join table under the plan's FamilyCap.
func (p *Plan) familyFits(table []string, b string) bool {
	f := p.Families[b]
	if p.FamilyCap <= 0 || f == "" {
		return true
	}
	n := 0
	for _, t := range table {
		if p.Families[t] == f {
			n++
		}
	}
	return n < p.FamilyCap
}

// matchesPlayed counts each bot's matches among the units.
func matchesPlayed(units []Unit) map[string]int {
	seen := map[string]map[string]bool{}
	for _, u := range units {
		for _, b := range u.Bots {
			if seen[b] == nil {
				seen[b] = map[string]bool{}
			}
			seen[b][u.MatchID] = true
		}
	}
	out := make(map[string]int, len(seen))
	for b, ms := range seen {
		out[b] = len(ms)
	}
	return out
}

// fairSeat reports whether seating bot b at one more table keeps its matches within a factor
// 1.5 of the fewest any bot has (or one more than the fewest, while they are few).
func fairSeat(bots []string, b string, played, seated map[string]int) bool {
	fewest := -1
	for _, x := range bots {
		if c := played[x] + seated[x]; fewest < 0 || c < fewest {
			fewest = c
		}
	}
	return float64(played[b]+seated[b]+1) <= max(1.5*float64(fewest), float64(fewest+1))
}

func hashString(seed, round uint64, s string) uint64 {
	h := seed ^ 0x6c6164646572 ^ round*0x9e3779b97f4a7c15
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 0x100000001b3
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}
