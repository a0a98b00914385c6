package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/encode"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/engine"
)

// What a scripted bot does with one of its requests.
type move int

const (
	answerAtOnce move = iota // a random legal action, at once
	refuseFirst              // a malformed answer, an illegal one and one to an unknown request, then a legal one
	answerTwice              // a legal answer, then the same again once the request is over (refused as a duplicate)
	answerLate               // a legal action after the time per decision (spending overage)
	stayQuiet                // no answer: the fallback and a strike
	leaveForGood             // the bot leaves: the fallback, and it is forfeited
	resumeFirst              // the bot resumes: it takes a snapshot of the game, then answers
	switchStream             // the bot resumes asking for the other event stream, then answers
)

// scriptedBot is a referee.Conn that plays its script, one move per request, and then
// answers at once.
type scriptedBot struct {
	script []move
	rng    *rand.Rand

	mu       sync.Mutex
	stream   bool
	requests int
	answers  chan referee.Answer
	pending  func(use func(*referee.Request))
	gone     chan struct{}
	left     bool
	late     sync.WaitGroup
}

func newScriptedBot(seed uint64, stream bool, script ...move) *scriptedBot {
	return &scriptedBot{script: script, rng: rand.New(rand.NewPCG(seed, 99)), stream: stream,
		answers: make(chan referee.Answer, 256), gone: make(chan struct{})}
}

func (b *scriptedBot) Open(_ *referee.Start, pending func(use func(*referee.Request))) (<-chan referee.Answer, func()) {
	b.mu.Lock()
	b.pending = pending
	b.mu.Unlock()
	return b.answers, func() {}
}

func (b *scriptedBot) Refuse(referee.Refusal)                {}
func (b *scriptedBot) Fallback(referee.FallbackPlayed)       {}
func (b *scriptedBot) Events(string, []engine.Event, int)    {}
func (b *scriptedBot) End(*referee.End, []engine.Event, int) {}
func (b *scriptedBot) Gone() <-chan struct{}                 { return b.gone }

func (b *scriptedBot) StreamEvents() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stream
}

