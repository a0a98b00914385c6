// Package domain holds the domain types of Tapp Arena: bots, matches, the record of every deal
// and decision, and the interfaces (Store) that adapters implement. Everything that makes
// matches happen lives in the packages beside it under arena/internal: server (gRPC), referee,
// match, league, rating, store, replay.
package domain

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tapparena/tapp/engine"
)

// Errors every Store reports in these terms, so callers need not know the adapter.
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("already exists")
)

// Errors a use case wraps when the caller is at fault, so that every front end shows them as
// the caller's mistake (invalid_argument, permission_denied) and not as the arena's failure.
var (
	ErrInvalid   = errors.New("invalid")
	ErrForbidden = errors.New("not allowed")
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
	Overage     time.Duration // a bank for overruns, per bot and game (or match: Scope)
	MaxStrikes  int           // late or missing answers allowed before forfeit (0: never)
	Scope       ClockScope    // whose bank and strikes they are: "" (a game's, ClockPerGame) or ClockPerMatch
}

// ClockScope is whose overage bank and strikes a time control's are, as chess and game
// tournaments keep a clock per game.
type ClockScope string

// The clock scopes.
const (
	// ClockPerGame gives a bot a bank and a strike count of its own at each table's game: a
	// deal, or in the session format the whole session (its deals follow one another). A bot
	// that answers many tables at once is never punished for answering them at the same time;
	// MaxStrikes strikes in a game forfeit that game (its remaining decisions are fallbacks).
	ClockPerGame ClockScope = "game"
	// ClockPerMatch gives a bot one bank and strike count for the whole match, shared by its
	// tables: MaxStrikes strikes forfeit the rest of the match (every match stored before
	// clocks per game was played so).
	ClockPerMatch ClockScope = "match"
)

// PerMatch reports whether the bank and strikes are the match's (see ClockScope).
func (tc TimeControl) PerMatch() bool { return tc.Scope == ClockPerMatch }

// DefaultTimeControl is 1 s per decision, a 10 s bank and 3 strikes, per game.
var DefaultTimeControl = TimeControl{PerDecision: time.Second, Overage: 10 * time.Second, MaxStrikes: 3}

// ParseClockScope reads a clock scope as the command line and a league file write it: game
// (or nothing) or match.
func ParseClockScope(s string) (ClockScope, error) {
	switch ClockScope(s) {
	case "", ClockPerGame:
		return "", nil // the zero value is a game's clock
	case ClockPerMatch:
		return ClockPerMatch, nil
	}
	return "", &TimeControlError{"bank", fmt.Sprintf("%q: the bank and strikes are a game's (game) or the match's (match)", s)}
}

// String is the scope as ParseClockScope reads it.
func (s ClockScope) String() string {
	if s == "" {
		return string(ClockPerGame)
	}
	return string(s)
}

// The bounds of a time control, the same for every way a match is asked for (the command
// line, a league file, the admin API).
const (
	MinPerDecision = 10 * time.Millisecond // less cannot be answered over a network
	MaxPerDecision = time.Hour
	MaxOverage     = 24 * time.Hour
	MaxStrikes     = 1_000_000
)

// TimeControlError is a time control out of its bounds; Field names the setting as a league
// file does (per_decision, overage, strikes).
type TimeControlError struct {
	Field, Msg string
}

func (e *TimeControlError) Error() string { return e.Field + ": " + e.Msg }

