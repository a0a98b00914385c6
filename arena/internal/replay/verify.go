package replay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/wire"
	"github.com/tapparena/tapp/engine"
)

// Problem ids for a record that contradicts itself or the match, where no rule of the game
// is broken (the rule ids R-… of TAPP-RULES.md name the others). docs/replay.md lists them.
const (
	RecUnreadable = "REC-UNREADABLE" // the record cannot be read (a broken export line or stored row)
	RecSeating    = "REC-SEATING"    // seating or group differ from the match's plan
	RecDecision   = "REC-DECISION"   // a decision record disagrees with the move it made
	RecFallback   = "REC-FALLBACK"   // a fallback other than the documented one (the first legal action)
	RecSent       = "REC-SENT"       // the request as sent differs from what the engine shows that seat, or from its digest
	RecIncomplete = "REC-INCOMPLETE" // the moves end before the deal is over
	RecResult     = "REC-RESULT"     // a seat's stored result differs from the settlement
	RecCommitment = "REC-COMMITMENT" // the match's seed, rules and seating do not hash to its commitment
)

// Problem is one thing wrong with a recorded deal.
type Problem struct {
	Match    string
	Line     int // the export line, 0 for a stored deal
	Deal     int
	Decision int    // the decision (= move) index, -1 when the problem is not about one move
	Move     string // the move as recorded, "1:HA"; "" when not about one move
	Rule     string // the rule broken (R-…), or a REC-… id
	Msg      string
}

// String names the deal, the action and the rule: "deal 3, decision 14 (1:HT): R-PLAY-2: …".
func (p Problem) String() string {
	var b strings.Builder
	if p.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", p.Line)
	}
	fmt.Fprintf(&b, "deal %d", p.Deal)
	if p.Decision >= 0 {
		fmt.Fprintf(&b, ", decision %d", p.Decision)
		if p.Move != "" {
			fmt.Fprintf(&b, " (%s)", p.Move)
		}
	}
	fmt.Fprintf(&b, ": %s: %s", p.Rule, p.Msg)
	return b.String()
}

// Report sums up a verification.
type Report struct {
	Deals     int // deals checked
	Decisions int // moves checked
	Problems  []Problem
	// Commitments lists the commitments checked and found to hold, one per match; a match
	// whose commitment fails is a REC-COMMITMENT problem instead, and one that cannot be
	// checked (none made, nonce not revealed yet, a deal file) is in Unchecked with why.
	Commitments []string
	Unchecked   []string
	// Chains lists the chains found whole, one per match, with their last link (what a third
	// party compares with the head `tapp match` printed); Complete the matches shown to hold
	// every deal of their manifest.
	Chains   []string
	Complete []string
}

// checkCommitment checks m's commitment, if it can be checked, into the report.
func (r *Report) checkCommitment(ctx context.Context, m *domain.Match, line int) error {
	switch {
	case m.Commitment == "":
		r.Unchecked = append(r.Unchecked, "match "+m.ID+": no commitment (recorded before the arena committed to its deals)")
		return nil
	case m.Nonce == "":
		r.Unchecked = append(r.Unchecked, "match "+m.ID+": commitment "+m.Commitment+" not checkable yet: the nonce is revealed when the match is over")
		return nil
	}
	if err := match.VerifyCommitment(ctx, m); err != nil {
		if ctx.Err() != nil {
			return ctx.Err() // interrupted: nothing was found wrong
		}
		r.Problems = append(r.Problems, Problem{Match: m.ID, Line: line, Deal: -1, Decision: -1, Rule: RecCommitment, Msg: err.Error()})
		return nil
	}
	r.Commitments = append(r.Commitments, "match "+m.ID+": commitment "+m.Commitment+" holds: rules, deals and seating were fixed before the first deal")
	return nil
}

// OK reports whether nothing was wrong.
func (r *Report) OK() bool { return len(r.Problems) == 0 }

// Proven reports whether the report shows every match in it complete: no problem, nothing
// left unchecked (a commitment that cannot be checked, deals or lines from before chains, an
// excerpt, a running match), and each match's commitment holding and its manifest's deals all
// there. An export downgraded to the first format, or stripped of what proves it, checks out
// deal by deal but is not proven.
func (r *Report) Proven() bool {
	return r.OK() && len(r.Unchecked) == 0 && len(r.Complete) > 0 && len(r.Complete) == len(r.Commitments)
}

