// Package match turns a match specification into deals at tables and plays them: the deal
// plan (seeded or from a deal file, with duplicate seatings), the seating of bots at each
// table, per-bot clocks, storing each finished deal in one transaction, and resuming a match
// whose finished deals are already stored.
package match

import (
	"fmt"
	"iter"
	"slices"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// Table is one planned deal: which deal, which bot sits in which seat.
type Table struct {
	Number  int // deal number in the match, in play order
	Group   int // the deal source; in duplicate mode all seatings of one source share it
	Deal    engine.Deal
	Seating []string // bot name by seat (seat 0 is forehand)
	// ForcedRamsch: a deal of a session's last, forced-Ramsch round (R-SESSION-3).
	ForcedRamsch bool
}

// MaxDeals is the most deal sources one match plays: a million deals is days of play for
// fast bots, and the commitment to a match's deals (commit.go) hashes one line per table
// before the first deal, which must stay a matter of seconds.
const MaxDeals = 1_000_000

// MaxTables is the most tables played at once by one runner (a match's --parallel, a
// league's concurrency), and the most games a bot may be offered at once.
const MaxTables = 4096

// Schedule is a match's tables in play order, generated as they are played: a table is a
// function of the spec and its number, so a schedule holds no more than the deal file's
// deals (or a session's deals, bounded by maxSessionDeals) whatever the number of deals.
// It is a pure function of the spec, so a resumed match replays exactly the deals an
// uninterrupted one would have played.
//
// Without duplicate, deal source i is dealt by table position i mod n (R-SEAT-2: the deal
// passes on round the table), so every bot sits in every seat equally often. With duplicate,
// every source is played under every seating: all 6 permutations for 3 players, the 4
// rotations for 4 players.
type Schedule struct {
	spec     domain.MatchSpec
	sources  int           // deal sources
	file     []engine.Deal // the deal file's sources (nil: seeded)
	seatings [][]int       // the seatings of a group (one without duplicate: see Table)
	session  []Table       // a session's tables, planned in advance (R-SESSION)
}

// NewSchedule checks spec and returns its schedule.
func NewSchedule(spec domain.MatchSpec) (*Schedule, error) {
	n := spec.Rules.Players
	if len(spec.Bots) != n {
		return nil, fmt.Errorf("the rule set seats %d players but %d bots are given", n, len(spec.Bots))
	}
	s := &Schedule{spec: spec}
	switch spec.Format {
	case "", domain.FormatDeals:
	case domain.FormatSession:
		tables, err := planSession(spec)
		if err != nil {
			return nil, err
		}
		s.session, s.sources = tables, len(tables)
		return s, nil
	default:
		return nil, fmt.Errorf("unknown match format %q (deals or session)", spec.Format)
	}
	switch {
	case spec.Deals < 0:
		return nil, fmt.Errorf("a match needs a positive number of deals (got %d)", spec.Deals)
	case spec.Deals > MaxDeals:
		return nil, fmt.Errorf("a match plays at most %d deals (got %d): play a league of several matches instead", MaxDeals, spec.Deals)
	}
	if spec.DealsText != "" {
		deals, err := engine.ParseDeals(spec.Rules, spec.DealsText)
		if err != nil {
			return nil, fmt.Errorf("deal file: %w", err)
		}
		switch {
		case len(deals) == 0:
			return nil, fmt.Errorf("deal file: no deals in it")
		case len(deals) > MaxDeals:
			return nil, fmt.Errorf("deal file: %d deals, more than a match plays (%d)", len(deals), MaxDeals)
		case spec.Deals > len(deals):
			return nil, fmt.Errorf("deal file: it holds %d deals, fewer than the %d asked for (ask for at most %d, or none to play the whole file)",
				len(deals), spec.Deals, len(deals))
		case spec.Deals > 0:
			deals = deals[:spec.Deals]
		}
		s.file, s.sources = deals, len(deals)
	} else {
		if spec.Deals == 0 {
			return nil, fmt.Errorf("a match needs at least one deal (got 0)")
		}
		s.sources = spec.Deals
	}
	if spec.Duplicate {
		s.seatings = Seatings(n)
	}
	return s, nil
}

// Len is the number of tables (deals) the match plays.
func (s *Schedule) Len() int {
	if s.session != nil {
		return len(s.session)
	}
	return s.sources * s.PerGroup()
}

// Groups is the number of deal sources.
func (s *Schedule) Groups() int { return s.sources }

// PerGroup is the number of tables of one deal source: its seatings in duplicate play, else 1.
func (s *Schedule) PerGroup() int { return max(len(s.seatings), 1) }

// Table returns table i (0 ≤ i < Len()).
func (s *Schedule) Table(i int) Table {
	if s.session != nil {
		return s.session[i]
	}
	per := s.PerGroup()
	g := i / per
	n := s.spec.Rules.Players
	t := Table{Number: i, Group: g, Deal: s.source(g), Seating: make([]string, n)}
	if s.seatings == nil {
		dealer := g % n
		for k := range t.Seating {
			t.Seating[k] = s.spec.Bots[engine.TablePosition(engine.Seat(k), dealer, n)]
		}
		return t
	}
	for k, pos := range s.seatings[i%per] {
		t.Seating[k] = s.spec.Bots[pos]
	}
	return t
}

// source returns deal source g.
func (s *Schedule) source(g int) engine.Deal {
	if s.file != nil {
		return s.file[g]
	}
	return engine.DealFromSeed(s.spec.Rules, s.spec.Seed, uint64(g))
}

// All yields every table in play order, each made when it is asked for.
func (s *Schedule) All() iter.Seq[Table] { return s.Range(0, s.Len()) }

// Range yields the tables from number first (inclusive) to last (exclusive), in order.
func (s *Schedule) Range(first, last int) iter.Seq[Table] {
	return func(yield func(Table) bool) {
		for i := max(first, 0); i < min(last, s.Len()); i++ {
			if !yield(s.Table(i)) {
				return
			}
		}
	}
}

// GroupTables returns the tables of the deal sources from first to first+count (a league
// job's), in order.
func (s *Schedule) GroupTables(first, count int) []Table {
	if s.session != nil { // a session's groups are its deals
		return slices.Collect(s.Range(first, first+count))
	}
	per := s.PerGroup()
	return slices.Collect(s.Range(first*per, (first+count)*per))
}

// Plan lists every table of a match in play order (see Schedule): for tests and callers that
// need them all at once; the runners play from a Schedule, which holds none of them.
func Plan(spec domain.MatchSpec) ([]Table, error) {
	s, err := NewSchedule(spec)
	if err != nil {
		return nil, err
	}
	return slices.Collect(s.All()), nil
}

// Sources returns the match's deal sources in order (the first spec.Deals of a deal file's
// when Deals > 0): for tests and small matches, as Plan.
func Sources(spec domain.MatchSpec) ([]engine.Deal, error) {
	s, err := NewSchedule(spec)
	if err != nil {
		return nil, err
	}
	out := make([]engine.Deal, s.Groups())
	for g := range out {
		out[g] = s.source(g)
	}
	return out, nil
}

// Seatings lists the duplicate seatings: perm[seat] is the table position of the bot in that
// seat. 3 players: all 6 permutations; 4 players: the 4 rotations.
func Seatings(players int) [][]int {
	if players == 3 {
		return [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	}
	out := make([][]int, players)
	for r := range out {
		out[r] = make([]int, players)
		for k := range out[r] {
			out[r][k] = (k + r) % players
		}
	}
	return out
}

// maxSessionDeals bounds a session's plan; the ace of hearts lies in the tapp of a deciding
// deal only with probability 1/12, so no real session comes near it.
const maxSessionDeals = 10000

// planSession lays out a session (R-SESSION-1..4): Rounds rounds of seeded deals with the deal
// passing round the table, then deciding deals until the ace of hearts is dealt to a player,
// who deals the last round, then one forced Ramsch per player. Who deals depends only on the
// deals (never on play), so the whole session is planned in advance and replays exactly.
func planSession(spec domain.MatchSpec) ([]Table, error) {
	n := spec.Rules.Players
	switch {
	case spec.Rules.Variant != engine.Modern:
		return nil, fmt.Errorf("the session format is modern Tapp's (R-SESSION); %s has no forced Ramsch", spec.Rules.Variant)
	case spec.Duplicate || spec.DealsText != "":
		return nil, fmt.Errorf("a session plays seeded deals in order: no duplicate, no deal file")
	case spec.Rounds < 0:
		return nil, fmt.Errorf("a session needs 0 or more rounds (got %d)", spec.Rounds)
	}
	sess := engine.NewSession(n, spec.Rounds, 0)
	var tables []Table
	for {
		dealer, forced, done := sess.Next()
		if done {
			return tables, nil
		}
		if len(tables) == maxSessionDeals {
			return nil, fmt.Errorf("session: no end after %d deals", maxSessionDeals)
		}
		d := engine.DealFromSeed(spec.Rules, spec.Seed, uint64(len(tables)))
		seating := make([]string, n)
		for k := range seating {
			seating[k] = spec.Bots[engine.TablePosition(engine.Seat(k), dealer, n)]
		}
		tables = append(tables, Table{Number: len(tables), Group: len(tables), Deal: d, Seating: seating, ForcedRamsch: forced})
		// Modern Tapp has no pot, so the outcome does not steer the session: only the deal does.
		if err := sess.Record(d, dealer, engine.Outcome{}); err != nil {
			return nil, err
		}
	}
}
