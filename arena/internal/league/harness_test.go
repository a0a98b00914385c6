package league_test

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league"
	"github.com/tapparena/tapp/arena/internal/league/leaguestore"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/bots/builtin"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
)

var _ leaguestore.Store = (*store.Store)(nil)

// testArena is a real gRPC arena on a loopback port whose built-in bots run in this process
// (each its own session, connected with a launch token).
type testArena struct {
	srv  *server.Server
	addr string
}

func newArena(t testing.TB, st domain.Store, bots map[string]string) *testArena {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Store: st, Grace: 2 * time.Second})
	go func() { _ = srv.Serve(lis) }()
	a := &testArena{srv: srv, addr: lis.Addr().String()}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	n := 0
	for i, name := range sortedNames(bots) {
		kind := bots[name]
		seed := uint64(i)*7 + 1
		b, err := builtin.New(kind, seed)
		if err != nil {
			t.Fatal(err)
		}
		token := server.NewToken("launch_")
		srv.AddLaunchToken(token, name)
		if err := st.CreateBot(ctx, &domain.Bot{Name: name}); err != nil {
			t.Fatal(err)
		}
		n++
		go func() {
			_ = sdk.Run(ctx, sdk.Config{Arena: a.addr, Token: token, Name: name, Capacity: 16}, b)
			done <- struct{}{}
		}()
	}
	t.Cleanup(func() {
		cancel()
		for range n {
			<-done
		}
		sctx, c := context.WithTimeout(context.Background(), 2*time.Second)
		defer c()
		srv.Shutdown(sctx)
	})
	return a
}

func sortedNames(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func openSQLite(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "league.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// openPostgres opens a store in a fresh schema of the PostgreSQL server TAPP_TEST_POSTGRES
// names, or skips the test without one.
func openPostgres(t *testing.T) *store.Store {
	t.Helper()
	dsn := os.Getenv("TAPP_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("PostgreSQL tests skipped: set TAPP_TEST_POSTGRES (eval \"$(bash scripts/ci-postgres.sh)\")")
	}
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	schema := fmt.Sprintf("tapp_league_test_%d", time.Now().UnixNano())
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
		admin.Close()
	})
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	st, err := store.Open(context.Background(), dsn+sep+"search_path="+schema)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func mustRules(t testing.TB, text string) engine.RuleSet {
	t.Helper()
	r, err := engine.ParseRuleSet(text)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// fourBots are the bots of most tests: three differently seeded random bots and heuristic.
var fourBots = map[string]string{"r1": "random", "r2": "random", "r3": "random", "heur": "heuristic"}

func testPlan(t testing.TB, name, format string, rounds, deals int) *plan.Plan {
	return &plan.Plan{
		League: name, Rules: mustRules(t, "modern"), Format: format, Bots: []string{"heur", "r1", "r2", "r3"},
		Rounds: rounds, Deals: deals, Duplicate: true, Seed: 42,
		TimeControl: domain.TimeControl{PerDecision: 2 * time.Second, Overage: 10 * time.Second, MaxStrikes: 3},
	}
}

// resultKey is one stored seat result, for comparing runs.
type resultKey struct {
	Match          string
	Deal, Group    int
	Seat           engine.Seat
	Bot            string
	Payoff, Points int
}

func results(t *testing.T, st leaguestore.Store, leagueID string) []resultKey {
	t.Helper()
	rows, err := st.Results(context.Background(), domain.MatchFilter{LeagueID: leagueID})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]resultKey, len(rows))
	for i, r := range rows {
		out[i] = resultKey{r.MatchID, r.Deal, r.Group, r.Seat, r.Bot, r.Payoff, r.Points}
	}
	slices.SortFunc(out, func(a, b resultKey) int {
		return cmpAll(a.Match < b.Match, a.Match > b.Match, a.Deal-b.Deal, int(a.Seat)-int(b.Seat))
	})
	return out
}

func cmpAll(less, more bool, rest ...int) int {
	switch {
	case less:
		return -1
	case more:
		return 1
	}
	for _, r := range rest {
		if r != 0 {
			return r
		}
	}
	return 0
}

// leaderboard is the league's board as `tapp ratings --recompute` derives it from the raw
// stored deals (arena/internal/board), multiplayer Elo and its history included.
func leaderboard(t *testing.T, st leaguestore.Store, leagueID string) *board.Leaderboard {
	t.Helper()
	f := domain.MatchFilter{LeagueID: leagueID}
	sums, err := board.Load(context.Background(), st, f, board.LoadOptions{Recompute: true, History: true, IncludeTainted: true})
	if err != nil {
		t.Fatal(err)
	}
	lb, err := board.Compute(sums, board.Options{TaintedIncluded: true})
	if err != nil {
		t.Fatal(err)
	}
	return lb
}

// resultsBoard is the part of the league's board that the stored deals decide: every figure
// but the multiplayer Elo, which follows the order in which matches finished (and so differs
// between a resumed run and an uninterrupted one with the same deals).
func resultsBoard(t *testing.T, st leaguestore.Store, leagueID string) *board.Leaderboard {
	t.Helper()
	sums, err := board.Recompute(context.Background(), st, domain.MatchFilter{LeagueID: leagueID}, nil)
	if err != nil {
		t.Fatal(err)
	}
	lb, err := board.Compute(sums, board.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return lb
}

func runLeague(t *testing.T, ctx context.Context, st leaguestore.Store, a *testArena, p *plan.Plan, concurrency int) *league.Outcome {
	t.Helper()
	r := &league.Runner{Store: st, Seats: a.srv, Concurrency: concurrency, Lease: 5 * time.Second, Poll: 50 * time.Millisecond}
	out, err := r.Run(ctx, p, time.Time{})
	if err != nil {
		t.Fatalf("league %s: %v", p.League, err)
	}
	return out
}

func describe(out *league.Outcome) string { return fmt.Sprintf("%+v", *out) }