// Err is nil when the report is OK, else an error counting the problems.
func (r *Report) Err() error {
	if r.OK() {
		return nil
	}
	bad := map[int]bool{}
	for _, p := range r.Problems {
		bad[p.Deal] = true
	}
	return fmt.Errorf("verify: %d problem(s) in %d of %d deal(s)", len(r.Problems), len(bad), r.Deals)
}

var ruleID = regexp.MustCompile(`R-[A-Z0-9]+(?:-[A-Z0-9]+)*`)

// ruleOf is the rule id an engine error names: a *engine.RuleError's, or the first "R-…"
// in its text, else def.
func ruleOf(err error, def string) string {
	var re *engine.RuleError
	if errors.As(err, &re) {
		return re.Rule
	}
	if id := ruleID.FindString(err.Error()); id != "" {
		return id
	}
	return def
}

// VerifyDeal re-simulates one recorded deal with the engine and checks it: the cards against
// the rule set (and against the seed, when the match was seeded), every move (its seat, its
// legality, its decision record and the request as sent), the end of the deal, the settlement
// and the stored results.
func VerifyDeal(m Match, rec *domain.DealRecord) []Problem {
	v := &verifier{m: m, rec: rec}
	v.run()
	return v.problems
}

type verifier struct {
	m        Match
	rec      *domain.DealRecord
	problems []Problem
}

func (v *verifier) add(k int, rule, format string, args ...any) {
	p := Problem{Match: v.m.ID, Deal: v.rec.Number, Decision: k, Rule: rule, Msg: fmt.Sprintf(format, args...)}
	if k >= 0 && k < len(v.rec.Moves) {
		p.Move = v.rec.Moves[k].String()
	}
	v.problems = append(v.problems, p)
}

func (v *verifier) run() {
	m, rec := v.m, v.rec
	r := m.Rules
	if err := rec.Deal.Validate(r); err != nil {
		v.add(-1, ruleOf(err, "R-DEAL-1"), "the cards as dealt: %v", err)
		return
	}
	if t, ok := m.planned(rec.Number, rec.Group); ok {
		if t.Deal != rec.Deal {
			v.add(-1, "R-DEAL-2", "the cards are not deal %d of seed %d: %s", rec.Group, m.Seed, dealDiff(r, rec.Deal, t.Deal))
		}
		if !slices.Equal(t.Seating, rec.Seating) {
			v.add(-1, RecSeating, "seating %v, but the match's plan seats %v for deal %d", rec.Seating, t.Seating, rec.Number)
		}
	} else if len(rec.Seating) != r.Players {
		v.add(-1, RecSeating, "%d bots seated at a table of %d", len(rec.Seating), r.Players)
	}
	st, err := engine.NewState(r, rec.Deal, rec.Options)
	if err != nil {
		v.add(-1, ruleOf(err, "R-POT"), "the deal's options: %v", err)
		return
	}
	byIndex := make(map[int]*domain.DecisionRecord, len(rec.Decisions))
	for i := range rec.Decisions {
		x := &rec.Decisions[i]
		if byIndex[x.Index] != nil {
			v.add(x.Index, RecDecision, "two decision records with index %d", x.Index)
		}
		byIndex[x.Index] = x
	}
	for k, mv := range rec.Moves {
		if st.Terminal() {
			v.add(k, "R-PLAY-6", "a move after the end of the deal")
			return
		}
		if mv.Seat != st.ToMove() {
			v.add(k, turnRule(r, st), "seat %d moved, but seat %d is to decide (%s)", mv.Seat, st.ToMove(), st.Decision())
			return
		}
		if x := byIndex[k]; x == nil {
			v.add(k, RecDecision, "no decision record for this move")
		} else {
			v.checkDecision(st, k, mv, x)
		}
		if err := st.Apply(mv.Action); err != nil {
			v.add(k, ruleOf(err, "R-PLAY-2"), "the engine refuses %s: %v", mv.Action, errMsg(err))
			return
		}
	}
	for _, x := range rec.Decisions {
		if x.Index < 0 || x.Index >= len(rec.Moves) {
			v.add(x.Index, RecDecision, "a decision record without a move")
		}
	}
	v.checkSentDigest()
	if !st.Terminal() {
		v.add(len(rec.Moves), RecIncomplete, "the %d moves end before the deal is over: %s is still to decide (%s)",
			len(rec.Moves), seatName(st.ToMove(), r.Players), st.Decision())
		return
	}
	v.checkOutcome(st.Outcome())
}