// Ask encodes the request as the arena's gRPC session does, and plays the script's move.
func (b *scriptedBot) Ask(r *referee.Request) ([]byte, <-chan time.Time, error) {
	body := encode.AppendRequest(nil, r)
	req, err := protoconv.DecodeSent(body)
	if err != nil {
		return nil, nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	m := answerAtOnce
	if b.requests < len(b.script) {
		m = b.script[b.requests]
	}
	b.requests++
	id, legal := req.GetRequestId(), req.GetLegal()
	pick := legal[b.rng.IntN(len(legal))]
	answer := func(id, action string) {
		b.answers <- referee.Answer{RequestID: id, Action: action, At: time.Now(), Think: time.Duration(b.rng.IntN(5_000_000))}
	}
	switch m {
	case refuseFirst:
		answer(id, "no such action")
		answer(id, illegalFor(legal))
		answer("r999", pick)
		answer(id, pick)
	case answerTwice:
		answer(id, pick)
		b.late.Add(1)
		go func() { // once the referee has moved on
			defer b.late.Done()
			time.Sleep(20 * time.Millisecond)
			b.answers <- referee.Answer{RequestID: id, Action: pick, At: time.Now()}
		}()
	case answerLate:
		b.late.Add(1)
		go func() {
			defer b.late.Done()
			time.Sleep(8 * time.Millisecond)
			b.answers <- referee.Answer{RequestID: id, Action: pick, At: time.Now()}
		}()
	case stayQuiet:
	case leaveForGood:
		if !b.left {
			b.left = true
			close(b.gone)
		}
	case resumeFirst:
		if pending := b.pending; pending != nil {
			b.late.Add(1)
			go func() { // as a session does, from its own goroutine
				defer b.late.Done()
				pending(func(*referee.Request) {})
			}()
		}
		answer(id, pick)
	case switchStream:
		b.stream = !b.stream
		answer(id, pick)
	default:
		answer(id, pick)
	}
	return body, nil, nil
}

// illegalFor is an action in notation that is not among the legal ones.
func illegalFor(legal []string) string {
	for _, a := range []string{"pass", "play", "HA", "C6", "solo:C", "call:SA"} {
		if !bytes.Contains([]byte(" "+joinStrings(legal)+" "), []byte(" "+a+" ")) {
			return a
		}
	}
	return "D6"
}

func joinStrings(ss []string) string {
	var b bytes.Buffer
	for i, s := range ss {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	return b.String()
}

// asStored is a deal record as the store keeps it: times in whole µs.
func asStored(d *domain.DealRecord) *domain.DealRecord {
	c := *d
	c.Started = time.UnixMicro(d.Started.UnixMicro()).UTC()
	c.Duration = fromUS(us(d.Duration))
	c.Decisions = make([]domain.DecisionRecord, len(d.Decisions))
	for i, x := range d.Decisions {
		x.Latency, x.Think, x.ArenaShare = fromUS(us(x.Latency)), fromUS(us(x.Think)), fromUS(us(x.ArenaShare))
		x.SentFromState, x.Asked = false, time.Time{} // neither is stored
		if x.Attempts != nil {
			as := make([]domain.AnswerAttempt, len(x.Attempts))
			for j, a := range x.Attempts {
				a.After = fromUS(us(a.After))
				as[j] = a
			}
			x.Attempts = as
		}
		c.Decisions[i] = x
	}
	return &c
}

// compactRuleSets are the rule sets the compact records are tested over: every variant, both
// player counts and packs of modern, Frage, and the older variants with their pot.
var compactRuleSets = []string{
	"modern", "modern players=4", "modern pack=32", "modern players=4 pack=32", "modern frage=on",
	"classic", "classic pot=on", "wuerttemberg", "wuerttemberg tout=2 pot=on",
}

// Deals played by the referee against bots that answer at once, late, wrongly, twice or not
// at all, leave, resume and switch their event stream are stored as compact records, and read
// back exactly: every request as the bot got it, byte for byte, and its digest.
func TestCompactRecordsRebuildEveryRequest(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		var refused, strikes, unasked, streamed, banks int
		for ri, text := range compactRuleSets {
			rules := mustRules(t, text)
			bots := []string{"north", "east", "south", "west"}[:rules.Players]
			tc := domain.TimeControl{PerDecision: 5 * time.Millisecond, Overage: 60 * time.Millisecond, MaxStrikes: 2}
			m := &domain.Match{Spec: domain.MatchSpec{Rules: rules, Bots: bots, Deals: 6, Seed: uint64(ri + 1), TimeControl: tc}}
			if err := s.CreateMatch(ctx, m); err != nil {
				t.Fatal(err)
			}
			for n := range m.Spec.Deals {
				opts := engine.Options{ForcedRamsch: rules.Variant == engine.Modern && n == 5}
				if rules.Pot {
					opts.Pot = 40 * n
				}
				rec := playScripted(t, m, n, opts,
					newScriptedBot(uint64(n), true, answerTwice, answerAtOnce, resumeFirst),
					newScriptedBot(uint64(n+10), n%2 == 0, resumeFirst, switchStream, answerLate, switchStream),
					newScriptedBot(uint64(n+20), false, refuseFirst, stayQuiet, answerAtOnce, refuseFirst, stayQuiet),
					newScriptedBot(uint64(n+30), false, answerAtOnce, answerLate, leaveForGood))
				if err := s.SaveDeal(ctx, rec); err != nil {
					t.Fatalf("%s deal %d: SaveDeal: %v", text, n, err)
				}
				got, err := s.Deal(ctx, m.ID, n)
				if err != nil {
					t.Fatalf("%s deal %d: Deal: %v", text, n, err)
				}
				want := asStored(rec)
				if g := checkedDigest(t, got, rec); !reflect.DeepEqual(g, want) {
					diffDeal(t, g, want)
				}
				for i, x := range got.Decisions {
					if !bytes.Equal(x.Sent, rec.Decisions[i].Sent) {
						t.Errorf("%s deal %d decision %d: the request read back differs from the one sent", text, n, i)
					}
				}
				if v := storedVerbatim(t, s, m.ID, n); v != 0 {
					t.Errorf("%s deal %d: %d requests kept verbatim, want all rebuilt", text, n, v)
				}
				for _, x := range rec.Decisions {
					for _, a := range x.Attempts {
						if a.Rejected != "" {
							refused++
						}
					}
					if x.Strike {
						strikes++
					}
					if x.Fallback && x.RequestID == "" {
						unasked++
					}
					if len(x.Sent) > 0 {
						req, _ := protoconv.DecodeSent(x.Sent)
						if req.GetOverageLeft().AsDuration() != tc.Overage {
							banks++
						}
						if x.Seat == 0 && len(req.GetEvents()) == 0 {
							streamed++
						}
					}
				}
			}
		}
		if refused == 0 || strikes == 0 || unasked == 0 || streamed == 0 || banks == 0 {
			t.Errorf("the scripts did not exercise every case: %d refused answers, %d strikes, %d decisions without a request, %d requests of a streaming seat without events, %d with overage spent",
				refused, strikes, unasked, streamed, banks)
		}
	})
}

