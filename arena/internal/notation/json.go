package notation

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/tapparena/tapp/engine"
)

// jsonRecord is the JSON Lines twin of a record: the same content, with the field names and
// forms of the replay export (docs/replay.md, "The export format") wherever it has them.
type jsonRecord struct {
	Format      string       `json:"format"`
	Match       string       `json:"match,omitempty"`
	League      string       `json:"league,omitempty"`
	Deal        int          `json:"deal"`
	Group       int          `json:"group"`
	Rules       string       `json:"rules"`
	Bots        []string     `json:"bots,omitempty"`
	Seating     []string     `json:"seating"`
	Dealer      *jsonDealer  `json:"dealer,omitempty"`
	MatchFormat *jsonFormat  `json:"match_format,omitempty"`
	Duplicate   *bool        `json:"duplicate,omitempty"`
	Seed        string       `json:"seed,omitempty"`
	Commitment  string       `json:"commitment,omitempty"`
	Nonce       string       `json:"nonce,omitempty"`
	Options     jsonOptions  `json:"options"`
	Started     *time.Time   `json:"started,omitempty"`
	View        *int         `json:"view,omitempty"`
	Hands       [][]string   `json:"hands"` // a hand the record does not show is null
	Tapp        []string     `json:"tapp"`  // null when not shown
	Holder      *int         `json:"holder,omitempty"`
	Moves       []string     `json:"moves"`
	Outcome     *jsonOutcome `json:"outcome,omitempty"`
	Tags        []jsonTag    `json:"tags,omitempty"`
}

type jsonDealer struct {
	Seat     int    `json:"seat"`
	Position int    `json:"position"`
	Bot      string `json:"bot"`
}

type jsonFormat struct {
	Format string `json:"format"`
	Deals  int    `json:"deals,omitempty"`
	Rounds int    `json:"rounds,omitempty"`
}

type jsonOptions struct {
	Pot          int  `json:"pot"`
	ForcedRamsch bool `json:"forced_ramsch"`
}

