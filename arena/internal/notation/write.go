package notation

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/tapparena/tapp/engine"
)

// Unknown is how a hand or the tapp that a redacted record does not show is written.
const Unknown = "?"

// Write writes one record in the text form, tags first, then the moves, then a blank line
// (so records can follow one another in a file).
func Write(w io.Writer, r *Record) error {
	if err := r.check(); err != nil {
		return err
	}
	var b strings.Builder
	for _, t := range r.tags() {
		fmt.Fprintf(&b, "[%s %s]\n", t.Name, quote(t.Value))
	}
	b.WriteByte('\n')
	for _, line := range moveLines(r.Moves, r.Players()) {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// check refuses a record that cannot be written as it is.
func (r *Record) check() error {
	if err := r.Rules.Validate(); err != nil {
		return fmt.Errorf("tpn: rules: %w", err)
	}
	if len(r.Seating) != r.Players() {
		return fmt.Errorf("tpn: %d bots seated at a table of %d", len(r.Seating), r.Players())
	}
	for _, name := range append(append([]string(nil), r.Seating...), r.Table...) {
		if name == "" || strings.ContainsAny(name, " \t\n\"\\") {
			return fmt.Errorf("tpn: bot name %q: want a name without spaces or quotes", name)
		}
	}
	if r.Redacted && (r.View < 0 || int(r.View) >= r.Players()) {
		return fmt.Errorf("tpn: a redacted record's view is seat %d, not a seat at a table of %d", r.View, r.Players())
	}
	return nil
}

// tags lists a record's tag pairs in the order of docs/notation.md.
func (r *Record) tags() []Tag {
	n := r.Players()
	tags := []Tag{{"TPN", Version}}
	add := func(name, value string) { tags = append(tags, Tag{name, value}) }
	if r.Match != "" {
		add("Match", r.Match)
	}
	if r.League != "" {
		add("League", r.League)
	}
	add("Deal", strconv.Itoa(r.Deal))
	add("Group", strconv.Itoa(r.Group))
	add("Rules", r.Rules.String())
	if r.Table != nil {
		add("Table", strings.Join(r.Table, " "))
	}
	add("Seating", strings.Join(r.Seating, " "))
	if r.Table != nil && r.Dealer >= 0 {
		add("Dealer", strconv.Itoa(r.Dealer))
	}
	switch r.Format {
	case "deals":
		add("MatchFormat", "deals "+strconv.Itoa(r.Deals))
	case "session":
		add("MatchFormat", "session "+strconv.Itoa(r.Rounds))
	}
	if r.HasDuplicate {
		add("Duplicate", yesNo(r.Duplicate))
	}
	if r.Seeded && !r.Redacted {
		add("Seed", strconv.FormatUint(r.Seed, 10))
	}
	if r.Commitment != "" {
		add("Commitment", r.Commitment)
	}
	if r.Nonce != "" && !r.Redacted {
		add("Nonce", r.Nonce)
	}
	if r.Rules.Pot {
		add("Pot", strconv.Itoa(r.Options.Pot))
	}
	if r.Options.ForcedRamsch {
		add("ForcedRamsch", "yes")
	}
	if !r.Started.IsZero() {
		add("Started", r.Started.UTC().Format(time.RFC3339Nano))
	}
	if r.Redacted {
		add("View", r.View.String())
	}
	parts := make([]string, 0, n+1)
	for s := 0; s < n; s++ {
		parts = append(parts, cardsOrUnknown(r.Hands[s], r.Known[s]))
	}
	parts = append(parts, cardsOrUnknown(r.Tapp, r.TappKnown))
	add("Hands", strings.Join(parts, " | "))
	if r.HasHolder {
		add("Holder", holderText(r.Holder))
	}
	if r.Outcome != nil && !r.Redacted {
		add("Result", ResultText(*r.Outcome, n))
	}
	return append(tags, r.Extra...)
}

func cardsOrUnknown(s engine.CardSet, known bool) string {
	if !known {
		return Unknown
	}
	return s.String()
}

func holderText(s engine.Seat) string {
	if s == engine.NoSeat {
		return "tapp"
	}
	return s.String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// quote writes a tag value in double quotes, a quote or backslash in it escaped by a backslash.
func quote(v string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(v); i++ {
		if v[i] == '"' || v[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(v[i])
	}
	b.WriteByte('"')
	return b.String()
}

// ResultText is a settlement as the Result tag writes it, e.g. "contract=solo trump=D
// declarer=1 tout=no won=no draw=no points=40,45,35 tricks=3,4,4 payoff=-10,5,5 pot=0,0".
func ResultText(o engine.Outcome, n int) string {
	contract := "-"
	if o.Contract != engine.NoContract {
		contract = o.Contract.String()
	}
	return fmt.Sprintf("contract=%s trump=%s declarer=%s tout=%s won=%s draw=%s points=%s tricks=%s payoff=%s pot=%d,%d",
		contract, o.Trump, o.Declarer, yesNo(o.Tout), yesNo(o.DeclarerWon), yesNo(o.Draw),
		ints(o.Points[:n]), ints(o.Tricks[:n]), ints(o.Payoff[:n]), o.PotBefore, o.PotAfter)
}

func ints(v []int) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}

// MoveText is a move as TPN writes it: "seat:action", a hidden lay-away or give as
// "seat:discard" or "seat:give" (the form the protocol sends such a move in).
func MoveText(m engine.Move) string {
	if (m.Action.Kind == engine.ActDiscard || m.Action.Kind == engine.ActGive) && !m.Action.Card.Valid() {
		if m.Action.Kind == engine.ActDiscard {
			return m.Seat.String() + ":discard"
		}
		return m.Seat.String() + ":give"
	}
	return m.String()
}

// moveLines lays the moves out for reading: the bidding on one line, the declaration (lay
// away, trump, call, give, Tout) on the next, then one trick per line. Readers take the moves
// in order whatever the lines.
func moveLines(moves []engine.Move, players int) []string {
	var lines []string
	var cur []string
	kind := -1 // 0 bidding, 1 declaration, 2 play
	flush := func() {
		if len(cur) > 0 {
			lines = append(lines, strings.Join(cur, " "))
			cur = cur[:0]
		}
	}
	for _, m := range moves {
		k := 1
		switch m.Action.Kind {
		case engine.ActPass, engine.ActPlay, engine.ActBid:
			k = 0
		case engine.ActCard:
			k = 2
		}
		if k != kind || (k == 2 && len(cur) == players) {
			flush()
			kind = k
		}
		cur = append(cur, MoveText(m))
	}
	flush()
	return lines
}
