package match

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/admission"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/engine"
)

// Seats hands out the lines to the bots of a table (bots by seat): for each seat a connected
// session with free capacity, a different one for each seat of the same bot. It seats a
// table whole or waits; release gives the seats back.
type Seats interface {
	SeatTable(ctx context.Context, bots []string) (conns []referee.Conn, release func(), err error)
}

// Runner plays matches and stores every finished deal.
type Runner struct {
	Store    domain.Store
	Seats    Seats
	Log      *zap.Logger
	Parallel int // tables played at once within one match (default 1); a pot forces 1
	// Progress, when set, is called after every stored deal with the deals done and planned.
	Progress func(done, total int)
	// Watch, when set, receives every event of every deal (see referee.Table.Watch).
	Watch func(matchID string, number int, ev engine.Event, public []engine.Event)
	// Watching, when set, says whether Watch has anyone to tell (see referee.Table.Watching).
	Watching func() bool
	// Unrecorded stores the deals' decisions without what each was asked and answered (see
	// referee.Table.Unrecorded): bulk play whose replays need the moves, not the requests.
	Unrecorded bool
	// Stored, when set, is told each deal as soon as it is stored.
	Stored func(matchID string, number int)
	// Admitted, when set, is told every change of the tables the admission control lets a
	// match play at once (for the progress line: "host overloaded: 200 → 48 tables").
	Admitted func(admission.Change)
}

// Result sums up a played match.
type Result struct {
	Match     *domain.Match
	Deals     int            // deals stored (including earlier runs)
	Net       map[string]int // payoff per bot over all stored deals
	Forfeited []string       // bots that forfeited the match (by strikes with a per-match clock, or gone)
	// ForfeitedGames counts, per bot, the games of this run it forfeited by strikes with a
	// clock per game (nil when none).
	ForfeitedGames map[string]int
}

// Create stores a new match for spec and returns it.
func (r *Runner) Create(ctx context.Context, spec domain.MatchSpec) (*domain.Match, error) {
	if err := spec.Rules.Validate(); err != nil {
		return nil, err
	}
	if _, err := NewSchedule(spec); err != nil {
		return nil, err
	}
	m := &domain.Match{Spec: spec, Status: domain.MatchRunning, Started: time.Now()}
	if err := Commit(m); err != nil {
		return nil, err
	}
	if err := r.Store.CreateMatch(ctx, m); err != nil {
		return nil, fmt.Errorf("storing match: %w", err)
	}
	return m, nil
}

// Run plays every deal of m that is not stored yet. When ctx ends, the deals in flight are
// dropped (their seeds replay them on resume), the match is marked aborted, and Run returns
// ctx's error; everything finished stays stored.
func (r *Runner) Run(ctx context.Context, m *domain.Match) (*Result, error) {
	log := r.Log
	if log == nil {
		log = zap.NewNop()
	}
	log = log.With(zap.String("match", m.ID))
	tables, err := NewSchedule(m.Spec) // each table is made as it is played
	if err != nil {
		return nil, err
	}
	p, err := r.resume(ctx, m, tables, log)
	if err != nil {
		return nil, err
	}
	p.playAll(ctx, log)
	return r.finish(ctx, p, log)
}

// matchPlay is a match being played by Run: what is stored of it, the bots' clocks, and the
// counts of the deals stored so far.
type matchPlay struct {
	r        *Runner
	m        *domain.Match
	tables   *Schedule
	finished map[int]bool // deal numbers stored before this run
	clocks   map[string]*referee.Clock
	parallel int // tables played at once
	// admission is how the admission control ran this run (playAll).
	admission domain.Admission
	// forfeitedGames counts the games each bot forfeited by strikes (a clock per game).
	forfeitedGames map[string]int

	mu       sync.Mutex
	firstErr error
	count    int // deals stored, those of earlier runs included
	pot      int // the pot the last stored deal left (with a pot)
	// The fallback count covers every stored deal: those of earlier runs are counted again
	// from the store on a resume (the match's counts may be older than its deals after a crash).
	decisions, fallbacks int
	// The match's summary, kept as its deals are stored (those of earlier runs added from the
	// deals resume reads anyway): finish reads no result back, which for a long match cost in
	// proportion to its deals (Summarize is what a reader without the play computes).
	net         map[string]int // payoff per bot over every stored deal
	withResults int            // stored deals with a result (Summarize's Deals)
}

