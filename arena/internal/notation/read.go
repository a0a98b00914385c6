package notation

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/tapparena/tapp/engine"
)

// maxLine bounds one line of a TPN file (a JSON twin line of a long deal is a few KB).
const maxLine = 1 << 20

// Read reads TPN records, text or JSON twin lines or both, and calls f for each record with
// the number of its first line (from 1) and the record, or the error that makes it
// unreadable; reading goes on with the next record. An error f returns stops the reading and
// is returned. Read checks the form of a record (every tag, card and move parses; the cards
// make a deal of the rule set; a redacted record holds no seed, nonce or result); whether the
// moves are legal and the result right is for a verifier (tapp replay verify).
func Read(r io.Reader, f func(line int, rec *Record, err error) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	p := &textParser{}
	n := 0
	emit := func() error {
		if p.start == 0 {
			return nil
		}
		rec, err := p.record()
		start := p.start
		*p = textParser{}
		return f(start, rec, err)
	}
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "{"):
			if err := emit(); err != nil {
				return err
			}
			rec, err := readJSON([]byte(line))
			if err := f(n, rec, err); err != nil {
				return err
			}
		case strings.HasPrefix(line, "["):
			name, value, err := parseTag(line)
			if p.start != 0 && (p.inMoves || name == "TPN") {
				if err := emit(); err != nil {
					return err
				}
			}
			if p.start == 0 {
				p.start = n
			}
			if err != nil && p.err == nil {
				p.err = fmt.Errorf("line %d: %w", n, err)
			}
			p.tags = append(p.tags, Tag{name, value})
		default:
			if k := strings.IndexByte(line, ';'); k >= 0 { // a comment to the end of the line
				line = line[:k]
			}
			if p.start == 0 {
				if strings.TrimSpace(line) == "" {
					continue
				}
				return fmt.Errorf("line %d: moves before the first record's tags (a record starts with [TPN \"%s\"])", n, Version)
			}
			p.inMoves = true
			p.moves = append(p.moves, strings.Fields(line)...)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("line %d: %w", n+1, err)
	}
	return emit()
}

// ReadAll reads every record of a TPN text; the first unreadable record is an error naming
// its line.
func ReadAll(r io.Reader) ([]*Record, error) {
	var out []*Record
	err := Read(r, func(line int, rec *Record, err error) error {
		if err != nil {
			return fmt.Errorf("record at line %d: %w", line, err)
		}
		out = append(out, rec)
		return nil
	})
	return out, err
}

// Parse reads exactly one record.
func Parse(text string) (*Record, error) {
	recs, err := ReadAll(strings.NewReader(text))
	if err != nil {
		return nil, err
	}
	if len(recs) != 1 {
		return nil, fmt.Errorf("tpn: %d records, want one", len(recs))
	}
	return recs[0], nil
}

type textParser struct {
	start   int // the record's first line, 0 before one starts
	tags    []Tag
	moves   []string
	inMoves bool
	err     error
}

// parseTag reads `[Name "value"]`.
func parseTag(line string) (name, value string, err error) {
	if !strings.HasSuffix(line, "]") {
		return "", "", fmt.Errorf("tag %s: want [Name \"value\"]", line)
	}
	body := strings.TrimSpace(line[1 : len(line)-1])
	name, rest, ok := strings.Cut(body, " ")
	rest = strings.TrimSpace(rest)
	if !ok || name == "" || len(rest) < 2 || rest[0] != '"' || rest[len(rest)-1] != '"' {
		return name, "", fmt.Errorf("tag %s: want [Name \"value\"]", line)
	}
	for i, c := range name {
		if !(c >= 'A' && c <= 'Z' || i > 0 && (c >= 'a' && c <= 'z' || c >= '0' && c <= '9')) {
			return name, "", fmt.Errorf("tag name %q: letters and digits, starting with a capital", name)
		}
	}
	var b strings.Builder
	in := rest[1 : len(rest)-1]
	for i := 0; i < len(in); i++ {
		c := in[i]
		if c == '\\' && i+1 < len(in) {
			i++
			c = in[i]
		} else if c == '"' {
			return name, "", fmt.Errorf("tag %s: a quote inside the value must be written \\\"", name)
		}
		b.WriteByte(c)
	}
	return name, b.String(), nil
}

