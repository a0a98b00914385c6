package replay

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/tapparena/tapp/arena/internal/dealchain"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/arena/wire"
	"github.com/tapparena/tapp/engine"
)

// FormatVersion names the export schema this build writes; it is the "format" field of
// every line. Version 2 adds each deal's place in its match's chain, the digest of its
// requests as sent, think times and whether a line was exported alone; version 3 the
// observed decisions (record format 2: a bot in process, no request sent) with their clocks,
// which the chain's text covers. A reader reads versions 1 to 3 and refuses any other.
const FormatVersion = "tapp-replay/3"

// formatVersion1 is the first export schema, still read.
const formatVersion1 = "tapp-replay/1"

// formatVersion2 is the second export schema, still read: the same fields but the observed
// decisions'.
const formatVersion2 = "tapp-replay/2"

// DealExport is one line of a JSON Lines export: one deal, complete enough to be replayed,
// verified and re-asked without the store. Cards and actions are in the engine's text
// notation (R-CARD-5), the rule set in its canonical form. docs/replay.md documents every
// field.
type DealExport struct {
	Format      string          `json:"format"`
	Match       string          `json:"match"`
	League      string          `json:"league,omitempty"`
	Rules       string          `json:"rules"`
	Bots        []string        `json:"bots"`
	Seed        string          `json:"seed,omitempty"` // decimal uint64; absent when the match played a deal file
	Duplicate   bool            `json:"duplicate"`
	TimeControl TimeControlJSON `json:"time_control"`
	MatchFormat *FormatJSON     `json:"match_format,omitempty"` // absent in lines written before it
	// Stakes are the rule set's stakes in cents by contract, Jungfer included (modern only:
	// the older variants score by formula).
	Stakes map[string]int `json:"stakes,omitempty"`
	// Commitment is the match's commitment to its deals, Nonce its secret once revealed
	// (docs/replay.md, "Verifiable deals").
	Commitment string `json:"commitment,omitempty"`
	Nonce      string `json:"nonce,omitempty"`
	// CommitmentVersion is the construction of the commitment (2 with the manifest; absent:
	// 1, or no commitment).
	CommitmentVersion int `json:"commitment_version,omitempty"`
	// Chain is the deal's place in its match's chain of stored deals (dealchain): absent only
	// in lines written before version 2.
	Chain *ChainJSON `json:"chain,omitempty"`
	// Manifest is the match's manifest (its deals, groups and seatings), which its commitment
	// binds: what an export of a finished match must hold.
	Manifest *ManifestJSON `json:"manifest,omitempty"`
	// Excerpt marks a line exported alone (tapp replay export --deal): the file does not claim
	// to hold the match's other deals.
	Excerpt bool `json:"excerpt,omitempty"`

	Deal    int         `json:"deal"`
	Group   int         `json:"group"`
	Seating []string    `json:"seating"`
	Dealer  *DealerJSON `json:"dealer,omitempty"` // absent in lines written before it
	Hands   [][]string  `json:"hands"`
	Tapp    []string    `json:"tapp"`
	Options OptionsJSON `json:"options"`
	Moves   []string    `json:"moves"`

	Decisions []DecisionJSON `json:"decisions"`
	Outcome   OutcomeJSON    `json:"outcome"`
	Results   []ResultJSON   `json:"results"`

	Started    time.Time `json:"started"`
	DurationUS int64     `json:"duration_us"`
	// SentDigest is the digest of the requests as they were sent (domain.SentDigest, hex),
	// which the chain covers; present even when the requests are left out (--no-sent).
	SentDigest string `json:"sent_digest,omitempty"`
}

// ChainJSON is a deal's place in its match's chain (dealchain): its position, counted in the
// order the deals were stored, the link before it (for position 0 the match's anchor) and
// its own link, SHA-256(prev ‖ SHA-256(the deal's canonical text)). A deal stored before the
// arena chained deals is Unchained and has neither.
type ChainJSON struct {
	Version   int    `json:"version,omitempty"`
	Seq       int    `json:"seq"`
	Prev      string `json:"prev,omitempty"`
	Link      string `json:"link,omitempty"`
	Unchained bool   `json:"unchained,omitempty"`
}

