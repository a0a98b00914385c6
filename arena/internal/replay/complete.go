package replay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tapparena/tapp/arena/internal/dealchain"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
)

// Completeness: a verification checks not only each deal it is given but that it is given
// every deal, once, in the order stored, each the one stored. The match's commitment binds
// its manifest (how many deals, groups, seatings), and its stored deals form a chain
// (dealchain) whose head the match keeps: a deal missing, doubled, out of order, altered or
// taken from another match breaks one or the other.

// Problem ids of completeness (docs/replay.md lists them with the others).
const (
	RecMissing   = "REC-MISSING"   // a planned deal, or a place in the chain, holds no deal
	RecDuplicate = "REC-DUPLICATE" // a deal, or a place in the chain, is there twice
	RecOrder     = "REC-ORDER"     // export lines out of the chain's order
	RecChain     = "REC-CHAIN"     // a deal is not the one its place in the chain holds: altered since it was stored
	RecForeign   = "REC-FOREIGN"   // a deal of another match, or one the match's plan does not have
)

// ManifestJSON is the match's manifest as its commitment binds it: its deals, its deal
// sources (groups) and the seatings of a source.
type ManifestJSON struct {
	Deals    int `json:"deals"`
	Groups   int `json:"groups"`
	Seatings int `json:"seatings"`
}

func manifestJSON(mf match.Manifest) *ManifestJSON {
	return &ManifestJSON{Deals: mf.Deals, Groups: mf.Groups, Seatings: mf.Seatings}
}

// problem adds a problem about the match (not one deal) or one deal (deal ≥ 0).
func (r *Report) problem(matchID string, line, deal int, rule, format string, args ...any) {
	r.Problems = append(r.Problems, Problem{Match: matchID, Line: line, Deal: deal, Decision: -1, Rule: rule,
		Msg: fmt.Sprintf(format, args...)})
}

// VerifyStored verifies a stored match: every stored deal re-simulated (VerifyDeal), the pot
// carried from deal to deal (R-POT), the commitment, the chain of its deals in the order
// stored (each deal the one stored at its place, no place empty or doubled, the match's head
// at the end) and its manifest (no deal its plan does not have; every planned deal once the
// match is finished). Deals are read one at a time. The problems of a deal whose cards are
// still in play (Gate) name their rule but not the cards.
func VerifyStored(ctx context.Context, st Store, matchID string) (*Report, error) {
	return verifyStored(ctx, st, matchID, nil)
}

// SummaryStore is a Store that lists a match's deals without their requests (the SQL store).
type SummaryStore interface {
	Store
	DealSummaries(ctx context.Context, matchID string) ([]domain.DealRecord, error)
}

// CheckComplete is VerifyStored without re-simulating the deals: the commitment, the chain
// and the manifest, from the deals' summaries (a deal's requests are read only when its
// record does not keep their digest) — what tapp db check runs on every match. each, when
// set, is given every deal read.
func CheckComplete(ctx context.Context, st SummaryStore, matchID string, each func(*domain.DealRecord)) (*Report, error) {
	return verifyStored(ctx, st, matchID, &lightRead{st: st, each: each})
}

// lightRead is how CheckComplete reads: a match's summaries at once, no re-simulation.
type lightRead struct {
	st    SummaryStore
	each  func(*domain.DealRecord)
	deals map[int]*domain.DealRecord
}