// Check reports a time control out of bounds (a *TimeControlError): a decision's time from
// MinPerDecision to MaxPerDecision, a bank from 0 to MaxOverage, 0 (never forfeit) to
// MaxStrikes strikes.
func (tc TimeControl) Check() error {
	switch {
	case tc.PerDecision < MinPerDecision:
		return &TimeControlError{"per_decision", fmt.Sprintf("%v is too short to answer over the network (at least %v)", tc.PerDecision, MinPerDecision)}
	case tc.PerDecision > MaxPerDecision:
		return &TimeControlError{"per_decision", fmt.Sprintf("%v is longer than the most a decision may take (%v)", tc.PerDecision, MaxPerDecision)}
	case tc.Overage < 0:
		return &TimeControlError{"overage", fmt.Sprintf("%v: the bank must not be negative", tc.Overage)}
	case tc.Overage > MaxOverage:
		return &TimeControlError{"overage", fmt.Sprintf("%v is more than the largest bank (%v)", tc.Overage, MaxOverage)}
	case tc.MaxStrikes < 0:
		return &TimeControlError{"strikes", fmt.Sprintf("%d: must not be negative (0: a bot never forfeits)", tc.MaxStrikes)}
	case tc.MaxStrikes > MaxStrikes:
		return &TimeControlError{"strikes", fmt.Sprintf("%d is more than %d (0: a bot never forfeits)", tc.MaxStrikes, MaxStrikes)}
	case tc.Scope != "" && tc.Scope != ClockPerGame && tc.Scope != ClockPerMatch:
		return &TimeControlError{"bank", fmt.Sprintf("%q: the bank and strikes are a game's (game) or the match's (match)", tc.Scope)}
	}
	return nil
}

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
	// Board is the board (the rating scope) the match counts on when it is not its league's
	// own: a standing ladder's name, for the matches of its epochs. A filter by the board's
	// name (MatchFilter.LeagueID) selects them, and their rating sums are kept under it.
	Board string
	// Format is FormatDeals (the default, also when empty: Deals deals, the deal passing round the table) or
	// FormatSession (modern only: Rounds rounds, then the ace-of-hearts deal, the last round
	// and the forced Ramsch round of R-SESSION-1..4).
	Format string
	Rounds int // FormatSession: the agreed rounds (every player deals once per round)
}

// The match formats.
const (
	FormatDeals   = "deals"
	FormatSession = "session"
)

// Match is a match as stored.
type Match struct {
	ID        string
	Spec      MatchSpec
	Status    MatchStatus
	Started   time.Time
	Finished  time.Time // zero while running
	Forfeited []string  // bots that forfeited the match: by strikes with a per-match clock, or gone for good
	// Commitment is the match's commitment to its deals, made before the first deal and sent
	// in every GameStarted (match.Commitment); Nonce is the secret in it, revealed with the
	// seed once the match is over. Both are empty for matches stored before commitments.
	// CommitmentVersion is the construction of the commitment (match.CommitmentText): 0 for
	// none, 1 for the first, 2 for the one with the manifest, which this build makes.
	Commitment        string
	Nonce             string
	CommitmentVersion int
	// The chain of the match's stored deals (arena/internal/dealchain), as of the read:
	// ChainVersion its construction (0 while no deal is in it), ChainLength the deals in it,
	// ChainHead its last link.
	ChainVersion, ChainLength int
	ChainHead                 []byte
	// Decisions and Fallbacks count the decisions of the match's stored deals and those of
	// them the arena played (strikes, forfeits, bots gone), as of the match's last update:
	// results with many fallbacks say little about the bots (FallbackShare).
	Decisions, Fallbacks int
	// Admission is how the arena's admission control ran the match's last run (nil for a
	// match stored before it, or not run yet).
	Admission *Admission
}

// Admission is how the arena's admission control ran a match: the tables asked for, the
// most and the mean it had in flight, the mean it allowed (near the mean in flight: the
// admission control kept the tables down; far above it: something else did — the store, the
// deals starting, the bots' connections), the fewest it allowed when the host was overloaded, how often it lowered them and paused new deals, and how long new deals
// were paused. An overloaded host slows a match down; it never costs a bot a strike.
// AllowedMean is 0 in records written before it was kept.
type Admission struct {
	Asked       int           `json:"asked"`
	Most        int           `json:"most"`
	Mean        float64       `json:"mean"`
	AllowedMean float64       `json:"allowed_mean,omitempty"`
	Fewest      int           `json:"fewest"`
	Lowered     int           `json:"lowered"`
	Pauses      int           `json:"pauses"`
	Paused      time.Duration `json:"paused_ns"`
}

// Overloaded reports whether the arena held deals back at all.
func (a *Admission) Overloaded() bool { return a != nil && (a.Lowered > 0 || a.Pauses > 0) }

// TaintedShare is the share of fallbacks above which a match's results are flagged: they
// measure the clock, the machine or a missing bot more than the bots' play.
const TaintedShare = 0.01

// FallbackShare is the share of the match's decisions that were fallbacks (0 without any).
func (m *Match) FallbackShare() float64 {
	if m.Decisions == 0 {
		return 0
	}
	return float64(m.Fallbacks) / float64(m.Decisions)
}