// FormatJSON is the match's format: "deals" with the number of deal sources, or "session"
// with the rounds agreed (R-SESSION-1).
type FormatJSON struct {
	Format string `json:"format"`
	Deals  int    `json:"deals,omitempty"`
	Rounds int    `json:"rounds,omitempty"`
}

// DealerJSON names who dealt: the last seat (seat 0, forehand, sits after the dealer), the
// dealer's table position (its index in "bots") and its bot.
type DealerJSON struct {
	Seat     int    `json:"seat"`
	Position int    `json:"position"`
	Bot      string `json:"bot"`
}

// stakesOf is the stake table of a modern rule set by contract name, Jungfer (twice the
// Ramsch payment, received) included; nil for the older variants.
func stakesOf(r engine.RuleSet) map[string]int {
	if r.Variant != engine.Modern {
		return nil
	}
	out := make(map[string]int)
	for c := engine.Contract(0); c < engine.NumContracts; c++ {
		if v := r.Stakes[c]; v > 0 {
			out[c.String()] = v
		}
	}
	if v := r.Stakes[engine.Ramsch]; v > 0 {
		out["jungfer"] = 2 * v
	}
	return out
}

// dealerOf names the dealer of a deal from its seating: the bot in the last seat.
func dealerOf(bots, seating []string) *DealerJSON {
	if len(seating) == 0 {
		return nil
	}
	seat := len(seating) - 1
	d := &DealerJSON{Seat: seat, Position: -1, Bot: seating[seat]}
	for i, b := range bots {
		if b == d.Bot {
			d.Position = i
		}
	}
	return d
}

// TimeControlJSON is the match's clock.
type TimeControlJSON struct {
	PerDecisionUS int64 `json:"per_decision_us"`
	OverageUS     int64 `json:"overage_us"`
	MaxStrikes    int   `json:"max_strikes"`
	// Bank is whose bank and strikes they are: "game" or "match"; an export without it was
	// written before clocks per game, when they were the match's.
	Bank string `json:"bank,omitempty"`
}

// OptionsJSON are the deal's options.
type OptionsJSON struct {
	Pot          int  `json:"pot"`
	ForcedRamsch bool `json:"forced_ramsch"`
}

// DecisionJSON is one decision: what was sent, what came back, how long it took.
type DecisionJSON struct {
	Index     int    `json:"index"`
	Seat      int    `json:"seat"`
	Bot       string `json:"bot"`
	Decision  string `json:"decision"`
	RequestID string `json:"request_id,omitempty"`
	Action    string `json:"action"`
	LatencyUS int64  `json:"latency_us"`
	// ArenaShareUS is the arena's own share of the decision, never charged to the bot.
	ArenaShareUS int64 `json:"arena_share_us,omitempty"`
	// Handed is when the request was handed to the bot's connection, its clock's start (from
	// the request as sent: its deadline less the time per decision, plus the arena's share).
	Handed *time.Time `json:"handed,omitempty"`
	// ThinkUS is what the bot reported it thought (for a fallback, with its first late answer).
	ThinkUS int64 `json:"think_us,omitempty"`
	// TransportUS is the rest of the time the bot was charged for, from the hand-off to its
	// answer (for a strike, to its first late answer): the wire and both processes waiting
	// for a CPU. Left out when no answer came.
	TransportUS *int64 `json:"transport_us,omitempty"`
	// Retimed counts how often the request got its time again before it reached the bot's
	// connection (never a strike).
	Retimed int `json:"retimed,omitempty"`
	// Flooded counts the answers naming the request that were refused without being listed
	// in attempts (PROTO-FLOOD): past the attempts a decision keeps, or refused by the
	// bot's connection for a full buffer.
	Flooded int `json:"flooded,omitempty"`
	// Observed says the bot was handed the engine's observation in process and no request
	// was sent (record format 2): sent is the request the decision stands for, rebuilt, the
	// one the arena would have sent over a wire, and sent_digest leaves it out; DeadlineUS
	// (µs since 1970) and OverageUS are its clock, which the chain covers instead.
	Observed   bool            `json:"observed,omitempty"`
	DeadlineUS int64           `json:"deadline_us,omitempty"`
	OverageUS  int64           `json:"overage_us,omitempty"`
	Strike     bool            `json:"strike"`
	Fallback   bool            `json:"fallback"`
	Attempts   []AttemptJSON   `json:"attempts,omitempty"`
	Sent       json.RawMessage `json:"sent,omitempty"`
}

