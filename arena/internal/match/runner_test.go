package match_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/referee/refereetest"
)

// The runner plays the plan's deals in order, each at the seating the plan gives it, stores
// each finished deal in one transaction of its own (once), reports progress after every one,
// and sums the match up.
func TestRunnerPlaysThePlanInOrderAndStoresEachDealOnce(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		st, sts := newStore(), &seats{}
		var progress [][2]int
		r := &match.Runner{Store: st, Seats: sts, Progress: func(done, total int) { progress = append(progress, [2]int{done, total}) }}
		m, res := playMatch(t, r, domain.MatchSpec{Rules: mustRules(t, "modern"), Bots: []string{"a", "b", "c"}, Deals: 4, Seed: 9})

		plan, _ := match.Plan(m.Spec)
		var want [][]string
		for _, tb := range plan {
			want = append(want, tb.Seating)
		}
		if !reflect.DeepEqual(sts.tables, want) {
			t.Errorf("tables seated %v, want the plan's seatings in order %v", sts.tables, want)
		}
		deals := dealsOf(t, st, m.ID)
		for i, d := range deals {
			tb := plan[i]
			if d.Number != tb.Number || d.Group != tb.Group || d.Deal != tb.Deal || !slices.Equal(d.Seating, tb.Seating) || len(d.Decisions) == 0 {
				t.Errorf("stored deal %d = number %d group %d seating %v (%d decisions), want the plan's table %+v", i, d.Number, d.Group, d.Seating, len(d.Decisions), tb)
			}
		}
		if want := map[int]int{0: 1, 1: 1, 2: 1, 3: 1}; !reflect.DeepEqual(st.stored, want) {
			t.Errorf("transactions that stored each deal: %v, want one each", st.stored)
		}
		if want := [][2]int{{1, 4}, {2, 4}, {3, 4}, {4, 4}}; !reflect.DeepEqual(progress, want) {
			t.Errorf("progress %v, want %v", progress, want)
		}
		if sts.most != 1 {
			t.Errorf("%d tables played at once, want 1 (Parallel unset)", sts.most)
		}
		stored, _ := st.GetMatch(context.Background(), m.ID)
		decisions := 0
		for _, d := range deals {
			decisions += len(d.Decisions)
		}
		if stored.Status != domain.MatchFinished || stored.Finished.IsZero() || stored.Decisions != decisions || stored.Fallbacks != 0 {
			t.Errorf("the stored match: %s, finished %v, %d decisions, %d fallbacks; want finished, %d decisions, none",
				stored.Status, stored.Finished, stored.Decisions, stored.Fallbacks, decisions)
		}
		net := map[string]int{"a": 0, "b": 0, "c": 0}
		for _, d := range deals {
			for _, r := range d.Results {
				net[r.Bot] += r.Payoff
			}
		}
		if res.Deals != 4 || !reflect.DeepEqual(res.Net, net) || len(res.Forfeited) != 0 {
			t.Errorf("result: %d deals, net %v, forfeited %v; want 4, %v, none", res.Deals, res.Net, res.Forfeited, net)
		}
	})
}

// In duplicate play every deal source is played under every seating — all six for three
// players, the four rotations for four — so every bot holds every seat of every source's
// cards.
func TestRunnerPlaysEveryDuplicateSeating(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rules    string
		bots     []string
		seatings int
	}{
		{"modern", []string{"a", "b", "c"}, 6},
		{"modern players=4", []string{"a", "b", "c", "d"}, 4},
	} {
		t.Run(tc.rules, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				st := newStore()
				r := &match.Runner{Store: st, Seats: &seats{}, Parallel: 3}
				m, _ := playMatch(t, r, domain.MatchSpec{Rules: mustRules(t, tc.rules), Bots: tc.bots, Deals: 2, Seed: 4, Duplicate: true})
				deals := dealsOf(t, st, m.ID)
				if len(deals) != 2*tc.seatings {
					t.Fatalf("%d deals stored, want %d", len(deals), 2*tc.seatings)
				}
				for g := range 2 {
					group := deals[g*tc.seatings : (g+1)*tc.seatings]
					holds := map[string]map[int]bool{} // bot → the seats it held of this source
					seen := map[string]bool{}
					for _, d := range group {
						if d.Group != g || d.Deal != group[0].Deal {
							t.Errorf("deal %d: group %d with its own cards, want group %d's", d.Number, d.Group, g)
						}
						seen[strings.Join(d.Seating, ",")] = true
						for seat, b := range d.Seating {
							if holds[b] == nil {
								holds[b] = map[int]bool{}
							}
							holds[b][seat] = true
						}
					}
					if len(seen) != tc.seatings {
						t.Errorf("group %d: %d distinct seatings, want %d", g, len(seen), tc.seatings)
					}
					for _, b := range tc.bots {
						if len(holds[b]) != len(tc.bots) {
							t.Errorf("group %d: %s held seats %v, want every seat", g, b, holds[b])
						}
					}
				}
			})
		})
	}
}