// addResults adds a stored deal's results to the match's summary (p.mu held, or before the
// play starts).
func (p *matchPlay) addResults(d *domain.DealRecord) {
	if len(d.Results) == 0 {
		return
	}
	p.withResults++
	for _, r := range d.Results {
		p.net[r.Bot] += r.Payoff
	}
}

// resume reads what is stored of m already — its finished deals, their decisions and
// fallbacks, the pot the last one left — and starts the bots' clocks.
func (r *Runner) resume(ctx context.Context, m *domain.Match, tables *Schedule, log *zap.Logger) (*matchPlay, error) {
	done, err := r.Store.DealNumbers(ctx, m.ID)
	if err != nil {
		return nil, fmt.Errorf("reading finished deals: %w", err)
	}
	p := &matchPlay{r: r, m: m, tables: tables, finished: make(map[int]bool, len(done)), count: len(done),
		clocks: make(map[string]*referee.Clock), parallel: max(r.Parallel, 1), net: make(map[string]int)}
	for _, n := range done {
		p.finished[n] = true
	}
	if len(done) > 0 {
		log.Info("resuming match", zap.Int("finished", len(done)), zap.Int("planned", tables.Len()))
		stored, err := r.Store.Deals(ctx, m.ID)
		if err != nil {
			return nil, fmt.Errorf("reading finished deals: %w", err)
		}
		for _, d := range stored {
			p.decisions, p.fallbacks = p.decisions+len(d.Decisions), p.fallbacks+countFallbacks(&d)
			p.addResults(&d)
		}
	}
	for _, b := range m.Spec.Bots {
		if p.clocks[b] == nil {
			p.clocks[b] = referee.NewClock(m.Spec.TimeControl)
		}
	}
	if m.Spec.Rules.Pot {
		p.parallel = 1 // the pot carries from deal to deal
		if len(done) > 0 {
			last, err := r.Store.Deal(ctx, m.ID, done[len(done)-1])
			if err != nil {
				return nil, fmt.Errorf("reading the pot from the last finished deal: %w", err)
			}
			p.pot = last.Outcome.PotAfter
		}
	}
	return p, nil
}

// playAll plays every deal not stored yet, up to p.parallel tables at once as the admission
// control allows (package admission: fewer while the host is overloaded), and stores each as
// it finishes; the first error (or the end of ctx) stops it, and the deals in flight are
// dropped.
func (p *matchPlay) playAll(ctx context.Context, log *zap.Logger) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	adm := admission.New(admission.Config{Tables: p.parallel, PerDecision: p.m.Spec.TimeControl.PerDecision, Log: log, Changed: p.r.Admitted})
	go adm.Run(ctx)
	defer func() { p.admission = adm.Summary() }()
	// Deals wait up to linger to be stored together, unless the next deal waits for this one.
	linger := 50 * time.Millisecond
	if p.parallel == 1 {
		linger = 0
	}
	// A table is free for the next deal as soon as its deal is over; the deal is stored while
	// the next one plays, and up to two batches of the store's (or parallel) more deals wait
	// for it: what a transaction costs beyond its deals' rows (the commit, the leaderboard's
	// sums and history) is shared by as many deals as finish meanwhile, which for quick bots
	// at few tables is many more than the tables. With a pot the next deal needs this one's
	// result, so it waits for the store too.
	save, stopSaving := p.r.saver(ctx, linger, func() bool { return adm.InFlight() == 0 })
	defer stopSaving()
	unsaved := make(chan struct{}, p.parallel+2*maxBatch)
	if p.m.Spec.Rules.Pot {
		unsaved = make(chan struct{}, p.parallel)
	}
	var tables tableWorkers
	defer tables.wait()
	for t := range p.tables.All() {
		if p.finished[t.Number] {
			continue
		}
		tableFree, ok := waitForTable(ctx, unsaved, adm)
		if !ok {
			break
		}
		tables.run(func() {
			defer func() { <-unsaved }()
			rec, err := p.r.playTable(ctx, p.m, t, p.options(t), p.clocks, adm)
			tableFree()
			if err == nil {
				err = save(ctx, rec)
			}
			p.stored(ctx, t, rec, err, cancel)
		})
	}
}