// playScripted plays deal n of match m with the scripted bots (the first Players of them)
// and returns its record.
func playScripted(t *testing.T, m *domain.Match, n int, opts engine.Options, scripted ...*scriptedBot) *domain.DealRecord {
	t.Helper()
	spec := m.Spec
	players := make([]referee.Player, spec.Rules.Players)
	for i := range players {
		players[i] = referee.Player{Bot: spec.Bots[i], Conn: scripted[i], Clock: referee.NewClock(spec.TimeControl)}
	}
	rec, err := referee.Play(context.Background(), &referee.Table{MatchID: m.ID, Number: n, Group: n, Rules: spec.Rules,
		Deal: engine.DealFromSeed(spec.Rules, spec.Seed, uint64(n)), Options: opts, Players: players, TimeControl: spec.TimeControl})
	if err != nil {
		t.Fatalf("%s deal %d: Play: %v", spec.Rules, n, err)
	}
	for _, b := range scripted {
		b.late.Wait()
	}
	return rec
}

// quickMatch creates a match of three bots that answer at once and plays its deals.
func quickMatch(t *testing.T, s *Store, deals int) (*domain.Match, []*domain.DealRecord) {
	t.Helper()
	m := &domain.Match{Spec: domain.MatchSpec{Rules: testRules(t), Bots: []string{"a", "b", "c"}, Deals: deals, Seed: 5,
		TimeControl: domain.DefaultTimeControl}}
	if err := s.CreateMatch(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	var out []*domain.DealRecord
	for n := range deals {
		out = append(out, playScripted(t, m, n, engine.Options{}, newScriptedBot(uint64(n), false),
			newScriptedBot(uint64(n+1), false), newScriptedBot(uint64(n+2), false)))
	}
	return m, out
}

// storedVerbatim is the number of requests of a stored deal that its compact record keeps
// verbatim; the test fails if the deal has no compact record.
func storedVerbatim(t *testing.T, s *Store, matchID string, number int) int {
	t.Helper()
	var blob []byte
	if err := s.r.QueryRow(s.rebind(`SELECT record FROM deals WHERE match_id = ? AND number = ?`), matchID, number).Scan(&blob); err != nil {
		t.Fatal(err)
	}
	if blob == nil {
		t.Fatalf("deal %d of match %s: no compact record", number, matchID)
	}
	info, err := s.cachedMatchInfo(context.Background(), matchID)
	if err != nil {
		t.Fatal(err)
	}
	d := &domain.DealRecord{MatchID: matchID, Number: number}
	v, err := decodeRecordCounting(d, blob, info, true)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// A request that is not the one the engine's state gives (an imported replay's, a request
// built by another version) is kept verbatim in the compact record, and reads back exactly.
func TestCompactRecordKeepsOddRequestsVerbatim(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m, deals := quickMatch(t, s, 1)
		d := *asStored(deals[0])
		d.Decisions[1].Sent = append(append([]byte(nil), d.Decisions[1].Sent...), 0x08, 0x01) // one more field
		d.Decisions[2].Sent = []byte(`{"requestId":"r3"}`)
		if err := s.SaveDeal(ctx, &d); err != nil {
			t.Fatal(err)
		}
		got, err := s.Deal(ctx, m.ID, d.Number)
		if err != nil {
			t.Fatal(err)
		}
		if g := checkedDigest(t, got, &d); !reflect.DeepEqual(g, &d) {
			diffDeal(t, g, &d)
		}
		if v := storedVerbatim(t, s, m.ID, d.Number); v != 2 {
			t.Errorf("%d requests kept verbatim, want 2", v)
		}
	})
}