// Tables play Parallel at once, and the deals that finish together are stored together in
// one transaction (group commit) by a store that can; each deal still once.
func TestRunnerPlaysTablesAtOnceAndStoresThemTogether(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		st, sts := &batching{store: newStore()}, &seats{}
		r := &match.Runner{Store: st, Seats: sts, Parallel: 4}
		playMatch(t, r, domain.MatchSpec{Rules: mustRules(t, "modern"), Bots: []string{"a", "b", "c"}, Deals: 12, Seed: 3})
		if sts.most != 4 {
			t.Errorf("at most %d tables played at once, want 4", sts.most)
		}
		for n := range 12 {
			if st.stored[n] != 1 {
				t.Errorf("deal %d stored %d times, want once", n, st.stored[n])
			}
		}
		if slices.Max(st.batches) < 2 {
			t.Errorf("batches %v: the deals that finished together were stored one by one", st.batches)
		}
	})
}

// A batch the store refuses is stored deal by deal, so that each deal learns its own fate:
// every deal is stored once all the same.
func TestRunnerStoresARefusedBatchDealByDeal(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		st := &batching{store: newStore(), refuse: true}
		r := &match.Runner{Store: st, Seats: &seats{}, Parallel: 4}
		playMatch(t, r, domain.MatchSpec{Rules: mustRules(t, "modern"), Bots: []string{"a", "b", "c"}, Deals: 8, Seed: 3})
		if len(st.stored) != 8 || slices.Max(st.batches) != 1 {
			t.Errorf("deals stored %v in batches %v, want all 8, one by one", st.stored, st.batches)
		}
	})
}

// A deal that cannot be stored stops the match with that deal's error: the match is stored
// as aborted (resumable), and the deals stored before it stay stored.
func TestRunnerStopsAtADealItCannotStore(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		st := newStore()
		st.failDeal = 2
		r := &match.Runner{Store: st, Seats: &seats{}}
		m := newMatch(t, r, domain.MatchSpec{Rules: mustRules(t, "modern"), Bots: []string{"a", "b", "c"}, Deals: 6, Seed: 3})
		_, err := r.Run(context.Background(), m)
		if !errors.Is(err, errDiskFull) || !strings.HasPrefix(err.Error(), "deal 2: ") {
			t.Fatalf("Run = %v, want deal 2's error", err)
		}
		stored, _ := st.GetMatch(context.Background(), m.ID)
		if ns, _ := st.DealNumbers(context.Background(), m.ID); stored.Status != domain.MatchAborted || !slices.Contains(ns, 1) || slices.Contains(ns, 2) {
			t.Errorf("after the failure: match %s, deals %v stored; want aborted with deals 0 and 1", stored.Status, ns)
		}
	})
}

// A table that cannot be seated stops the match with the seating's error.
func TestRunnerStopsWhenATableCannotBeSeated(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		st := newStore()
		r := &match.Runner{Store: st, Seats: &seats{fail: errors.New("no session of b is connected")}}
		m := newMatch(t, r, domain.MatchSpec{Rules: mustRules(t, "modern"), Bots: []string{"a", "b", "c"}, Deals: 2, Seed: 3})
		_, err := r.Run(context.Background(), m)
		if err == nil || err.Error() != "deal 0: seating b, c, a: no session of b is connected" {
			t.Fatalf("Run = %v, want the seating's error for deal 0", err)
		}
		if stored, _ := st.GetMatch(context.Background(), m.ID); stored.Status != domain.MatchAborted {
			t.Errorf("the match is %s, want aborted", stored.Status)
		}
	})
}

