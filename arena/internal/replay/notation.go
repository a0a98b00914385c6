package replay

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/notation"
	"github.com/tapparena/tapp/engine"
)

// ToNotation is a recorded deal as a full TPN record (docs/notation.md): the match's context,
// the cards, the moves and the settlement. Timing, answers and requests stay in the JSON Lines
// export.
func ToNotation(m Match, rec *domain.DealRecord) *notation.Record {
	n := m.Rules.Players
	r := &notation.Record{Match: m.ID, League: m.LeagueID, Deal: rec.Number, Group: rec.Group, Rules: m.Rules,
		Seating: slices.Clone(rec.Seating), Dealer: -1, Format: m.Format, Deals: m.Deals, Rounds: m.Rounds,
		Seeded: m.Seeded, Seed: m.Seed, Commitment: m.Commitment, Nonce: m.Nonce, Options: rec.Options,
		Started: rec.Started, Hands: rec.Deal.Hands, Tapp: rec.Deal.Tapp, TappKnown: true,
		Moves: slices.Clone(rec.Moves), Holder: engine.NoSeat}
	if r.Format == domain.FormatSession {
		r.Deals = 0
	}
	if len(m.Bots) == n {
		r.Table, r.HasDuplicate, r.Duplicate = slices.Clone(m.Bots), true, m.Duplicate
		if d := dealerOf(m.Bots, rec.Seating); d != nil {
			r.Dealer = d.Position
		}
	}
	for s := 0; s < n; s++ {
		r.Known[s] = true
	}
	out := rec.Outcome
	r.Outcome = &out
	r.SetHolder()
	return r
}

// FromNotation converts a full TPN record to the match context and deal record the viewer,
// the verifier and the store work on. TPN keeps no timing, answers or requests: every move
// gets a decision record of one answer given at once. A record without a result gets the
// engine's settlement of its moves (nothing recorded, nothing to contradict).
func FromNotation(r *notation.Record) (Match, *domain.DealRecord, error) {
	deal, ok := r.FullDeal()
	if !ok || r.Redacted {
		return Match{}, nil, fmt.Errorf("deal %d is seat %d's view: a redacted record lacks the hidden cards", r.Deal, r.View)
	}
	m := Match{ID: r.Match, LeagueID: r.League, Rules: r.Rules, Bots: slices.Clone(r.Table), Duplicate: r.Duplicate,
		Seeded: r.Seeded, Seed: r.Seed, Format: r.Format, Rounds: r.Rounds, Deals: r.Deals,
		Commitment: r.Commitment, Nonce: r.Nonce}
	if m.Format == "" {
		m.Format = domain.FormatDeals
	}
	rec := &domain.DealRecord{MatchID: r.Match, Number: r.Deal, Group: r.Group, Seating: slices.Clone(r.Seating),
		Deal: deal, Options: r.Options, Moves: slices.Clone(r.Moves), Started: r.Started}
	st, err := engine.NewState(r.Rules, deal, r.Options)
	for i, mv := range r.Moves {
		x := domain.DecisionRecord{Index: i, Seat: mv.Seat, Action: mv.Action,
			Attempts: []domain.AnswerAttempt{{Text: mv.Action.String()}}}
		if int(mv.Seat) < len(r.Seating) {
			x.Bot = r.Seating[mv.Seat]
		}
		if err == nil && st.ToMove() == mv.Seat {
			x.Decision = st.Decision()
			err = st.Apply(mv.Action)
		} else if err == nil {
			err = fmt.Errorf("seat %d is not to move", mv.Seat)
		}
		rec.Decisions = append(rec.Decisions, x)
	}
	switch {
	case r.Outcome != nil:
		rec.Outcome = *r.Outcome
	case err == nil && st.Terminal():
		rec.Outcome = st.Outcome()
	}
	rec.Results = domain.ResultsOf(rec.Seating, rec.Outcome)
	return m, rec, nil
}

// VerifyNotation verifies every full record of a TPN file (text or its JSON Lines twin) as
// VerifyExport verifies an export: the cards (against the seed), every move, the settlement,
// the pot carried from deal to deal and each match's commitment. A redacted record cannot be
// re-simulated (its hidden cards are not in it) and is listed as unchecked.
func VerifyNotation(ctx context.Context, r io.Reader) (*Report, error) {
	c := &fileCheck{ctx: ctx, rep: &Report{}}
	err := notation.Read(r, func(line int, rec *notation.Record, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			c.unreadable(line, "", -1, err)
			return nil
		}
		if rec.Redacted {
			c.rep.Unchecked = append(c.rep.Unchecked, fmt.Sprintf("line %d: deal %d is seat %d's view: its hidden cards are not in it to re-simulate", line, rec.Deal, rec.View))
			return nil
		}
		m, dr, err := FromNotation(rec)
		if err != nil {
			c.unreadable(line, rec.Match, rec.Deal, err)
			return nil
		}
		return c.deal(line, m, dr)
	})
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err() // interrupted: the report is not whole
	}
	return c.rep, err
}