// errMsg is an engine error's text without its rule id (named separately).
func errMsg(err error) string {
	var re *engine.RuleError
	if errors.As(err, &re) {
		return re.Msg
	}
	return err.Error()
}

// turnRule is the rule that says whose turn it is now.
func turnRule(r engine.RuleSet, st *engine.State) string {
	switch st.Decision() {
	case engine.DecideBid:
		if r.Variant == engine.Modern {
			return "R-MOD-BID-1"
		}
		return "R-AUCTION"
	case engine.DecideContract:
		return "R-MOD-BID-2"
	case engine.DecideDiscard:
		if r.Variant == engine.Modern {
			return "R-MOD-FRAGE"
		}
		return "R-CL-ORDER"
	case engine.DecideTrump, engine.DecideTout:
		return "R-CL-ORDER"
	case engine.DecideCall, engine.DecideGive:
		return "R-MOD-RUFER"
	case engine.DecideCard:
		obs := st.Observe(engine.NoSeat)
		if !obs.Current.Cards[0].Valid() {
			if len(obs.Tricks) == 0 {
				return "R-PLAY-1" // who leads to the first trick
			}
			return "R-PLAY-4" // the winner leads
		}
		return "R-SEAT-1" // then round the table in playing order
	}
	return "R-SEAT-1"
}

// checkDecision compares a decision record with the move and the engine's state before it.
func (v *verifier) checkDecision(st *engine.State, k int, mv engine.Move, x *domain.DecisionRecord) {
	var diffs []string
	if x.Seat != mv.Seat {
		diffs = append(diffs, fmt.Sprintf("seat %d, but the move is by seat %d", x.Seat, mv.Seat))
	}
	if x.Action != mv.Action {
		diffs = append(diffs, fmt.Sprintf("action %s, but the move is %s", x.Action, mv.Action))
	}
	if x.Decision != st.Decision() {
		diffs = append(diffs, fmt.Sprintf("decision %s, but the engine asks for %s", x.Decision, st.Decision()))
	}
	if b := botAt(v.rec, mv.Seat); x.Bot != b {
		diffs = append(diffs, fmt.Sprintf("bot %q, but seat %d is %q", x.Bot, mv.Seat, b))
	}
	if x.Strike && !x.Fallback {
		diffs = append(diffs, "a strike without a fallback")
	}
	// One answer is accepted; refused ones come before it, and after it only answers that
	// came once the request was over (refused too).
	accepted := -1
	for i, at := range x.Attempts {
		if at.Rejected == "" {
			if accepted >= 0 {
				diffs = append(diffs, "two accepted answers")
			}
			accepted = i
		}
	}
	// A decision of a seat in process played unrecorded (tapp match --in-process
	// --no-records) keeps what the match counts and neither the request nor the answer: no
	// attempt and nothing sent. Every other decision keeps its accepted answer. Such a record
	// is checked for its move, seat, bot and fallback like any other; that nothing was taken
	// out afterwards is the deal chain's to prove (the chain's hash covers the record).
	unrecorded := len(x.Attempts) == 0 && len(x.Sent) == 0
	switch {
	case x.Fallback && accepted >= 0:
		diffs = append(diffs, fmt.Sprintf("an accepted answer %q, but a fallback", x.Attempts[accepted].Text))
	case !x.Fallback && accepted < 0 && !unrecorded:
		diffs = append(diffs, "no accepted answer, but no fallback either")
	case !x.Fallback && accepted >= 0:
		if a, err := engine.ParseAction(x.Attempts[accepted].Text); err != nil || a.Canonical() != x.Action.Canonical() {
			diffs = append(diffs, fmt.Sprintf("the accepted answer %q is not the action %s", x.Attempts[accepted].Text, x.Action))
		}
	}
	if len(diffs) > 0 {
		v.add(k, RecDecision, "the decision record says %s", strings.Join(diffs, "; "))
	}
	legal := st.LegalActions(nil)
	if x.Fallback && len(legal) > 0 && x.Action != referee.Fallback(legal) {
		v.add(k, RecFallback, "the arena played %s for the bot, but the documented fallback is %s (the first legal action)", x.Action, referee.Fallback(legal))
	}
	// A request may be missing: none is sent to a bot that forfeited or left, and an export
	// made with --no-sent leaves them out.
	if len(x.Sent) > 0 {
		if msg := v.checkSent(st, x, legal); msg != "" {
			v.add(k, RecSent, "%s", msg)
		}
	}
}