// A deal whose moves do not replay to its recorded outcome is stored as it is, not as a
// compact record (from which the outcome would be the replay's).
func TestDealThatDoesNotReplayIsStoredAsItIs(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m, deals := quickMatch(t, s, 1)
		d := *asStored(deals[0])
		d.Outcome.Payoff[0]++
		if err := s.SaveDeal(ctx, &d); err != nil {
			t.Fatal(err)
		}
		got, err := s.Deal(ctx, m.ID, d.Number)
		if err != nil {
			t.Fatal(err)
		}
		if got.SentDigest != nil || !reflect.DeepEqual(got, &d) {
			t.Errorf("read back %+v, want the deal as saved, with no digest", got.Outcome)
		}
	})
}

// The digest of the requests changes with any byte of them.
func TestSentDigestCoversEveryByte(t *testing.T) {
	t.Parallel()
	ds := []domain.DecisionRecord{{Index: 0, Sent: []byte{1, 2, 3}}, {Index: 1}, {Index: 2, Sent: []byte{4}}}
	base := domain.SentDigest(ds)
	for i, change := range []func([]domain.DecisionRecord){
		func(d []domain.DecisionRecord) { d[0].Sent = []byte{1, 2, 4} },
		func(d []domain.DecisionRecord) { d[0].Sent, d[2].Sent = []byte{1, 2}, []byte{3, 4} },
		func(d []domain.DecisionRecord) { d[2].Index = 3 },
		func(d []domain.DecisionRecord) { d[1].Sent = []byte{0} },
	} {
		c := append([]domain.DecisionRecord(nil), ds...)
		change(c)
		if domain.SentDigest(c) == base {
			t.Errorf("change %d: the digest stays %x", i, base)
		}
	}
	if fmt.Sprintf("%x", base) == "" {
		t.Fatal("empty digest")
	}
}

// A database written before schema version 11 (real deals, stored as version 10 stored them:
// text columns and a decision log) is converted in place on opening: every deal becomes a
// compact record whose requests are rebuilt byte for byte, and reads back as it was stored.
func TestMigrationCompactsOldDeals(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		dsn := b.newDSN(t)
		old, err := open(ctx, dsn, 10)
		if err != nil {
			t.Fatalf("open at version 10: %v", err)
		}
		m, deals := realDeals(t, old)
		for _, d := range deals {
			insertV10Deal(t, old, d, m.Spec.Rules)
		}
		if err := old.Close(); err != nil {
			t.Fatal(err)
		}

		s := openTest(t, dsn) // migrates to the newest version
		var compact int
		if err := s.r.QueryRow(s.rebind(`SELECT count(*) FROM deals WHERE match_id = ? AND record IS NOT NULL
	AND decision_log IS NULL AND moves = ''`), m.ID).Scan(&compact); err != nil {
			t.Fatal(err)
		}
		if compact != len(deals) {
			t.Fatalf("%d of %d deals converted to compact records", compact, len(deals))
		}
		var rows int
		if err := s.r.QueryRow(`SELECT count(*) FROM results`).Scan(&rows); err != nil || rows != 0 {
			t.Errorf("%d rows of results left, %v; want none: a compact record's results are rebuilt (version 13)", rows, err)
		}
		got := checkReadBack(t, s, m.ID, deals)
		for i := range got {
			if v := storedVerbatim(t, s, m.ID, got[i].Number); v != 0 {
				t.Errorf("deal %d: %d requests kept verbatim, want every one rebuilt", got[i].Number, v)
			}
		}
	})
}