// record builds the record from the tags and moves read.
func (p *textParser) record() (*Record, error) {
	if p.err != nil {
		return nil, p.err
	}
	tags := map[string]string{}
	var order []string
	for _, t := range p.tags {
		if _, dup := tags[t.Name]; dup {
			return nil, fmt.Errorf("tag %s given twice", t.Name)
		}
		tags[t.Name] = t.Value
		order = append(order, t.Name)
	}
	if order[0] != "TPN" {
		return nil, fmt.Errorf("a record starts with [TPN \"%s\"], not [%s …]", Version, order[0])
	}
	if v := tags["TPN"]; v != Version {
		return nil, fmt.Errorf("TPN version %q: this build reads version %s", v, Version)
	}
	for _, name := range []string{"Rules", "Seating", "Hands"} {
		if _, ok := tags[name]; !ok {
			return nil, fmt.Errorf("no %s tag (required)", name)
		}
	}
	rules, err := engine.ParseRuleSet(tags["Rules"])
	if err != nil {
		return nil, fmt.Errorf("Rules: %w", err)
	}
	n := rules.Players
	r := &Record{Rules: rules, Match: tags["Match"], League: tags["League"], Dealer: -1, Holder: engine.NoSeat,
		Seating: strings.Fields(tags["Seating"])}
	for _, name := range order {
		v := tags[name]
		if err := r.setTag(name, v); err != nil {
			return nil, fmt.Errorf("%s %q: %w", name, v, err)
		}
	}
	if _, ok := tags["Group"]; !ok {
		r.Group = r.Deal
	}
	if err := r.setHands(strings.Split(tags["Hands"], "|")); err != nil {
		return nil, fmt.Errorf("Hands: %w", err)
	}
	for i, text := range p.moves {
		m, err := ParseMove(text, n)
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", i, err)
		}
		r.Moves = append(r.Moves, m)
	}
	if err := r.validate(); err != nil {
		return nil, err
	}
	return r, nil
}

// setTag reads one tag into the record (Rules, Seating and Hands are read apart).
func (r *Record) setTag(name, v string) error {
	var err error
	switch name {
	case "TPN", "Rules", "Seating", "Hands", "Match", "League":
	case "Deal":
		r.Deal, err = nonNegative(v)
	case "Group":
		r.Group, err = nonNegative(v)
	case "Table":
		r.Table = strings.Fields(v)
	case "Dealer":
		r.Dealer, err = nonNegative(v)
	case "MatchFormat":
		kind, count, _ := strings.Cut(v, " ")
		var k int
		if k, err = nonNegative(count); err != nil {
			return err
		}
		switch kind {
		case "deals":
			r.Format, r.Deals = kind, k
		case "session":
			r.Format, r.Rounds = kind, k
		default:
			return errors.New(`want "deals N" or "session ROUNDS"`)
		}
	case "Duplicate":
		r.HasDuplicate = true
		r.Duplicate, err = parseYesNo(v)
	case "Seed":
		r.Seeded = true
		if r.Seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			return errors.New("want a decimal uint64")
		}
	case "Commitment":
		r.Commitment = v
	case "Nonce":
		r.Nonce = v
	case "Pot":
		r.Options.Pot, err = nonNegative(v)
	case "ForcedRamsch":
		r.Options.ForcedRamsch, err = parseYesNo(v)
	case "Started":
		if r.Started, err = time.Parse(time.RFC3339Nano, v); err != nil {
			return errors.New("want an RFC 3339 time, e.g. 2026-11-29T20:19:00Z")
		}
	case "View":
		r.Redacted = true
		var s int
		s, err = nonNegative(v)
		r.View = engine.Seat(s)
	case "Holder":
		r.HasHolder = true
		if v == "tapp" {
			r.Holder = engine.NoSeat
			return nil
		}
		var s int
		s, err = nonNegative(v)
		r.Holder = engine.Seat(s)
	case "Result":
		var o engine.Outcome
		if o, err = ParseResult(v, r.Players()); err == nil {
			r.Outcome = &o
		}
	default:
		r.Extra = append(r.Extra, Tag{name, v})
	}
	return err
}

func nonNegative(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, errors.New("want a number, 0 or more")
	}
	return n, nil
}

