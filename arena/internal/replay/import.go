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
	im := &importer{st: st, open: open, o: o, c: &fileCheck{ctx: ctx, rep: &Report{}}, plans: map[string]*importPlan{}}
	if err := im.verify(ctx); err != nil {
		return nil, im.c.rep, err
	}
	ids, err := im.checkIDs(ctx)
	if err != nil {
		return nil, im.c.rep, err
	}
	if err := im.createMatches(ctx, ids); err != nil {
		return im.out, im.c.rep, err
	}
	if err := im.storeDeals(ctx, ids); err != nil {
		return im.out, im.c.rep, fmt.Errorf("import stopped: %w (the matches stored so far: %s)", err, importedIDs(im.out))
	}
	return im.out, im.c.rep, im.countDecisions(ctx)
}

// importer is one import, in its steps: verify the file, check the ids, create the matches,
// store their deals, count their decisions.
type importer struct {
	st    ImportStore
	open  func() (io.ReadCloser, error)
	o     ImportOptions
	c     *fileCheck
	plans map[string]*importPlan // by the id the file records
	order []string               // the file's matches in the order they first appear
	out   []Imported
	// stored counts each stored match's decisions and fallbacks; renamed are the matches
	// whose requests as sent were left out.
	stored  map[string]*domain.Match
	renamed map[string]bool
}

// importPlan is what the first pass learns of one match of the file.
type importPlan struct {
	m       Match
	line    int
	deals   int
	groups  map[int]bool
	deal    map[int]engine.Deal // by group, for a match without a seed
	first   time.Time
	seating []string
}

// verify reads the file once and checks every deal as tapp replay verify does; with
// anything wrong, nothing is to be stored. It stops with ctx's error (Ctrl-C), also in the
// walk of a plan a match of the file claims.
func (im *importer) verify(ctx context.Context) error {
	c := im.c
	seen := map[string]bool{}
	err := readFile(im.open, func(line int, m Match, rec *domain.DealRecord, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			c.unreadable(line, m.ID, -1, err)
			return nil
		}
		if err := c.deal(line, m, rec); err != nil {
			return err
		}
		key := fmt.Sprintf("%s/%d", m.ID, rec.Number)
		if seen[key] {
			c.rep.Problems = append(c.rep.Problems, Problem{Match: m.ID, Line: line, Deal: rec.Number, Decision: -1, Rule: RecUnreadable,
				Msg: "the file has this deal of the match twice"})
		}
		seen[key] = true
		im.plan(line, m, rec)
		return nil
	})
	switch {
	case err != nil:
		return err
	case !c.rep.OK():
		return fmt.Errorf("nothing imported: %w", c.rep.Err())
	case c.rep.Deals == 0:
		return errors.New("nothing imported: the file has no deal")
	case im.o.MatchID != "" && len(im.order) > 1:
		return fmt.Errorf("--match names one match, but the file has %d (%s)", len(im.order), strings.Join(im.order, ", "))
	}
	return nil
}

// plan adds a deal to its match's plan; a deal whose match differs from the match of its
// first deal is a problem.
func (im *importer) plan(line int, m Match, rec *domain.DealRecord) {
	p := im.plans[m.ID]
	if p == nil {
		p = &importPlan{m: m, line: line, groups: map[int]bool{}, deal: map[int]engine.Deal{}, first: rec.Started,
			seating: slices.Clone(rec.Seating)}
		im.plans[m.ID] = p
		im.order = append(im.order, m.ID)
	} else if p.m.Rules != m.Rules || !slices.Equal(p.m.Bots, m.Bots) || p.m.Seed != m.Seed || p.m.Seeded != m.Seeded {
		im.c.rep.Problems = append(im.c.rep.Problems, Problem{Match: m.ID, Line: line, Deal: rec.Number, Decision: -1, Rule: RecUnreadable,
			Msg: fmt.Sprintf("the match's rules, bots or seed differ from its deal at line %d", p.line)})
	}
	p.deals++
	p.groups[rec.Group] = true
	p.deal[rec.Group] = rec.Deal
	if !rec.Started.IsZero() && (p.first.IsZero() || rec.Started.Before(p.first)) {
		p.first = rec.Started
	}
}

// checkIDs chooses each match's id (the recorded one, or --match) and refuses one the store
// already has, before anything is stored.
func (im *importer) checkIDs(ctx context.Context) (map[string]string, error) {
	ids := map[string]string{}
	for _, from := range im.order {
		id := from
		if im.o.MatchID != "" {
			id = im.o.MatchID
		}
		if id != "" {
			if _, err := im.st.GetMatch(ctx, id); err == nil {
				return nil, fmt.Errorf("nothing imported: the store already has a match %s (import it under another id with --match)", id)
			} else if !errors.Is(err, domain.ErrNotFound) {
				return nil, err
			}
		}
		ids[from] = id
	}
	return ids, nil
}