// insertV10Deal stores a deal as schema version 10 did: text columns and a decision log.
func insertV10Deal(t *testing.T, s *Store, d *domain.DealRecord, rules engine.RuleSet) {
	t.Helper()
	ctx := context.Background()
	log, err := encodeDecisionLog(d.Decisions)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO deals (match_id, number, deal_group, seating, deal,
	options, moves, outcome, started, duration_us, decision_log) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		d.MatchID, d.Number, d.Group, formatNames(d.Seating), formatDeal(d.Deal, rules), formatOptions(d.Options),
		formatMoves(d.Moves), formatOutcome(d.Outcome), s.timeArg(d.Started), us(d.Duration), log); err != nil {
		t.Fatalf("insert the deal: %v", err)
	}
	insertResultRows(t, s, tx, d)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// insertResultRows stores d's results as rows, as every deal had them before schema version 13.
func insertResultRows(t *testing.T, s *Store, tx *sql.Tx, d *domain.DealRecord) {
	t.Helper()
	var args []any
	for _, r := range d.Results {
		args = append(args, d.MatchID, d.Number, "", int(r.Seat), r.Bot, r.Payoff, r.Points, r.Tricks, r.Declarer)
	}
	if err := s.insertRows(context.Background(), tx, `INSERT INTO results (match_id, deal_number, league_id, seat,
	bot, payoff, points, tricks, declarer) VALUES `, 9, args); err != nil {
		t.Fatalf("insert the results: %v", err)
	}
}

// A database written at schema version 12 kept rows of results for every deal, compact
// records too. Migration 13 drops the rows a record rebuilds; a compact record whose rows are
// not what it gives (results stored by hand) becomes text columns again and keeps its rows,
// so that every deal reads back as it was stored.
func TestMigration13DropsTheResultsRecordsRebuild(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		dsn := b.newDSN(t)
		old, err := open(ctx, dsn, 12)
		if err != nil {
			t.Fatalf("open at version 12: %v", err)
		}
		m, deals := realDeals(t, old)
		const own = 2 // the deal whose rows differ from its record's
		deals[own].Results = slices.Clone(deals[own].Results)
		deals[own].Results[1].Points += 3
		for _, d := range deals {
			if d.Number != own {
				if err := old.SaveDeal(ctx, d); err != nil {
					t.Fatalf("SaveDeal: %v", err)
				}
			}
		}
		// Deal own as version 12 stored it: a compact record and rows, with the other deals'.
		info, err := old.cachedMatchInfo(ctx, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := encodeRecord(deals[own], deals[own].Started, info)
		if err != nil {
			t.Fatalf("encodeRecord: %v", err)
		}
		tx, err := old.w.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.ExecContext(ctx, old.rebind(`INSERT INTO deals (match_id, number, deal_group, seating, deal,
	options, moves, outcome, started, duration_us, record) VALUES (?, ?, ?, '', '', '', '', '', ?, ?, ?)`),
			m.ID, own, deals[own].Group, old.timeArg(deals[own].Started), us(deals[own].Duration), rec); err != nil {
			t.Fatalf("insert deal %d: %v", own, err)
		}
		for _, d := range deals {
			insertResultRows(t, old, tx, d)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if err := old.Close(); err != nil {
			t.Fatal(err)
		}

		type step struct {
			what        string
			done, total int
		}
		var steps []step
		s, err := OpenWith(ctx, dsn, Options{Progress: func(what string, done, total int) {
			steps = append(steps, step{what, done, total})
		}}) // migrates to the newest version
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		defer s.Close()
		// One match to convert: the progress says 0 of 1, then 1 of 1 (then migration 16's).
		want := []step{{"matches whose results their records rebuild", 0, 1}, {"matches whose results their records rebuild", 1, 1}}
		if len(steps) > len(want) {
			steps = steps[:len(want)]
		}
		if !reflect.DeepEqual(steps, want) {
			t.Errorf("progress of the migration %v, want %v", steps, want)
		}
		var rows, compact int
		if err := s.r.QueryRow(s.rebind(`SELECT count(*) FROM results WHERE match_id = ? AND deal_number = ?`), m.ID, own).
			Scan(&rows); err != nil {
			t.Fatal(err)
		}
		if err := s.r.QueryRow(s.rebind(`SELECT count(*) FROM deals WHERE match_id = ? AND record IS NOT NULL`), m.ID).
			Scan(&compact); err != nil {
			t.Fatal(err)
		}
		var all int
		if err := s.r.QueryRow(`SELECT count(*) FROM results`).Scan(&all); err != nil {
			t.Fatal(err)
		}
		if want := m.Spec.Rules.Players; rows != want || all != want {
			t.Errorf("%d rows of results (%d of deal %d) after migration 13, want deal %d's %d only", all, rows, own, own, want)
		}
		if compact != len(deals)-1 {
			t.Errorf("%d compact records after migration 13, want %d: all but deal %d", compact, len(deals)-1, own)
		}
		checkReadBack(t, s, m.ID, deals)
	})
}

