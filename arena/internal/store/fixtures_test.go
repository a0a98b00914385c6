package store

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// backend is one database the shared test suite runs against; newDSN returns the DSN of a
// fresh, empty database of its own (a file in a temp dir, or a PostgreSQL schema), so tests
// can run in parallel.
type backend struct {
	name   string
	newDSN func(t testing.TB) string
}

const pgEnv = "TAPP_TEST_POSTGRES"

var sqliteBackend = backend{name: "sqlite", newDSN: func(t testing.TB) string {
	return "sqlite:" + filepath.Join(t.TempDir(), "tapp.db")
}}

var postgresBackend = backend{name: "postgres", newDSN: newPostgresDSN}

// eachBackend runs f as a parallel subtest on SQLite and, when TAPP_TEST_POSTGRES is set, on
// PostgreSQL.
func eachBackend(t *testing.T, f func(t *testing.T, b backend)) {
	t.Helper()
	for _, b := range []backend{sqliteBackend, postgresBackend} {
		t.Run(b.name, func(t *testing.T) {
			if b.name == "postgres" {
				skipWithoutPostgres(t)
			}
			t.Parallel()
			f(t, b)
		})
	}
}

// eachStore runs f on a fresh, migrated store of each backend.
func eachStore(t *testing.T, f func(t *testing.T, s *Store)) {
	t.Helper()
	eachBackend(t, func(t *testing.T, b backend) { f(t, openTest(t, b.newDSN(t))) })
}

func skipWithoutPostgres(t testing.TB) {
	t.Helper()
	if os.Getenv(pgEnv) == "" {
		t.Skipf("PostgreSQL tests skipped: set %s to a connection string to run them, e.g. "+
			"eval \"$(bash scripts/ci-postgres.sh)\" (which installs and starts a local server) or "+
			"%s='postgres://tapp:tapp@127.0.0.1:5432/tapp?sslmode=disable'", pgEnv, pgEnv)
	}
}

var pgAdmin = sync.OnceValues(func() (*sql.DB, error) {
	db, err := sql.Open("pgx", os.Getenv(pgEnv))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(4)
	return db, db.Ping()
})

// newPostgresDSN creates a schema of its own for the test and returns the DSN that selects it
// through search_path; the schema is dropped when the test ends.
func newPostgresDSN(t testing.TB) string {
	t.Helper()
	skipWithoutPostgres(t)
	admin, err := pgAdmin()
	if err != nil {
		t.Fatalf("connect to %s: %v", pgEnv, err)
	}
	schema := "tapp_test_" + newID()
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	dsn := os.Getenv(pgEnv)
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + "search_path=" + url.QueryEscape(schema)
}

