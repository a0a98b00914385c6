// Package replay makes recorded deals useful for debugging bots: it steps through a deal as
// one seat saw it (or with every card), exports deals as JSON Lines in card notation, and
// re-simulates recorded deals with the engine to verify every action and settlement. It is a
// pure viewer over records: it starts no arena, launches nothing and opens no connection
// (re-asking a bot a recorded decision is arena/internal/reask), so the read-only dashboard
// links it without the arena's machinery.
//
// A replay never trusts a record: the viewer and the verifier replay the recorded moves with
// the engine, and a seat's view is computed by the engine's per-seat observation and event
// redaction (engine.Observe, engine.EventsFor), so a replay seen from one seat shows exactly
// what that seat could know at each moment (TAPP-RULES.md §8).
//
// Files: replay.go (the match context and the store a replay reads), view.go (the viewer
// model: a deal's steps from one view), render.go (the steps as text), export.go (the JSON
// Lines schema), verify.go (re-simulation).
package replay

import (
	"context"
	"fmt"
	"strconv"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/engine"
)

// Match is what a replay needs to know about the match a deal belongs to.
type Match struct {
	ID          string
	LeagueID    string
	Rules       engine.RuleSet
	Bots        []string // in table order
	TimeControl domain.TimeControl
	Duplicate   bool
	// Seeded says the deals come from Seed (not from a deal file), so every deal can be dealt
	// again from (Seed, group) and checked (R-DEAL-2).
	Seeded bool
	Seed   uint64
	// Format, Rounds and Deals are the match's format: FormatDeals with Deals deal sources,
	// or FormatSession with Rounds agreed rounds.
	Format string
	Rounds int
	Deals  int
	// Commitment is the match's commitment to its deals (match.Commitment); Nonce its secret,
	// revealed once the match is over (empty before, and for matches that made none).
	Commitment        string
	Nonce             string
	CommitmentVersion int
}

// MatchOf is the replay context of a stored match.
func MatchOf(m *domain.Match) Match {
	out := Match{
		ID: m.ID, LeagueID: m.Spec.LeagueID, Rules: m.Spec.Rules, Bots: append([]string(nil), m.Spec.Bots...),
		TimeControl: m.Spec.TimeControl, Duplicate: m.Spec.Duplicate,
		Seeded: m.Spec.DealsText == "", Seed: m.Spec.Seed,
		Format: m.Spec.Format, Rounds: m.Spec.Rounds, Deals: m.Spec.Deals, Commitment: m.Commitment,
		CommitmentVersion: m.CommitmentVersion,
	}
	if out.Format == "" {
		out.Format = domain.FormatDeals
	}
	if m.Status == domain.MatchFinished {
		out.Nonce = m.Nonce // revealed only once the match is over
	}
	return out
}

// planned returns the table the match's plan has for deal number n (its deal, group and
// seating), when the match is seeded; ok is false when the plan cannot be rebuilt.
func (m Match) planned(n, group int) (t match.Table, ok bool) {
	if !m.Seeded || n < 0 || group < 0 || len(m.Bots) != m.Rules.Players {
		return t, false
	}
	spec := domain.MatchSpec{Rules: m.Rules, Bots: m.Bots, Deals: group + 1, Seed: m.Seed, Duplicate: m.Duplicate}
	tables, err := match.NewSchedule(spec)
	if err != nil || n >= tables.Len() {
		return t, false
	}
	return tables.Table(n), true
}

// Store is the part of a store that replays read; the SQL store (arena/internal/store) has
// all of it.
type Store interface {
	GetMatch(ctx context.Context, id string) (*domain.Match, error)
	Deal(ctx context.Context, matchID string, number int) (*domain.DealRecord, error)
	// Chain is what the store keeps of the match's chain of stored deals (dealchain).
	Chain(ctx context.Context, matchID string) (*domain.Chain, error)
	GateStore
}

// DealReader is what reading one deal that may be shown needs.
type DealReader interface {
	Deal(ctx context.Context, matchID string, number int) (*domain.DealRecord, error)
	GateStore
}

// LoadDeal reads one stored deal with its match; a deal whose cards are still in play (Gate)
// is an error wrapping ErrInPlay.
func LoadDeal(ctx context.Context, st Store, matchID string, number int) (Match, *domain.DealRecord, error) {
	m, err := st.GetMatch(ctx, matchID)
	if err != nil {
		return Match{}, nil, err
	}
	rec, err := ReadOpenDeal(ctx, st, m, number)
	if err != nil {
		return Match{}, nil, err
	}
	return MatchOf(m), rec, nil
}

// ReadOpenDeal is ReadDeal for a deal that may be shown now: one whose cards are still in
// play is an error wrapping ErrInPlay, and is not read.
func ReadOpenDeal(ctx context.Context, st DealReader, m *domain.Match, number int) (*domain.DealRecord, error) {
	gate, err := NewGate(ctx, st, m)
	if err != nil {
		return nil, err
	}
	if err := gate.Check(number); err != nil {
		return nil, err
	}
	return ReadDeal(ctx, st, m.ID, number)
}

// ReadDeal reads deal number of a match already read; a deal that is not stored is an error
// that says which deals are.
func ReadDeal(ctx context.Context, st DealReader, matchID string, number int) (*domain.DealRecord, error) {
	rec, err := st.Deal(ctx, matchID, number)
	if err == nil {
		return rec, nil
	}
	nums, nerr := st.DealNumbers(ctx, matchID)
	switch {
	case nerr != nil:
		return nil, err
	case len(nums) == 0:
		return nil, fmt.Errorf("match %s has no finished deal yet: %w", matchID, err)
	}
	return nil, fmt.Errorf("%w (finished deals: %s)", err, NumberRanges(nums))
}

// NumberRanges writes ascending numbers compactly: "0-17, 19, 21-30".
func NumberRanges(ns []int) string {
	out := ""
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if out != "" {
			out += ", "
		}
		out += strconv.Itoa(ns[i])
		if j > i {
			out += "-" + strconv.Itoa(ns[j])
		}
		i = j + 1
	}
	return out
}

// seatName is "seat 1 (middlehand)".
func seatName(s engine.Seat, players int) string {
	if s < 0 || int(s) >= players {
		return "nobody"
	}
	return fmt.Sprintf("seat %d (%s)", s, engine.SeatName(s, players))
}

// botAt is the bot in seat s of a deal, "" when unknown.
func botAt(rec *domain.DealRecord, s engine.Seat) string {
	if s < 0 || int(s) >= len(rec.Seating) {
		return ""
	}
	return rec.Seating[s]
}