// checkSentDigest checks the requests of a deal the store rebuilt from its compact record
// against the digest of the requests as they were sent: it proves that the bytes read back
// are the bytes each bot got.
func (v *verifier) checkSentDigest() {
	rec := v.rec
	if rec.SentDigest == nil {
		return
	}
	if got := domain.SentDigest(rec.Decisions); !bytes.Equal(got[:], rec.SentDigest) {
		v.add(-1, RecSent, "the requests rebuilt from the record (digest %x) are not the ones sent (digest %x): this build does not rebuild them as the arena sent them", got, rec.SentDigest)
	}
}

// checkSent compares the request as sent with what the engine shows the seat at that moment.
func (v *verifier) checkSent(st *engine.State, x *domain.DecisionRecord, legal []engine.Action) string {
	req, err := protoconv.DecodeSent(x.Sent)
	if err != nil {
		return fmt.Sprintf("the recorded request is not a DecisionRequest: %v", err)
	}
	if req.GetRequestId() != x.RequestID {
		return fmt.Sprintf("request id %q, but the decision record says %q", req.GetRequestId(), x.RequestID)
	}
	if want := referee.GameID(v.m.ID, v.rec.Number); v.m.ID != "" && req.GetGameId() != want {
		return fmt.Sprintf("game id %q, want %q", req.GetGameId(), want)
	}
	if d := wire.DecisionFromProto(req.GetDecision()); d != st.Decision() {
		return fmt.Sprintf("asked for %s, but the engine asks for %s", d, st.Decision())
	}
	if want := protoconv.ActionsToProto(legal); !slices.Equal(req.GetLegal(), want) {
		return fmt.Sprintf("legal actions [%s], but the engine gives [%s]", strings.Join(req.GetLegal(), " "), strings.Join(want, " "))
	}
	obs := st.Observe(x.Seat)
	if want := protoconv.ObservationToProto(&obs); !proto.Equal(req.GetObservation(), want) {
		return "observation " + firstDiff(req.GetObservation().ProtoReflect(), want.ProtoReflect())
	}
	if evs := req.GetEvents(); len(evs) > 0 {
		first := int(evs[0].GetIndex())
		want := protoconv.EventsToProto(st.EventsFor(x.Seat, first), first)
		if len(want) != len(evs) {
			return fmt.Sprintf("%d events from index %d, but the engine has %d for this seat", len(evs), first, len(want))
		}
		for i := range evs {
			if !proto.Equal(evs[i], want[i]) {
				return fmt.Sprintf("event %d %s", first+i, firstDiff(evs[i].ProtoReflect(), want[i].ProtoReflect()))
			}
		}
	}
	return ""
}

// firstDiff names the first field in which two messages of one type differ.
func firstDiff(got, want protoreflect.Message) string {
	fields := want.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		g, w := got.Get(fd), want.Get(fd)
		if !g.Equal(w) {
			return fmt.Sprintf("%s: recorded %s, the engine gives %s", fd.Name(), valueText(fd, g), valueText(fd, w))
		}
	}
	return "differs"
}

func valueText(fd protoreflect.FieldDescriptor, v protoreflect.Value) string {
	one := func(v protoreflect.Value) string {
		switch fd.Kind() {
		case protoreflect.MessageKind:
			return msgText(v.Message())
		case protoreflect.StringKind:
			return strconv.Quote(v.String())
		}
		return fmt.Sprint(v.Interface())
	}
	if fd.IsList() {
		l := v.List()
		parts := make([]string, l.Len())
		for i := range parts {
			parts[i] = one(l.Get(i))
		}
		return "[" + strings.Join(parts, " ") + "]"
	}
	return one(v)
}

