package replay

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
)

// ErrInPlay says that a deal's cards are still in play: another deal dealt the same cards
// (the other seatings of its duplicate group, or in a league the same deal at the round's
// other tables) is not finished, so any view of the deal — its hands, the cards played, even
// one seat's — would tell the bots at those tables what they must not know yet.
var ErrInPlay = errors.New("its cards are still in play")

// Gate says which stored deals of a match may be shown with their cards now. A deal is open
// once every deal that shares its cards is finished (stored): the whole duplicate group in
// duplicate play, one deal otherwise, and in a league the same deal source at every table of
// the round (every match of a round deals the same sources). Every surface that shows a deal
// asks its match's gate: the dashboard's view service, the CLI's replay, listing, re-asking
// and analysis, and exports.
//
// Two stand-alone matches given the same seed deal the same cards too; the arena cannot know
// that one is meant to be kept from the other (a deal file is as good as public to whoever has
// it), so such matches are each gated on their own deals only.
type Gate struct {
	matchID string
	league  string
	open    bool          // every deal of the match is open
	groupOf map[int]int   // deal number → its deal source (group), for a match not all open
	missing map[int][]int // group → the planned deal numbers of the match not stored yet (stand-alone)
	busy    map[int]bool  // group → not done at some table of the round (league)
	round   int
}

// GateStore is what a gate reads: the match's stored deal numbers and, for a league match, the
// jobs of its round (RoundJobs: none for a stand-alone match).
type GateStore interface {
	DealNumbers(ctx context.Context, matchID string) ([]int, error)
	RoundJobs(ctx context.Context, matchID string) ([]domain.Job, error)
}

// NewGate reads which deals of m are open now. A finished stand-alone match is all open
// without a read; otherwise it costs one read of the match's deal numbers (or of its league
// round's jobs) and its plan.
func NewGate(ctx context.Context, st GateStore, m *domain.Match) (*Gate, error) {
	g := &Gate{matchID: m.ID, league: m.Spec.LeagueID}
	if m.Status == domain.MatchFinished && m.Spec.LeagueID == "" {
		g.open = true
		return g, nil
	}
	tables, err := match.Plan(m.Spec)
	if err != nil {
		return nil, fmt.Errorf("match %s: %w", m.ID, err)
	}
	g.groupOf = make(map[int]int, len(tables))
	for _, t := range tables {
		g.groupOf[t.Number] = t.Group
	}
	if m.Spec.LeagueID != "" {
		jobs, err := st.RoundJobs(ctx, m.ID)
		if err != nil {
			return nil, err
		}
		if len(jobs) > 0 {
			g.busy = make(map[int]bool)
			for _, j := range jobs {
				g.round = j.Round
				if j.State == domain.JobDone {
					continue
				}
				for k := j.FirstGroup; k < j.FirstGroup+j.Groups; k++ {
					g.busy[k] = true
				}
			}
			g.open = len(g.busy) == 0
			return g, nil
		}
		// A league match without jobs (its round not scheduled through a queue): gated on its
		// own deals, as a stand-alone match is.
	}
	nums, err := st.DealNumbers(ctx, m.ID)
	if err != nil {
		return nil, err
	}
	stored := make(map[int]bool, len(nums))
	for _, n := range nums {
		stored[n] = true
	}
	g.missing = make(map[int][]int)
	for _, t := range tables {
		if !stored[t.Number] {
			g.missing[t.Group] = append(g.missing[t.Group], t.Number)
		}
	}
	g.open = len(g.missing) == 0
	return g, nil
}

// AllOpen reports whether every deal of the match may be shown.
func (g *Gate) AllOpen() bool { return g == nil || g.open }

// Check is nil when deal number may be shown, else an error wrapping ErrInPlay that says which
// deals hold it back and when it opens.
func (g *Gate) Check(number int) error {
	group, closed := g.closed(number)
	if !closed {
		return nil
	}
	if g.busy != nil {
		return fmt.Errorf("deal %d of match %s: %w: deal source %d is still being played at a table of round %d of league %s, "+
			"whose matches all deal it (its replay opens when they are finished)", number, g.matchID, ErrInPlay, group, g.round, g.league)
	}
	others := slices.DeleteFunc(slices.Clone(g.missing[group]), func(n int) bool { return n == number })
	return fmt.Errorf("deal %d of match %s: %w: it shares its cards with deal(s) %s of its group, not finished yet "+
		"(its replay opens when they are)", number, g.matchID, ErrInPlay, NumberRanges(others))
}

// closed reports whether deal number may not be shown yet, and its group.
func (g *Gate) closed(number int) (group int, closed bool) {
	if g.AllOpen() {
		return 0, false
	}
	group, ok := g.groupOf[number]
	if !ok {
		return 0, false // not a deal of the plan: it shares its cards with no other
	}
	if g.busy != nil {
		return group, g.busy[group]
	}
	return group, len(g.missing[group]) > 0
}

// HeldBelow lists, ascending, the planned deal numbers below number that may not be shown
// yet, stored or not (none when the match is all open): a score over the match's stored deals
// leaves out those of them that are stored, whenever they were stored, since a deal stored
// after the gate was read is one the gate holds back.
func (g *Gate) HeldBelow(number int) []int {
	if g.AllOpen() {
		return nil
	}
	var out []int
	for n := range g.groupOf {
		if _, closed := g.closed(n); closed && n < number {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// Closed counts the deals among numbers that may not be shown yet.
func (g *Gate) Closed(numbers []int) int {
	n := 0
	for _, k := range numbers {
		if g.Check(k) != nil {
			n++
		}
	}
	return n
}