type jsonTag struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// jsonOutcome is the export's outcome object, field for field.
type jsonOutcome struct {
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

// WriteJSON writes one record as a line of the JSON Lines twin.
func WriteJSON(w io.Writer, r *Record) error {
	if err := r.check(); err != nil {
		return err
	}
	n := r.Players()
	j := jsonRecord{Format: JSONFormat, Match: r.Match, League: r.League, Deal: r.Deal, Group: r.Group,
		Rules: r.Rules.String(), Bots: r.Table, Seating: r.Seating, Commitment: r.Commitment,
		Options: jsonOptions{Pot: r.Options.Pot, ForcedRamsch: r.Options.ForcedRamsch}, Moves: make([]string, len(r.Moves))}
	if r.Table != nil && r.Dealer >= 0 {
		j.Dealer = &jsonDealer{Seat: n - 1, Position: r.Dealer, Bot: r.Table[r.Dealer]}
	}
	switch r.Format {
	case "deals":
		j.MatchFormat = &jsonFormat{Format: r.Format, Deals: r.Deals}
	case "session":
		j.MatchFormat = &jsonFormat{Format: r.Format, Rounds: r.Rounds}
	}
	if r.HasDuplicate {
		j.Duplicate = &r.Duplicate
	}
	if r.Seeded && !r.Redacted {
		j.Seed = strconv.FormatUint(r.Seed, 10)
	}
	if !r.Redacted {
		j.Nonce = r.Nonce
	}
	if !r.Started.IsZero() {
		t := r.Started.UTC()
		j.Started = &t
	}
	if r.Redacted {
		v := int(r.View)
		j.View = &v
	}
	for s := 0; s < n; s++ {
		j.Hands = append(j.Hands, cardNames(r.Hands[s], r.Known[s]))
	}
	j.Tapp = cardNames(r.Tapp, r.TappKnown)
	if r.HasHolder {
		h := int(r.Holder)
		j.Holder = &h
	}
	for i, m := range r.Moves {
		j.Moves[i] = MoveText(m)
	}
	if r.Outcome != nil && !r.Redacted {
		j.Outcome = outcomeJSON(*r.Outcome, n)
	}
	for _, t := range r.Extra {
		j.Tags = append(j.Tags, jsonTag(t))
	}
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func cardNames(s engine.CardSet, known bool) []string {
	if !known {
		return nil
	}
	out := []string{}
	for _, c := range s.Cards(nil) {
		out = append(out, c.String())
	}
	return out
}

func outcomeJSON(o engine.Outcome, n int) *jsonOutcome {
	j := &jsonOutcome{ThrownIn: o.ThrownIn, Declarer: int(o.Declarer), Tout: o.Tout, DeclarerWon: o.DeclarerWon,
		Draw: o.Draw, Points: o.Points[:n:n], Tricks: o.Tricks[:n:n], Payoff: o.Payoff[:n:n],
		PotBefore: o.PotBefore, PotAfter: o.PotAfter}
	if o.Contract != engine.NoContract {
		j.Contract = o.Contract.String()
	}
	if o.Trump < engine.NumSuits {
		j.Trump = o.Trump.String()
	}
	return j
}

// readJSON reads one line of the JSON Lines twin.
func readJSON(line []byte) (*Record, error) {
	j, err := decodeJSONLine(line)
	if err != nil {
		return nil, err
	}
	rules, err := engine.ParseRuleSet(j.Rules)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	n := rules.Players
	r := &Record{Match: j.Match, League: j.League, Deal: j.Deal, Group: j.Group, Rules: rules, Table: j.Bots,
		Seating: j.Seating, Dealer: -1, Commitment: j.Commitment, Nonce: j.Nonce, Holder: engine.NoSeat,
		Options: engine.Options{Pot: j.Options.Pot, ForcedRamsch: j.Options.ForcedRamsch}}
	for _, step := range []func(*jsonRecord, *Record, int) error{readJSONMatch, readJSONCards, readJSONPlay} {
		if err := step(j, r, n); err != nil {
			return nil, err
		}
	}
	if err := r.validate(); err != nil {
		return nil, err
	}
	return r, nil
}

// decodeJSONLine decodes a line that must hold exactly one JSON record of this build's format.
func decodeJSONLine(line []byte) (*jsonRecord, error) {
	var j jsonRecord
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("not a TPN JSON line: %w", err)
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value on the line")
	}
	if j.Format != JSONFormat {
		return nil, fmt.Errorf("format %q: this build reads %q", j.Format, JSONFormat)
	}
	return &j, nil
}

// readJSONMatch reads what the line says about the deal's place in its match: its numbers,
// the dealer, the match's format, duplicate, seed, start and the seat a redacted line is for.
func readJSONMatch(j *jsonRecord, r *Record, n int) error {
	if j.Deal < 0 || j.Group < 0 {
		return errors.New("deal, group: want numbers, 0 or more")
	}
	if err := readJSONDealer(j, r, n); err != nil {
		return err
	}
	if err := readJSONMatchFormat(j, r); err != nil {
		return err
	}
	if j.Duplicate != nil {
		r.HasDuplicate, r.Duplicate = true, *j.Duplicate
	}
	if j.Seed != "" {
		r.Seeded = true
		var err error
		if r.Seed, err = strconv.ParseUint(j.Seed, 10, 64); err != nil {
			return fmt.Errorf("seed %q: want a decimal uint64", j.Seed)
		}
	}
	if j.Started != nil {
		r.Started = *j.Started
	}
	if j.View != nil {
		r.Redacted, r.View = true, engine.Seat(*j.View)
		if *j.View < 0 || *j.View >= n {
			return fmt.Errorf("view: seat %d at a table of %d", *j.View, n)
		}
	}
	return nil
}

// readJSONDealer reads the dealer: always the last seat, and the bot at its table position.
func readJSONDealer(j *jsonRecord, r *Record, n int) error {
	if j.Dealer == nil {
		return nil
	}
	if j.Dealer.Seat != n-1 {
		return fmt.Errorf("dealer: seat %d, but the dealer sits in the last seat, %d (R-SEAT-2)", j.Dealer.Seat, n-1)
	}
	r.Dealer = j.Dealer.Position
	if r.Table != nil && (r.Dealer < 0 || r.Dealer >= len(r.Table) || r.Table[r.Dealer] != j.Dealer.Bot) {
		return fmt.Errorf("dealer: position %d is not bot %q in bots", r.Dealer, j.Dealer.Bot)
	}
	return nil
}

// readJSONMatchFormat reads the match's format: a number of deals or of session rounds.
func readJSONMatchFormat(j *jsonRecord, r *Record) error {
	f := j.MatchFormat
	if f == nil {
		return nil
	}
	switch f.Format {
	case "deals":
		r.Format, r.Deals = f.Format, f.Deals
	case "session":
		r.Format, r.Rounds = f.Format, f.Rounds
	default:
		return fmt.Errorf("match_format: format %q: want deals or session", f.Format)
	}
	return nil
}

// readJSONCards reads the cards as dealt: the hands, the tapp and the called card's holder.
func readJSONCards(j *jsonRecord, r *Record, n int) error {
	if len(j.Hands) != n {
		return fmt.Errorf("hands: %d hands for %d players", len(j.Hands), n)
	}
	var err error
	for s, h := range j.Hands {
		if r.Hands[s], r.Known[s], err = parseNames(h); err != nil {
			return fmt.Errorf("hands[%d]: %w", s, err)
		}
	}
	if r.Tapp, r.TappKnown, err = parseNames(j.Tapp); err != nil {
		return fmt.Errorf("tapp: %w", err)
	}
	if j.Holder != nil {
		r.HasHolder, r.Holder = true, engine.Seat(*j.Holder)
		if *j.Holder < -1 {
			return fmt.Errorf("holder: seat %d", *j.Holder)
		}
	}
	return nil
}

// readJSONPlay reads the play: the moves, the outcome and the extra tags.
func readJSONPlay(j *jsonRecord, r *Record, n int) error {
	for i, text := range j.Moves {
		m, err := ParseMove(text, n)
		if err != nil {
			return fmt.Errorf("moves[%d]: %w", i, err)
		}
		r.Moves = append(r.Moves, m)
	}
	if j.Outcome != nil {
		o, err := outcomeFromJSON(j.Outcome, n)
		if err != nil {
			return fmt.Errorf("outcome: %w", err)
		}
		r.Outcome = &o
	}
	for _, t := range j.Tags {
		r.Extra = append(r.Extra, Tag(t))
	}
	return nil
}

func parseNames(names []string) (engine.CardSet, bool, error) {
	if names == nil {
		return 0, false, nil
	}
	var set engine.CardSet
	for _, name := range names {
		c, err := engine.ParseCard(name)
		if err != nil {
			return 0, false, err
		}
		if set.Has(c) {
			return 0, false, fmt.Errorf("card %s appears twice", c)
		}
		set = set.With(c)
	}
	return set, true, nil
}

func outcomeFromJSON(j *jsonOutcome, n int) (engine.Outcome, error) {
	o := engine.Outcome{ThrownIn: j.ThrownIn, Declarer: engine.Seat(j.Declarer), Tout: j.Tout, DeclarerWon: j.DeclarerWon,
		Draw: j.Draw, PotBefore: j.PotBefore, PotAfter: j.PotAfter, Trump: engine.NoSuit}
	if j.Declarer < -1 || j.Declarer >= n {
		return o, fmt.Errorf("declarer: seat %d at a table of %d", j.Declarer, n)
	}
	var err error
	if j.Contract != "" {
		if o.Contract, err = engine.ParseContract(j.Contract); err != nil {
			return o, err
		}
	}
	if j.Trump != "" {
		if o.Trump, err = engine.ParseSuit(j.Trump); err != nil {
			return o, err
		}
	}
	for name, l := range map[string]struct {
		src []int
		dst []int
	}{"points": {j.Points, o.Points[:n]}, "tricks": {j.Tricks, o.Tricks[:n]}, "payoff": {j.Payoff, o.Payoff[:n]}} {
		if len(l.src) != n {
			return o, fmt.Errorf("%s: %d entries for %d players", name, len(l.src), n)
		}
		copy(l.dst, l.src)
	}
	return o, nil
}