// AttemptJSON is one answer the bot sent, accepted or refused.
type AttemptJSON struct {
	Text     string `json:"text"`
	AfterUS  int64  `json:"after_us"`
	Rejected string `json:"rejected,omitempty"`
}

// OutcomeJSON is the settlement; the lists are by seat.
type OutcomeJSON struct {
	ThrownIn    bool   `json:"thrown_in"`
	Declarer    int    `json:"declarer"`
	Contract    string `json:"contract"`
	Trump       string `json:"trump"`
	Tout        bool   `json:"tout"`
	DeclarerWon bool   `json:"declarer_won"`
	Draw        bool   `json:"draw"`
	Points      []int  `json:"points"`
	Tricks      []int  `json:"tricks"`
	Payoff      []int  `json:"payoff"`
	PotBefore   int    `json:"pot_before"`
	PotAfter    int    `json:"pot_after"`
}

// OutcomeToJSON is a settlement at a table of n seats in the export's terms.
func OutcomeToJSON(out engine.Outcome, n int) OutcomeJSON {
	j := OutcomeJSON{ThrownIn: out.ThrownIn, Declarer: int(out.Declarer), Tout: out.Tout,
		DeclarerWon: out.DeclarerWon, Draw: out.Draw, PotBefore: out.PotBefore, PotAfter: out.PotAfter,
		Points: out.Points[:n:n], Tricks: out.Tricks[:n:n], Payoff: out.Payoff[:n:n]}
	if out.Contract != engine.NoContract {
		j.Contract = out.Contract.String()
	}
	if out.Trump < engine.NumSuits {
		j.Trump = out.Trump.String()
	}
	return j
}

// ResultJSON is one seat's raw result.
type ResultJSON struct {
	Seat     int    `json:"seat"`
	Bot      string `json:"bot"`
	Payoff   int    `json:"payoff"`
	Points   int    `json:"points"`
	Tricks   int    `json:"tricks"`
	Declarer bool   `json:"declarer"`
}

// ExportOptions change what an export holds.
type ExportOptions struct {
	NoSent bool // leave out the requests as sent (the bulk of a record)
}

func us(d time.Duration) int64     { return d.Microseconds() }
func fromUS(v int64) time.Duration { return time.Duration(v) * time.Microsecond }

