package store

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/referee"
	storev1 "github.com/tapparena/tapp/proto/tapp/store/v1"
)

// BenchmarkSaveDeal stores the deals of a real match among random bots (realDealsFile: 20
// deals, 17.25 decisions and ≈ 13 KB of requests per deal on average, plus moves and 3
// results) on SQLite, one SaveDeal per deal, each deal again under a new number; it reports
// the median and 90th percentile time per deal and the database's bytes per deal.
//
//	go test ./arena/internal/store -run '^$' -bench SaveDeal -benchtime 500x -count 5
//
// The requests are in protobuf wire form; TAPP_BENCH_SENT=base64 stores them as base64 text,
// the form the arena recorded before.
func BenchmarkSaveDeal(b *testing.B) { benchmarkSaveDeal(b, sqliteBackend) }

// renumbered is a copy of deal d as deal n of match matchID, with its requests naming that
// game as the referee would have sent them there (copying them costs the benchmarks about
// 2 µs per deal).
func renumbered(d *domain.DealRecord, matchID string, n int) *domain.DealRecord {
	c := *d
	c.MatchID, c.Number = matchID, n
	c.Decisions = slices.Clone(d.Decisions)
	id := referee.GameID(matchID, n)
	for i := range c.Decisions {
		c.Decisions[i].Sent = withGameID(c.Decisions[i].Sent, id)
	}
	return &c
}

// withGameID is a request as sent with its game id (field 1, which the referee writes
// first) replaced; a request without one is returned as it is.
func withGameID(sent []byte, gameID string) []byte {
	num, typ, n := protowire.ConsumeTag(sent)
	if num != 1 || typ != protowire.BytesType || n < 0 {
		return sent
	}
	_, m := protowire.ConsumeBytes(sent[n:])
	if m < 0 {
		return sent
	}
	out := make([]byte, 0, len(sent)+len(gameID))
	out = protowire.AppendTag(out, 1, protowire.BytesType)
	out = protowire.AppendString(out, gameID)
	return append(out, sent[n+m:]...)
}

// benchPrepare makes the benchmarks' deals what the referee gives the store (see
// sentfromstate_test.go); a build whose records have no more to it leaves it a no-op.
var benchPrepare = func([]*domain.DealRecord) {}

// benchDeals is realDeals with the requests in the form TAPP_BENCH_SENT asks for.
func benchDeals(b *testing.B, s *Store) []*domain.DealRecord {
	_, deals := realDeals(b, s)
	switch form := os.Getenv("TAPP_BENCH_SENT"); form {
	case "", "wire":
	case "base64":
		for _, d := range deals {
			for i := range d.Decisions {
				d.Decisions[i].Sent = []byte(base64.StdEncoding.EncodeToString(d.Decisions[i].Sent))
			}
		}
	default:
		b.Fatalf("TAPP_BENCH_SENT=%s: want wire or base64", form)
	}
	benchPrepare(deals)
	return deals
}

// BenchmarkSaveDealPostgres is the same on PostgreSQL (TAPP_TEST_POSTGRES).
func BenchmarkSaveDealPostgres(b *testing.B) { benchmarkSaveDeal(b, postgresBackend) }