func verifyStored(ctx context.Context, st Store, matchID string, light *lightRead) (*Report, error) {
	am, err := st.GetMatch(ctx, matchID)
	if err != nil {
		return nil, err
	}
	m := MatchOf(am)
	rep := &Report{}
	if err := rep.checkCommitment(ctx, am, 0); err != nil {
		return nil, err
	}
	if am.Commitment == "" && am.CommitmentVersion >= 2 {
		rep.problem(matchID, 0, -1, RecCommitment, "the match was recorded by an arena that commits to every match's deals "+
			"(commitment version %d), but it has no commitment: it was removed (and the chain's anchor with it)", am.CommitmentVersion)
	}
	gate, err := NewGate(ctx, st, am)
	if err != nil {
		return nil, err
	}
	chain, err := st.Chain(ctx, matchID)
	if err != nil {
		return nil, err
	}
	manifest, err := match.ManifestOfSpec(ctx, am.Spec)
	planned := err == nil
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		rep.problem(matchID, 0, -1, RecForeign, "the match's plan cannot be made: %v", err)
	}
	v := &storedCheck{ctx: ctx, st: st, m: m, gate: gate, rep: rep, pots: map[int][2]int{}, light: light}
	if light != nil {
		ds, err := light.st.DealSummaries(ctx, matchID)
		if err != nil {
			return nil, err
		}
		light.deals = make(map[int]*domain.DealRecord, len(ds))
		for i := range ds {
			light.deals[ds[i].Number] = &ds[i]
		}
	}
	for _, n := range chain.Unchained {
		if _, err := v.deal(n); err != nil {
			return rep, err
		}
	}
	if len(chain.Unchained) > 0 {
		rep.Unchecked = append(rep.Unchecked, fmt.Sprintf("match %s: %d deal(s) stored before deals were chained (schema 15): "+
			"each checks out alone, but nothing shows that none of them is missing", matchID, len(chain.Unchained)))
	}
	if err := v.chain(chain); err != nil {
		return rep, err
	}
	v.potCarry()
	stored := make([]int, 0, len(chain.Links)+len(chain.Unchained))
	for _, l := range chain.Links {
		stored = append(stored, l.Number)
	}
	stored = append(stored, chain.Unchained...)
	if planned {
		rep.checkManifest(am, manifest, stored, v.chainOK)
	}
	return rep, nil
}

// storedCheck is the verification of one stored match under way.
type storedCheck struct {
	ctx     context.Context
	st      Store
	m       Match
	gate    *Gate
	rep     *Report
	pots    map[int][2]int // deal → its pot before and after (R-POT)
	chainOK bool
	light   *lightRead // CheckComplete's reading, nil for VerifyStored's
}

// deal reads and verifies deal n and returns it (nil when it cannot be read: a problem).
func (v *storedCheck) deal(n int) (*domain.DealRecord, error) {
	if err := v.ctx.Err(); err != nil {
		return nil, err
	}
	var rec *domain.DealRecord
	var err error
	if v.light != nil {
		rec = v.light.deals[n]
		if rec == nil || rec.SentDigest == nil { // a record that keeps its requests, not their digest
			rec, err = v.st.Deal(v.ctx, v.m.ID, n)
		}
	} else {
		rec, err = v.st.Deal(v.ctx, v.m.ID, n)
	}
	v.rep.Deals++
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		v.rep.problem(v.m.ID, 0, n, ruleOf(err, RecUnreadable), "the stored deal cannot be read: %v", err)
		return nil, nil
	}
	v.rep.Decisions += len(rec.Moves)
	v.pots[n] = [2]int{rec.Options.Pot, rec.Outcome.PotAfter}
	if v.light != nil {
		if v.light.each != nil {
			v.light.each(rec)
		}
		return rec, nil
	}
	ps := VerifyDeal(v.m, rec)
	if v.gate.Check(n) != nil {
		for i := range ps { // what is wrong, not with which cards
			ps[i].Move, ps[i].Msg = "", "the details are withheld while its cards are still in play at another table"
		}
	}
	v.rep.Problems = append(v.rep.Problems, ps...)
	return rec, nil
}

// chain checks the chained deals in the order they were stored.
func (v *storedCheck) chain(c *domain.Chain) error {
	id := v.m.ID
	link := dealchain.Anchor(id, v.m.Commitment)
	intact, next := true, 0
	byPlace := map[int]int{}
	for _, l := range c.Links {
		if other, ok := byPlace[l.Seq]; ok {
			v.rep.problem(id, 0, l.Number, RecDuplicate, "deals %d and %d both hold place %d of the match's chain: one was put there since", other, l.Number, l.Seq)
			intact = false
			if _, err := v.deal(l.Number); err != nil {
				return err
			}
			continue
		}
		byPlace[l.Seq] = l.Number
		if l.Seq > next {
			v.rep.problem(id, 0, l.Number, RecMissing, "place(s) %s of the match's chain hold no deal: %d stored deal(s) are missing",
				placeRange(next, l.Seq-1), l.Seq-next)
			intact = false
		}
		next = l.Seq + 1
		rec, err := v.deal(l.Number)
		if err != nil {
			return err
		}
		if !intact || rec == nil {
			intact = false
			continue
		}
		link = dealchain.Next(link, dealchain.RecordDigest(rec, v.m.Rules.Players))
		if !bytes.Equal(l.Link, link[:min(len(link), len(l.Link))]) || len(l.Link) != dealchain.StoredLinkSize {
			v.rep.problem(id, 0, l.Number, RecChain, "deal %d is not the deal stored at place %d of the match's chain: "+
				"it was altered, renumbered or brought from another match since (the chain is not checked past it)", l.Number, l.Seq)
			intact = false
		}
	}
	switch {
	case !intact:
	case c.Length != len(c.Links):
		v.rep.problem(id, 0, -1, RecMissing, "the match's chain holds %d deals, but %d are stored in it: the last %d are missing",
			c.Length, len(c.Links), c.Length-len(c.Links))
	case len(c.Links) > 0 && !bytes.Equal(c.Head, link[:]):
		v.rep.problem(id, 0, -1, RecChain, "the stored deals chain to %x, but the match's chain ends in %x: a deal was altered or replaced",
			link[:], c.Head)
	case len(c.Links) > 0:
		v.chainOK = true
		v.rep.Chains = append(v.rep.Chains, fmt.Sprintf("match %s: %d deal(s) chained in the order stored, ending in %s", id, len(c.Links), link))
	}
	return nil
}