func parseYesNo(v string) (bool, error) {
	switch v {
	case "yes":
		return true, nil
	case "no":
		return false, nil
	}
	return false, errors.New("want yes or no")
}

// setHands reads the hands and the tapp: n+1 parts, each cards or "?".
func (r *Record) setHands(parts []string) error {
	n := r.Players()
	if len(parts) != n+1 {
		return fmt.Errorf("want %d hands and the tapp separated by |, got %d parts", n, len(parts))
	}
	for i, part := range parts {
		part = strings.TrimSpace(part)
		known := part != Unknown
		var set engine.CardSet
		if known {
			var err error
			if set, err = engine.ParseCardSet(part); err != nil {
				return fmt.Errorf("%s: %w", partName(i, n), err)
			}
		}
		if i == n {
			r.Tapp, r.TappKnown = set, known
		} else {
			r.Hands[i], r.Known[i] = set, known
		}
	}
	return nil
}

func partName(i, n int) string {
	if i == n {
		return "the tapp"
	}
	return "seat " + strconv.Itoa(i)
}

// validate checks a record read from either form: the cards, the seats, what a redacted
// record may hold.
func (r *Record) validate() error {
	n := r.Players()
	if len(r.Seating) != n {
		return fmt.Errorf("Seating: %d bots for a table of %d", len(r.Seating), n)
	}
	if r.Table != nil {
		if len(r.Table) != n {
			return fmt.Errorf("Table: %d bots for a table of %d", len(r.Table), n)
		}
		if r.Dealer < 0 || r.Dealer >= n {
			return fmt.Errorf("Dealer: table position %d at a table of %d", r.Dealer, n)
		}
		if r.Table[r.Dealer] != r.Seating[n-1] {
			return fmt.Errorf("Dealer: table position %d is %s, but the dealer's seat %d holds %s (R-SEAT-2)",
				r.Dealer, r.Table[r.Dealer], n-1, r.Seating[n-1])
		}
	} else {
		r.Dealer = -1
	}
	if r.HasHolder && r.Holder != engine.NoSeat && int(r.Holder) >= n {
		return fmt.Errorf("Holder: seat %d at a table of %d", r.Holder, n)
	}
	if r.Redacted {
		return r.validateRedacted()
	}
	if d, ok := r.FullDeal(); !ok {
		return errors.New("Hands: a full record shows every hand and the tapp (a redacted one has a View tag)")
	} else if err := d.Validate(r.Rules); err != nil {
		return fmt.Errorf("Hands: %w", err)
	}
	for i, m := range r.Moves {
		if hiddenMove(m) {
			return fmt.Errorf("move %d (%s): a hidden card in a full record", i, MoveText(m))
		}
	}
	// Who held the called card follows from the cards; the Holder tag may say it too.
	holder, called := r.calledHolder()
	if r.HasHolder && (!called || holder != r.Holder) {
		return fmt.Errorf("Holder: %s, but the cards say %s", holderText(r.Holder), holderOf(holder, called))
	}
	r.HasHolder, r.Holder = called, holder
	return nil
}

func holderOf(s engine.Seat, called bool) string {
	if !called {
		return "the deal has no call"
	}
	return holderText(s)
}

func (r *Record) validateRedacted() error {
	n := r.Players()
	switch {
	case int(r.View) >= n:
		return fmt.Errorf("View: seat %d at a table of %d", r.View, n)
	case !r.Known[r.View]:
		return fmt.Errorf("Hands: seat %d's own hand is not shown in its view", r.View)
	case r.Seeded:
		return errors.New("Seed: a redacted record carries no seed (it would reveal every card)")
	case r.Nonce != "":
		return errors.New("Nonce: a redacted record carries no nonce (with the commitment it would reveal the seed)")
	case r.Outcome != nil:
		return errors.New("Result: a redacted record carries no result (it depends on cards the seat did not see)")
	}
	var seen engine.CardSet
	for i := 0; i <= n; i++ {
		set, known, want := r.Tapp, r.TappKnown, r.Rules.TappSize()
		if i < n {
			set, known, want = r.Hands[i], r.Known[i], r.Rules.HandSize()
		}
		if !known {
			continue
		}
		if set.Len() != want {
			return fmt.Errorf("Hands: %s has %d cards, want %d (R-DEAL-1)", partName(i, n), set.Len(), want)
		}
		if extra := set &^ r.Rules.Pack(); extra != 0 {
			return fmt.Errorf("Hands: %s holds %s, not in the pack (R-CARD-4)", partName(i, n), extra)
		}
		if both := seen & set; both != 0 {
			return fmt.Errorf("Hands: %s is dealt twice", both)
		}
		seen |= set
	}
	return nil
}