func benchmarkSaveDeal(b *testing.B, be backend) {
	ctx := context.Background()
	s := openTest(b, be.newDSN(b))
	deals := benchDeals(b, s)
	var times []time.Duration
	n := 0
	for b.Loop() {
		d := renumbered(deals[n%len(deals)], deals[0].MatchID, n)
		n++
		start := time.Now()
		if err := s.SaveDeal(ctx, d); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	if len(times) > 0 {
		b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms/deal-median")
		b.ReportMetric(float64(times[len(times)*9/10].Microseconds())/1000, "ms/deal-p90")
	}
	if size := s.size(ctx); size > 0 && n > 0 {
		b.ReportMetric(float64(size)/float64(n), "db-bytes/deal")
	}
}

// BenchmarkSaveDeals stores the same real deals in batches with SaveDeals (group commit, as
// the league's committer does: 64 deals a transaction when the league is fast, fewer when
// deals come slowly) and reports the time per deal and the CPU time (user and system) the
// process spent per deal: a league of quick bots is bound by CPU, so CPU time is what the
// store takes from play, while the time also holds the waits for fsync.
func BenchmarkSaveDeals(b *testing.B) {
	for _, batch := range []int{16, 64, 256} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			ctx := context.Background()
			s := openTest(b, sqliteBackend.newDSN(b))
			deals := benchDeals(b, s)
			n := 0
			cpu := processCPU(b)
			for b.Loop() {
				ds := make([]*domain.DealRecord, batch)
				for i := range ds {
					ds[i] = renumbered(deals[n%len(deals)], deals[0].MatchID, n)
					n++
				}
				if err := s.SaveDeals(ctx, ds); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(n), "µs/deal")
			b.ReportMetric(float64((processCPU(b)-cpu).Microseconds())/float64(n), "CPU-µs/deal")
		})
	}
}

// processCPU returns the CPU time, user and system, the process has used so far.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// size returns the size of the database in bytes (pages in use, for SQLite, the WAL
// checkpointed; the tables and indexes of the schema, for PostgreSQL), or 0.
func (s *Store) size(ctx context.Context) int64 {
	var n int64
	if s.dialect == sqliteDialect {
		s.w.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
		if err := s.w.QueryRowContext(ctx, `SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()`).Scan(&n); err != nil {
			return 0
		}
		return n
	}
	if err := s.r.QueryRowContext(ctx, `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'`).Scan(&n); err != nil {
		return 0
	}
	return n
}

// BenchmarkDecisionLogCodecs compresses the decision logs of the real deals (realDealsFile)
// with the candidate codecs, each used as the store would (a shared zstd encoder and decoder
// with EncodeAll and DecodeAll; s2 block functions), and reports CPU time and bytes per deal.
// sent=wire is the request as the arena records it now (protobuf wire form); sent=base64 the
// base64 text of it that older recordings held.
//
//	go test ./arena/internal/store -run '^$' -bench DecisionLogCodecs -benchtime 2000x -count 3
func BenchmarkDecisionLogCodecs(b *testing.B) {
	rm := readRealDeals(b)
	type codec struct {
		name   string
		encode func(dst, src []byte) []byte
		decode func(dst, src []byte) ([]byte, error)
	}
	zstdCodec := func(level zstd.EncoderLevel) codec {
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(level), zstd.WithEncoderCRC(true))
		if err != nil {
			b.Fatal(err)
		}
		dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0))
		if err != nil {
			b.Fatal(err)
		}
		return codec{"zstd-" + level.String(), func(dst, src []byte) []byte { return enc.EncodeAll(src, dst) }, func(dst, src []byte) ([]byte, error) { return dec.DecodeAll(src, dst) }}
	}
	codecs := []codec{
		{"none", func(dst, src []byte) []byte { return append(dst, src...) }, func(dst, src []byte) ([]byte, error) { return append(dst, src...), nil }},
		zstdCodec(zstd.SpeedFastest),
		zstdCodec(zstd.SpeedDefault),
		zstdCodec(zstd.SpeedBetterCompression),
		{"s2", s2.Encode, s2.Decode},
		{"s2-better", s2.EncodeBetter, s2.Decode},
	}
	for _, form := range []string{"wire", "base64"} {
		var logs [][]byte
		var decisions int
		for _, d := range rm.Deals {
			log := &storev1.DecisionLog{}
			for _, x := range d.Decisions {
				sent := x.Sent
				if form == "base64" {
					sent = []byte(base64.StdEncoding.EncodeToString(sent))
				}
				log.Decisions = append(log.Decisions, &storev1.Decision{Index: int32(x.Index), Seat: int32(x.Seat),
					Bot: x.Bot, Decision: x.Decision, RequestId: x.RequestID, Sent: sent, Action: x.Action,
					LatencyUs: x.LatencyUS, Strike: x.Strike, Fallback: x.Fallback})
				decisions++
			}
			raw, err := proto.Marshal(log)
			if err != nil {
				b.Fatal(err)
			}
			logs = append(logs, raw)
		}
		for _, c := range codecs {
			b.Run(fmt.Sprintf("sent=%s/%s", form, c.name), func(b *testing.B) {
				var in, out int
				var encodeTime, decodeTime time.Duration
				var dst, back []byte
				i := 0
				for b.Loop() {
					raw := logs[i%len(logs)]
					i++
					start := time.Now()
					dst = c.encode(dst[:0], raw)
					mid := time.Now()
					var err error
					if back, err = c.decode(back[:0], dst); err != nil || len(back) != len(raw) {
						b.Fatalf("decode: %v", err)
					}
					encodeTime += mid.Sub(start)
					decodeTime += time.Since(mid)
					in += len(raw)
					out += len(dst)
				}
				b.ReportMetric(float64(in)/float64(i), "raw-bytes/deal")
				b.ReportMetric(float64(out)/float64(i), "bytes/deal")
				b.ReportMetric(float64(in)/float64(out), "ratio")
				b.ReportMetric(float64(encodeTime.Microseconds())/float64(i), "µs-encode/deal")
				b.ReportMetric(float64(decodeTime.Microseconds())/float64(i), "µs-decode/deal")
			})
		}
	}
}