// A damaged compact record (truncated, or a byte changed) reads back as an error or as some
// deal, never as a panic: the decoder checks every count and index it reads.
func TestDamagedCompactRecordsAreErrorsNotPanics(t *testing.T) {
	t.Parallel()
	s := openTest(t, sqliteBackend.newDSN(t))
	ctx := context.Background()
	m, deals := realDeals(t, s)
	if err := s.SaveDeals(ctx, deals[:4]); err != nil {
		t.Fatal(err)
	}
	info, err := s.cachedMatchInfo(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range deals[:4] {
		var blob []byte
		if err := s.r.QueryRow(s.rebind(`SELECT record FROM deals WHERE match_id = ? AND number = ?`), m.ID, d.Number).Scan(&blob); err != nil {
			t.Fatal(err)
		}
		if blob == nil {
			t.Fatalf("deal %d: no compact record", d.Number)
		}
		// decodeRecord, and decodeOutcome (what Results reads) beside it.
		var whole, outcome domain.DealRecord
		read := func(b []byte) (err, errOutcome error) {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("deal %d: decoding % x panicked: %v", d.Number, b, p)
				}
			}()
			whole, outcome = domain.DealRecord{MatchID: m.ID, Number: d.Number}, domain.DealRecord{MatchID: m.ID, Number: d.Number}
			return decodeRecord(&whole, b, info, true), decodeOutcome(&outcome, b, info)
		}
		if err, errOutcome := read(blob); err != nil || errOutcome != nil {
			t.Fatalf("deal %d: the record as stored: %v; its outcome: %v", d.Number, err, errOutcome)
		}
		if outcome.Deal != whole.Deal || outcome.Options != whole.Options || !slices.Equal(outcome.Seating, whole.Seating) ||
			outcome.Outcome != whole.Outcome || outcome.Outcome != d.Outcome {
			t.Errorf("deal %d: decodeOutcome gave %+v, decodeRecord %+v, stored %+v", d.Number, outcome.Outcome, whole.Outcome, d.Outcome)
		}
		for pos := range blob {
			if err, errOutcome := read(blob[:pos]); err == nil || errOutcome == nil {
				t.Errorf("deal %d: the record cut to %d of %d bytes read without error (%v; its outcome: %v)", d.Number, pos, len(blob), err, errOutcome)
			}
			for _, x := range []byte{0x00, 0xFF, blob[pos] ^ 0x01, blob[pos] ^ 0x80} {
				damaged := slices.Clone(blob)
				damaged[pos] = x
				_, _ = read(damaged)
			}
		}
	}
}