// MatchFilter selects matches in ListMatches.
type MatchFilter struct {
	MatchID  string // one match only
	Bot      string // matches this bot played in
	LeagueID string // the league, or the board (MatchSpec.Board) the matches count on
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
	Sent      []byte // the request exactly as sent (observation included), in protobuf wire form; see protoconv.DecodeSent
	Attempts  []AnswerAttempt
	Action    engine.Action // the action applied
	Latency   time.Duration // from the request's hand-off to the bot's connection to the accepted answer (or the deadline)
	// ArenaShare is the arena's own share of the decision, never charged to the bot: from the
	// engine asking to the request's hand-off to the bot's connection (building, encoding and
	// waiting in the session's outbox behind other work).
	ArenaShare time.Duration
	// Think is the bot's own thinking time for the accepted answer, as it reported it (0 if
	// it did not); for a fallback, that of its first late answer, when one came while the
	// deal was played.
	Think    time.Duration
	Strike   bool // late or missing: the fallback was played and a strike given
	Fallback bool // the arena chose the action (strike, forfeit, gone, or never handed over)
	// Flooded counts the answers naming this decision's request that were refused without
	// being recorded one by one (PROTO-FLOOD): those past the attempts a decision keeps, and
	// those the bot's connection refused because too many of its answers for the game were
	// waiting. Attempts holds every other answer.
	Flooded int
	// Asked is when the referee asked, for the decisions of a deal being played (the
	// admission control and Attribution read it). Not stored, as the request gives it (its
	// deadline less the time per decision, in whole µs): a record read back has it zero, and
	// AskedAt gives it. The request was handed over ArenaShare later (Handed).
	Asked time.Time
	// Retimed counts how often the request had not reached the bot's connection when its
	// time was up and got its time again: the wait was the arena's, never a strike. A
	// request never handed over in all its retimes gets the fallback, without a strike.
	Retimed int
	// SentFromState says Sent was built by the referee from the engine's state at this
	// decision (referee.Request.Build, encoded by encode.AppendRequest, with the game id,
	// request id, clock and events it carries), so that a store may keep only what rebuilds
	// it. Not stored: a record read back has it false.
	SentFromState bool
	// Observed says the bot was handed the engine's observation in this process
	// (referee.Direct) and no request was encoded for it: the request the decision stands
	// for, the one the referee would have sent over a wire, is rebuilt from the deal and the
	// clock below whenever it is read (a store fills Sent with it), and the deal's SentDigest
	// leaves it out, as it covers the requests that went over a wire. Stored (record format
	// 2); the chain's text covers the clock.
	Observed bool
	// Deadline and Overage are an observed decision's clock: its request's deadline (whole
	// µs) and the overage left it gave. Zero for any other decision, whose request carries them.
	Deadline time.Time
	Overage  time.Duration
}

// InIndexOrder reports whether decisions are in index order, as stores return them (read by
// index: slices.IsSortedFunc would copy two records, some 200 bytes each, per comparison).
func InIndexOrder(ds []DecisionRecord) bool {
	for i := 1; i < len(ds); i++ {
		if ds[i].Index < ds[i-1].Index {
			return false
		}
	}
	return true
}

// MaxRetimes bounds how often a request that has not reached the bot's connection when its
// time is up gets its time again (never a strike: the bot's clock has not started); past it
// the fallback is played, without a strike either.
const MaxRetimes = 8

// NeverHanded reports a request that never reached the bot's connection in all its retimes:
// the arena played its fallback, without a strike.
func (d *DecisionRecord) NeverHanded() bool {
	return d.Fallback && !d.Strike && d.Retimed >= MaxRetimes
}

// Handed is when the request was handed to the bot's connection, when its clock started
// (zero when the record does not say, or it never was: NeverHanded).
func (d *DecisionRecord) Handed() time.Time {
	if d.Asked.IsZero() || d.NeverHanded() {
		return time.Time{}
	}
	return d.Asked.Add(d.ArenaShare)
}

// Attribution says where a decision's time went, so that a strike can be laid at the door it
// belongs to: Arena is the arena's share (before the hand-off, never charged); Think is what
// the bot says it spent; Transport is the rest of the time the bot was charged for — the
// wire, and both processes waiting for a CPU — from the hand-off to the answer (for a
// strike, to its first late answer). Answered says an answer (in time or late) was seen;
// without one Think and Transport are unknown (0).
type Attribution struct {
	Handed                  time.Time
	Arena, Think, Transport time.Duration
	Answered                bool
}

