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
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store"
)

// BenchmarkDashboard measures what a page of the dashboard waits for, over HTTP as a browser
// asks: the leaderboard of all results and the replay of one deal, with many deals stored.
//
//	TAPP_BENCH_WEB_DEALS=1000000 TAPP_BENCH_WEB_DB=/tmp/web-1m.db go test ./arena/internal/web -run '^$' -bench Dashboard -benchtime 20x
//
// The database is made once (random legal play, stored through the store's own API) and kept
// at TAPP_BENCH_WEB_DB for later runs; by default 20,000 deals in a temporary folder.
func BenchmarkDashboard(b *testing.B) {
	deals := 20000
	if v := os.Getenv("TAPP_BENCH_WEB_DEALS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			b.Fatal(err)
		}
		deals = n
	}
	db := os.Getenv("TAPP_BENCH_WEB_DB")
	if db == "" {
		db = filepath.Join(b.TempDir(), "web.db")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := store.Open(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	matchID := fillRandomDeals(b, ctx, st, deals)

	boards := func(ctx context.Context, f domain.MatchFilter) (*board.Leaderboard, error) {
		sums, err := board.Load(ctx, st, f, board.LoadOptions{History: true})
		if err != nil {
			return nil, err
		}
		return board.Compute(sums, board.Options{})
	}
	h, err := Handler(Config{View: NewView(st, boards, nil)})
	if err != nil {
		b.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go func() { _ = Serve(ctx, lis, h, nil) }()
	base := "http://" + lis.Addr().String() + "/"
	call := func(method, body string) time.Duration {
		start := time.Now()
		req, err := http.NewRequest(http.MethodPost, base+"tapp.view.v1.ViewService/"+method, bytes.NewBufferString(body))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Connect-Protocol-Version", "1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("%s: %s", method, resp.Status)
		}
		return time.Since(start)
	}
	replay := fmt.Sprintf(`{"matchId":%q,"dealNumber":7,"view":"full"}`, matchID)
	call("GetLeaderboard", `{}`) // warm
	b.ResetTimer()
	var board, rep time.Duration
	for i := 0; i < b.N; i++ {
		board += call("GetLeaderboard", `{}`)
		rep += call("GetReplay", replay)
	}
	b.ReportMetric(float64(board.Milliseconds())/float64(b.N), "board-ms")
	b.ReportMetric(float64(rep.Microseconds())/1000/float64(b.N), "replay-ms")
	b.ReportMetric(float64(deals), "deals-stored")
}