// BenchmarkEncodeDecisionLog makes the column value of the real deals' decisions (encoding
// and compressing, as SaveDeal does) and reports the time per deal.
//
//	go test ./arena/internal/store -run '^$' -bench EncodeDecisionLog -benchtime 20000x -count 3
func BenchmarkEncodeDecisionLog(b *testing.B) {
	_, deals := realDeals(b, openTest(b, sqliteBackend.newDSN(b)))
	i := 0
	for b.Loop() {
		if _, err := encodeDecisionLog(deals[i%len(deals)].Decisions); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(i), "µs/deal")
}

// BenchmarkClaim claims 9 jobs of a league of many jobs and gives them back, on SQLite; it
// reports the time per claim, which must not grow with the league (a claim once read and
// sorted every job of its league).
//
//	go test ./arena/internal/store -run '^$' -bench Claim -benchtime 2000x -count 3
func BenchmarkClaim(b *testing.B) {
	for _, n := range []int{1000, 20000} {
		b.Run(fmt.Sprintf("jobs=%d", n), func(b *testing.B) {
			ctx := context.Background()
			s := openTest(b, sqliteBackend.newDSN(b))
			if _, err := s.EnsureLeague(ctx, &domain.League{ID: "B", Plan: "{}"}); err != nil {
				b.Fatal(err)
			}
			m := &domain.Match{ID: "B-m", Spec: domain.MatchSpec{Rules: testRules(b), Bots: []string{"a", "b", "c"},
				Deals: n, Duplicate: true, LeagueID: "B", TimeControl: domain.DefaultTimeControl}}
			jobs := make([]domain.Job, n)
			for g := range jobs {
				jobs[g] = domain.Job{LeagueID: "B", MatchID: m.ID, FirstGroup: g, Groups: 1, Deals: 6}
			}
			if err := s.ScheduleRound(ctx, []domain.LeagueMatch{{LeagueID: "B", MatchID: m.ID}}, []*domain.Match{m}, jobs); err != nil {
				b.Fatal(err)
			}
			ids := make([]int64, 0, 9)
			for b.Loop() {
				got, err := s.Claim(ctx, "B", "w", 9, time.Minute)
				if err != nil || len(got) != 9 {
					b.Fatalf("Claim = %d jobs, %v", len(got), err)
				}
				ids = ids[:0]
				for _, j := range got {
					ids = append(ids, j.ID)
				}
				if err := s.Release(ctx, "w", ids); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/claim+release")
		})
	}
}