// An interrupted match keeps its finished deals and is marked aborted; run again, it plays
// only the deals it lacks — the same deals, played the same, as a run without the
// interruption — counting progress and decisions over all of them. With a pot, the first
// deal of the resumed run starts with the pot the last stored one left.
func TestRunnerResumesWhereItStopped(t *testing.T) {
	t.Parallel()
	for _, rules := range []string{"modern", "classic pot=on"} {
		t.Run(rules, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				spec := domain.MatchSpec{Rules: mustRules(t, rules), Bots: []string{"a", "b", "c"}, Deals: 5, Seed: 14}
				whole := newStore()
				wr := &match.Runner{Store: whole, Seats: &seats{}}
				wm, _ := playMatch(t, wr, spec)

				st, sts := newStore(), &seats{}
				ctx, cancel := context.WithCancel(context.Background())
				var progress [][2]int
				r := &match.Runner{Store: st, Seats: sts, Progress: func(done, total int) {
					progress = append(progress, [2]int{done, total})
					if done == 2 {
						cancel()
					}
				}}
				m := newMatch(t, r, spec)
				if _, err := r.Run(ctx, m); !errors.Is(err, context.Canceled) {
					t.Fatalf("the interrupted run = %v, want context.Canceled", err)
				}
				stored, _ := st.GetMatch(context.Background(), m.ID)
				if ns, _ := st.DealNumbers(context.Background(), m.ID); stored.Status != domain.MatchAborted || !slices.Equal(ns, []int{0, 1}) {
					t.Fatalf("after the interruption: match %s with deals %v, want aborted with 0 and 1", stored.Status, ns)
				}
				seatedBefore := len(sts.tables)
				if _, err := r.Run(context.Background(), stored); err != nil {
					t.Fatal(err)
				}
				if want := [][2]int{{1, 5}, {2, 5}, {3, 5}, {4, 5}, {5, 5}}; !reflect.DeepEqual(progress, want) {
					t.Errorf("progress over both runs %v, want %v", progress, want)
				}
				plan, _ := match.Plan(spec)
				var resumed [][]string
				for _, tb := range plan[2:] {
					resumed = append(resumed, tb.Seating)
				}
				if got := sts.tables[seatedBefore:]; !reflect.DeepEqual(got, resumed) {
					t.Errorf("the resumed run seated %v, want only deals 2-4: %v", got, resumed)
				}
				got, want := movesOf(dealsOf(t, st, m.ID)), movesOf(dealsOf(t, whole, wm.ID))
				if spec.Rules.Pot && got[2].Options.Pot == 0 {
					t.Error("the resumed run's first deal starts without a pot: the test does not show the pot carried over")
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("the resumed match's deals differ from the uninterrupted one's:\n got %+v\nwant %+v", got, want)
				}
				final, _ := st.GetMatch(context.Background(), m.ID)
				again, _ := whole.GetMatch(context.Background(), wm.ID)
				if final.Status != domain.MatchFinished || final.Decisions != again.Decisions {
					t.Errorf("the resumed match: %s with %d decisions, want finished with %d, as uninterrupted", final.Status, final.Decisions, again.Decisions)
				}
			})
		})
	}
}

// With a pot the deals are played one after the other, whatever Parallel says: each starts
// with the pot the one before left.
func TestRunnerCarriesThePot(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		st, sts := &batching{store: newStore()}, &seats{}
		r := &match.Runner{Store: st, Seats: sts, Parallel: 8}
		m, _ := playMatch(t, r, domain.MatchSpec{Rules: mustRules(t, "classic pot=on"), Bots: []string{"a", "b", "c"}, Deals: 8, Seed: 2})
		deals := dealsOf(t, st, m.ID)
		pot := 0
		for _, d := range deals {
			if d.Options.Pot != pot {
				t.Errorf("deal %d starts with a pot of %d, want %d (the deal before left it)", d.Number, d.Options.Pot, pot)
			}
			pot = d.Outcome.PotAfter
		}
		if !slices.ContainsFunc(deals, func(d domain.DealRecord) bool { return d.Options.Pot > 0 }) {
			t.Error("no deal started with a pot: the match does not test carrying it")
		}
		if sts.most != 1 {
			t.Errorf("%d tables played at once, want 1 with a pot", sts.most)
		}
	})
}

// A session plays its plan: the agreed rounds, the deciding deals and the last round, then
// the forced Ramsch round, each deal stored with its options.
func TestRunnerPlaysASession(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		st := newStore()
		r := &match.Runner{Store: st, Seats: &seats{}, Parallel: 2}
		spec := domain.MatchSpec{Rules: mustRules(t, "modern"), Bots: []string{"a", "b", "c"}, Seed: 5, Format: domain.FormatSession, Rounds: 1}
		m, _ := playMatch(t, r, spec)
		plan, _ := match.Plan(spec)
		deals := dealsOf(t, st, m.ID)
		if len(deals) != len(plan) {
			t.Fatalf("%d deals stored, want the session's %d", len(deals), len(plan))
		}
		forced := 0
		for i, d := range deals {
			if d.Options.ForcedRamsch != plan[i].ForcedRamsch || !slices.Equal(d.Seating, plan[i].Seating) || d.Deal != plan[i].Deal {
				t.Errorf("deal %d: forced Ramsch %v, seating %v; want the plan's %v, %v", i, d.Options.ForcedRamsch, d.Seating, plan[i].ForcedRamsch, plan[i].Seating)
			}
			if d.Options.ForcedRamsch {
				forced++
				if d.Outcome.Contract.String() != "ramsch" {
					t.Errorf("deal %d of the forced round was played as %s, want Ramsch", i, d.Outcome.Contract)
				}
			}
		}
		if forced != 3 {
			t.Errorf("%d forced Ramsch deals, want one per player", forced)
		}
	})
}

