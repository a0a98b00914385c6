package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena"
	"github.com/tapparena/tapp/arena/store"
	"github.com/tapparena/tapp/engine"
)

// BenchmarkDashboard measures what a page of the dashboard waits for, over HTTP as a browser
// asks: the leaderboard of all results and the replay of one deal, with many deals stored.
//
//	TAPP_BENCH_WEB_DEALS=1000000 TAPP_BENCH_WEB_DB=/tmp/web-1m.db go test ./cmd/tapp -run '^$' -bench Dashboard -benchtime 20x
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

	m := NewMain()
	m.Stdout, m.Stderr = io.Discard, io.Discard
	m.Log = zap.NewNop()
	base, _, err := m.startDashboard(ctx, st, nil, nil, "127.0.0.1:0", "")
	if err != nil {
		b.Fatal(err)
	}
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

// fillRandomDeals makes sure the store holds at least n deals of random legal modern play in
// matches of 10,000 deals each, and returns one match's id.
func fillRandomDeals(b *testing.B, ctx context.Context, st *store.Store, n int) string {
	b.Helper()
	rules := engine.DefaultRules(engine.Modern)
	bots := []string{"a", "b", "c"}
	for _, name := range bots {
		_ = st.CreateBot(ctx, &arena.Bot{Name: name, TokenHash: []byte("bench-" + name)})
	}
	const perMatch = 10000
	var first string
	have := 0
	ms, err := st.ListMatches(ctx, arena.MatchFilter{})
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range ms {
		nums, _ := st.DealNumbers(ctx, m.ID)
		have += len(nums)
		first = m.ID
	}
	rng := engine.NewRand(42, uint64(have))
	var legal []engine.Action
	for have < n {
		spec := arena.MatchSpec{Rules: rules, Bots: bots, Deals: perMatch, Seed: uint64(have), TimeControl: arena.DefaultTimeControl}
		m := &arena.Match{Spec: spec, Status: arena.MatchFinished, Started: time.Now()}
		if err := st.CreateMatch(ctx, m); err != nil {
			b.Fatal(err)
		}
		first = m.ID
		batch := make([]*arena.DealRecord, 0, 256)
		for k := 0; k < perMatch && have < n; k++ {
			deal := engine.DealFromSeed(rules, spec.Seed, uint64(k))
			s, err := engine.NewState(rules, deal, engine.Options{})
			if err != nil {
				b.Fatal(err)
			}
			rec := &arena.DealRecord{MatchID: m.ID, Number: k, Group: k, Seating: bots, Deal: deal, Started: time.Now()}
			for !s.Terminal() {
				legal = s.LegalActions(legal[:0])
				a := legal[rng.IntN(len(legal))]
				seat := s.ToMove()
				rec.Decisions = append(rec.Decisions, arena.DecisionRecord{Index: len(rec.Moves), Seat: seat, Bot: bots[seat],
					Decision: s.Decision(), RequestID: fmt.Sprintf("r%d", len(rec.Moves)), Action: a, Latency: 300 * time.Microsecond,
					Attempts: []arena.AnswerAttempt{{Text: a.String(), After: 300 * time.Microsecond}}})
				rec.Moves = append(rec.Moves, engine.Move{Seat: seat, Action: a})
				if err := s.Apply(a); err != nil {
					b.Fatal(err)
				}
			}
			rec.Outcome = s.Outcome()
			for seat := range bots {
				rec.Results = append(rec.Results, arena.SeatResult{Bot: bots[seat], Seat: engine.Seat(seat), Payoff: rec.Outcome.Payoff[seat],
					Points: rec.Outcome.Points[seat], Tricks: rec.Outcome.Tricks[seat], Declarer: rec.Outcome.Declarer == engine.Seat(seat)})
			}
			batch = append(batch, rec)
			have++
			if len(batch) == cap(batch) {
				if err := st.SaveDeals(ctx, batch); err != nil {
					b.Fatal(err)
				}
				batch = batch[:0]
			}
		}
		if len(batch) > 0 {
			if err := st.SaveDeals(ctx, batch); err != nil {
				b.Fatal(err)
			}
		}
		m.Finished = time.Now()
		if err := st.UpdateMatch(ctx, m); err != nil {
			b.Fatal(err)
		}
	}
	return first
}