// openTest opens a store and closes it when the test ends.
func openTest(t testing.TB, dsn string) *Store {
	t.Helper()
	s, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("Open(%s): %v", redact(dsn), err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// testRules is the rule set of the test matches: modern Tapp for 3 players.
func testRules(t testing.TB) engine.RuleSet { return mustRules(t, "modern") }

func mustRules(t testing.TB, text string) engine.RuleSet {
	t.Helper()
	r, err := engine.ParseRuleSet(text)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func newMatch(t testing.TB, s *Store, league string, bots ...string) *domain.Match {
	t.Helper()
	m := &domain.Match{Spec: domain.MatchSpec{
		Rules: testRules(t), Bots: bots, Deals: 12, Seed: 1<<63 + 12345, Duplicate: true,
		TimeControl: domain.DefaultTimeControl, LeagueID: league,
	}}
	if err := s.CreateMatch(context.Background(), m); err != nil {
		t.Fatalf("CreateMatch: %v", err)
	}
	return m
}

func mustAction(t testing.TB, text string) engine.Action {
	t.Helper()
	a, err := engine.ParseAction(text)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// sentBytes is a stand-in for a recorded decision request of about size bytes: opaque binary,
// as the protobuf wire form is, with NUL bytes, bytes that are not UTF-8, a part that repeats
// (as observations do) and a part that does not compress (so that a deal of these stays
// about size/2 bytes per decision when stored). The store must keep it exactly.
func sentBytes(i, size int) []byte {
	b := []byte{0x0a, 0x00, 0xff, 0xfe, 0xc3, 0x28, 0x80, byte(i), byte(i >> 8), 0x00}
	rng := rand.New(rand.NewPCG(uint64(i), uint64(size)))
	for len(b) < size/2 {
		b = append(b, byte(rng.Uint32()))
	}
	for len(b) < size {
		b = append(b, "\x12\x02HA\x12\x02CT\x1a\x00"...)
	}
	return b[:max(size, 10)]
}

// sampleDeal is a realistic deal record of match m: the deal from the match's seed, the
// given number of decisions (a round of bids, a contract, then cards), each with about
// sentSize bytes of request (binary, see sentBytes), a rejected answer, a strike, and one
// result per seat.
func sampleDeal(t testing.TB, m *domain.Match, number, decisions, sentSize int) *domain.DealRecord {
	t.Helper()
	rules := m.Spec.Rules
	seats := rules.Players
	deal := engine.DealFromSeed(rules, m.Spec.Seed, uint64(number))
	d := &domain.DealRecord{
		MatchID: m.ID, Number: number, Group: number / 6,
		Seating: append([]string(nil), m.Spec.Bots...),
		Deal:    deal,
		Options: engine.Options{ForcedRamsch: number%2 == 1},
		Outcome: engine.Outcome{
			Declarer: 0, Contract: engine.Solo, Trump: engine.Clubs,
			Points: [4]int{75, 30, 15}, Tricks: [4]int{7, 3, 1}, DeclarerWon: true, Payoff: [4]int{10, -5, -5},
		},
		Started:  time.Date(2026, 11, 29, 20, 0, number, 123456000, time.UTC),
		Duration: 3*time.Second + 250*time.Microsecond,
	}
	var cards [engine.MaxPlayers][]engine.Card
	for seat := range seats {
		cards[seat] = deal.Hands[seat].Cards(nil)
	}
	for i := range decisions {
		seat := engine.Seat(i % seats)
		kind, act := engine.DecideCard, ""
		switch {
		case i < seats:
			kind, act = engine.DecideBid, []string{"play", "pass", "pass", "pass"}[i]
		case i == seats:
			kind, act = engine.DecideContract, "solo:C"
		default:
			hand := cards[seat]
			act = hand[(i/seats)%len(hand)].String()
		}
		action := mustAction(t, act)
		d.Moves = append(d.Moves, engine.Move{Seat: seat, Action: action})
		x := domain.DecisionRecord{
			Index: i, Seat: seat, Bot: m.Spec.Bots[i%seats], Decision: kind,
			RequestID: fmt.Sprintf("r-%d-%d", number, i), Sent: sentBytes(i, sentSize),
			Attempts: []domain.AnswerAttempt{{Text: act, After: time.Duration(1000+i) * time.Microsecond}},
			Action:   action, Latency: time.Duration(1000+i) * time.Microsecond,
			Think: time.Duration(700+i)*time.Microsecond + time.Duration(i)*time.Nanosecond, // kept to the nanosecond
		}
		if i == 4 {
			x.Attempts = append([]domain.AnswerAttempt{{Text: "ZZ", After: 500 * time.Microsecond, Rejected: "R-PLAY-1: not in hand"}}, x.Attempts...)
		}
		if i == 5 {
			x.Attempts, x.Strike, x.Fallback, x.Latency = nil, true, true, time.Second
		}
		d.Decisions = append(d.Decisions, x)
	}
	for seat := range seats {
		d.Results = append(d.Results, domain.SeatResult{
			Bot: m.Spec.Bots[seat], Seat: engine.Seat(seat), Payoff: d.Outcome.Payoff[seat],
			Points: d.Outcome.Points[seat], Tricks: d.Outcome.Tricks[seat], Declarer: seat == 0,
		})
	}
	return d
}

// checkReadBack reads every deal of the match and checks that each is the one stored (with
// the digest of its requests, when it is a compact record); it returns what it read.
func checkReadBack(t *testing.T, s *Store, matchID string, deals []*domain.DealRecord) []domain.DealRecord {
	t.Helper()
	got, err := s.Deals(context.Background(), matchID)
	if err != nil {
		t.Fatalf("Deals: %v", err)
	}
	if len(got) != len(deals) {
		t.Fatalf("Deals = %d deals, want %d", len(got), len(deals))
	}
	for i := range got {
		if g := checkedDigest(t, &got[i], deals[i]); !reflect.DeepEqual(g, deals[i]) {
			diffDeal(t, g, deals[i])
		}
	}
	return got
}