// tableWorkers play a match's deals, each from its table's seating to its storing, on
// goroutines kept for the match: as many as deals were under way at once (the allowance of
// playAll bounds them). A goroutine per deal grew its stack to the depth of the referee and
// the store every deal, copying it a few times (8% of the CPU of a quick in-process match).
type tableWorkers struct {
	deals chan func() // unbuffered: a send is taken only by an idle worker
	wg    sync.WaitGroup
}

// run plays deal on an idle worker, or on a new one when none is idle.
func (w *tableWorkers) run(deal func()) {
	if w.deals == nil {
		w.deals = make(chan func())
	}
	select {
	case w.deals <- deal:
	default:
		w.wg.Go(func() {
			deal()
			for deal := range w.deals {
				deal()
			}
		})
	}
}

// wait waits for every deal handed to run, and ends the workers.
func (w *tableWorkers) wait() {
	if w.deals != nil {
		close(w.deals)
	}
	w.wg.Wait()
}

// waitForTable waits until fewer deals than allowed wait for the store and the admission
// control lets another table play, takes a place of each, and returns what frees the table;
// false when ctx ends first.
func waitForTable(ctx context.Context, unsaved chan struct{}, adm *admission.Controller) (func(), bool) {
	select {
	case unsaved <- struct{}{}:
	case <-ctx.Done():
		return nil, false
	}
	release, err := adm.Acquire(ctx)
	if err != nil {
		<-unsaved
		return nil, false
	}
	return release, true
}

// options are the engine's options of a table's deal: its forced Ramsch, and the pot the
// last stored deal left.
func (p *matchPlay) options(t Table) engine.Options {
	opts := engine.Options{ForcedRamsch: t.ForcedRamsch}
	if p.m.Spec.Rules.Pot {
		p.mu.Lock()
		opts.Pot = p.pot
		p.mu.Unlock()
	}
	return opts
}

// stored counts a table's deal stored, or keeps the first error and stops the match.
func (p *matchPlay) stored(ctx context.Context, t Table, rec *domain.DealRecord, err error, stop func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		if p.firstErr == nil && ctx.Err() == nil {
			p.firstErr = fmt.Errorf("deal %d: %w", t.Number, err)
			stop()
		}
		return
	}
	p.pot = rec.Outcome.PotAfter
	p.count++
	if tc := TableClock(p.m.Spec); !tc.PerMatch() && tc.MaxStrikes > 0 {
		for bot, n := range strikesOf(rec) {
			if n >= tc.MaxStrikes {
				if p.forfeitedGames == nil {
					p.forfeitedGames = map[string]int{}
				}
				p.forfeitedGames[bot]++
			}
		}
	}
	p.decisions, p.fallbacks = p.decisions+len(rec.Decisions), p.fallbacks+countFallbacks(rec)
	p.addResults(rec)
	if p.r.Stored != nil {
		p.r.Stored(p.m.ID, t.Number)
	}
	if p.r.Progress != nil {
		p.r.Progress(p.count, p.tables.Len())
	}
}

