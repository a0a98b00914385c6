// Package arena holds the domain types of Tapp Arena: bots, matches, the record of every deal
// and decision, and the interfaces (Store) that adapters implement. Everything that makes
// matches happen lives in its subpackages: server (gRPC), referee, match, league, rating,
// store, replay.
package arena

import (
	"context"
	"errors"
	"time"

	"github.com/tapparena/tapp/engine"
)

// Errors every Store reports in these terms, so callers need not know the adapter.
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("already exists")
)

// Bot is a registered bot. Its token is kept only as a hash.
type Bot struct {
	ID        string
	Name      string
	TokenHash []byte
	Created   time.Time
}

// TimeControl is the clock a match is played under.
type TimeControl struct {
	PerDecision time.Duration // time for one decision
	Overage     time.Duration // a bank for overruns, per bot and match
	MaxStrikes  int           // late or missing answers allowed before forfeit
}

// DefaultTimeControl is 1 s per decision, a 10 s bank and 3 strikes.
var DefaultTimeControl = TimeControl{PerDecision: time.Second, Overage: 10 * time.Second, MaxStrikes: 3}

// MatchStatus is where a match stands.
type MatchStatus string

// The match statuses.
const (
	MatchRunning  MatchStatus = "running"
	MatchFinished MatchStatus = "finished"
	MatchAborted  MatchStatus = "aborted" // stopped before all deals were played; resumable
)

// MatchSpec says what a match plays: which bots at which table positions, under which rules,
// how many deals from which seed (or an explicit deal list), and the clock.
type MatchSpec struct {
	Rules       engine.RuleSet
	Bots        []string // bot names in table order (3 or 4)
	Deals       int      // number of deal sources; in duplicate mode each is played under every seating
	Seed        uint64
	Duplicate   bool
	DealsText   string // deals in deal-file notation, used instead of the seed when set
	TimeControl TimeControl
	LeagueID    string // empty for a stand-alone match
}

// Match is a match as stored.
type Match struct {
	ID        string
	Spec      MatchSpec
	Status    MatchStatus
	Started   time.Time
	Finished  time.Time // zero while running
	Forfeited []string  // bots that forfeited by strikes
}

// MatchFilter selects matches in ListMatches.
type MatchFilter struct {
	MatchID  string // one match only
	Bot      string // matches this bot played in
	LeagueID string
	Rules    string // canonical rule-set text
	Since    time.Time
	Limit    int // at most this many (0: all); ListMatches lists newest first, Results oldest first
}

// AnswerAttempt is one answer a bot sent for a decision, accepted or refused.
type AnswerAttempt struct {
	Text     string        // the action as the bot sent it
	After    time.Duration // time from the request to this answer
	Rejected string        // the reason with rule id, empty when accepted
}

// DecisionRecord is one decision of a deal: what the bot was asked, what came back, how long
// it took, and whether the arena had to play for it.
type DecisionRecord struct {
	Index     int // position among the deal's decisions, from 0
	Seat      engine.Seat
	Bot       string
	Decision  engine.Decision
	RequestID string
	Sent      []byte // the request exactly as sent, in protobuf JSON (observation included)
	Attempts  []AnswerAttempt
	Action    engine.Action // the action applied
	Latency   time.Duration // from the request to the accepted answer (or the deadline)
	Strike    bool          // late or missing: the fallback was played and a strike given
	Fallback  bool          // the arena chose the action (strike, forfeit or gone)
}

// SeatResult is one seat's raw result in one deal: ratings are derived from these.
type SeatResult struct {
	Bot      string
	Seat     engine.Seat
	Payoff   int // cents (modern) or game points (older variants)
	Points   int // card points credited
	Tricks   int
	Declarer bool
}

// DealRecord is the full record of one finished deal, stored in one transaction.
type DealRecord struct {
	MatchID   string
	Number    int      // deal number in the match, from 0, in play order
	Group     int      // index of the deal source; the duplicate group in duplicate mode
	Seating   []string // bot name by seat (seat 0 is forehand)
	Deal      engine.Deal
	Options   engine.Options
	Moves     []engine.Move // the history, replayable with the engine
	Decisions []DecisionRecord
	Outcome   engine.Outcome
	Results   []SeatResult // by seat
	Started   time.Time
	Duration  time.Duration
}

// ResultRow is a SeatResult with the match and deal it belongs to, in the order results were
// stored; the ratings are computed from a list of these.
type ResultRow struct {
	MatchID  string
	LeagueID string
	Deal     int
	Group    int
	Rules    string
	SeatResult
}

// Store keeps bots, matches and deal records. Implementation: package arena/store, one
// store over SQLite (the default) and PostgreSQL, with the same schema and the same behaviour.
type Store interface {
	CreateBot(ctx context.Context, b *Bot) error // ErrConflict if the name is taken
	BotByName(ctx context.Context, name string) (*Bot, error)
	BotByTokenHash(ctx context.Context, hash []byte) (*Bot, error)
	ListBots(ctx context.Context) ([]Bot, error)

	CreateMatch(ctx context.Context, m *Match) error // assigns m.ID when empty
	UpdateMatch(ctx context.Context, m *Match) error // status, finished, forfeited
	GetMatch(ctx context.Context, id string) (*Match, error)
	ListMatches(ctx context.Context, f MatchFilter) ([]Match, error)

	// SaveDeal stores a finished deal with all its decisions and results in one transaction:
	// it is either fully stored or not at all. Saving the same (match, number) twice is ErrConflict.
	SaveDeal(ctx context.Context, d *DealRecord) error
	Deal(ctx context.Context, matchID string, number int) (*DealRecord, error)
	Deals(ctx context.Context, matchID string) ([]DealRecord, error)
	DealNumbers(ctx context.Context, matchID string) ([]int, error) // finished deals, ascending
	Results(ctx context.Context, f MatchFilter) ([]ResultRow, error)

	Close() error
}
