package board_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/rating"
	"github.com/tapparena/tapp/engine"
)

// In a complete round robin every deal source is played by every composition, and the
// headline is the plain mean of the compositions' means: R̂_i − R̂_j is the mean over the G
// sources of d_g, bot i's result on source g (averaged over its compositions, π each) less
// bot j's, and its LOS is Student's t of the d_g with G − 1 degrees of freedom — exact when
// the d_g are normal. So in a round robin the LOS flags identical bots at the level the d_g's
// own distribution gives that t, which a pool of real sources measures to a twentieth of a
// point (BenchmarkRoundRobinLOSLevel), where a few hundred real leagues cannot.

// sourceMeans is x[g][i]: bot i's result per deal on source g of a round robin of the field's
// bots at players seats, averaged over its compositions (weight π = 1/(bots − 1) each, the
// field being one bot more than the seats), for sources 0..sources−1 of seed.
func sourceMeans(t testing.TB, pl *player, f calField, players int, dup bool, sources int, seed uint64) [][]float64 {
	r := engine.DefaultRules(engine.Modern)
	r.Players = players
	x := make([][]float64, sources)
	for g := range x {
		x[g] = make([]float64, len(f.names))
	}
	p := &plan.Plan{League: "cal", Rules: r, Format: plan.RoundRobin, Bots: f.names, Rounds: 1, Deals: sources, Duplicate: dup, Seed: seed}
	pi := 1 / float64(len(f.names)-1)
	for _, bots := range p.FixedTables(0) {
		tbs, err := match.Plan(domain.MatchSpec{Rules: r, Bots: bots, Deals: sources, Seed: seed, Duplicate: dup})
		if err != nil {
			t.Fatal(err)
		}
		per := float64(len(tbs) / sources)
		for _, tb := range tbs {
			pay := pl.play(t, r, tb)
			for seat, b := range tb.Seating {
				x[tb.Group][indexOf(f.names, b)] += pi * float64(pay[seat]) / per
			}
		}
	}
	return x
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// sourcesT is the t of the mean of x[g][i] − x[g][j] over the sources src.
func sourcesT(x [][]float64, src []int, i, j int) float64 {
	var s1, s2 float64
	for _, g := range src {
		d := x[g][i] - x[g][j]
		s1, s2 = s1+d, s2+d*d
	}
	n := float64(len(src))
	m := s1 / n
	return m / math.Sqrt((s2-n*m*m)/(n-1)/n)
}

// TestRoundRobinLOSIsTheSourcesT: in a round robin of real leagues the board's LOS is exactly
// Student's t of the per-source differences with G − 1 degrees of freedom (so the round
// robin's flag rate is that t's level on the real sources' distribution), at 3 and 4 seats,
// with and without duplicate, at 10 sources (provisional) and at 40.
func TestRoundRobinLOSIsTheSourcesT(t *testing.T) {
	t.Parallel()
	for _, c := range []calCase{
		{field: randomField(5), players: 4, format: plan.RoundRobin, duplicate: true, rounds: 4, deals: 10},
		{field: randomField(5), players: 4, format: plan.RoundRobin, rounds: 4, deals: 10},
		{field: randomField(4), players: 3, format: plan.RoundRobin, duplicate: true, rounds: 2, deals: 5},
		{field: randomField(4), players: 3, format: plan.RoundRobin, rounds: 4, deals: 10},
	} {
		pl := newPlayer(t, c.field)
		lb := score(t, playLeague(t, c, pl, 17, board.NewAccumulator()), nil)
		// The same sources, round by round: round r's sources are the plan's round seed's.
		p := &plan.Plan{League: "cal", Rules: engine.DefaultRules(engine.Modern), Format: c.format, Bots: c.field.names,
			Rounds: c.rounds, Deals: c.deals, Duplicate: c.duplicate, Seed: 17}
		p.Rules.Players = c.players
		var x [][]float64
		for round := range c.rounds {
			_, ms, _, err := p.Round(round, p.FixedTables(round))
			if err != nil {
				t.Fatal(err)
			}
			x = append(x, sourceMeans(t, pl, c.field, c.players, c.duplicate, c.deals, ms[0].Spec.Seed)...)
		}
		src := make([]int, len(x))
		for g := range src {
			src[g] = g
		}
		for i, a := range c.field.names {
			for j, b := range c.field.names {
				if i >= j {
					continue
				}
				want := rating.StudentTCDF(sourcesT(x, src, i, j), float64(len(x)-1))
				bi, bj := botIndex(lb, a), botIndex(lb, b)
				if got := lb.LOS[bi][bj]; math.Abs(got-want) > 1e-9 {
					t.Errorf("%d seats, duplicate %v, %d sources: LOS(%s, %s) = %.9f, want Student's t of the sources' differences %.9f",
						c.players, c.duplicate, len(x), a, b, got, want)
				}
			}
		}
	}
}

func botIndex(lb *board.Leaderboard, bot string) int {
	for i, b := range lb.Bots {
		if b.Bot == bot {
			return i
		}
	}
	return -1
}

// BenchmarkRoundRobinLOSLevel measures the level of the round robin's LOS (see above) on the
// real sources' distribution: it plays a pool of sources of each round robin of the
// calibration (TAPP_LOS_POOL of them, 4,000 by default), centres each bot's results on the
// pool's mean (so that the pool's truth is exactly equal), and draws leagues of the
// calibration's sources from it (TAPP_LOS_LEAGUES, 40,000 by default; without duplicate each
// deal number's source from the pool's sources of its dealer), reporting the share of pairs
// flagged at LOS ≥ 97.5% either way with its standard error (leagues as clusters). Run it as
//
//	nice -n 10 go test ./arena/internal/board -run '^$' -bench RoundRobinLOSLevel -benchtime 1x
func BenchmarkRoundRobinLOSLevel(b *testing.B) {
	pool, leagues := envInt(b, "TAPP_LOS_POOL", 4000), envInt(b, "TAPP_LOS_LEAGUES", 40000)
	cases := []struct {
		name          string
		seats         int
		dup           bool
		rounds, deals int
	}{
		{"5 random, 4 seats, round robin, duplicate", 4, true, 4, 10},
		{"5 random, 4 seats, round robin, no duplicate", 4, false, 4, 10},
		{"4 random, 3 seats, round robin, duplicate", 3, true, 4, 10},
		{"4 random, 3 seats, round robin, no duplicate", 3, false, 4, 10},
		{"4 random, 3 seats, round robin, duplicate, 10 deal sources (provisional)", 3, true, 2, 5},
		{"4 random, 3 seats, round robin, duplicate, 20 deal sources (provisional)", 3, true, 4, 5},
		{"5 random, 4 seats, round robin, duplicate, 10 deal sources (provisional)", 4, true, 2, 5},
		{"5 random, 4 seats, round robin, duplicate, 20 deal sources (provisional)", 4, true, 4, 5},
	}
	for range b.N {
		for k, c := range cases {
			f := randomField(c.seats + 1)
			x := sourceMeans(b, newPlayer(b, f), f, c.seats, c.dup, pool-pool%c.seats, 4242)
			for i := range f.names { // centre: the pool's truth is equal
				var m float64
				for g := range x {
					m += x[g][i] / float64(len(x))
				}
				for g := range x {
					x[g][i] -= m
				}
			}
			rng := rand.New(rand.NewPCG(1, uint64(k)))
			g := c.rounds * c.deals
			crit := rating.StudentTQuantile(0.975, float64(g-1))
			var flags leagueShare
			src := make([]int, g)
			for range leagues {
				for s := range src {
					dealer := (s % c.deals) % c.seats
					src[s] = rng.IntN(len(x))
					if !c.dup { // a source of the same dealer (the pool's source n is dealt by n mod seats)
						src[s] = src[s] - src[s]%c.seats + dealer
					}
				}
				hits, pairs := 0, 0
				for i := range f.names {
					for j := i + 1; j < len(f.names); j++ {
						pairs++
						if math.Abs(sourcesT(x, src, i, j)) > crit {
							hits++
						}
					}
				}
				flags.add(hits, pairs)
			}
			share, lo, hi := flags.interval()
			fmt.Printf("| %s | %d | %d | %.2f%% (%.2f–%.2f) |\n", c.name, len(x), leagues, 100*share, 100*lo, 100*hi)
			b.ReportMetric(100*share, fmt.Sprintf("flagged%%/case%d", k))
		}
	}
}

func envInt(b *testing.B, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 2 {
		b.Fatalf("%s=%q: want a whole number from 2", name, v)
	}
	return n
}