// finish records how the match ended — forfeits, the counts, its status, even when ctx has
// ended — and sums up its stored results.
func (r *Runner) finish(ctx context.Context, p *matchPlay, log *zap.Logger) (*Result, error) {
	m := p.m
	for _, b := range sortedKeys(p.clocks) {
		if p.clocks[b].Forfeited() && !contains(m.Forfeited, b) {
			m.Forfeited = append(m.Forfeited, b)
		}
	}
	m.Decisions, m.Fallbacks = p.decisions, p.fallbacks
	m.Admission = &p.admission
	if p.admission.Overloaded() {
		log.Warn("the host was overloaded: the arena held deals back so that no bot lost time",
			zap.Int("tables_asked", p.admission.Asked), zap.Int("fewest", p.admission.Fewest),
			zap.Float64("mean_in_flight", p.admission.Mean), zap.Duration("paused", p.admission.Paused))
	}
	if share := m.FallbackShare(); share > domain.TaintedShare {
		log.Warn("the arena played many decisions for the bots: the results say little about their play",
			zap.Int("fallbacks", p.fallbacks), zap.Int("decisions", p.decisions), zap.Float64("share", share))
	}
	firstErr := p.firstErr
	switch {
	case firstErr != nil || ctx.Err() != nil:
		m.Status = domain.MatchAborted
	default:
		m.Status, m.Finished = domain.MatchFinished, time.Now()
	}
	// The match's final status is written even when ctx has ended.
	if err := r.Store.UpdateMatch(context.WithoutCancel(ctx), m); err != nil && firstErr == nil {
		firstErr = fmt.Errorf("updating match: %w", err)
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := p.summary()
	log.Info("match finished", zap.Int("deals", res.Deals), zap.Any("net", res.Net), zap.Strings("forfeited", m.Forfeited),
		zap.Any("games_forfeited", p.forfeitedGames))
	return res, nil
}

// summary is the match's Result from what the play kept: what Summarize reads from the
// store (TestRunnersSummaryIsTheStoredResults), without reading a deal.
func (p *matchPlay) summary() *Result {
	p.mu.Lock()
	defer p.mu.Unlock()
	res := &Result{Match: p.m, Net: make(map[string]int, len(p.net)), Forfeited: p.m.Forfeited,
		Deals: p.withResults, ForfeitedGames: p.forfeitedGames}
	for _, b := range p.m.Spec.Bots {
		res.Net[b] = 0 // every bot of the match is listed, even without results yet
	}
	for b, n := range p.net {
		res.Net[b] += n
	}
	return res
}

// strikesOf counts each bot's strikes in a deal.
func strikesOf(d *domain.DealRecord) map[string]int {
	var n map[string]int
	for i := range d.Decisions {
		if x := &d.Decisions[i]; x.Strike {
			if n == nil {
				n = map[string]int{}
			}
			n[x.Bot]++
		}
	}
	return n
}

// countFallbacks counts the decisions of a deal that the arena played for a bot.
func countFallbacks(d *domain.DealRecord) int {
	n := 0
	for i := range d.Decisions {
		if d.Decisions[i].Fallback {
			n++
		}
	}
	return n
}

// maxBatch is the most deals stored in one transaction (as the league's commits).
const maxBatch = 256

// BatchSaver is a store that can store several deals in one transaction.
type BatchSaver interface {
	SaveDeals(ctx context.Context, ds []*domain.DealRecord) error
}

// saver returns how finished deals are stored: through one committer that stores the deals
// that finish together in one transaction (group commit) when the store can, else one by one.
// Each deal is still stored whole or not at all; save returns when its deal is stored. Deals
// wait up to linger for others, unless idle says that no table is playing.
func (r *Runner) saver(ctx context.Context, linger time.Duration, idle func() bool) (save func(context.Context, *domain.DealRecord) error, stop func()) {
	batcher, ok := r.Store.(BatchSaver)
	if !ok {
		return r.Store.SaveDeal, func() {}
	}
	type req struct {
		rec  *domain.DealRecord
		done chan error
	}
	reqs := make(chan req)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for first := range reqs {
			batch := Gather(first, reqs, maxBatch, linger, idle)
			recs := make([]*domain.DealRecord, len(batch))
			for i, q := range batch {
				recs[i] = q.rec
			}
			err := batcher.SaveDeals(ctx, recs)
			if err != nil && len(batch) > 1 {
				// Store them one by one, so that each caller learns its own deal's fate.
				for _, q := range batch {
					q.done <- r.Store.SaveDeal(ctx, q.rec)
				}
				continue
			}
			for _, q := range batch {
				q.done <- err
			}
		}
	}()
	save = func(ctx context.Context, rec *domain.DealRecord) error {
		done := make(chan error, 1)
		select {
		case reqs <- req{rec, done}:
		case <-ctx.Done():
			return ctx.Err()
		}
		return <-done
	}
	return save, func() { close(reqs); <-finished }
}

