package league

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tapparena/tapp/arena"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/rating"
	"github.com/tapparena/tapp/engine"
)

// Plan is what decides a league's schedule and results. The schedule is a sequence of
// rounds; a round is a set of matches, each a table of bots playing Deals deal sources
// (each under every seating in duplicate play).
//
//   - round-robin: every round plays every table (every combination of Players bots).
//   - gauntlet: every round plays every table of the candidate with Players−1 others.
//   - ladder: every round plays MatchesPerRound tables chosen by matchmaking from the results
//     of the rounds before the previous one (see LadderTables), so that a round can be
//     planned while the one before it is still being played, and the choice depends only
//     on finished rounds: the schedule is the same however the league is interrupted.
//   - sprt: every round plays the candidate and the baseline, each with the same field bots
//     and on the same deals (see SPRTScores).
//
// All matches of a round play the same deals: seeded from Seed and the round number, or a
// window of the deal file that moves on by Deals each round.
type Plan struct {
	League          string
	Rules           engine.RuleSet
	Format          string
	Bots            []string // every bot, in the league file's order
	Candidate       string   // gauntlet, sprt
	Baseline        string   // sprt
	Field           []string // sprt: the bots the candidate and the baseline meet
	Rounds          int      // rounds to play; 0: no limit (ladder, sprt)
	MatchesPerRound int      // ladder (0: bots / players, at least 1)
	Deals           int      // deal sources per match
	Duplicate       bool
	DealsText       string
	Seed            uint64
	TimeControl     arena.TimeControl
	Families        map[string]string // bot → family (league file: family), for the board and FamilyCap
	FamilyCap       int               // ladder: at most this many bots of one family per table (0: no cap)
}

// Fingerprint is the canonical text of the plan, stored with the league: a league is resumed
// (or joined by another host) only with the same fingerprint. Rounds is left out, so that a
// finished league can be given more rounds.
func (p *Plan) Fingerprint() string {
	deals := ""
	if p.DealsText != "" {
		sum := sha256.Sum256([]byte(p.DealsText))
		deals = hex.EncodeToString(sum[:8])
	}
	b, _ := json.Marshal(struct {
		Rules           string   `json:"rules"`
		Format          string   `json:"format"`
		Bots            []string `json:"bots"`
		Candidate       string   `json:"candidate,omitempty"`
		Baseline        string   `json:"baseline,omitempty"`
		Field           []string `json:"field,omitempty"`
		MatchesPerRound int      `json:"matches_per_round,omitempty"`
		Deals           int      `json:"deals"`
		Duplicate       bool     `json:"duplicate"`
		DealsFile       string   `json:"deals_file_sha256,omitempty"`
		Seed            uint64   `json:"seed"`
		PerDecisionMS   int64    `json:"per_decision_ms"`
		OverageMS       int64    `json:"overage_ms"`
		Strikes         int      `json:"strikes"`
		// Left out when not set, so that a league file without families keeps its fingerprint.
		Families  map[string]string `json:"families,omitempty"`
		FamilyCap int               `json:"family_cap,omitempty"`
	}{p.Rules.String(), p.Format, p.Bots, p.Candidate, p.Baseline, p.Field, p.matchesPerRound(), p.Deals, p.Duplicate,
		deals, p.Seed, p.TimeControl.PerDecision.Milliseconds(), p.TimeControl.Overage.Milliseconds(), p.TimeControl.MaxStrikes,
		p.Families, p.FamilyCap})
	return string(b)
}

// DiffFingerprints says in words how two fingerprints differ (for the error that refuses to
// resume a league with another plan).
func DiffFingerprints(stored, now string) string {
	var a, b map[string]any
	if json.Unmarshal([]byte(stored), &a) != nil || json.Unmarshal([]byte(now), &b) != nil {
		return "the stored plan is " + stored
	}
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var diffs []string
	for _, k := range keys {
		x, _ := json.Marshal(a[k])
		y, _ := json.Marshal(b[k])
		if string(x) != string(y) {
			diffs = append(diffs, fmt.Sprintf("%s was %s, is now %s", k, x, y))
		}
	}
	return strings.Join(diffs, "; ")
}

// Unbounded reports whether the league runs until stopped.
func (p *Plan) Unbounded() bool { return p.Rounds <= 0 }

