// Package plan decides a league's schedule: the Plan (what a league file or an SPRT asks for),
// its fingerprint, the tables and deals of every round, the jobs a match is split into, and
// the ladder's matchmaking from the results of finished rounds. It is pure: it reads no store
// and plays nothing, so the schedule is a function of the plan and the stored results.
package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
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
//     and on the same deals (see NewSPRT and the sprt package).
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
	TimeControl     domain.TimeControl
	Families        map[string]string // bot → family (league file: family), for the board and FamilyCap
	FamilyCap       int               // ladder: at most this many bots of one family per table (0: no cap)
	// Ladder is the standing ladder the league is part of (its epochs and gauntlets): a pause
	// of the ladder pauses the league too. Board is the board its matches count on instead of
	// the league's own (the ladder's, for its epochs). Neither is in the fingerprint: they
	// say where the league belongs, not what it plays.
	Ladder, Board string
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
	b, _ := json.Marshal(Stored{p.Rules.String(), p.Format, p.Bots, p.Candidate, p.Baseline, p.Field, p.matchesPerRound(), p.Deals, p.Duplicate,
		deals, p.Seed, p.TimeControl.PerDecision.Milliseconds(), p.TimeControl.Overage.Milliseconds(), p.TimeControl.MaxStrikes,
		p.Families, p.FamilyCap, bankOf(p.TimeControl)})
	return string(b)
}

// bankOf is the clock scope as the fingerprint keeps it: "match", or nothing for a game's
// (the default), so that the fingerprints of leagues stored before keep their text.
func bankOf(tc domain.TimeControl) string {
	if tc.PerMatch() {
		return string(domain.ClockPerMatch)
	}
	return ""
}

// Stored is a plan as its fingerprint keeps it with the league (domain.League.Plan): what a
// reader of a stored league (its leaderboard's families, its status) learns of its plan.
// Its fields are the fingerprint's, in order: changing one changes every fingerprint.
type Stored struct {
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
	Bank      string            `json:"bank,omitempty"` // "match" for one clock per match; left out for a game's
}

// ParseStored reads a league's stored fingerprint (Plan.Fingerprint).
func ParseStored(fingerprint string) (*Stored, error) {
	var s Stored
	if err := json.Unmarshal([]byte(fingerprint), &s); err != nil {
		return nil, fmt.Errorf("the stored plan cannot be read: %w", err)
	}
	return &s, nil
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

// The largest schedules a plan may ask for: what a league stores ahead of play is bounded
// by these, never by the league's length (Check says which one a plan exceeds).
const (
	// MaxMatchesPerRound bounds the matches of a round (a ladder's matches_per_round, the
	// tables of a round robin's or a gauntlet's bots).
	MaxMatchesPerRound = 10_000
	// MaxJobsPerRound bounds the jobs a round stores when it is scheduled (matches × jobs
	// per match): a match's jobs are stored before they are played.
	MaxJobsPerRound = 100_000
	// MaxRounds bounds a league's rounds.
	MaxRounds = 1_000_000
	// jobsAhead is how many jobs of a round robin or a gauntlet may be stored ahead of play
	// (Ahead), so that the rounds to come do not all wait in the queue.
	jobsAhead = MaxJobsPerRound
)

// LimitError is a plan beyond one of the maximums; Field names the league file's setting.
type LimitError struct {
	Field, Msg string
}

func (e *LimitError) Error() string { return e.Field + ": " + e.Msg }

// Check reports a plan beyond the maximums (a *LimitError).
func (p *Plan) Check() error {
	switch {
	case p.Rounds > MaxRounds:
		return &LimitError{"rounds", fmt.Sprintf("%d rounds: a league plays at most %d", p.Rounds, MaxRounds)}
	case p.Deals > match.MaxDeals:
		return &LimitError{"deals", fmt.Sprintf("%d deals per match: a match plays at most %d", p.Deals, match.MaxDeals)}
	case p.MatchesPerRound > MaxMatchesPerRound:
		return &LimitError{"matches_per_round", fmt.Sprintf("%d: a round plays at most %d matches", p.MatchesPerRound, MaxMatchesPerRound)}
	}
	if n := p.matchesPerRound(); n > MaxMatchesPerRound {
		return &LimitError{"bots", fmt.Sprintf("%d bots make %d tables per round, more than a round plays (%d): use a ladder (format: ladder)",
			len(p.Bots), n, MaxMatchesPerRound)}
	}
	if j := p.JobsPerRound(); j > MaxJobsPerRound {
		field := "deals"
		if p.MatchesPerRound > 0 {
			field = "matches_per_round"
		}
		return &LimitError{field, fmt.Sprintf("a round of %d matches × %d jobs each is %d jobs, more than a round stores (%d): fewer deals per match or fewer matches per round",
			p.matchesPerRound(), p.jobsPerMatch(), j, MaxJobsPerRound)}
	}
	return nil
}

// Ahead is how many rounds may be scheduled beyond the last complete one: two for a ladder
// and an SPRT (whose rounds depend on results), and for a round robin or a gauntlet as many
// as keep jobsAhead jobs in the queue (at least two, at most every round).
func (p *Plan) Ahead() int {
	switch p.Format {
	case Ladder, SPRTFormat:
		return 2
	}
	return max(min(p.Rounds, 2), min(p.Rounds, jobsAhead/max(p.JobsPerRound(), 1)), 1)
}

// Matches is the number of matches of every round.
func (p *Plan) Matches() int { return p.matchesPerRound() }

func (p *Plan) matchesPerRound() int {
	switch p.Format {
	case RoundRobin:
		return binomial(len(p.Bots), p.Rules.Players)
	case Gauntlet:
		return binomial(len(p.Bots)-1, p.Rules.Players-1)
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

// FirstPosition is the schedule position (domain.LeagueMatch.Seq) of round r's first match:
// round r holds the positions from FirstPosition(r) to FirstPosition(r+1).
func (p *Plan) FirstPosition(r int) int { return r * p.matchesPerRound() }

// DealsPerRound is the number of deals a round plays.
func (p *Plan) DealsPerRound() int { return p.matchesPerRound() * p.TablesPerMatch() }

// MatchID names match i of round r.
func (p *Plan) MatchID(r, i int) string { return fmt.Sprintf("%s-r%04d-m%03d", p.League, r, i) }

// roundSeed is the deal seed of round r: the plan's seed for round 0, then a fixed odd step
// per round (the deal generator mixes seeds, so neighbouring seeds give unrelated deals).
func (p *Plan) roundSeed(r int) uint64 { return p.Seed + uint64(r)*0x9e3779b97f4a7c15 }

// RoundDeals returns the deal-file text of round r: the window of Deals deals that starts at
// r·Deals (wrapping around the file), or "" when the league deals from seeds.
func (p *Plan) RoundDeals(r int) (string, error) {
	text, _, err := p.roundDeals(r)
	return text, err
}

// roundDeals is RoundDeals, and whether the text is the whole file because it holds fewer
// than Deals deals (a match then plays the file whole).
func (p *Plan) roundDeals(r int) (string, bool, error) {
	if p.DealsText == "" {
		return "", false, nil
	}
	deals, err := engine.ParseDeals(p.Rules, p.DealsText)
	if err != nil {
		return "", false, err
	}
	if p.Deals <= 0 || p.Deals >= len(deals) {
		return p.DealsText, p.Deals > len(deals), nil
	}
	var b strings.Builder
	for k := range p.Deals {
		b.WriteString(deals[(r*p.Deals+k)%len(deals)].Format(p.Rules))
		b.WriteByte('\n')
	}
	return b.String(), false, nil
}