// NewDealExport converts a deal record to its export line.
func NewDealExport(m Match, rec *domain.DealRecord, o ExportOptions) (*DealExport, error) {
	r := m.Rules
	n := r.Players
	e := &DealExport{
		Format: FormatVersion, Match: m.ID, League: m.LeagueID, Rules: r.String(), Bots: m.Bots,
		Duplicate: m.Duplicate,
		TimeControl: TimeControlJSON{PerDecisionUS: us(m.TimeControl.PerDecision), OverageUS: us(m.TimeControl.Overage),
			MaxStrikes: m.TimeControl.MaxStrikes, Bank: m.TimeControl.Scope.String()},
		Deal: rec.Number, Group: rec.Group, Seating: rec.Seating, Tapp: nonNil(protoconv.CardsToProto(rec.Deal.Tapp)),
		Options: OptionsJSON{Pot: rec.Options.Pot, ForcedRamsch: rec.Options.ForcedRamsch},
		Moves:   make([]string, len(rec.Moves)), Decisions: make([]DecisionJSON, len(rec.Decisions)),
		Results: make([]ResultJSON, len(rec.Results)), Started: rec.Started.UTC(), DurationUS: us(rec.Duration),
		Stakes: stakesOf(r), Dealer: dealerOf(m.Bots, rec.Seating), Commitment: m.Commitment, Nonce: m.Nonce,
		CommitmentVersion: m.CommitmentVersion, SentDigest: hex.EncodeToString(dealchain.SentDigestOf(rec)),
	}
	if m.Format != "" {
		e.MatchFormat = &FormatJSON{Format: m.Format, Deals: m.Deals, Rounds: m.Rounds}
		if m.Format == domain.FormatSession {
			e.MatchFormat.Deals = 0
		}
	}
	if e.Bots == nil {
		e.Bots = []string{}
	}
	if e.Seating == nil {
		e.Seating = []string{}
	}
	if m.Seeded {
		e.Seed = strconv.FormatUint(m.Seed, 10)
	}
	for s := 0; s < n; s++ {
		e.Hands = append(e.Hands, nonNil(protoconv.CardsToProto(rec.Deal.Hands[s])))
	}
	for i, mv := range rec.Moves {
		e.Moves[i] = mv.String()
	}
	for i, x := range rec.Decisions {
		d := DecisionJSON{Index: x.Index, Seat: int(x.Seat), Bot: x.Bot, Decision: x.Decision.String(),
			RequestID: x.RequestID, Action: x.Action.String(), LatencyUS: us(x.Latency), Strike: x.Strike, Fallback: x.Fallback,
			ArenaShareUS: us(x.ArenaShare), ThinkUS: us(x.Think), Retimed: x.Retimed, Flooded: x.Flooded}
		if x.Observed {
			d.Observed, d.DeadlineUS, d.OverageUS = true, x.Deadline.UnixMicro(), us(x.Overage)
		}
		if x.RequestID != "" {
			if a := Attribute(&x, m.TimeControl.PerDecision); a.Answered || !a.Handed.IsZero() {
				if !a.Handed.IsZero() {
					handed := a.Handed.UTC()
					d.Handed = &handed
				}
				if a.Answered {
					transport := us(a.Transport)
					d.TransportUS = &transport
				}
			}
		}
		for _, a := range x.Attempts {
			d.Attempts = append(d.Attempts, AttemptJSON{Text: a.Text, AfterUS: us(a.After), Rejected: a.Rejected})
		}
		if len(x.Sent) > 0 && !o.NoSent {
			sent, err := protoconv.SentJSON(x.Sent)
			if err != nil || !json.Valid(sent) {
				return nil, fmt.Errorf("deal %d, decision %d: the recorded request is unreadable: %w", rec.Number, x.Index, err)
			}
			var b bytes.Buffer
			if err := json.Compact(&b, sent); err != nil {
				return nil, fmt.Errorf("deal %d, decision %d: %w", rec.Number, x.Index, err)
			}
			d.Sent = b.Bytes()
		}
		e.Decisions[i] = d
	}
	e.Outcome = OutcomeToJSON(rec.Outcome, n)
	for i, r := range rec.Results {
		e.Results[i] = ResultJSON{Seat: int(r.Seat), Bot: r.Bot, Payoff: r.Payoff, Points: r.Points, Tricks: r.Tricks, Declarer: r.Declarer}
	}
	return e, nil
}