// ahead is how many rounds may be scheduled beyond the last complete one.
func (p *Plan) ahead() int {
	switch p.Format {
	case Ladder, SPRTFormat:
		return 2
	}
	return max(p.Rounds, 1)
}

func (p *Plan) matchesPerRound() int {
	switch p.Format {
	case RoundRobin:
		return len(combinations(len(p.Bots), p.Rules.Players))
	case Gauntlet:
		return len(combinations(len(p.Bots)-1, p.Rules.Players-1))
	case SPRTFormat:
		return 2
	}
	if p.MatchesPerRound > 0 {
		return p.MatchesPerRound
	}
	return max(len(p.Bots)/p.Rules.Players, 1)
}

// TablesPerMatch is the number of deals each match plays.
func (p *Plan) TablesPerMatch() int {
	n := p.Deals
	if p.DealsText != "" {
		if deals, err := engine.ParseDeals(p.Rules, p.DealsText); err == nil && (n <= 0 || n > len(deals)) {
			n = len(deals)
		}
	}
	if p.Duplicate {
		return n * len(match.Seatings(p.Rules.Players))
	}
	return n
}

// DealsPerRound is the number of deals a round plays.
func (p *Plan) DealsPerRound() int { return p.matchesPerRound() * p.TablesPerMatch() }

// MatchID names match i of round r.
func (p *Plan) MatchID(r, i int) string { return fmt.Sprintf("%s-r%04d-m%03d", p.League, r, i) }

// roundSeed is the deal seed of round r: the plan's seed for round 0, then a fixed odd step
// per round (the deal generator mixes seeds, so neighbouring seeds give unrelated deals).
func (p *Plan) roundSeed(r int) uint64 { return p.Seed + uint64(r)*0x9e3779b97f4a7c15 }

// roundDeals returns the deal-file text of round r: the window of Deals deals that starts at
// r·Deals (wrapping around the file), or "" when the league deals from seeds.
func (p *Plan) roundDeals(r int) (string, error) {
	if p.DealsText == "" {
		return "", nil
	}
	deals, err := engine.ParseDeals(p.Rules, p.DealsText)
	if err != nil {
		return "", err
	}
	if p.Deals <= 0 || p.Deals >= len(deals) {
		return p.DealsText, nil
	}
	var b strings.Builder
	for k := range p.Deals {
		b.WriteString(deals[(r*p.Deals+k)%len(deals)].Format(p.Rules))
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// Round returns the matches of round r (and their jobs), given the tables. history is the
// results of the league so far, which only the ladder reads (see LadderTables).
func (p *Plan) Round(r int, tables [][]string) ([]arena.LeagueMatch, []*arena.Match, []arena.Job, error) {
	text, err := p.roundDeals(r)
	if err != nil {
		return nil, nil, nil, err
	}
	per := p.matchesPerRound()
	var places []arena.LeagueMatch
	var matches []*arena.Match
	var jobs []arena.Job
	for i, bots := range tables {
		spec := arena.MatchSpec{
			Rules: p.Rules, Bots: bots, Deals: p.Deals, Seed: p.roundSeed(r), Duplicate: p.Duplicate,
			DealsText: text, TimeControl: p.TimeControl, LeagueID: p.League,
		}
		plan, err := match.Plan(spec)
		if err != nil {
			return nil, nil, nil, err
		}
		m := &arena.Match{ID: p.MatchID(r, i), Spec: spec}
		matches = append(matches, m)
		places = append(places, arena.LeagueMatch{LeagueID: p.League, Seq: r*per + i, Round: r, MatchID: m.ID})
		jobs = append(jobs, Jobs(p.League, r, m.ID, plan, p.Rules.Players, p.Duplicate)...)
	}
	return places, matches, jobs, nil
}

// Jobs splits a match's tables into jobs: one duplicate group each in duplicate play, and
// otherwise a round of dealers (players deal sources, so every bot deals once per job).
func Jobs(league string, round int, matchID string, tables []match.Table, players int, duplicate bool) []arena.Job {
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
	var jobs []arena.Job
	for g := 0; g <= last; g += per {
		j := arena.Job{LeagueID: league, Round: round, MatchID: matchID, FirstGroup: g, Groups: min(per, last+1-g)}
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
	var tables [][]string
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
		tables = append(tables, table)
	}
	return tables
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

// sortedKeys returns a map's keys in order.
func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