// potCarry checks that each deal of a match with a pot starts with what the deal before it left.
func (v *storedCheck) potCarry() {
	if !v.m.Rules.Pot {
		return
	}
	for n, p := range v.pots {
		want := -1
		switch prev, ok := v.pots[n-1]; {
		case n == 0:
			want = 0
		case ok:
			want = prev[1]
		}
		if want >= 0 && p[0] != want {
			v.rep.problem(v.m.ID, 0, n, "R-POT", "the deal starts with a pot of %d, but the deal before it left %d", p[0], want)
		}
	}
}

// checkManifest compares the stored deal numbers with the match's manifest: none beyond it,
// and every one of it once the match is finished.
func (r *Report) checkManifest(m *domain.Match, mf match.Manifest, stored []int, chained bool) {
	chained = chained && !r.hasProblems(m.ID)
	slices.Sort(stored)
	var extra []int
	for _, n := range stored {
		if n < 0 || n >= mf.Deals {
			extra = append(extra, n)
		}
	}
	if len(extra) > 0 {
		r.problem(m.ID, 0, extra[0], RecForeign, "deal(s) %s are stored, but the match's plan has deals 0-%d only", NumberRanges(extra), mf.Deals-1)
	}
	firstMissing, missing := missingRanges(stored, mf.Deals)
	manifest := fmt.Sprintf("%d deals in %d group(s) of %d seating(s)", mf.Deals, mf.Groups, mf.Seatings)
	switch {
	case m.Status != domain.MatchFinished:
		r.Unchecked = append(r.Unchecked, fmt.Sprintf("match %s is %s: %d of its %s are stored; that none is missing is shown once it is finished",
			m.ID, m.Status, len(stored), manifest))
	case missing != "":
		r.problem(m.ID, 0, firstMissing, RecMissing, "deal(s) %s of the %s the match planned are not stored", missing, manifest)
	case len(extra) == 0 && chained:
		r.Complete = append(r.Complete, fmt.Sprintf("match %s: complete: all %s of its manifest are stored", m.ID, manifest))
	}
}

// missingRanges says which of the deals 0 to deals−1 are not among stored (sorted), as
// NumberRanges would, with the first of them (−1 and "" when none is missing). It walks the
// gaps between the stored deals, not the planned ones: a manifest claims up to any number of
// deals, and what this costs follows the deals there are.
func missingRanges(stored []int, deals int) (first int, text string) {
	first = -1
	var b strings.Builder
	gap := func(from, to int) { // deals from..to (to ≥ from) are missing
		if first < 0 {
			first = from
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(placeRange(from, to))
	}
	next := 0 // the first deal not yet known to be stored or missing
	for _, n := range stored {
		if n < next || n >= deals {
			continue // a deal twice, or one the plan does not have (reported as extra)
		}
		if n > next {
			gap(next, n-1)
		}
		next = n + 1
	}
	if next < deals {
		gap(next, deals-1)
	}
	return first, b.String()
}

// hasProblems reports whether the report has a problem of the match.
func (r *Report) hasProblems(matchID string) bool {
	for _, p := range r.Problems {
		if p.Match == matchID || p.Match == "" {
			return true
		}
	}
	return false
}

// placeRange is "3" or "3-7".
func placeRange(from, to int) string {
	if from == to {
		return strconv.Itoa(from)
	}
	return strconv.Itoa(from) + "-" + strconv.Itoa(to)
}
