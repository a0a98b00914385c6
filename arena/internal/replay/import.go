package replay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// ImportStore is what an import writes to; arena/internal/store.Store has all of it.
type ImportStore interface {
	GetMatch(ctx context.Context, id string) (*domain.Match, error)
	CreateMatch(ctx context.Context, m *domain.Match) error
	SaveDeals(ctx context.Context, ds []*domain.DealRecord) error
	UpdateMatch(ctx context.Context, m *domain.Match) error
}

// ImportOptions change an import.
type ImportOptions struct {
	// MatchID stores the file's one match under this id instead of the id it records.
	MatchID string
}

// Imported is one match an import stored.
type Imported struct {
	ID    string // the id it is stored under
	From  string // the id the file records ("" for none)
	Deals int
	Notes []string // what was not kept, and why
}

// importBatch is how many deals go into the store per transaction.
const importBatch = 100

// Import stores the deals of a file of recorded deals (TPN or a JSON Lines export, read
// with ReadDeals) as finished stand-alone matches, for the viewer, the verifier, exports and
// re-asking. It reads the file twice (open is called for each pass): first every deal is
// verified as tapp replay verify does, and if anything is wrong nothing is stored and the
// report says what (with the error); then the matches and their deals are stored. A match id
// the store already has is refused. Matches keep their league id out of the store's leagues
// (an imported match plays in no league's schedule or ratings).
func Import(ctx context.Context, st ImportStore, open func() (io.ReadCloser, error), o ImportOptions) ([]Imported, *Report, error) {
	type plan struct {
		m       Match
		line    int
		deals   int
		groups  map[int]bool
		deal    map[int]engine.Deal // by group, for a match without a seed
		first   time.Time
		seating []string
	}
	plans := map[string]*plan{}
	var order []string
	c := &fileCheck{rep: &Report{}}
	seen := map[string]bool{}
	err := readFile(open, func(line int, m Match, rec *domain.DealRecord, err error) error {
		if err != nil {
			c.unreadable(line, m.ID, -1, err)
			return nil
		}
		c.deal(line, m, rec)
		key := fmt.Sprintf("%s/%d", m.ID, rec.Number)
		if seen[key] {
			c.rep.Problems = append(c.rep.Problems, Problem{Match: m.ID, Line: line, Deal: rec.Number, Decision: -1, Rule: RecUnreadable,
				Msg: "the file has this deal of the match twice"})
		}
		seen[key] = true
		p := plans[m.ID]
		if p == nil {
			p = &plan{m: m, line: line, groups: map[int]bool{}, deal: map[int]engine.Deal{}, first: rec.Started,
				seating: slices.Clone(rec.Seating)}
			plans[m.ID] = p
			order = append(order, m.ID)
		} else if p.m.Rules != m.Rules || !slices.Equal(p.m.Bots, m.Bots) || p.m.Seed != m.Seed || p.m.Seeded != m.Seeded {
			c.rep.Problems = append(c.rep.Problems, Problem{Match: m.ID, Line: line, Deal: rec.Number, Decision: -1, Rule: RecUnreadable,
				Msg: fmt.Sprintf("the match's rules, bots or seed differ from its deal at line %d", p.line)})
		}
		p.deals++
		p.groups[rec.Group] = true
		p.deal[rec.Group] = rec.Deal
		if !rec.Started.IsZero() && (p.first.IsZero() || rec.Started.Before(p.first)) {
			p.first = rec.Started
		}
		return nil
	})
	if err != nil {
		return nil, c.rep, err
	}
	if !c.rep.OK() {
		return nil, c.rep, fmt.Errorf("nothing imported: %w", c.rep.Err())
	}
	if c.rep.Deals == 0 {
		return nil, c.rep, errors.New("nothing imported: the file has no deal")
	}
	if o.MatchID != "" && len(order) > 1 {
		return nil, c.rep, fmt.Errorf("--match names one match, but the file has %d (%s)", len(order), strings.Join(order, ", "))
	}
	// Every id is checked before anything is stored.
	ids := map[string]string{}
	var out []Imported
	for _, from := range order {
		id := from
		if o.MatchID != "" {
			id = o.MatchID
		}
		if id != "" {
			if _, err := st.GetMatch(ctx, id); err == nil {
				return nil, c.rep, fmt.Errorf("nothing imported: the store already has a match %s (import it under another id with --match)", id)
			} else if !errors.Is(err, domain.ErrNotFound) {
				return nil, c.rep, err
			}
		}
		ids[from] = id
	}
	for _, from := range order {
		p := plans[from]
		mt := &domain.Match{ID: ids[from], Status: domain.MatchFinished, Started: p.first, Finished: time.Now().UTC(),
			Commitment: p.m.Commitment, Nonce: p.m.Nonce, CommitmentVersion: p.m.CommitmentVersion,
			Spec: domain.MatchSpec{Rules: p.m.Rules, Bots: p.m.Bots, Deals: p.m.Deals, Seed: p.m.Seed, Duplicate: p.m.Duplicate,
				TimeControl: p.m.TimeControl, Format: p.m.Format, Rounds: p.m.Rounds}}
		im := Imported{From: from, Deals: p.deals}
		if mt.Spec.Format == domain.FormatDeals {
			mt.Spec.Format = ""
		}
		if mt.Spec.TimeControl == (domain.TimeControl{}) {
			mt.Spec.TimeControl = domain.DefaultTimeControl
			im.Notes = append(im.Notes, "no time control recorded: stored with the default one")
		}
		if len(mt.Spec.Bots) != p.m.Rules.Players {
			// Without the bots in table order the plan cannot be rebuilt: the match is kept as
			// one that played its deals from a deal file, seated as the records say.
			mt.Spec.Bots, p.m.Seeded, mt.Spec.Seed, mt.Spec.Duplicate = p.seating, false, 0, false
			im.Notes = append(im.Notes, "the file does not list the bots in table order: stored with the deals as a deal file and the seating of each deal")
		}
		if mt.Spec.Deals == 0 && mt.Spec.Format == "" {
			mt.Spec.Deals = len(p.groups)
		}
		if !p.m.Seeded {
			// A match without a seed keeps its deals as a deal file, one line per source.
			var lines []string
			for g := 0; g < len(p.groups); g++ {
				d, ok := p.deal[g]
				if !ok {
					return out, c.rep, fmt.Errorf("match %s: it played no seed and the file lacks its deal source %d", from, g)
				}
				lines = append(lines, d.Format(p.m.Rules))
			}
			mt.Spec.DealsText = strings.Join(lines, "\n") + "\n"
			if mt.Commitment != "" {
				mt.Commitment, mt.Nonce = "", ""
				im.Notes = append(im.Notes, "its commitment is not kept: it covers the original deal file, which the records do not hold")
			}
		}
		if err := st.CreateMatch(ctx, mt); err != nil {
			return out, c.rep, err
		}
		im.ID = mt.ID
		ids[from] = mt.ID
		out = append(out, im)
	}
	stored := map[string]*domain.Match{}
	renamed := map[string]bool{}
	var batch []*domain.DealRecord
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := st.SaveDeals(ctx, batch)
		batch = batch[:0]
		return err
	}
	err = readFile(open, func(line int, m Match, rec *domain.DealRecord, err error) error {
		if err != nil {
			return fmt.Errorf("line %d: %w (the file changed while it was imported)", line, err)
		}
		rec.MatchID = ids[m.ID]
		if rec.MatchID != m.ID {
			// A request as sent names the game by its match's id: under another id it would
			// no longer be the request that was sent.
			for i := range rec.Decisions {
				if rec.Decisions[i].Sent != nil {
					rec.Decisions[i].Sent = nil
					renamed[rec.MatchID] = true
				}
			}
		}
		if stored[rec.MatchID] == nil {
			stored[rec.MatchID] = &domain.Match{}
		}
		sm := stored[rec.MatchID]
		sm.Decisions += len(rec.Decisions)
		for _, x := range rec.Decisions {
			if x.Fallback {
				sm.Fallbacks++
			}
		}
		batch = append(batch, rec)
		if len(batch) == importBatch {
			return flush()
		}
		return ctx.Err()
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return out, c.rep, fmt.Errorf("import stopped: %w (the matches stored so far: %s)", err, importedIDs(out))
	}
	for i, im := range out {
		if renamed[im.ID] {
			out[i].Notes = append(out[i].Notes, "the requests as sent are left out: they name the game by the match's recorded id")
		}
		mt, err := st.GetMatch(ctx, im.ID)
		if err != nil {
			return out, c.rep, err
		}
		mt.Decisions, mt.Fallbacks = stored[im.ID].Decisions, stored[im.ID].Fallbacks
		if err := st.UpdateMatch(ctx, mt); err != nil {
			return out, c.rep, err
		}
	}
	return out, c.rep, nil
}

func importedIDs(out []Imported) string {
	var ids []string
	for _, im := range out {
		ids = append(ids, im.ID)
	}
	return strings.Join(ids, ", ")
}

func readFile(open func() (io.ReadCloser, error), f func(line int, m Match, rec *domain.DealRecord, err error) error) error {
	r, err := open()
	if err != nil {
		return err
	}
	defer r.Close()
	return ReadDeals(r, f)
}