func hiddenMove(m engine.Move) bool {
	return (m.Action.Kind == engine.ActDiscard || m.Action.Kind == engine.ActGive) && !m.Action.Card.Valid()
}

// ParseMove reads a move as MoveText writes it, "seat:action", a hidden lay-away or give as
// "seat:discard" or "seat:give".
func ParseMove(text string, players int) (engine.Move, error) {
	seat, act, ok := strings.Cut(text, ":")
	s, err := strconv.Atoi(seat)
	if !ok || err != nil {
		return engine.Move{}, fmt.Errorf("%q: want seat:action, e.g. 1:HA", text)
	}
	if s < 0 || s >= players {
		return engine.Move{}, fmt.Errorf("%q: no seat %d at a table of %d", text, s, players)
	}
	m := engine.Move{Seat: engine.Seat(s)}
	switch strings.ToLower(act) {
	case "discard":
		m.Action = engine.DiscardAction(engine.NoCard)
	case "give":
		m.Action = engine.GiveAction(engine.NoCard)
	default:
		if m.Action, err = engine.ParseAction(act); err != nil {
			return engine.Move{}, fmt.Errorf("%q: %w", text, err)
		}
	}
	return m, nil
}

// ParseResult reads a Result tag's value (ResultText) for a table of n.
func ParseResult(v string, n int) (engine.Outcome, error) {
	o := engine.Outcome{Declarer: engine.NoSeat, Trump: engine.NoSuit}
	seen := map[string]bool{}
	for _, field := range strings.Fields(v) {
		key, val, ok := strings.Cut(field, "=")
		if !ok {
			return o, fmt.Errorf("%q: want key=value", field)
		}
		if seen[key] {
			return o, fmt.Errorf("%s given twice", key)
		}
		seen[key] = true
		var err error
		switch key {
		case "contract":
			if val == "-" {
				o.ThrownIn = true
			} else if o.Contract, err = engine.ParseContract(val); err != nil {
				return o, err
			}
		case "trump":
			if val != "-" {
				o.Trump, err = engine.ParseSuit(val)
			}
		case "declarer":
			if val != "-" {
				var s int
				if s, err = nonNegative(val); err == nil && s >= n {
					err = fmt.Errorf("declarer: seat %d at a table of %d", s, n)
				}
				o.Declarer = engine.Seat(s)
			}
		case "tout":
			o.Tout, err = parseYesNo(val)
		case "won":
			o.DeclarerWon, err = parseYesNo(val)
		case "draw":
			o.Draw, err = parseYesNo(val)
		case "points":
			err = parseInts(val, o.Points[:n])
		case "tricks":
			err = parseInts(val, o.Tricks[:n])
		case "payoff":
			err = parseInts(val, o.Payoff[:n])
		case "pot":
			var pot [2]int
			if err = parseInts(val, pot[:]); err == nil {
				o.PotBefore, o.PotAfter = pot[0], pot[1]
			}
		default:
			return o, fmt.Errorf("unknown field %q (contract, trump, declarer, tout, won, draw, points, tricks, payoff, pot)", key)
		}
		if err != nil {
			return o, fmt.Errorf("%s: %w", key, err)
		}
	}
	for _, key := range []string{"contract", "trump", "declarer", "tout", "won", "draw", "points", "tricks", "payoff", "pot"} {
		if !seen[key] {
			return o, fmt.Errorf("no %s= in the result", key)
		}
	}
	return o, nil
}

func parseInts(v string, dst []int) error {
	parts := strings.Split(v, ",")
	if len(parts) != len(dst) {
		return fmt.Errorf("%d numbers, want %d", len(parts), len(dst))
	}
	for i, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil {
			return fmt.Errorf("%q is not a number", p)
		}
		dst[i] = x
	}
	return nil
}