// Attribute is a recorded decision's attribution (domain.DecisionRecord.Attribution), with
// the moment it was handed over taken from its request when the record does not keep it (a
// stored deal's records do not: the request's deadline less the time per decision is when
// the referee asked).
func Attribute(x *domain.DecisionRecord, perDecision time.Duration) domain.Attribution {
	a := x.Attribution()
	switch {
	case x.Observed && !x.Deadline.IsZero(): // the record keeps the clock itself
		a.Handed = x.Deadline.Add(-perDecision).Add(x.ArenaShare)
	case len(x.Sent) > 0: // the request says, to the µs, whether the record keeps it or not
		if req, err := protoconv.DecodeSent(x.Sent); err == nil && req.GetDeadline() != nil {
			a.Handed = req.GetDeadline().AsTime().Add(-perDecision).Add(x.ArenaShare)
		}
	}
	if x.NeverHanded() {
		a.Handed = time.Time{}
	}
	if !a.Handed.IsZero() {
		a.Handed = a.Handed.UTC().Truncate(time.Microsecond)
	}
	return a
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Record converts an export line back to its match context and deal record. Every card,
// action and name is parsed; an error names the field. Whether the deal is legal is for
// Verify.
func (e *DealExport) Record() (Match, *domain.DealRecord, error) {
	if e.Format != FormatVersion && e.Format != formatVersion1 && e.Format != formatVersion2 {
		return Match{}, nil, fmt.Errorf("format %q: this build reads %q, %q and %q", e.Format, formatVersion1, formatVersion2, FormatVersion)
	}
	rules, err := engine.ParseRuleSet(e.Rules)
	if err != nil {
		return Match{}, nil, fmt.Errorf("rules: %w", err)
	}
	m := Match{ID: e.Match, LeagueID: e.League, Rules: rules, Bots: e.Bots, Duplicate: e.Duplicate,
		TimeControl: domain.TimeControl{PerDecision: fromUS(e.TimeControl.PerDecisionUS), Overage: fromUS(e.TimeControl.OverageUS),
			MaxStrikes: e.TimeControl.MaxStrikes, Scope: domain.ClockPerMatch}, Commitment: e.Commitment, Nonce: e.Nonce,
		CommitmentVersion: e.CommitmentVersion}
	if e.TimeControl.Bank != "" { // an export before clocks per game says nothing: the match's
		if m.TimeControl.Scope, err = domain.ParseClockScope(e.TimeControl.Bank); err != nil {
			return m, nil, fmt.Errorf("time_control.bank: %w", err)
		}
	}
	if f := e.MatchFormat; f != nil {
		m.Format, m.Deals, m.Rounds = f.Format, f.Deals, f.Rounds
	}
	if e.Seed != "" {
		if m.Seed, err = strconv.ParseUint(e.Seed, 10, 64); err != nil {
			return m, nil, fmt.Errorf("seed %q: want a decimal uint64", e.Seed)
		}
		m.Seeded = true
	}
	rec := &domain.DealRecord{MatchID: e.Match, Number: e.Deal, Group: e.Group, Seating: e.Seating,
		Options: engine.Options{Pot: e.Options.Pot, ForcedRamsch: e.Options.ForcedRamsch},
		Started: e.Started, Duration: fromUS(e.DurationUS)}
	if _, err := e.sentDigest(); err != nil {
		return m, nil, err
	}
	if len(e.Hands) != rules.Players {
		return m, nil, fmt.Errorf("hands: %d hands for %d players", len(e.Hands), rules.Players)
	}
	for s, h := range e.Hands {
		if rec.Deal.Hands[s], err = wire.CardsFromProto(h); err != nil {
			return m, nil, fmt.Errorf("hands[%d]: %w", s, err)
		}
	}
	if rec.Deal.Tapp, err = wire.CardsFromProto(e.Tapp); err != nil {
		return m, nil, fmt.Errorf("tapp: %w", err)
	}
	for i, text := range e.Moves {
		mv, err := parseMove(text, rules.Players)
		if err != nil {
			return m, nil, fmt.Errorf("moves[%d]: %w", i, err)
		}
		rec.Moves = append(rec.Moves, mv)
	}
	for i, d := range e.Decisions {
		x := domain.DecisionRecord{Index: d.Index, Seat: engine.Seat(d.Seat), Bot: d.Bot, RequestID: d.RequestID,
			Latency: fromUS(d.LatencyUS), Strike: d.Strike, Fallback: d.Fallback, ArenaShare: fromUS(d.ArenaShareUS),
			Think: fromUS(d.ThinkUS), Retimed: d.Retimed, Flooded: d.Flooded}
		if d.Observed {
			x.Observed, x.Deadline, x.Overage = true, time.UnixMicro(d.DeadlineUS).UTC(), fromUS(d.OverageUS)
		}
		if d.Handed != nil {
			x.Asked = d.Handed.Add(-x.ArenaShare)
		}
		if x.Decision, err = parseDecision(d.Decision); err != nil {
			return m, nil, fmt.Errorf("decisions[%d].decision: %w", i, err)
		}
		if x.Action, err = engine.ParseAction(d.Action); err != nil {
			return m, nil, fmt.Errorf("decisions[%d].action: %w", i, err)
		}
		for _, a := range d.Attempts {
			x.Attempts = append(x.Attempts, domain.AnswerAttempt{Text: a.Text, After: fromUS(a.AfterUS), Rejected: a.Rejected})
		}
		if len(d.Sent) > 0 {
			x.Sent = append([]byte(nil), d.Sent...)
		}
		rec.Decisions = append(rec.Decisions, x)
	}
	o := &rec.Outcome
	o.ThrownIn, o.Declarer, o.Tout, o.DeclarerWon, o.Draw = e.Outcome.ThrownIn, engine.Seat(e.Outcome.Declarer), e.Outcome.Tout,
		e.Outcome.DeclarerWon, e.Outcome.Draw
	o.PotBefore, o.PotAfter = e.Outcome.PotBefore, e.Outcome.PotAfter
	o.Trump = engine.NoSuit
	if e.Outcome.Contract != "" {
		if o.Contract, err = engine.ParseContract(e.Outcome.Contract); err != nil {
			return m, nil, fmt.Errorf("outcome.contract: %w", err)
		}
	}
	if e.Outcome.Trump != "" {
		if o.Trump, err = engine.ParseSuit(e.Outcome.Trump); err != nil {
			return m, nil, fmt.Errorf("outcome.trump: %w", err)
		}
	}
	for name, l := range map[string]struct {
		src []int
		dst *[engine.MaxPlayers]int
	}{"points": {e.Outcome.Points, &o.Points}, "tricks": {e.Outcome.Tricks, &o.Tricks}, "payoff": {e.Outcome.Payoff, &o.Payoff}} {
		if len(l.src) != rules.Players {
			return m, nil, fmt.Errorf("outcome.%s: %d entries for %d players", name, len(l.src), rules.Players)
		}
		copy(l.dst[:], l.src)
	}
	for _, r := range e.Results {
		rec.Results = append(rec.Results, domain.SeatResult{Bot: r.Bot, Seat: engine.Seat(r.Seat), Payoff: r.Payoff,
			Points: r.Points, Tricks: r.Tricks, Declarer: r.Declarer})
	}
	return m, rec, nil
}

// sentDigest is the line's digest of the requests as sent.
func (e *DealExport) sentDigest() ([]byte, error) {
	d, err := hex.DecodeString(e.SentDigest)
	if err != nil || (len(d) != domain.SentDigestSize && e.SentDigest != "") {
		return nil, fmt.Errorf("sent_digest %q: want %d hex digits", e.SentDigest, 2*domain.SentDigestSize)
	}
	return d, nil
}

// Digest is the digest the chain covers of the deal a line holds, rec as Record read it
// (dealchain.Digest, with the line's digest of the requests as sent).
func (e *DealExport) Digest(rec *domain.DealRecord, players int) [32]byte {
	d, _ := e.sentDigest() // checked by Record
	return dealchain.Digest(rec, d, players)
}

// parseMove reads "seat:action" (Move.String).
func parseMove(text string, players int) (engine.Move, error) {
	seat, act, ok := strings.Cut(text, ":")
	n, err := strconv.Atoi(seat)
	if !ok || err != nil {
		return engine.Move{}, fmt.Errorf("%q: want seat:action, e.g. 1:HA", text)
	}
	if n < 0 || n >= players {
		return engine.Move{}, fmt.Errorf("%q: no seat %d at a table of %d", text, n, players)
	}
	a, err := engine.ParseAction(act)
	if err != nil {
		return engine.Move{}, fmt.Errorf("%q: %w", text, err)
	}
	return engine.Move{Seat: engine.Seat(n), Action: a}, nil
}

// parseDecision reads a decision kind as Decision.String writes it.
func parseDecision(text string) (engine.Decision, error) {
	for d := engine.DecideNone; d <= engine.DecideCard; d++ {
		if d.String() == text {
			return d, nil
		}
	}
	return engine.DecideNone, fmt.Errorf("unknown decision %q (bid, contract, trump, discard, call, give, tout, card)", text)
}

// WriteLine writes one export line (a JSON object and a newline).
func WriteLine(w io.Writer, e *DealExport) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ExportStored writes every stored deal of a match (or only deal *only, marked an excerpt) as
// JSON Lines, in the order of the match's chain (dealchain: the order they were stored; deals
// stored before chains first, by number), each with its place in the chain, and returns how
// many deals it wrote and how many it left out because their cards are still in play (Gate;
// asked for alone, such a deal is an error wrapping ErrInPlay). Deals are read one at a
// time, so a long match does not have to fit in memory. The chain is checked against the
// store as it goes: an export never passes off a broken chain as a whole one (the error
// names the deal; tapp replay verify says more).
func ExportStored(ctx context.Context, st Store, matchID string, only *int, w io.Writer, o ExportOptions) (written, withheld int, err error) {
	am, err := st.GetMatch(ctx, matchID)
	if err != nil {
		return 0, 0, err
	}
	m := MatchOf(am)
	gate, err := NewGate(ctx, st, am)
	if err != nil {
		return 0, 0, err
	}
	if only != nil {
		if err := gate.Check(*only); err != nil {
			return 0, 0, err
		}
	}
	chain, err := st.Chain(ctx, matchID)
	if err != nil {
		return 0, 0, err
	}
	tables, err := match.Plan(am.Spec)
	if err != nil {
		return 0, 0, fmt.Errorf("match %s: %w", matchID, err)
	}
	manifest := manifestJSON(match.ManifestOf(tables))
	write := func(rec *domain.DealRecord, c *ChainJSON) error {
		e, err := NewDealExport(m, rec, o)
		if err != nil {
			return err
		}
		e.Chain, e.Excerpt, e.Manifest = c, only != nil, manifest
		if err := WriteLine(w, e); err != nil {
			return err
		}
		written++
		return nil
	}
	for _, n := range chain.Unchained {
		if only != nil && n != *only {
			continue
		}
		if gate.Check(n) != nil {
			withheld++
			continue
		}
		rec, err := st.Deal(ctx, matchID, n)
		if err != nil {
			return written, withheld, err
		}
		if err := write(rec, &ChainJSON{Unchained: true}); err != nil {
			return written, withheld, err
		}
	}
	prev := dealchain.Anchor(am.ID, am.Commitment)
	for i, l := range chain.Links {
		if l.Seq != i {
			return written, withheld, fmt.Errorf("match %s: the chain of its stored deals has place %d where %d belongs: "+
				"a deal is missing or doubled (tapp replay verify %s)", matchID, l.Seq, i, matchID)
		}
		// Every deal is read, also those left out, for its link: the lines after it need it.
		rec, err := st.Deal(ctx, matchID, l.Number)
		if err != nil {
			return written, withheld, err
		}
		link := dealchain.Next(prev, dealchain.RecordDigest(rec, m.Rules.Players))
		if !bytes.Equal(link[:min(len(l.Link), len(link))], l.Link) || len(l.Link) != dealchain.StoredLinkSize {
			return written, withheld, fmt.Errorf("match %s: deal %d (place %d in its chain) is not the deal stored there: "+
				"altered, moved or damaged since (tapp replay verify %s)", matchID, l.Number, i, matchID)
		}
		c := &ChainJSON{Version: dealchain.Version, Seq: l.Seq, Prev: prev.String(), Link: link.String()}
		prev = link
		switch {
		case only != nil && l.Number != *only:
			continue
		case gate.Check(l.Number) != nil:
			withheld++
			continue
		}
		if err := write(rec, c); err != nil {
			return written, withheld, err
		}
		if only != nil {
			return written, withheld, nil
		}
	}
	if len(chain.Links) > 0 && (chain.Length != len(chain.Links) || !bytes.Equal(chain.Head, prev[:])) {
		return written, withheld, fmt.Errorf("match %s: its chain of %d deals ends in %x, but the match says %d deals ending in %x: "+
			"a deal is missing or altered (tapp replay verify %s)", matchID, len(chain.Links), prev, chain.Length, chain.Head, matchID)
	}
	if only != nil && written == 0 {
		return 0, 0, fmt.Errorf("deal %d of match %s: %w", *only, matchID, domain.ErrNotFound)
	}
	return written, withheld, nil
}

// maxLine bounds one export line (a deal with every request as sent is far smaller).
const maxLine = 64 << 20

// ReadExport reads a JSON Lines export and calls f for every non-blank line with its line
// number (from 1) and the parsed line, or the error that made it unreadable. An error f
// returns stops the reading and is returned.
func ReadExport(r io.Reader, f func(line int, e *DealExport, err error) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), maxLine)
	n := 0
	for sc.Scan() {
		n++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var e DealExport
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		err := dec.Decode(&e)
		if err == nil && dec.More() {
			err = errors.New("more than one JSON value on the line")
		}
		if err != nil {
			err = fmt.Errorf("not a deal line: %w", err)
			if ferr := f(n, nil, err); ferr != nil {
				return ferr
			}
			continue
		}
		if err := f(n, &e, nil); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("line %d: %w", n+1, err)
	}
	return nil
}
