package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/analysis"
	"github.com/tapparena/tapp/arena/internal/app"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/arena/internal/yardstick"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// The shape of the database BenchmarkDashboardAtScale builds: a ladder league of many short
// matches among scaleBots bots, three at a table, and scaleLong long matches outside it that
// hold a tenth of the deals (the match page a user opens after a long `tapp match`).
const (
	scaleLeague = "ladder"
	scaleBots   = 12
	scaleLong   = 10
)

// BenchmarkDashboardAtScale times, over HTTP as the page asks, every call the dashboard's
// pages make, on a database of many matches and deals: the leaderboard and the rating
// history of everything and of the league, the league list and progress, the match lists,
// a long match's page (first and last) and a league match's, replays from the full and a
// seat's view, the replay's analysis (stored, and computed now: kept out of the worst
// figures, as its cost is the deal's), and the live view of a running match (the long one,
// as an arena that sends no events shows it). Each round of calls is served by a new view, as after a restart. It
// reports each call's server time (wall and this process's CPU, which the client shares but
// hardly uses) and response size, the worst of each over all calls, and the leaderboard
// page's three calls made at once as the browser makes them. On PostgreSQL it also reports
// the database server's CPU for each call (-db-cpu-ms, where the server runs on this
// machine: dbCPU) and the worst call's CPU of both (worst-server-cpu-ms).
//
//	scripts/bench-dashboard.sh 1000000 20000 5
//
// The database is built once (random legal play, stored through the store's own API: the
// league's rounds and jobs as a league schedules them, the deals in batches as its workers
// store them) and kept at TAPP_BENCH_WEB_DB for later runs (the script keeps it in a cache
// folder); by default 20,000 deals in 400 matches in a temporary folder.
func BenchmarkDashboardAtScale(b *testing.B) {
	deals, matches := envInt(b, "TAPP_BENCH_WEB_DEALS", 20000), envInt(b, "TAPP_BENCH_WEB_MATCHES", 400)
	db := os.Getenv("TAPP_BENCH_WEB_DB")
	if db == "" {
		db = filepath.Join(b.TempDir(), "web.db")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opened := time.Now()
	dsn, dbc := db, (*dbCPU)(nil)
	if strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://") {
		// The server's CPU is the database's share of each call's server time: measured
		// where the server runs here, by the connections' name.
		var name string
		var err error
		if dsn, name, err = dbCPUDSN(db); err != nil {
			b.Fatal(err)
		}
		if dbc, err = newDBCPU(ctx, db, name); err != nil {
			b.Logf("the PostgreSQL server's CPU is not measured: %v", err)
		} else {
			defer dbc.Close()
		}
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	b.Logf("dashboard database %s opened (and migrated) in %v", db, time.Since(opened).Round(time.Millisecond))
	shape := fillLadder(b, ctx, st, deals, matches)
	// The replay page's analysis: a league deal's stored one (what `tapp analyze MATCH --deal 7`
	// stores; kept with the database), read by key, and a long match's deal with none, which
	// the dashboard analyses when it is asked (its cost is the deal's, whatever the store holds).
	analysed := 7
	if _, err := (analysis.Run{Workers: 1}).Stored(ctx, st, shape.short, &analysed); err != nil {
		b.Fatal(err)
	}

	// Every round of calls is served by a new view, as after a restart: no page's cost hides
	// in what an earlier call left in the view's caches.
	live := NewLive(ctx, idleMatches{shape.long})
	var handler atomic.Pointer[http.Handler]
	fresh := func() {
		v := NewView(st, app.Leaderboards(st), live)
		v.Analyses = NewAnalyses(st) // as `tapp dashboard` has it
		h, err := Handler(Config{View: v})
		if err != nil {
			b.Fatal(err)
		}
		handler.Store(&h)
	}
	fresh()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	serve := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*handler.Load()).ServeHTTP(w, r) })
	go func() { _ = Serve(ctx, lis, serve, zap.NewNop()) }()
	base := "http://" + lis.Addr().String() + "/tapp.view.v1.ViewService/"
	call := func(method, body string) (wall, cpu time.Duration, answer []byte) {
		req, err := http.NewRequest(http.MethodPost, base+method, strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Connect-Protocol-Version", "1")
		c0, t0 := yardstick.CPUTime(), time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		_, _ = io.Copy(&buf, resp.Body)
		resp.Body.Close()
		wall, cpu = time.Since(t0), yardstick.CPUTime()-c0
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("%s %s: %s: %s", method, body, resp.Status, buf.String())
		}
		return wall, cpu, buf.Bytes()
	}
	league := fmt.Sprintf(`{"leagueId":%q}`, scaleLeague)
	calls := []struct{ name, method, body string }{
		{"leagues", "ListLeagues", `{}`},
		{"board", "GetLeaderboard", `{}`},
		{"board-league", "GetLeaderboard", league},
		{"history", "GetRatingHistory", `{}`},
		{"history-league", "GetRatingHistory", league},
		{"progress", "GetLeagueProgress", league},
		{"matches", "ListMatches", `{}`},
		{"matches-league", "ListMatches", league},
		{"matches-bot", "ListMatches", `{"bot":"b07"}`},
		{"match-long", "GetMatch", fmt.Sprintf(`{"matchId":%q}`, shape.long)},
		{"match-long-last", "GetMatch", fmt.Sprintf(`{"matchId":%q,"firstDeal":%d}`, shape.long, shape.longDeals-1)},
		{"match-league", "GetMatch", fmt.Sprintf(`{"matchId":%q}`, shape.short)},
		{"replay-full", "GetReplay", fmt.Sprintf(`{"matchId":%q,"dealNumber":%d,"view":"full"}`, shape.long, shape.longDeals/2)},
		{"replay-seat", "GetReplay", fmt.Sprintf(`{"matchId":%q,"dealNumber":%d,"view":"1"}`, shape.short, analysed)},
		{"analysis-stored", "GetReplayAnalysis", fmt.Sprintf(`{"matchId":%q,"dealNumber":%d,"view":"1"}`, shape.short, analysed)},
		{"analysis-now", "GetReplayAnalysis", fmt.Sprintf(`{"matchId":%q,"dealNumber":%d,"view":"full"}`, shape.long, shape.longDeals/2)},
		{"live", "GetLive", `{}`},
		{"live-match", "GetLive", fmt.Sprintf(`{"matchId":%q}`, shape.long)},
	}
	// A call whose cost is the deal's, not the store's (a deal analysed now), is reported but
	// kept out of the worst figures, which say how the pages bear the deals stored.
	dealsOwn := map[string]bool{"analysis-now": true}
	// The leaderboard page asks for three answers at once, as the browser does (app.js): its
	// server time is the slowest of them, with both cores shared among the three.
	pages := []struct {
		name  string
		calls [][2]string
	}{
		{"page-board", [][2]string{{"GetLeaderboard", `{}`}, {"GetRatingHistory", `{}`}, {"ListLeagues", `{}`}}},
		{"page-board-league", [][2]string{{"GetLeaderboard", league}, {"GetRatingHistory", league}, {"ListLeagues", `{}`}}},
	}
	page := func(calls [][2]string) (wall, cpu time.Duration) {
		c0, t0 := yardstick.CPUTime(), time.Now()
		var wg sync.WaitGroup
		for _, c := range calls {
			wg.Go(func() { call(c[0], c[1]) })
		}
		wg.Wait()
		return time.Since(t0), yardstick.CPUTime() - c0
	}
	// dbTotal is the database server's CPU for the store so far (0 where it is not measured).
	dbTotal := func() time.Duration {
		if dbc == nil {
			return 0
		}
		d, err := dbc.total(ctx)
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	// TAPP_BENCH_WEB_ANSWERS names a folder for each call's answer (name.json), to compare
	// what two builds answer on one database.
	answers := os.Getenv("TAPP_BENCH_WEB_ANSWERS")
	for _, c := range calls {
		_, _, a := call(c.method, c.body) // warm: the first read of a page fills the database's cache
		if answers != "" {
			if err := os.WriteFile(filepath.Join(answers, c.name+".json"), a, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	yard := yardstick.New().CPUPerDeal(50000)
	wall := make([]time.Duration, len(calls))
	cpu := make([]time.Duration, len(calls))
	dbCPU := make([]time.Duration, len(calls))
	size := make([]int, len(calls))
	pageWall := make([]time.Duration, len(pages))
	pageCPU := make([]time.Duration, len(pages))
	pageDB := make([]time.Duration, len(pages))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fresh()
		for k, c := range calls {
			d0 := dbTotal()
			w, u, a := call(c.method, c.body)
			n := len(a)
			dbCPU[k] += dbTotal() - d0
			wall[k] += w
			cpu[k] += u
			size[k] = max(size[k], n)
		}
		for k, p := range pages {
			fresh()
			d0 := dbTotal()
			w, u := page(p.calls)
			pageDB[k] += dbTotal() - d0
			pageWall[k] += w
			pageCPU[k] += u
		}
	}
	b.StopTimer()
	perCall := func(d time.Duration) float64 { return d.Seconds() * 1000 / float64(b.N) }
	for k, p := range pages {
		b.ReportMetric(perCall(pageWall[k]), p.name+"-ms")
		b.ReportMetric(perCall(pageCPU[k]), p.name+"-cpu-ms")
		if dbc != nil {
			b.ReportMetric(perCall(pageDB[k]), p.name+"-db-cpu-ms")
		}
	}
	var worstWall, worstCPU, worstDB, worstServer float64
	worstSize := 0
	for k, c := range calls {
		w, u, d := perCall(wall[k]), perCall(cpu[k]), perCall(dbCPU[k])
		b.ReportMetric(w, c.name+"-ms")
		b.ReportMetric(u, c.name+"-cpu-ms")
		if dbc != nil {
			b.ReportMetric(d, c.name+"-db-cpu-ms")
		}
		b.ReportMetric(float64(size[k])/1000, c.name+"-kB")
		if dealsOwn[c.name] {
			continue
		}
		worstWall, worstCPU, worstSize = max(worstWall, w), max(worstCPU, u), max(worstSize, size[k])
		worstDB, worstServer = max(worstDB, d), max(worstServer, u+d)
	}
	b.ReportMetric(worstWall, "worst-ms")
	b.ReportMetric(worstCPU, "worst-cpu-ms")
	if dbc != nil {
		// On PostgreSQL a call's server time is this process's CPU and the database's.
		b.ReportMetric(worstDB, "worst-db-cpu-ms")
		b.ReportMetric(worstServer, "worst-server-cpu-ms")
		b.ReportMetric(worstServer*1e6/float64(yard.Nanoseconds()), "worst-server-cpu-in-deals")
	}
	// The yardstick, timed in this run: the CPU of one random deal of the engine, and the worst
	// call's CPU in such deals, which the machine's load moves less than milliseconds.
	b.ReportMetric(float64(yard.Nanoseconds())/1e3, "yardstick-cpu-µs/deal")
	b.ReportMetric(worstCPU*1e6/float64(yard.Nanoseconds()), "worst-cpu-in-deals")
	b.ReportMetric(float64(worstSize)/1000, "worst-kB")
	b.ReportMetric(float64(shape.deals), "deals-stored")
	b.ReportMetric(float64(shape.matches), "matches-stored")
}

// idleMatches is an arena whose one running match, the long one, sends no events: its live
// view is the match's score from the store, with nothing settled since.
type idleMatches struct{ id string }

func (m idleMatches) Running() []string { return []string{m.id} }

func (m idleMatches) Watch(ctx context.Context, _ string, _ func(*tappv1.WatchMatchResponse) error) error {
	<-ctx.Done()
	return nil
}

func envInt(b testing.TB, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		b.Fatalf("%s=%q: want a positive number", name, v)
	}
	return n
}

// ladderShape is what fillLadder stored: the counts, a long match and its deals, and a
// league match.
type ladderShape struct {
	deals, matches  int
	long, short     string
	longDeals       int
	leagueMatches   int
	leagueMatchSize int
}

// fillLadder makes sure the store holds a ladder of about deals deals in matches matches
// (scaleLong long ones outside the league holding a tenth of the deals, the rest league
// matches of equal length among scaleBots bots), building what is missing, and says what it
// holds. A database built before with other counts is used as it is.
func fillLadder(b testing.TB, ctx context.Context, st *store.Store, deals, matches int) ladderShape {
	b.Helper()
	long := min(scaleLong, max(matches/10, 1))
	sh := ladderShape{leagueMatches: matches - long}
	sh.longDeals = deals / 10 / long
	rest := deals - sh.longDeals*long
	sh.leagueMatchSize = max(rest/max(sh.leagueMatches, 1), 1)
	// The first league matches a deal more, so that the deals add up to the number asked for.
	longer := max(rest-sh.leagueMatchSize*sh.leagueMatches, 0)
	rules := engine.DefaultRules(engine.Modern)
	var bots []string
	for i := 1; i <= scaleBots; i++ {
		bots = append(bots, fmt.Sprintf("b%02d", i))
	}
	for _, name := range bots {
		_ = st.CreateBot(ctx, &domain.Bot{Name: name, TokenHash: []byte("bench-" + name)})
	}
	plan := fmt.Sprintf(`{"name":%q,"rules":%q,"format":"ladder","bots":["%s"]}`, scaleLeague, rules.String(), strings.Join(bots, `","`))
	if _, err := st.EnsureLeague(ctx, &domain.League{ID: scaleLeague, Plan: plan}); err != nil {
		b.Fatal(err)
	}
	f := &filler{b: b, ctx: ctx, st: st, rules: rules, rng: engine.NewRand(42, 0)}

	// The long matches first: the oldest in the list, as a user's long runs before a ladder.
	for i := 0; i < long; i++ {
		id := fmt.Sprintf("long-%02d", i)
		spec := domain.MatchSpec{Rules: rules, Bots: []string{bots[i%scaleBots], bots[(i+1)%scaleBots], bots[(i+2)%scaleBots]},
			Deals: sh.longDeals, Seed: uint64(1000 + i), TimeControl: domain.DefaultTimeControl}
		if i == 0 {
			sh.long = id
		}
		if _, err := st.GetMatch(ctx, id); err == nil {
			continue
		}
		m := &domain.Match{ID: id, Spec: spec, Status: domain.MatchRunning, Started: time.Now()}
		if err := st.CreateMatch(ctx, m); err != nil {
			b.Fatal(err)
		}
		f.play(m, -1)
		m.Status, m.Finished = domain.MatchFinished, time.Now()
		if err := st.UpdateMatch(ctx, m); err != nil {
			b.Fatal(err)
		}
	}

	// The ladder, in rounds as a league schedules them: each match one job of all its deals.
	const perRound = 100
	for first := 0; first < sh.leagueMatches; first += perRound {
		var places []domain.LeagueMatch
		var ms []*domain.Match
		var jobs []domain.Job
		for k := first; k < min(first+perRound, sh.leagueMatches); k++ {
			id := fmt.Sprintf("ladder-%06d", k)
			if sh.short == "" {
				sh.short = id
			}
			if _, err := st.GetMatch(ctx, id); err == nil {
				continue
			}
			// Three different bots, seeded by the match: every pair meets, as a ladder's
			// matchmaking has them do over a night.
			r := engine.NewRand(7, uint64(k))
			a := r.IntN(scaleBots)
			c := (a + 1 + r.IntN(scaleBots-1)) % scaleBots
			d := a
			for d == a || d == c {
				d = r.IntN(scaleBots)
			}
			size := sh.leagueMatchSize
			if k < longer {
				size++
			}
			spec := domain.MatchSpec{Rules: rules, Bots: []string{bots[a], bots[c], bots[d]}, Deals: size,
				Seed: uint64(k), TimeControl: domain.DefaultTimeControl, LeagueID: scaleLeague}
			places = append(places, domain.LeagueMatch{LeagueID: scaleLeague, Seq: k, Round: first / perRound, MatchID: id})
			ms = append(ms, &domain.Match{ID: id, Spec: spec})
			jobs = append(jobs, domain.Job{LeagueID: scaleLeague, Round: first / perRound, MatchID: id, Groups: size, Deals: size})
		}
		if len(ms) == 0 {
			continue
		}
		if err := st.ScheduleRound(ctx, places, ms, jobs); err != nil {
			b.Fatal(err)
		}
		stored, err := st.JobsIn(ctx, scaleLeague, domain.JobAvailable)
		if err != nil {
			b.Fatal(err)
		}
		for _, j := range stored {
			for _, m := range ms {
				if m.ID == j.MatchID {
					f.play(m, j.ID)
				}
			}
		}
		f.flush()
		if first/perRound%20 == 19 {
			b.Logf("dashboard database: %d of %d league matches stored", first+perRound, sh.leagueMatches)
		}
	}
	f.flush()

	all, err := st.ListMatches(ctx, domain.MatchFilter{})
	if err != nil {
		b.Fatal(err)
	}
	sh.matches = len(all)
	sh.deals, err = st.LeagueDeals(ctx, scaleLeague)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < long; i++ {
		nums, err := st.DealNumbers(ctx, fmt.Sprintf("long-%02d", i))
		if err != nil {
			b.Fatal(err)
		}
		sh.deals += len(nums)
	}
	return sh
}

// filler plays random legal deals and stores them in batches of 256, as workers do.
type filler struct {
	b     testing.TB
	ctx   context.Context
	st    *store.Store
	rules engine.RuleSet
	rng   *engine.Rand
	legal []engine.Action
	batch []domain.JobDeal
	plain []*domain.DealRecord
}

// play stores every deal of m; of league job jobID, or outside a league (jobID < 0).
func (f *filler) play(m *domain.Match, jobID int64) {
	for k := 0; k < m.Spec.Deals; k++ {
		rec := f.deal(m, k)
		if jobID < 0 {
			f.plain = append(f.plain, rec)
		} else {
			f.batch = append(f.batch, domain.JobDeal{Deal: rec, JobID: jobID})
		}
		if len(f.batch)+len(f.plain) >= 256 {
			f.flush()
		}
	}
	f.flush()
}

func (f *filler) flush() {
	if len(f.plain) > 0 {
		if err := f.st.SaveDeals(f.ctx, f.plain); err != nil {
			f.b.Fatal(err)
		}
		f.plain = f.plain[:0]
	}
	if len(f.batch) > 0 {
		if err := f.st.SaveJobDeals(f.ctx, f.batch); err != nil {
			f.b.Fatal(err)
		}
		f.batch = f.batch[:0]
	}
}

// deal plays deal k of m at random, recording every decision as the referee does.
func (f *filler) deal(m *domain.Match, k int) *domain.DealRecord {
	bots := m.Spec.Bots
	deal := engine.DealFromSeed(f.rules, m.Spec.Seed, uint64(k))
	s, err := engine.NewState(f.rules, deal, engine.Options{})
	if err != nil {
		f.b.Fatal(err)
	}
	rec := &domain.DealRecord{MatchID: m.ID, Number: k, Group: k, Seating: bots, Deal: deal, Started: time.Now()}
	for !s.Terminal() {
		f.legal = s.LegalActions(f.legal[:0])
		a := f.legal[f.rng.IntN(len(f.legal))]
		seat := s.ToMove()
		rec.Decisions = append(rec.Decisions, domain.DecisionRecord{Index: len(rec.Moves), Seat: seat, Bot: bots[seat],
			Decision: s.Decision(), RequestID: "r" + strconv.Itoa(len(rec.Moves)), Action: a, Latency: 300 * time.Microsecond,
			Attempts: []domain.AnswerAttempt{{Text: a.String(), After: 300 * time.Microsecond}}})
		rec.Moves = append(rec.Moves, engine.Move{Seat: seat, Action: a})
		if err := s.Apply(a); err != nil {
			f.b.Fatal(err)
		}
	}
	rec.Outcome = s.Outcome()
	rec.Results = domain.ResultsOf(bots, rec.Outcome)
	return rec
}
