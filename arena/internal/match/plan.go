// Package match turns a match specification into deals at tables and plays them: the deal
// plan (seeded or from a deal file, with duplicate seatings), the seating of bots at each
// table, per-bot clocks, storing each finished deal in one transaction, and resuming a match
// whose finished deals are already stored.
package match

import (
	"fmt"

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

// Plan lists every table of a match in play order. It is a pure function of the spec, so a
// resumed match replays exactly the deals an uninterrupted one would have played.
//
// Without duplicate, deal source i is dealt by table position i mod n (R-SEAT-2: the deal
// passes on round the table), so every bot sits in every seat equally often. With duplicate,
// every source is played under every seating: all 6 permutations for 3 players, the 4
// rotations for 4 players.
func Plan(spec domain.MatchSpec) ([]Table, error) {
	n := spec.Rules.Players
	if len(spec.Bots) != n {
		return nil, fmt.Errorf("the rule set seats %d players but %d bots are given", n, len(spec.Bots))
	}
	switch spec.Format {
	case "", domain.FormatDeals:
	case domain.FormatSession:
		return planSession(spec)
	default:
		return nil, fmt.Errorf("unknown match format %q (deals or session)", spec.Format)
	}
	sources, err := Sources(spec)
	if err != nil {
		return nil, err
	}
	var tables []Table
	for g, d := range sources {
		if !spec.Duplicate {
			dealer := g % n
			seating := make([]string, n)
			for k := range seating {
				seating[k] = spec.Bots[engine.TablePosition(engine.Seat(k), dealer, n)]
			}
			tables = append(tables, Table{Number: len(tables), Group: g, Deal: d, Seating: seating})
			continue
		}
		for _, perm := range Seatings(n) {
			seating := make([]string, n)
			for k, pos := range perm {
				seating[k] = spec.Bots[pos]
			}
			tables = append(tables, Table{Number: len(tables), Group: g, Deal: d, Seating: seating})
		}
	}
	return tables, nil
}

// Sources returns the match's deal sources: the deal file's deals (the first spec.Deals of
// them when Deals > 0), or spec.Deals deals from the seed.
func Sources(spec domain.MatchSpec) ([]engine.Deal, error) {
	if spec.DealsText != "" {
		deals, err := engine.ParseDeals(spec.Rules, spec.DealsText)
		if err != nil {
			return nil, fmt.Errorf("deal file: %w", err)
		}
		if len(deals) == 0 {
			return nil, fmt.Errorf("deal file: no deals in it")
		}
		if spec.Deals > 0 && spec.Deals < len(deals) {
			deals = deals[:spec.Deals]
		}
		return deals, nil
	}
	if spec.Deals <= 0 {
		return nil, fmt.Errorf("a match needs at least one deal (got %d)", spec.Deals)
	}
	deals := make([]engine.Deal, spec.Deals)
	for i := range deals {
		deals[i] = engine.DealFromSeed(spec.Rules, spec.Seed, uint64(i))
	}
	return deals, nil
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