func (r *Runner) playTable(ctx context.Context, m *domain.Match, t Table, opts engine.Options, clocks map[string]*referee.Clock, adm *admission.Controller) (*domain.DealRecord, error) {
	players, release, err := SeatPlayers(ctx, r.Seats, t.Seating, clocks)
	if err != nil {
		return nil, err
	}
	defer release()
	table := &referee.Table{
		MatchID: m.ID, Number: t.Number, Group: t.Group, Rules: m.Spec.Rules, Deal: t.Deal,
		Options: opts, Players: players, TimeControl: TableClock(m.Spec), Commitment: m.Commitment,
		Unrecorded: r.Unrecorded, Decided: adm.ObserveDecision,
	}
	if r.Watch != nil {
		table.Watch = func(number int, ev engine.Event, public []engine.Event) { r.Watch(m.ID, number, ev, public) }
		table.Watching = r.Watching
	}
	return referee.Play(ctx, table)
}

// TableClock is the time control a table of the match is played under: the match's, whose
// bank and strikes are each game's — but in the session format, where the deals follow one
// another as one game, the whole session's.
func TableClock(spec domain.MatchSpec) domain.TimeControl {
	tc := spec.TimeControl
	if spec.Format == domain.FormatSession {
		tc.Scope = domain.ClockPerMatch
	}
	return tc
}

// Summarize totals a match's stored results, read from the store, every row: the check that
// a Runner's Run, which keeps the same sums as it stores the deals, kept them right. Readers
// of stored matches use the store's kept sums instead (Store.MatchNets).
func Summarize(ctx context.Context, store domain.Store, m *domain.Match) (*Result, error) {
	rows, err := store.Results(ctx, domain.MatchFilter{MatchID: m.ID})
	if err != nil {
		return nil, err
	}
	res := &Result{Match: m, Net: make(map[string]int), Forfeited: m.Forfeited}
	for _, b := range m.Spec.Bots {
		res.Net[b] = 0 // every bot of the match is listed, even without results yet
	}
	deals := make(map[int]bool)
	for _, row := range rows {
		if row.MatchID != m.ID {
			continue
		}
		deals[row.Deal] = true
		res.Net[row.Bot] += row.Payoff
	}
	res.Deals = len(deals)
	return res, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// SeatPlayers seats a table (bots by seat) and gives each seat its bot's match clock.
func SeatPlayers(ctx context.Context, seats Seats, seating []string, clocks map[string]*referee.Clock) ([]referee.Player, func(), error) {
	conns, release, err := seats.SeatTable(ctx, seating)
	if err != nil {
		return nil, nil, fmt.Errorf("seating %s: %w", strings.Join(seating, ", "), err)
	}
	players := make([]referee.Player, len(seating))
	for seat, bot := range seating {
		players[seat] = referee.Player{Bot: bot, Conn: conns[seat], Clock: clocks[bot]}
	}
	return players, release, nil
}

// idleCheck is how often a lingering Gather asks whether anything is still on its way.
const idleCheck = 2 * time.Millisecond

// Gather is the batch of a group commit: first, and what else comes on ch within linger (only
// what is waiting already when linger is 0), max items in all. The tables play on meanwhile,
// and one commit for many deals costs less than one each. Lingering stops early once idle
// (when not nil) says that no table is playing, so nothing more is coming: at the end of a
// match or a league, or while it waits for work, the last deals are stored at once instead
// of a linger later.
func Gather[T any](first T, ch <-chan T, max int, linger time.Duration, idle func() bool) []T {
	batch := []T{first}
	end := time.Now().Add(linger)
	var step *time.Timer
	defer func() {
		if step != nil {
			step.Stop()
		}
	}()
	for len(batch) < max {
		select {
		case next, ok := <-ch:
			if !ok {
				return batch
			}
			batch = append(batch, next)
			continue
		default:
		}
		left := time.Until(end)
		if left <= 0 || (idle != nil && idle()) {
			return batch
		}
		wait := min(left, idleCheck)
		if idle == nil {
			wait = left
		}
		if step == nil {
			step = time.NewTimer(wait)
		} else {
			step.Reset(wait)
		}
		select {
		case next, ok := <-ch:
			if !ok {
				return batch
			}
			batch = append(batch, next)
		case <-step.C:
		}
	}
	return batch
}