// With a clock per game (the default) the same bot, one strike a deal, never forfeits: each
// deal has its own strikes, and the match counts the strikes without a forfeit.
func TestRunnerClockPerGameKeepsStrikesInTheirGame(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		st := newStore()
		sts := &seats{script: func(bot string) *refereetest.Seat {
			if bot != "c" {
				return nil
			}
			return refereetest.NewSeat(answering, refereetest.Quiet) // one strike per deal
		}}
		r := &match.Runner{Store: st, Seats: sts, Parallel: 2}
		m, res := playMatch(t, r, domain.MatchSpec{Rules: mustRules(t, "modern"), Bots: []string{"a", "b", "c"}, Deals: 6, Seed: 8,
			TimeControl: domain.TimeControl{PerDecision: time.Second, Overage: time.Second, MaxStrikes: 3}})
		strikes := 0
		for _, d := range dealsOf(t, st, m.ID) {
			for _, x := range d.Decisions {
				if x.Strike {
					strikes++
				}
			}
		}
		if strikes != 6 || len(res.Forfeited) != 0 || len(res.ForfeitedGames) != 0 {
			t.Errorf("%d strikes, forfeited %v, games forfeited %v; want one strike in each of the 6 deals and no forfeit", strikes, res.Forfeited, res.ForfeitedGames)
		}
		// Three strikes in one game forfeit that game, and the match counts it.
		sts.script = func(bot string) *refereetest.Seat {
			if bot != "c" {
				return nil
			}
			return refereetest.NewSeat(refereetest.Quiet)
		}
		_, res = playMatch(t, r, domain.MatchSpec{Rules: mustRules(t, "modern"), Bots: []string{"a", "b", "c"}, Deals: 2, Seed: 9,
			TimeControl: domain.TimeControl{PerDecision: time.Second, Overage: time.Second, MaxStrikes: 3}})
		if len(res.Forfeited) != 0 || res.ForfeitedGames["c"] != 2 {
			t.Errorf("forfeited %v, games forfeited %v; want c to forfeit each of the 2 games, not the match", res.Forfeited, res.ForfeitedGames)
		}
	})
}

// A bot that keeps missing its deadline forfeits the match under a per-match clock: one clock
// over every deal and table; the match says so, and counts the decisions the arena played for
// it.
func TestRunnerRecordsForfeitsAndFallbacks(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		st := newStore()
		sts := &seats{script: func(bot string) *refereetest.Seat {
			if bot != "c" {
				return nil
			}
			return refereetest.NewSeat(answering, refereetest.Quiet) // one strike per deal
		}}
		r := &match.Runner{Store: st, Seats: sts, Parallel: 2}
		m, res := playMatch(t, r, domain.MatchSpec{Rules: mustRules(t, "modern"), Bots: []string{"a", "b", "c"}, Deals: 6, Seed: 8,
			TimeControl: domain.TimeControl{PerDecision: time.Second, Overage: time.Second, MaxStrikes: 3, Scope: domain.ClockPerMatch}})
		stored, _ := st.GetMatch(context.Background(), m.ID)
		fallbacks := 0
		for _, d := range dealsOf(t, st, m.ID) {
			for _, x := range d.Decisions {
				if x.Fallback {
					fallbacks++
					if x.Bot != "c" {
						t.Errorf("deal %d: a fallback for %s", d.Number, x.Bot)
					}
				}
			}
		}
		if !slices.Equal(stored.Forfeited, []string{"c"}) || !slices.Equal(res.Forfeited, []string{"c"}) {
			t.Errorf("forfeited: stored %v, result %v; want c", stored.Forfeited, res.Forfeited)
		}
		if stored.Fallbacks != fallbacks || fallbacks <= 3 || stored.Status != domain.MatchFinished {
			t.Errorf("the match counts %d fallbacks (%s), the deals hold %d; want the same, more than the 3 strikes, finished",
				stored.Fallbacks, stored.Status, fallbacks)
		}
	})
}
