package referee

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// A bot in process (Direct) decides on the goroutine that plays its deal, and Go cannot stop
// a function it calls: a bot that never returns would hold its table, and the match, for
// ever. So a deal with a Direct seat plays on a goroutine of its own, and a watchdog looks at
// the decisions in progress every takeoverTick: one whose bot has not returned takeoverGrace
// past the time allowed is taken over from. A new goroutine plays the fallback with a strike
// (a late answer, as over the wire) and goes on with the deal; the bot keeps the request it
// was handed (the game gets a new one), and when it returns at last its goroutine finds the
// decision taken and leaves the game alone. A decision costs two atomic stores and a
// compare-and-swap; a deal a channel and a hand-off to a kept goroutine (a player, below).

// errTakenOver is what the goroutine of a bot that was taken over from returns with: the game
// is another goroutine's now.
var errTakenOver = errors.New("referee: the decision was taken over from a bot that did not return")

const (
	// takeoverTick is how often the watchdog looks at the decisions in progress.
	takeoverTick = 10 * time.Millisecond
	// takeoverGrace is how long past the time allowed a bot may still return by itself (it is
	// late then, as judged when it returns, and its late answer is recorded) before its
	// decision is taken over: long enough that a bot that is merely slow on a busy host
	// returns within it, short against a night's league.
	takeoverGrace = 500 * time.Millisecond
)

// takeover is a game's decision in progress at a Direct seat, for the watchdog.
type takeover struct {
	// asked is the request number being decided (> 0), 0 when none is, and −k once the
	// watchdog took request k over; deadline (from the game's epoch) is when it may.
	asked    atomic.Int64
	deadline atomic.Int64
	// The time allowed, for the goroutine that takes over, written before asked is set (the
	// decision's record is the game's cur, its legal actions its request's, and it was asked
	// at cur.Asked). Nothing written a decision holds a pointer: no write barrier.
	allowed time.Duration

	done chan played     // the deal's end, from whichever goroutine ended it
	ctx  context.Context // the deal's, for the goroutine that takes over
	// takenOver is set by the goroutine that takes a decision over (before it ends the deal):
	// the game stays the bot's goroutine's, and is not the next deal's.
	takenOver bool
}

// played is how a deal ended.
type played struct {
	rec *domain.DealRecord
	err error
}

// deciding marks request k as being decided by a Direct bot, and returns k.
// deciding marks request k, asked at start (from the game's epoch), as being decided by a
// Direct bot, and returns k.
func (t *takeover) deciding(start, allowed time.Duration, k int64) int64 {
	if t.done == nil { // the table has no Direct seat going through playTakeable
		return k
	}
	t.allowed = allowed
	t.deadline.Store(int64(start + allowed + takeoverGrace))
	t.asked.Store(k)
	return k
}

// returned reports whether the bot's return for request k still counts: false when the
// watchdog took the decision over meanwhile.
func (t *takeover) returned(k int64) bool {
	return t.done == nil || t.asked.CompareAndSwap(k, 0)
}

// playTakeable plays the deal on a goroutine of its own, watched, and returns how it ended.
func (g *game) playTakeable(ctx context.Context) (*domain.DealRecord, error) {
	g.taking.done = g.sc.done // one send a deal, received below: the channel is the next deal's after
	g.taking.ctx = ctx
	watchdog.add(g)
	defer watchdog.remove(g)
	onPlayer(func() {
		rec, err := g.play(ctx)
		if !errors.Is(err, errTakenOver) {
			g.taking.done <- played{rec, err}
		}
	})
	p := <-g.taking.done
	return p.rec, p.err
}

// Deals with Direct seats play on players: goroutines kept between deals. A deal grows its
// goroutine's stack to the referee's and the bot's depth, copying it from Go's smallest a few
// times; a new goroutine per deal paid that every deal (about 15% of the CPU of a random deal
// in process, in profiles of BenchmarkInProcessDeals). A player that finds no deal for
// playerIdle ends, so that none outlives the matches by long.
var players = make(chan func()) // unbuffered: a send is taken only by an idle player

// playerIdle is how long an idle player waits for its next deal.
const playerIdle = time.Second

// onPlayer runs f on an idle player, or on a new one when none is idle.
func onPlayer(f func()) {
	select {
	case players <- f:
	default:
		go player(f)
	}
}

// player runs f, then the deals handed to it until it has been idle for playerIdle. The
// goroutine of a bot that was taken over from comes back when the bot returns at last.
func player(f func()) {
	idle := time.NewTimer(playerIdle)
	defer idle.Stop()
	for {
		f()
		idle.Reset(playerIdle)
		select {
		case f = <-players:
		case <-idle.C:
			return
		}
	}
}

// takeOver goes on with the deal from the decision the watchdog took over: the fallback with
// a strike, as for an answer that never came; the bot keeps the request it was handed.
func (g *game) takeOver() {
	t := &g.taking
	t.takenOver, g.fresh = true, false
	asked := g.req // left to the bot (its legal actions stay as they were asked)
	g.sc.req = new(Request)
	g.req = g.sc.req
	d := &g.cur // the decision taken over, as its bot was asked it
	g.late(d, asked.Legal, d.Asked, t.allowed)
	rec, err := g.run(t.ctx, d)
	if !errors.Is(err, errTakenOver) {
		t.done <- played{rec, err}
	}
}

// watchdog watches the games with Direct seats being played in this process.
var watchdog = &dog{games: map[*game]struct{}{}}

type dog struct {
	mu      sync.Mutex
	games   map[*game]struct{}
	running bool
}

func (w *dog) add(g *game) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.games[g] = struct{}{}
	if !w.running {
		w.running = true
		go w.watch()
	}
}

func (w *dog) remove(g *game) {
	w.mu.Lock()
	delete(w.games, g)
	w.mu.Unlock()
}

// watch takes over the decisions past their time until no game is left to watch.
func (w *dog) watch() {
	tick := time.NewTicker(takeoverTick)
	defer tick.Stop()
	for now := range tick.C {
		w.mu.Lock()
		if len(w.games) == 0 {
			w.running = false
			w.mu.Unlock()
			return
		}
		for g := range w.games {
			t := &g.taking
			if k := t.asked.Load(); k > 0 && int64(now.Sub(g.epoch)) > t.deadline.Load() && t.asked.CompareAndSwap(k, -k) {
				go g.takeOver()
			}
		}
		w.mu.Unlock()
	}
}
