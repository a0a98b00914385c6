// Package notation is Tapp Portable Notation (TPN): one deal per record in a small text
// format of tag pairs and moves, with a JSON Lines twin, and per-seat redaction (a record as
// one seat saw it). docs/notation.md is the specification.
//
// A record is written by Write (text) or WriteJSON (one JSON line), read back by Read, which
// takes either form, and redacted by Redact. Records hold engine types; conversion to and from
// the arena's stored deals is arena/internal/replay's (replay.ToNotation, replay.FromNotation).
//
// Files: notation.go (the record), write.go and read.go (the text form), json.go (the JSON
// Lines twin), redact.go (one seat's view).
package notation

import (
	"time"

	"github.com/tapparena/tapp/engine"
)

// Version is the TPN version this package writes and reads: the value of the TPN tag.
const Version = "1"

// JSONFormat is the "format" field of the JSON Lines twin.
const JSONFormat = "tpn/" + Version

// Record is one deal in TPN. A full record holds every card; a redacted record (Redacted)
// holds exactly what seat View knew while the deal was played (docs/notation.md, "Redacted
// records"): only the hands it saw are Known, hidden moves have NoCard, and it has no seed,
// nonce or result.
type Record struct {
	Match  string // the match id ("" unknown)
	League string // the league id ("" none)
	Deal   int    // the deal number in the match, from 0
	Group  int    // the deal source (with Seed: engine.DealFromSeed(Rules, Seed, Group))

	Rules   engine.RuleSet
	Table   []string // the match's bots in table order (nil: unknown)
	Seating []string // the bot in each seat; seat 0 is forehand (R-SEAT-1)
	// Dealer is the dealer's table position (an index into Table; -1 when Table is unknown).
	// The dealer always sits in the last seat (R-SEAT-2).
	Dealer int

	// The match: its format (domain.FormatDeals with Deals deal sources, or FormatSession
	// with Rounds rounds; "" unknown) and whether every deal was played under every seating.
	Format       string
	Deals        int
	Rounds       int
	Duplicate    bool
	HasDuplicate bool // the Duplicate tag was present (it is written when Table is known)

	Seeded     bool // the deals come from Seed
	Seed       uint64
	Commitment string // the match's commitment to its deals (docs/replay.md, "Verifiable deals")
	Nonce      string // its secret, once revealed

	Options engine.Options
	Started time.Time // when the deal started (zero: unknown)

	Redacted bool
	View     engine.Seat // the seat whose view a redacted record is

	Hands [engine.MaxPlayers]engine.CardSet // as dealt, by seat
	Tapp  engine.CardSet                    // as dealt
	// Known says which hands (by seat) and whether the tapp a record shows: all of them in
	// a full record.
	Known     [engine.MaxPlayers]bool
	TappKnown bool

	Moves []engine.Move // every move in order; a redacted record's hidden lay-away or give has Card NoCard
	// Holder is the seat that held the Rufer's called card (NoSeat: it lay in the tapp);
	// HasHolder says the deal has a call.
	Holder    engine.Seat
	HasHolder bool

	Outcome *engine.Outcome // the settlement (nil: none recorded; always nil when Redacted)

	Extra []Tag // tags this package does not know, kept in order
}

// Tag is one tag pair: [Name "Value"].
type Tag struct {
	Name, Value string
}

// Players is the table size.
func (r *Record) Players() int { return r.Rules.Players }

// FullDeal is the deal of a full record; ok is false when a hand or the tapp is not known.
func (r *Record) FullDeal() (d engine.Deal, ok bool) {
	for s := 0; s < r.Players(); s++ {
		if !r.Known[s] {
			return d, false
		}
		d.Hands[s] = r.Hands[s]
	}
	d.Tapp = r.Tapp
	return d, r.TappKnown
}
