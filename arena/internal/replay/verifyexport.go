package replay

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"slices"

	"github.com/tapparena/tapp/arena/internal/dealchain"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
)

// VerifyExport verifies a JSON Lines export: every deal re-simulated (VerifyDeal), the pot
// carried over (R-POT), each match's commitment, the chain of its lines (each line's place
// after the one before, its link the one its record gives, the first from the match's
// anchor) and, for a finished match (its nonce revealed) that is not an excerpt, its
// manifest: every planned deal in the file once. A line of another match among a match's
// lines, a line twice, lines out of order, a line altered or one missing are problems.
//
// An export of a running match holds the deals that could be shown (Gate): the places of the
// others are gaps, which are noted, not counted as problems, and completeness is not shown.
//
// The plans the file claims (its matches' deals, groups and seatings) are walked one table at
// a time, and a plan beyond the limits is a problem without a walk; ctx ends the check (with
// its error) between lines and within a walk.
func VerifyExport(ctx context.Context, r io.Reader) (*Report, error) {
	rep := &Report{}
	matches := map[string]*exportCheck{}
	var order []string
	err := ReadExport(r, func(line int, e *DealExport, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		rep.Deals++
		if err != nil {
			rep.problem("", line, -1, RecUnreadable, "%v", err)
			return nil
		}
		m, rec, err := e.Record()
		if err != nil {
			rep.Problems = append(rep.Problems, Problem{Match: e.Match, Line: line, Deal: e.Deal, Decision: -1,
				Rule: ruleOf(err, RecUnreadable), Msg: err.Error()})
			return nil
		}
		c := matches[m.ID]
		if c == nil {
			c = &exportCheck{ctx: ctx, rep: rep, m: m, first: e, firstLine: line, lines: map[int]int{}, places: map[int]int{},
				pots: map[int][2]int{}, link: dealchain.Anchor(m.ID, m.Commitment)}
			matches[m.ID] = c
			order = append(order, m.ID)
			if err := rep.checkExportCommitment(ctx, m, line); err != nil {
				return err
			}
		}
		c.line(line, e, m, rec)
		return nil
	})
	for _, id := range order {
		if err == nil && ctx.Err() == nil {
			matches[id].finish()
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err() // interrupted: the report is not whole
	}
	return rep, err
}

// exportCheck is the verification of one match's lines of an export.
type exportCheck struct {
	ctx       context.Context
	rep       *Report
	m         Match
	first     *DealExport // the match's first line, whose match fields every line repeats
	firstLine int

	lines     map[int]int // deal → its line
	places    map[int]int // place in the chain → its line
	pots      map[int][2]int
	next      int            // the place the next line should hold
	link      dealchain.Link // the link of the place before it
	intact    bool           // every place so far is there, each the one chained
	started   bool
	gaps      []string // places not in the file (a running match's withheld deals)
	chained   int
	unchained int
	v1        int // lines of format 1, which carry no chain
	excerpt   bool
}

// line checks one line of the match.
func (c *exportCheck) line(line int, e *DealExport, m Match, rec *domain.DealRecord) {
	rep := c.rep
	if !sameMatch(c.first, e) {
		rep.problem(m.ID, line, e.Deal, RecForeign, "the line's match (commitment %q, rules, bots, seed, clock) is not the one of line %d "+
			"(commitment %q): it comes from another match", e.Commitment, c.firstLine, c.first.Commitment)
		return
	}
	if at, ok := c.lines[rec.Number]; ok {
		rep.problem(m.ID, line, rec.Number, RecDuplicate, "deal %d is on line %d already", rec.Number, at)
		return
	}
	c.lines[rec.Number] = line
	c.excerpt = c.excerpt || e.Excerpt
	rep.Decisions += len(rec.Moves)
	ps := VerifyDeal(m, rec)
	for i := range ps {
		ps[i].Line = line
	}
	rep.Problems = append(rep.Problems, ps...)
	c.pots[rec.Number] = [2]int{rec.Options.Pot, rec.Outcome.PotAfter}
	switch {
	case e.Chain == nil && e.Format == formatVersion1:
		c.v1++
	case e.Chain == nil:
		rep.problem(m.ID, line, rec.Number, RecChain, "the line has no place in the match's chain: every line of %s has one (it was removed)", FormatVersion)
	case e.Chain.Unchained:
		c.unchained++
	default:
		c.chainLine(line, e, rec)
	}
}

// chainLine checks a chained line's place and links.
func (c *exportCheck) chainLine(line int, e *DealExport, rec *domain.DealRecord) {
	rep, id, ch := c.rep, c.m.ID, e.Chain
	c.chained++
	if e.Commitment == "" && e.CommitmentVersion >= 2 {
		rep.problem(id, line, rec.Number, RecCommitment, "the line says its match committed to its deals (version %d), but it has no "+
			"commitment: it was removed", e.CommitmentVersion)
	}
	prev, err1 := dealchain.ParseLink(ch.Prev)
	link, err2 := dealchain.ParseLink(ch.Link)
	if err := cmpErr(err1, err2); err != nil || ch.Version != dealchain.Version {
		rep.problem(id, line, rec.Number, RecChain, "the line's chain cannot be read (version %d, %v)", ch.Version, err)
		c.intact = false
		return
	}
	if at, ok := c.places[ch.Seq]; ok {
		rep.problem(id, line, rec.Number, RecDuplicate, "place %d of the chain is on line %d already", ch.Seq, at)
		return
	}
	c.places[ch.Seq] = line
	if !c.started {
		c.started, c.intact = true, true
	}
	switch {
	case ch.Seq < c.next:
		rep.problem(id, line, rec.Number, RecOrder, "the line holds place %d of the chain, after place %d: the lines are out of order", ch.Seq, c.next-1)
		c.intact = false
	case ch.Seq > c.next:
		c.gaps = append(c.gaps, placeRange(c.next, ch.Seq-1))
		c.intact = false
		c.link = prev // the chain goes on from here
		c.next = ch.Seq + 1
	default:
		c.next = ch.Seq + 1
	}
	if ch.Seq == 0 && prev != dealchain.Anchor(id, e.Commitment) {
		rep.problem(id, line, rec.Number, RecForeign, "the chain's first link is not the anchor of match %s and its commitment: "+
			"the deal, or the match's id or commitment, comes from elsewhere", id)
		c.intact = false
	} else if prev != c.link {
		rep.problem(id, line, rec.Number, RecChain, "the link before place %d is not the link of the line before it", ch.Seq)
		c.intact = false
	}
	if want := dealchain.Next(prev, e.Digest(rec, c.m.Rules.Players)); want != link {
		rep.problem(id, line, rec.Number, RecChain, "deal %d is not the deal chained at place %d: it was altered since it was stored", rec.Number, ch.Seq)
		c.intact = false
	}
	c.link = link
}

// finish checks what the match's lines hold as a whole: the pot, the manifest, the chain.
func (c *exportCheck) finish() {
	rep, id := c.rep, c.m.ID
	for n, p := range c.pots {
		if prev, ok := c.pots[n-1]; c.m.Rules.Pot && (n == 0 && p[0] != 0 || ok && p[0] != prev[1]) {
			want := 0
			if ok {
				want = prev[1]
			}
			rep.problem(id, c.lines[n], n, "R-POT", "the deal starts with a pot of %d, but the deal before it left %d", p[0], want)
		}
	}
	if c.v1 > 0 {
		rep.Unchecked = append(rep.Unchecked, fmt.Sprintf("match %s: %d line(s) of %s, written before exports carried the chain: "+
			"each checks out alone, but nothing shows that none is missing", id, c.v1, formatVersion1))
	}
	if c.unchained > 0 {
		rep.Unchecked = append(rep.Unchecked, fmt.Sprintf("match %s: %d deal(s) stored before deals were chained (schema 15): "+
			"each checks out alone, but nothing shows that none is missing", id, c.unchained))
	}
	numbers := make([]int, 0, len(c.lines))
	for n := range c.lines {
		numbers = append(numbers, n)
	}
	slices.Sort(numbers)
	switch {
	case c.excerpt:
		rep.Unchecked = append(rep.Unchecked, fmt.Sprintf("match %s: an excerpt (deal %s): the file does not claim to hold the match's other deals",
			id, NumberRanges(numbers)))
		return
	case c.m.Nonce == "":
		note := ""
		if len(c.gaps) > 0 {
			note = fmt.Sprintf("; place(s) %s of its chain are not in the file (deals withheld while their cards were in play, or missing)",
				joinComma(c.gaps))
		}
		rep.Unchecked = append(rep.Unchecked, fmt.Sprintf("match %s was exported before it was over (its nonce is not revealed): "+
			"%d deal(s)%s; that none is missing is shown by an export of the finished match", id, len(numbers), note))
		return
	}
	if len(c.gaps) > 0 {
		rep.problem(id, 0, -1, RecMissing, "place(s) %s of the match's chain are not in the file: %s deal(s) missing", joinComma(c.gaps), "stored")
	}
	mf, ok := c.manifest()
	if !ok {
		return
	}
	m := &domain.Match{ID: id, Status: domain.MatchFinished}
	before := len(rep.Problems)
	rep.checkManifest(m, mf, numbers, c.intact && c.chained > 0 && c.unchained == 0 && c.v1 == 0)
	if len(rep.Problems) == before && c.intact && c.chained > 0 {
		rep.Chains = append(rep.Chains, fmt.Sprintf("match %s: %d deal(s) chained in the order stored, ending in %s", id, c.chained, c.link))
	}
}

// manifest is the match's manifest: its plan's, when the line says how it was dealt (a seed),
// else the one the lines carry (a deal file's plan needs the file); ok false when neither.
//
// The plan is walked a table at a time (match.ManifestOfSpec), so a plan the lines claim
// costs no memory in proportion to its deals; one beyond the limits, or a manifest the lines
// claim beyond them, is a problem, not a walk.
func (c *exportCheck) manifest() (match.Manifest, bool) {
	f := c.first.Manifest
	if c.m.Seeded && c.m.Format != "" {
		mf, err := match.ManifestOfSpec(c.ctx, c.m.spec())
		switch {
		case c.ctx.Err() != nil:
			return match.Manifest{}, false // interrupted: VerifyExport returns the context's error
		case err != nil:
			c.rep.problem(c.m.ID, c.firstLine, -1, RecForeign, "the match's plan cannot be made: %v", err)
			return match.Manifest{}, false
		}
		if f != nil && *f != *manifestJSON(mf) {
			c.rep.problem(c.m.ID, c.firstLine, -1, RecCommitment, "the lines' manifest %+v is not the match's plan (%+v)", *f, mf)
		}
		return mf, true
	}
	if f == nil {
		c.rep.Unchecked = append(c.rep.Unchecked, "match "+c.m.ID+": the lines carry no manifest: that none is missing is not shown")
		return match.Manifest{}, false
	}
	if f.Deals < 0 || f.Deals > maxPlannedDeals || f.Groups < 0 || f.Groups > maxPlannedDeals || f.Seatings < 0 {
		c.rep.problem(c.m.ID, c.firstLine, -1, RecCommitment, "the lines' manifest %+v is beyond what a match can plan "+
			"(%d deal sources, each under at most 6 seatings)", *f, match.MaxDeals)
		return match.Manifest{}, false
	}
	return match.Manifest{Deals: f.Deals, Groups: f.Groups, Seatings: f.Seatings}, true
}

// maxPlannedDeals is the most deals a match can plan: match.MaxDeals sources, each under the
// 6 seatings of three players in duplicate play.
const maxPlannedDeals = match.MaxDeals * 6

// sameMatch reports whether two lines repeat the same match fields.
func sameMatch(a, b *DealExport) bool {
	return a.Match == b.Match && a.League == b.League && a.Rules == b.Rules && slices.Equal(a.Bots, b.Bots) &&
		a.Seed == b.Seed && a.Duplicate == b.Duplicate && a.TimeControl == b.TimeControl &&
		reflect.DeepEqual(a.MatchFormat, b.MatchFormat) && a.Commitment == b.Commitment && a.Nonce == b.Nonce &&
		a.CommitmentVersion == b.CommitmentVersion && reflect.DeepEqual(a.Manifest, b.Manifest)
}

func cmpErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func joinComma(parts []string) string {
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += ", "
		}
		out += p
	}
	return out
}

// spec is the match's spec as an export gives it (no deal file).
func (m Match) spec() domain.MatchSpec {
	spec := domain.MatchSpec{Rules: m.Rules, Bots: m.Bots, Deals: m.Deals, Seed: m.Seed, Duplicate: m.Duplicate,
		TimeControl: m.TimeControl, LeagueID: m.LeagueID, Format: m.Format, Rounds: m.Rounds}
	if spec.Format == domain.FormatDeals {
		spec.Format = ""
	}
	return spec
}