// msgText writes a message's set fields in declaration order: {leader:1 cards:["S7" "SA"]}
// (prototext's output is deliberately unstable).
func msgText(m protoreflect.Message) string {
	var parts []string
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if m.Has(fd) {
			parts = append(parts, string(fd.Name())+":"+valueText(fd, m.Get(fd)))
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// dealDiff names the first part of two deals that differs.
func dealDiff(r engine.RuleSet, got, want engine.Deal) string {
	for s := 0; s < r.Players; s++ {
		if got.Hands[s] != want.Hands[s] {
			return fmt.Sprintf("seat %d holds %s, the seed deals %s", s, got.Hands[s], want.Hands[s])
		}
	}
	return fmt.Sprintf("the tapp is %s, the seed deals %s", got.Tapp, want.Tapp)
}

// settleRule is the rule that decides a deal's payments.
func settleRule(r engine.RuleSet, o engine.Outcome) string {
	switch {
	case o.ThrownIn:
		return "R-POT"
	case r.Variant == engine.Modern && o.Contract == engine.Ramsch:
		return "R-MOD-RAMSCH"
	case r.Variant == engine.Modern:
		return "R-MOD-SETTLE-1"
	case r.Variant == engine.Classic && o.Tout:
		return "R-CL-SCORE-3"
	case r.Variant == engine.Classic && o.Draw:
		return "R-CL-SCORE-1"
	case r.Variant == engine.Classic:
		return "R-CL-SCORE-2"
	case o.Tout:
		return "R-WT-TOUT"
	}
	return "R-WT-SCORE-1"
}

// checkOutcome compares the recorded settlement and results with the engine's.
func (v *verifier) checkOutcome(want engine.Outcome) {
	r := v.m.Rules
	n := r.Players
	got := v.rec.Outcome
	type finding struct{ rule, text string }
	var found []finding
	diff := func(rule, field string, g, w any) {
		if fmt.Sprint(g) != fmt.Sprint(w) {
			found = append(found, finding{rule, fmt.Sprintf("%s recorded %v, the rules give %v", field, g, w)})
		}
	}
	bidRule, trumpRule := "R-AUCTION", "R-CL-ORDER"
	switch r.Variant {
	case engine.Modern:
		bidRule, trumpRule = "R-MOD-BID-3", "R-MOD-BID-2"
	case engine.Wuerttemberg:
		trumpRule = "R-WT-1"
	}
	if want.Contract == engine.Ramsch {
		bidRule = "R-MOD-BID-4"
	}
	diff("R-CL-PASS", "thrown in", got.ThrownIn, want.ThrownIn)
	diff(bidRule, "declarer", got.Declarer, want.Declarer)
	diff(bidRule, "contract", got.Contract, want.Contract)
	diff(trumpRule, "trump", got.Trump, want.Trump)
	diff("R-CL-ORDER", "tout", got.Tout, want.Tout)
	diff("R-PLAY-4", "tricks by seat", got.Tricks[:n], want.Tricks[:n])
	diff("R-PLAY-5", "card points by seat", got.Points[:n], want.Points[:n])
	sr := settleRule(r, want)
	diff(sr, "declarer won", got.DeclarerWon, want.DeclarerWon)
	diff(sr, "draw", got.Draw, want.Draw)
	diff(sr, "payoff by seat", got.Payoff[:n], want.Payoff[:n])
	diff("R-POT", "pot before", got.PotBefore, want.PotBefore)
	diff("R-POT", "pot after", got.PotAfter, want.PotAfter)
	sum := got.PotAfter - got.PotBefore
	for i := 0; i < engine.MaxPlayers; i++ {
		sum += got.Payoff[i]
	}
	if sum != 0 {
		found = append(found, finding{sr, fmt.Sprintf("the recorded payments do not sum to zero (off by %+d)", sum)})
	}
	// One problem per rule, naming every field it covers.
	var order []string
	byRule := map[string][]string{}
	for _, f := range found {
		if byRule[f.rule] == nil {
			order = append(order, f.rule)
		}
		byRule[f.rule] = append(byRule[f.rule], f.text)
	}
	for _, rule := range order {
		v.add(-1, rule, "settlement: %s", strings.Join(byRule[rule], "; "))
	}

	if len(v.rec.Results) != n {
		v.add(-1, RecResult, "%d results stored for %d seats", len(v.rec.Results), n)
		return
	}
	for i, res := range v.rec.Results {
		s := engine.Seat(i)
		w := domain.SeatResult{Bot: botAt(v.rec, s), Seat: s, Payoff: got.Payoff[i], Points: got.Points[i],
			Tricks: got.Tricks[i], Declarer: got.Declarer == s}
		if res != w {
			v.add(-1, RecResult, "the result of seat %d is %+v, but the settlement gives %+v", i, res, w)
		}
	}
}

// potCarry checks that a deal starts with the pot the deal before it left (R-POT): deals of a
// match with a pot are played one after the other.
func potCarry(m Match, prev, rec *domain.DealRecord) []Problem {
	if !m.Rules.Pot {
		return nil
	}
	want := -1
	switch {
	case rec.Number == 0:
		want = 0
	case prev != nil && prev.Number == rec.Number-1:
		want = prev.Outcome.PotAfter
	}
	if want < 0 || rec.Options.Pot == want {
		return nil
	}
	return []Problem{{Match: m.ID, Deal: rec.Number, Decision: -1, Rule: "R-POT",
		Msg: fmt.Sprintf("the deal starts with a pot of %d, but the deal before it left %d", rec.Options.Pot, want)}}
}

// fileCheck verifies the deals of a file one at a time, in file order: each deal, the pot
// carried from the deal before it, and each match's commitment at its first line.
type fileCheck struct {
	ctx       context.Context // ends the check (Ctrl-C): the walk of a match's plan too
	rep       *Report
	prev      *domain.DealRecord
	prevMatch string
}

func (c *fileCheck) unreadable(line int, matchID string, deal int, err error) {
	c.rep.Deals++
	c.rep.Problems = append(c.rep.Problems, Problem{Match: matchID, Line: line, Deal: deal, Decision: -1,
		Rule: ruleOf(err, RecUnreadable), Msg: err.Error()})
	c.prev = nil
}

func (c *fileCheck) deal(line int, m Match, rec *domain.DealRecord) error {
	c.rep.Deals++
	c.rep.Decisions += len(rec.Moves)
	ps := VerifyDeal(m, rec)
	if c.prevMatch != m.ID {
		c.prev = nil
		if err := c.rep.checkExportCommitment(c.ctx, m, line); err != nil {
			return err
		}
	}
	ps = append(ps, potCarry(m, c.prev, rec)...)
	for i := range ps {
		ps[i].Line = line
	}
	c.rep.Problems = append(c.rep.Problems, ps...)
	c.prev, c.prevMatch = rec, m.ID
	return nil
}

// checkExportCommitment checks the commitment of a file's match at its first line. Only a
// seeded match can be checked from its export: a deal file's text is not in it. The check
// walks the plan the file claims (a plan beyond the limits is a problem at once, without a
// walk); it returns ctx's error if ctx ends first.
func (r *Report) checkExportCommitment(ctx context.Context, m Match, line int) error {
	if m.Commitment != "" && !m.Seeded {
		r.Unchecked = append(r.Unchecked, "match "+m.ID+": commitment "+m.Commitment+" covers a deal file: check it with the store or the file")
		return nil
	}
	spec := domain.MatchSpec{Rules: m.Rules, Bots: m.Bots, Deals: m.Deals, Seed: m.Seed, Duplicate: m.Duplicate,
		TimeControl: m.TimeControl, LeagueID: m.LeagueID, Format: m.Format, Rounds: m.Rounds}
	if spec.Format == domain.FormatDeals {
		spec.Format = ""
	}
	return r.checkCommitment(ctx, &domain.Match{ID: m.ID, Spec: spec, Commitment: m.Commitment, Nonce: m.Nonce,
		CommitmentVersion: m.CommitmentVersion}, line)
}
