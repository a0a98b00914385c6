package inproc_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/host"
	"github.com/tapparena/tapp/arena/internal/inproc"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
	"github.com/tapparena/tapp/arena/internal/yardstick"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/builtin"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
)

var clock = domain.TimeControl{PerDecision: 5 * time.Second, Overage: 10 * time.Second, MaxStrikes: 3}

// builtins makes the bots of a table (kinds in table order), the one at position i seeded
// with seed+i as `tapp match` seeds them.
func builtins(t testing.TB, seed uint64, kinds ...string) map[string]bots.Bot {
	t.Helper()
	out := make(map[string]bots.Bot)
	for i, k := range kinds {
		b, err := builtin.New(k, seed+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprint(k, i)] = b
	}
	return out
}

func names(bs map[string]bots.Bot) []string {
	out := make([]string, 0, len(bs))
	for n := range bs {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// playMatch creates and plays a match of spec with the runner, and returns its stored deals.
func playMatch(t *testing.T, r *match.Runner, spec domain.MatchSpec) []domain.DealRecord {
	t.Helper()
	ctx := context.Background()
	for _, b := range spec.Bots {
		if err := host.EnsureBot(ctx, r.Store, b); err != nil {
			t.Fatal(err)
		}
	}
	m, err := r.Create(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Run(ctx, m); err != nil {
		t.Fatal(err)
	}
	deals, err := r.Store.Deals(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(deals) == 0 {
		t.Fatal("no deal stored")
	}
	return deals
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "tapp.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// The same seed and deterministic bots give the same match in process as over gRPC: the
// same deals, the same moves, the same requests recorded (but for the match id and the clock).
func TestInProcessPlaysTheMatchThatGRPCPlays(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const seed = 11
	for _, rules := range []string{"modern", "classic pot=on", "modern players=4 frage=on"} {
		r, err := engine.ParseRuleSet(rules)
		if err != nil {
			t.Fatal(err)
		}
		kinds := []string{"random", "heuristic", "random", "heuristic"}[:r.Players]
		bs := builtins(t, seed, kinds...)
		spec := domain.MatchSpec{Rules: r, Bots: names(bs), Deals: 12, Seed: seed, TimeControl: clock}

		local := playMatch(t, &match.Runner{Store: openStore(t), Seats: &inproc.Seats{Bots: bs}, Parallel: 4}, spec)

		h, err := host.Start(ctx, host.Config{Store: openStore(t), Listen: "127.0.0.1:0", Grace: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		botCtx, stopBots := context.WithCancel(ctx)
		for name, b := range bs {
			token := "t-" + name
			h.Server.AddLaunchToken(token, name)
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = sdk.Run(botCtx, sdk.Config{Arena: h.Addr, Token: token, Name: name, Capacity: 4}, b)
			}()
		}
		if err := h.WaitConnected(ctx, spec.Bots, 30*time.Second); err != nil {
			t.Fatal(err)
		}
		h.Runner.Parallel = 4
		remote := playMatch(t, h.Runner, spec)
		stopBots()
		h.Stop()
		wg.Wait()

		if len(local) != len(remote) {
			t.Fatalf("%s: %d deals in process, %d over gRPC", rules, len(local), len(remote))
		}
		for i := range local {
			l, g := &local[i], &remote[i]
			if l.Deal != g.Deal || !slices.Equal(l.Seating, g.Seating) || !slices.Equal(l.Moves, g.Moves) || l.Outcome.PotAfter != g.Outcome.PotAfter {
				t.Fatalf("%s, deal %d: in process %v %v, over gRPC %v %v", rules, l.Number, l.Seating, l.Moves, g.Seating, g.Moves)
			}
			for k := range l.Decisions {
				ld, gd := &l.Decisions[k], &g.Decisions[k]
				if ld.Fallback || gd.Fallback {
					t.Fatalf("%s, deal %d, decision %d: a fallback (in process %v, over gRPC %v)", rules, l.Number, k, ld.Fallback, gd.Fallback)
				}
				lr, err1 := protoconv.DecodeSent(ld.Sent)
				gr, err2 := protoconv.DecodeSent(gd.Sent)
				if err1 != nil || err2 != nil {
					t.Fatalf("%s, deal %d, decision %d: requests recorded unreadable: %v, %v", rules, l.Number, k, err1, err2)
				}
				// The match ids differ, and so do the clocks.
				lr.GameId, gr.GameId, lr.Deadline, gr.Deadline, lr.OverageLeft, gr.OverageLeft = "", "", nil, nil, nil, nil
				if lr.String() != gr.String() {
					t.Fatalf("%s, deal %d, decision %d: in process the record says\n%v\nover gRPC\n%v", rules, l.Number, k, lr, gr)
				}
			}
		}
	}
}

// slow takes longer than the time per decision.
type slow struct{}

func (slow) Decide(ctx context.Context, obs *engine.Observation) (engine.Action, error) {
	<-ctx.Done()
	time.Sleep(50 * time.Millisecond)
	return obs.Legal[len(obs.Legal)-1], nil
}

// An in-process bot is under the same clock as a bot over the wire: past its time and its
// overage the referee plays the fallback and gives a strike.
func TestInProcessBotThatIsLateGetsTheFallback(t *testing.T) {
	t.Parallel()
	r := engine.DefaultRules(engine.Modern)
	tc := domain.TimeControl{PerDecision: 20 * time.Millisecond, Overage: 10 * time.Millisecond, MaxStrikes: 2, Scope: domain.ClockPerMatch} // the match forfeit: one bank per match
	players := []referee.Player{
		{Bot: "slow", Conn: inproc.NewConn(slow{}, false), Clock: referee.NewClock(tc)},
		{Bot: "r1", Conn: inproc.NewConn(builtinBot(t, "random", 1), false), Clock: referee.NewClock(tc)},
		{Bot: "r2", Conn: inproc.NewConn(builtinBot(t, "random", 2), false), Clock: referee.NewClock(tc)},
	}
	rec, err := referee.Play(context.Background(), &referee.Table{MatchID: "late", Rules: r,
		Deal: engine.DealFromSeed(r, 3, 0), Players: players, TimeControl: tc})
	if err != nil {
		t.Fatal(err)
	}
	strikes := 0
	for _, d := range rec.Decisions {
		if d.Bot == "slow" {
			if !d.Fallback {
				t.Fatalf("decision %d: the slow bot's late answer %s was taken", d.Index, d.Action)
			}
			if d.Strike {
				strikes++
			}
		} else if d.Fallback {
			t.Fatalf("decision %d: fallback for %s, which answers at once", d.Index, d.Bot)
		}
	}
	if strikes != tc.MaxStrikes || !players[0].Clock.Forfeited() {
		t.Fatalf("%d strikes, forfeited %v; want %d strikes and a forfeit", strikes, players[0].Clock.Forfeited(), tc.MaxStrikes)
	}
}

// stuck never returns from Decide until released, whatever its context says.
type stuck struct{ release chan struct{} }

func (s stuck) Decide(_ context.Context, obs *engine.Observation) (engine.Action, error) {
	<-s.release
	return obs.Legal[len(obs.Legal)-1], nil
}

// An in-process bot that never returns does not hold its table: past its time the referee
// plays the fallback with a strike, as for a bot over the wire that never answers, and the
// deal goes on to its end without it (striking out, the bot is asked no more); what the bot
// answers when it returns at last changes nothing. Through the match runner too, for every
// deal of the match.
func TestInProcessBotThatNeverReturnsHoldsNoTable(t *testing.T) {
	t.Parallel()
	r := engine.DefaultRules(engine.Modern)
	tc := domain.TimeControl{PerDecision: 20 * time.Millisecond, Overage: 10 * time.Millisecond, MaxStrikes: 2}
	bot := stuck{release: make(chan struct{})}
	defer close(bot.release) // the goroutines the bot holds return, and find their decisions taken
	bs := map[string]bots.Bot{"stuck": bot, "r1": builtinBot(t, "random", 1), "r2": builtinBot(t, "random", 2)}
	runner := &match.Runner{Store: memstore.New(), Seats: &inproc.Seats{Bots: bs}, Parallel: 2}
	recs := playMatch(t, runner, domain.MatchSpec{Rules: r, Bots: []string{"stuck", "r1", "r2"}, Deals: 3, Seed: 5, TimeControl: tc})
	if len(recs) != 3 {
		t.Fatalf("%d deals stored, want 3", len(recs))
	}
	for _, rec := range recs {
		strikes := 0
		for _, d := range rec.Decisions {
			switch {
			case d.Bot == "stuck" && !d.Fallback:
				t.Fatalf("deal %d, decision %d: the stuck bot's seat played %s, not the fallback", rec.Number, d.Index, d.Action)
			case d.Bot == "stuck" && d.Strike:
				strikes++
				if len(d.Attempts) != 0 {
					t.Fatalf("deal %d, decision %d: answers %v recorded for a bot that never answered", rec.Number, d.Index, d.Attempts)
				}
			case d.Bot != "stuck" && d.Fallback:
				t.Fatalf("deal %d, decision %d: fallback for %s, which answers at once", rec.Number, d.Index, d.Bot)
			}
		}
		if strikes != tc.MaxStrikes {
			t.Fatalf("deal %d: %d strikes for the stuck bot, want %d (then it forfeits the game)", rec.Number, strikes, tc.MaxStrikes)
		}
	}
}

// With a per-game clock (the default) an in-process bot's strikes are the game's, as over
// the wire: striking out forfeits the game, not the match, and the next deal asks it again.
// A strike's attribution is the bot's own time (Think) of its late answer, from the hand-off.
func TestInProcessBotStrikesOutOfTheGameNotTheMatch(t *testing.T) {
	t.Parallel()
	r := engine.DefaultRules(engine.Modern)
	tc := domain.TimeControl{PerDecision: 20 * time.Millisecond, Overage: 10 * time.Millisecond, MaxStrikes: 2}
	players := []referee.Player{
		{Bot: "slow", Conn: inproc.NewConn(slow{}, false), Clock: referee.NewClock(tc)},
		{Bot: "r1", Conn: inproc.NewConn(builtinBot(t, "random", 1), false), Clock: referee.NewClock(tc)},
		{Bot: "r2", Conn: inproc.NewConn(builtinBot(t, "random", 2), false), Clock: referee.NewClock(tc)},
	}
	for deal := range 2 {
		rec, err := referee.Play(context.Background(), &referee.Table{MatchID: "late", Number: deal, Rules: r,
			Deal: engine.DealFromSeed(r, 3, uint64(deal)), Players: players, TimeControl: tc})
		if err != nil {
			t.Fatal(err)
		}
		strikes := 0
		for _, d := range rec.Decisions {
			if d.Bot == "slow" && d.Strike {
				strikes++
				if d.Think < 30*time.Millisecond || len(d.Attempts) != 1 || d.Attempts[0].Rejected == "" || d.Asked.IsZero() {
					t.Errorf("deal %d, decision %d: strike with think %v, attempts %v, asked %v; want the late answer's time and the answer refused",
						deal, d.Index, d.Think, d.Attempts, d.Asked)
				}
			}
		}
		if strikes != tc.MaxStrikes { // in the second deal too: a fresh game clock asks again
			t.Errorf("deal %d: %d strikes; want %d, the game's", deal, strikes, tc.MaxStrikes)
		}
		if players[0].Clock.Forfeited() {
			t.Fatalf("deal %d: the match clock is forfeited by a game's strikes", deal)
		}
	}
}

func builtinBot(t testing.TB, kind string, seed uint64) bots.Bot {
	t.Helper()
	b, err := builtin.New(kind, seed)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// BenchmarkInProcessDeals plays modern deals among three in-process random bots, as many
// tables at once as there are cores (-cpu 1: one core), and reports deals/s and the CPU of a
// deal (no store: the referee, the engine and the bots). record=false is `tapp match
// --in-process --no-records`: no request or answer kept (Table.Unrecorded); record=true
// keeps each decision's record with its clock, as `tapp match --in-process` does (nothing is
// encoded in either: a store rebuilds the requests when a deal is read). Its
// yardstick, timed in the same run: the engine's own random deal (the loop of
// engine.BenchmarkRandomDeal, on one reused State), played in rounds that alternate with the
// in-process deals' (yardstickRound deals each), so that a change of the host's load falls on
// both alike; it reports the engine's CPU per deal as engine-cpu-µs/deal, the ratio as
// x-engine, and the rate a core would have as deals/s/core (10⁶ / CPU-µs a deal).
func BenchmarkInProcessDeals(b *testing.B) {
	asTheProgramCollects(b)
	for _, record := range []bool{false, true} {
		b.Run(fmt.Sprintf("record=%v", record), func(b *testing.B) {
			b.ReportAllocs()
			r := engine.DefaultRules(engine.Modern)
			bs := []bots.Bot{builtinBot(b, "random", 1), builtinBot(b, "random", 2), builtinBot(b, "random", 3)}
			conns := []referee.Conn{inproc.NewConn(bs[0], false), inproc.NewConn(bs[1], false), inproc.NewConn(bs[2], false)}
			clocks := []*referee.Clock{referee.NewClock(clock), referee.NewClock(clock), referee.NewClock(clock)}
			players := make([]referee.Player, 3) // Play only reads them
			for s := range players {
				players[s] = referee.Player{Bot: fmt.Sprint("b", s), Conn: conns[s], Clock: clocks[s]}
			}
			yard := newYardstick()
			var cpu time.Duration
			var wall time.Duration
			b.ResetTimer()
			for first := 0; first < b.N; first += yardstickRound {
				last := min(first+yardstickRound, b.N)
				var next atomic.Int64
				next.Store(int64(first))
				var wg sync.WaitGroup
				start, cpu0 := time.Now(), yardstick.CPUTime()
				for range runtime.GOMAXPROCS(0) {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for {
							n := int(next.Add(1)) - 1
							if n >= last {
								return
							}
							if _, err := referee.Play(context.Background(), &referee.Table{MatchID: "bench", Number: n, Rules: r,
								Deal: engine.DealFromSeed(r, 1, uint64(n)), Players: players, TimeControl: clock, Unrecorded: !record}); err != nil {
								b.Error(err)
								return
							}
						}
					}()
				}
				wg.Wait()
				wall, cpu = wall+time.Since(start), cpu+yardstick.CPUTime()-cpu0
				b.StopTimer()
				yard.play(last - first)
				b.StartTimer()
			}
			b.StopTimer()
			perDeal := float64(cpu.Microseconds()) / float64(b.N)
			engineDeal := yard.perDeal()
			b.ReportMetric(float64(b.N)/wall.Seconds(), "deals/s")
			b.ReportMetric(1e6/perDeal, "deals/s/core")
			b.ReportMetric(perDeal, "cpu-µs/deal")
			b.ReportMetric(engineDeal, "engine-cpu-µs/deal")
			b.ReportMetric(perDeal/engineDeal, "x-engine")
		})
	}
}

// yardstickRound is how many deals a round of BenchmarkInProcessDeals plays before a round of
// its yardstick: some tens of ms of CPU each.
const yardstickRound = 2000

// engineRounds is the yardstick (the engine's own random deal) played in rounds beside a
// benchmark's, its CPU summed over them.
type engineRounds struct {
	y     *yardstick.RandomDeals
	deals int
	cpu   time.Duration
}

func newYardstick() *engineRounds { return &engineRounds{y: yardstick.New()} }

// play plays n deals.
func (e *engineRounds) play(n int) {
	cpu0 := yardstick.CPUTime()
	e.y.Play(n)
	e.cpu += yardstick.CPUTime() - cpu0
	e.deals += n
}

// perDeal is the CPU µs of one deal so far.
func (e *engineRounds) perDeal() float64 { return float64(e.cpu.Microseconds()) / float64(e.deals) }

// asTheProgramCollects sets the collector as the tapp program does (GOGC=400 unless GOGC is
// set, arena/internal/cli) for the benchmark: what a deal allocates is collected at the rate
// it would be in `tapp match --in-process`.
func asTheProgramCollects(b *testing.B) {
	if os.Getenv("GOGC") == "" {
		old := debug.SetGCPercent(400)
		b.Cleanup(func() { debug.SetGCPercent(old) })
	}
}

// BenchmarkInProcessMatch is `tapp match --in-process --bots random,random,random` as the
// command plays it (the match runner, b.N deals at 8 tables at once) into a store kept in
// memory (`--db memory:`) or in SQLite (`--db FILE`, every deal fsynced), with every request
// recorded or with none (`--no-records`). It reports deals/s, the CPU of a deal (and the
// deals a second a core would play at that CPU), the heap the store holds per deal (after a
// collection) and the ratio to the engine's own random deal timed in the same run (half of
// its b.N deals before the match, half after).
func BenchmarkInProcessMatch(b *testing.B) {
	asTheProgramCollects(b)
	for _, db := range []string{"memory", "sqlite"} {
		for _, record := range []bool{true, false} {
			b.Run(fmt.Sprintf("db=%s/records=%v", db, record), func(b *testing.B) {
				ctx := context.Background()
				var st domain.Store = memstore.New()
				if db == "sqlite" {
					s, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
					if err != nil {
						b.Fatal(err)
					}
					defer s.Close()
					st = s
				}
				bs := builtins(b, 1, "random", "random", "random")
				spec := domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: names(bs), Deals: b.N, Seed: 1, TimeControl: clock}
				for _, n := range spec.Bots {
					if err := host.EnsureBot(ctx, st, n); err != nil {
						b.Fatal(err)
					}
				}
				r := &match.Runner{Store: st, Seats: &inproc.Seats{Bots: bs}, Parallel: 8, Unrecorded: !record}
				m, err := r.Create(ctx, spec)
				if err != nil {
					b.Fatal(err)
				}
				var before, after runtime.MemStats
				yard := newYardstick()
				yard.play(b.N / 2) // and the other half after: a change of the load falls on both
				runtime.GC()
				runtime.ReadMemStats(&before)
				b.ResetTimer()
				start, cpu0 := time.Now(), yardstick.CPUTime()
				if _, err := r.Run(ctx, m); err != nil {
					b.Fatal(err)
				}
				wall, cpu := time.Since(start), yardstick.CPUTime()-cpu0
				b.StopTimer()
				runtime.GC()
				runtime.ReadMemStats(&after)
				perDeal := float64(cpu.Microseconds()) / float64(b.N)
				yard.play(b.N - b.N/2)
				engineDeal := yard.perDeal()
				b.ReportMetric(float64(b.N)/wall.Seconds(), "deals/s")
				b.ReportMetric(1e6/perDeal, "deals/s/core")
				b.ReportMetric(perDeal, "cpu-µs/deal")
				b.ReportMetric((float64(after.HeapAlloc)-float64(before.HeapAlloc))/float64(b.N), "heap-B/deal")
				b.ReportMetric(engineDeal, "engine-cpu-µs/deal")
				b.ReportMetric(perDeal/engineDeal, "x-engine")
				runtime.KeepAlive(st)
			})
		}
	}
}

// clockReader is a bot that records the clock on its context at every decision, and the
// context's deadline, then plays the first legal action.
type clockReader struct {
	mu   sync.Mutex
	seen []clockSeen
}

type clockSeen struct {
	clock    bots.Clock
	ok       bool
	deadline time.Time
	asked    time.Time
}

func (c *clockReader) Decide(ctx context.Context, obs *engine.Observation) (engine.Action, error) {
	clk, ok := bots.ClockOf(ctx)
	dl, _ := ctx.Deadline()
	c.mu.Lock()
	c.seen = append(c.seen, clockSeen{clk, ok, dl, time.Now()})
	c.mu.Unlock()
	return obs.Legal[0], nil
}

// An in-process bot finds its clock on the context, as over gRPC: the decision's own
// deadline and the bank the referee says is left; the context itself ends with the bank.
func TestInProcessBotGetsItsClock(t *testing.T) {
	t.Parallel()
	r := engine.DefaultRules(engine.Modern)
	tc := domain.TimeControl{PerDecision: 30 * time.Second, Overage: 7 * time.Second, MaxStrikes: 3}
	reader := &clockReader{}
	players := []referee.Player{
		{Bot: "reader", Conn: inproc.NewConn(reader, false), Clock: referee.NewClock(tc)},
		{Bot: "r1", Conn: inproc.NewConn(builtinBot(t, "random", 1), false), Clock: referee.NewClock(tc)},
		{Bot: "r2", Conn: inproc.NewConn(builtinBot(t, "random", 2), false), Clock: referee.NewClock(tc)},
	}
	if _, err := referee.Play(context.Background(), &referee.Table{MatchID: "clock", Rules: r,
		Deal: engine.DealFromSeed(r, 3, 0), Players: players, TimeControl: tc}); err != nil {
		t.Fatal(err)
	}
	if len(reader.seen) == 0 {
		t.Fatal("the bot was never asked")
	}
	for i, s := range reader.seen {
		if !s.ok {
			t.Fatalf("decision %d: no clock on the context", i)
		}
		// the bot answers at once: the bank stays full, and its own time is the 30 s per
		// decision from about when it was asked (the referee sets it just before)
		if s.clock.Overage != tc.Overage {
			t.Errorf("decision %d: bank %v, want %v", i, s.clock.Overage, tc.Overage)
		}
		if own := s.clock.Deadline.Sub(s.asked); own > tc.PerDecision || own < tc.PerDecision-10*time.Second {
			t.Errorf("decision %d: own time %v from the call, want about %v", i, own, tc.PerDecision)
		}
		if !s.deadline.Equal(s.clock.End()) {
			t.Errorf("decision %d: context ends %v after the clock's deadline, want with the bank (%v)", i, s.deadline.Sub(s.clock.Deadline), tc.Overage)
		}
	}
}