// Attribution returns the decision's attribution (see the type).
func (d *DecisionRecord) Attribution() Attribution {
	a := Attribution{Handed: d.Handed(), Arena: d.ArenaShare, Think: d.Think}
	switch {
	case !d.Fallback:
		a.Answered, a.Transport = true, max(d.Latency-d.Think, 0)
	case len(d.Attempts) > 0: // the first late answer
		a.Answered, a.Transport = true, max(d.Attempts[0].After-d.Think, 0)
	}
	return a
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

// ResultsOf returns the seats' results of a deal settled as o, the bots seated as seating (by
// seat): what the referee records for every deal, and what a store that keeps only the deal
// and its moves rebuilds them from.
func ResultsOf(seating []string, o engine.Outcome) []SeatResult {
	out := make([]SeatResult, min(len(seating), engine.MaxPlayers))
	for i, bot := range seating[:len(out)] {
		seat := engine.Seat(i)
		out[i] = SeatResult{Bot: bot, Seat: seat, Payoff: o.Payoff[i], Points: o.Points[i], Tricks: o.Tricks[i],
			Declarer: o.Declarer == seat}
	}
	return out
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
	// SentDigest is the SentDigest of the requests as they were sent, when the store kept
	// only it and regenerates the requests (Decisions[].Sent) on reading; nil otherwise. A
	// replay's verification checks the regenerated requests against it.
	SentDigest []byte
}

// ChainLink is a stored deal's place in its match's chain: its position (from 0, in the
// order the deals were stored) and the first bytes of its link (dealchain.StoredLinkSize).
type ChainLink struct {
	Seq    int
	Number int
	Link   []byte
}

// Chain is what a store keeps of a match's chain: its head as the match says it, and every
// stored deal's place in it (by position), then the deals stored before chains were kept.
type Chain struct {
	Version, Length int
	Head            []byte
	Links           []ChainLink // ascending by Seq (positions may repeat or be missing in a damaged store)
	Unchained       []int       // deal numbers in no chain (stored before schema version 15), ascending
}

// Integrity is what a database engine's own check says of its pages (tapp db check).
type Integrity struct {
	Method   string   // what was run ("PRAGMA integrity_check")
	Problems []string // what it found wrong
	Notes    []string // what could not be checked, and why
}

// ResultRow is a SeatResult with the match and deal it belongs to. Store.Results lists them
// by match (in the order the matches started, then by id), deal and seat.
type ResultRow struct {
	MatchID  string
	LeagueID string
	Deal     int
	Group    int
	Rules    string
	SeatResult
}

// Store keeps bots, matches and deal records. Implementation: package arena/internal/store, one
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

// LeagueStatus is where a league stands.
type LeagueStatus string

// The league statuses.
const (
	LeagueRunning  LeagueStatus = "running"  // being played, or interrupted (resumable)
	LeagueFinished LeagueStatus = "finished" // every planned match is played
	LeagueStopped  LeagueStatus = "stopped"  // stopped cleanly (time limit, Ctrl-C); resumable
)

// League is a league as stored. Its matches are stored as ordinary matches (with LeagueID
// set); the units of work that play them are Jobs in the league's queue.
type League struct {
	ID string
	// Plan is the canonical text (JSON) of everything that decides the league's schedule and
	// results: bots, rule set, format, deals, seed, duplicate, time control. A league is resumed
	// (or joined by another host) only with the same plan.
	Plan    string
	Status  LeagueStatus
	Created time.Time
	Updated time.Time
	// Paused says the league's workers claim no new jobs (tapp league pause): they finish
	// the deals in flight and wait, still connected to their bots, until it is resumed.
	Paused bool
	// Matches counts the matches scheduled so far and MatchesFinished those with every deal
	// stored: running totals, kept as rounds are scheduled and deals stored.
	Matches, MatchesFinished int
}

// LeagueBot is a league's running total of one bot's play, kept in the transaction that
// stores each deal (never a scan of the deals): what its progress page shows.
type LeagueBot struct {
	Bot       string
	Deals     int // deals it sat in
	Decisions int // its decisions in them
	Strikes   int // late or missing answers
	Fallbacks int // decisions the arena played for it (strikes, forfeits, a bot gone)
	// Forfeited counts the deals in which the arena played some of its decisions without
	// asking: it had struck out, or its connection was gone.
	Forfeited int
}

// LeagueBotOf is what one stored deal adds to each of its bots' totals, by bot name.
func LeagueBotOf(d *DealRecord) map[string]*LeagueBot {
	out := make(map[string]*LeagueBot, len(d.Seating))
	for _, b := range d.Seating {
		if out[b] == nil { // a bot in two seats sat in the deal once
			out[b] = &LeagueBot{Bot: b, Deals: 1}
		}
	}
	forfeited := map[string]bool{}
	for i := range d.Decisions {
		x := &d.Decisions[i]
		t := out[x.Bot]
		if t == nil {
			t = &LeagueBot{Bot: x.Bot}
			out[x.Bot] = t
		}
		t.Decisions++
		if x.Strike {
			t.Strikes++
		}
		if x.Fallback {
			t.Fallbacks++
			if x.RequestID == "" && !forfeited[x.Bot] {
				forfeited[x.Bot] = true
				t.Forfeited++
			}
		}
	}
	return out
}

// LeagueMatch places a stored match in its league's schedule.
type LeagueMatch struct {
	LeagueID string
	Seq      int // position in the league's schedule, from 0
	Round    int // the round that planned it, from 0
	MatchID  string
}

// JobState is where a job of a league's queue stands.
type JobState string

// The job states.
const (
	JobAvailable JobState = "available" // waiting for a worker
	JobRunning   JobState = "running"   // leased to a worker until its lease expires
	JobDone      JobState = "done"      // every deal of the job is stored
	JobFailed    JobState = "failed"    // gave up after repeated errors
)

// Job is one unit of a league's work: some deal sources (groups) of one match — one duplicate
// group in duplicate play, a round of dealers otherwise. It is done exactly when all its Deals
// deals are stored; the store marks it done in the same transaction that stores its last deal.
type Job struct {
	ID         int64
	LeagueID   string
	Round      int
	MatchID    string
	FirstGroup int // the deal sources FirstGroup .. FirstGroup+Groups-1 of the match
	Groups     int
	Deals      int // deals the job plays (tables of its groups)
	State      JobState
	Owner      string    // the worker holding the lease ("" when none)
	LeaseUntil time.Time // when the lease expires (zero when none)
	Attempts   int       // how often it was claimed
	LastError  string
	// Stored counts the job's deals that were stored when it was claimed or listed: a job
	// claimed with none has no deal to skip, and its worker need not look them up.
	Stored int
}

// RoundCounts counts a league round's jobs by state.
type RoundCounts struct {
	Round                            int
	Available, Running, Done, Failed int
	DealsPlanned                     int // deals of all the round's jobs
}

// Complete reports that no job of the round is waiting or running.
func (c RoundCounts) Complete() bool { return c.Available == 0 && c.Running == 0 }

// Jobs is the number of the round's jobs stored.
func (c RoundCounts) Jobs() int { return c.Available + c.Running + c.Done + c.Failed }

// LeagueJobTotals is what a league's progress needs of its job queue, read without counting
// its jobs: a kept total and the jobs in hand, so that its cost does not grow with the league.
type LeagueJobTotals struct {
	DealsPlanned int  // deals of every job scheduled so far (a running total)
	JobsRunning  int  // jobs leased to a worker now (lapsed leases included)
	Waiting      bool // some job is available: neither done, failed nor leased
}

// Open reports that some job of the league is waiting or running: its scheduled rounds are
// not played yet.
func (t LeagueJobTotals) Open() bool { return t.Waiting || t.JobsRunning > 0 }

// LeagueUnit is a league's running total of one unit of its schedule (a match's deal source:
// one deal, or a duplicate group under every seating): the deals stored so far and each
// bot's net payoff over them.
type LeagueUnit struct {
	Round   int
	MatchID string
	Group   int
	Deals   int
	Net     []int64 // by position in the match's bots
}

// JobDeal is a finished deal of a job of a league's queue, for storing several at once.
type JobDeal struct {
	Deal  *DealRecord
	JobID int64
}