// createMatches stores each match as a finished stand-alone match; ids learn the id the store
// gave a match the file recorded without one.
func (im *importer) createMatches(ctx context.Context, ids map[string]string) error {
	for _, from := range im.order {
		mt, notes, err := storedMatch(ids[from], from, im.plans[from])
		if err != nil {
			return err
		}
		if err := im.st.CreateMatch(ctx, mt); err != nil {
			return err
		}
		ids[from] = mt.ID
		im.out = append(im.out, Imported{ID: mt.ID, From: from, Deals: im.plans[from].deals, Notes: notes})
	}
	return nil
}

// storedMatch is the match a plan is stored as, with notes on what is not kept.
func storedMatch(id, from string, p *importPlan) (*domain.Match, []string, error) {
	mt := &domain.Match{ID: id, Status: domain.MatchFinished, Started: p.first, Finished: time.Now().UTC(),
		Commitment: p.m.Commitment, Nonce: p.m.Nonce, CommitmentVersion: p.m.CommitmentVersion,
		Spec: domain.MatchSpec{Rules: p.m.Rules, Bots: p.m.Bots, Deals: p.m.Deals, Seed: p.m.Seed, Duplicate: p.m.Duplicate,
			TimeControl: p.m.TimeControl, Format: p.m.Format, Rounds: p.m.Rounds}}
	var notes []string
	if mt.Spec.Format == domain.FormatDeals {
		mt.Spec.Format = ""
	}
	if mt.Spec.TimeControl == (domain.TimeControl{}) {
		mt.Spec.TimeControl = domain.DefaultTimeControl
		notes = append(notes, "no time control recorded: stored with the default one")
	}
	seeded := p.m.Seeded
	if len(mt.Spec.Bots) != p.m.Rules.Players {
		// Without the bots in table order the plan cannot be rebuilt: the match is kept as
		// one that played its deals from a deal file, seated as the records say.
		mt.Spec.Bots, seeded, mt.Spec.Seed, mt.Spec.Duplicate = p.seating, false, 0, false
		notes = append(notes, "the file does not list the bots in table order: stored with the deals as a deal file and the seating of each deal")
	}
	if mt.Spec.Deals == 0 && mt.Spec.Format == "" {
		mt.Spec.Deals = len(p.groups)
	}
	if seeded {
		return mt, notes, nil
	}
	// A match without a seed keeps its deals as a deal file, one line per source.
	var lines []string
	for g := 0; g < len(p.groups); g++ {
		d, ok := p.deal[g]
		if !ok {
			return nil, notes, fmt.Errorf("match %s: it played no seed and the file lacks its deal source %d", from, g)
		}
		lines = append(lines, d.Format(p.m.Rules))
	}
	mt.Spec.DealsText = strings.Join(lines, "\n") + "\n"
	if mt.Commitment != "" {
		mt.Commitment, mt.Nonce = "", ""
		notes = append(notes, "its commitment is not kept: it covers the original deal file, which the records do not hold")
	}
	return mt, notes, nil
}

// storeDeals reads the file again and stores its deals under their matches' ids, importBatch
// at a time.
func (im *importer) storeDeals(ctx context.Context, ids map[string]string) error {
	im.stored, im.renamed = map[string]*domain.Match{}, map[string]bool{}
	var batch []*domain.DealRecord
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := im.st.SaveDeals(ctx, batch)
		batch = batch[:0]
		return err
	}
	err := readFile(im.open, func(line int, m Match, rec *domain.DealRecord, err error) error {
		if err != nil {
			return fmt.Errorf("line %d: %w (the file changed while it was imported)", line, err)
		}
		im.rename(rec, m.ID, ids[m.ID])
		batch = append(batch, rec)
		if len(batch) == importBatch {
			return flush()
		}
		return ctx.Err()
	})
	if err != nil {
		return err
	}
	return flush()
}

// rename puts a deal under the id its match is stored as, and counts its decisions.
func (im *importer) rename(rec *domain.DealRecord, from, id string) {
	rec.MatchID = id
	if id != from {
		// A request as sent names the game by its match's id: under another id it would
		// no longer be the request that was sent.
		for i := range rec.Decisions {
			if rec.Decisions[i].Sent != nil {
				rec.Decisions[i].Sent = nil
				im.renamed[id] = true
			}
		}
	}
	if im.stored[id] == nil {
		im.stored[id] = &domain.Match{}
	}
	sm := im.stored[id]
	sm.Decisions += len(rec.Decisions)
	for _, x := range rec.Decisions {
		if x.Fallback {
			sm.Fallbacks++
		}
	}
}

// countDecisions stores each match's number of decisions and fallbacks, and notes the
// requests as sent that were left out.
func (im *importer) countDecisions(ctx context.Context) error {
	for i, imp := range im.out {
		if im.renamed[imp.ID] {
			im.out[i].Notes = append(im.out[i].Notes, "the requests as sent are left out: they name the game by the match's recorded id")
		}
		mt, err := im.st.GetMatch(ctx, imp.ID)
		if err != nil {
			return err
		}
		mt.Decisions, mt.Fallbacks = im.stored[imp.ID].Decisions, im.stored[imp.ID].Fallbacks
		if err := im.st.UpdateMatch(ctx, mt); err != nil {
			return err
		}
	}
	return nil
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