// IsNotation reports whether a file that starts with head is TPN (text, or its JSON Lines
// twin) rather than a JSON Lines export.
func IsNotation(head []byte) bool {
	head = bytes.TrimLeft(head, " \t\r\n")
	if len(head) > 0 && head[0] == '[' {
		return true
	}
	line, _, _ := bytes.Cut(head, []byte("\n"))
	return bytes.Contains(line, []byte(`"format":"`+notation.JSONFormat+`"`))
}

// sniff reads the start of r to tell TPN from an export; the returned reader reads all of r.
func sniff(r io.Reader) (io.Reader, bool) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(64 << 10)
	return br, IsNotation(head)
}

// ReadDeals reads a file of recorded deals, a JSON Lines export or TPN (full records), and
// calls f with each deal and its match, or the error that makes it unreadable, with the
// number of its (first) line. An error f returns stops the reading and is returned.
func ReadDeals(r io.Reader, f func(line int, m Match, rec *domain.DealRecord, err error) error) error {
	r, tpn := sniff(r)
	if tpn {
		return notation.Read(r, func(line int, nr *notation.Record, err error) error {
			if err != nil {
				return f(line, Match{}, nil, err)
			}
			m, rec, err := FromNotation(nr)
			return f(line, m, rec, err)
		})
	}
	return ReadExport(r, func(line int, e *DealExport, err error) error {
		if err != nil {
			return f(line, Match{}, nil, err)
		}
		m, rec, err := e.Record()
		return f(line, m, rec, err)
	})
}

// VerifyFile verifies a file of recorded deals: a JSON Lines export (VerifyExport) or TPN
// (VerifyNotation).
func VerifyFile(ctx context.Context, r io.Reader) (*Report, error) {
	r, tpn := sniff(r)
	if tpn {
		return VerifyNotation(ctx, r)
	}
	return VerifyExport(ctx, r)
}

// NotationOptions choose what a TPN export writes.
type NotationOptions struct {
	JSON bool // the JSON Lines twin instead of the text form
	// Seat, when not NoSeat, redacts every deal to that seat's view; Bot redacts each deal to
	// the seat that bot had in it (a deal it did not play is left out).
	Seat engine.Seat
	Bot  string
}

// ExportNotation writes stored deals of a match (or only deal *only) as TPN records, one at a
// time, and returns how many it wrote and how many it left out because their cards are still
// in play (Gate; asked for alone, such a deal is an error wrapping ErrInPlay). TPN carries no
// chain: a TPN export shows each deal, not that none is missing (the JSON Lines export does).
func ExportNotation(ctx context.Context, st Store, matchID string, only *int, w io.Writer, o NotationOptions) (wrote, withheld int, err error) {
	am, err := st.GetMatch(ctx, matchID)
	if err != nil {
		return 0, 0, err
	}
	m := MatchOf(am)
	if o.Seat != engine.NoSeat && (o.Seat < 0 || int(o.Seat) >= m.Rules.Players) {
		return 0, 0, fmt.Errorf("seat %d is not at a table of %d", o.Seat, m.Rules.Players)
	}
	gate, err := NewGate(ctx, st, am)
	if err != nil {
		return 0, 0, err
	}
	nums := []int{}
	if only != nil {
		if err := gate.Check(*only); err != nil {
			return 0, 0, err
		}
		nums = append(nums, *only)
	} else if nums, err = st.DealNumbers(ctx, matchID); err != nil {
		return 0, 0, err
	}
	for _, n := range nums {
		if err := ctx.Err(); err != nil {
			return wrote, withheld, err
		}
		if gate.Check(n) != nil {
			withheld++
			continue
		}
		rec, err := st.Deal(ctx, matchID, n)
		if err != nil {
			return wrote, withheld, err
		}
		r := ToNotation(m, rec)
		seat := o.Seat
		if o.Bot != "" {
			if seat = engine.Seat(slices.Index(rec.Seating, o.Bot)); seat < 0 {
				continue
			}
		}
		if seat != engine.NoSeat {
			if r, err = notation.Redact(r, seat); err != nil {
				return wrote, withheld, err
			}
		}
		write := notation.Write
		if o.JSON {
			write = notation.WriteJSON
		}
		if err := write(w, r); err != nil {
			return wrote, withheld, err
		}
		wrote++
	}
	return wrote, withheld, nil
}
