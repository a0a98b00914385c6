package referee_test

import (
	"reflect"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/internal/referee/refereetest"
	"github.com/tapparena/tapp/engine"
)

// An overrun is paid from the bank; an answer later than the time per decision and the bank
// is a strike: the fallback is played at that moment, the bank is emptied, and the answer,
// when it comes, is refused as a duplicate and recorded with the decision it was meant for.
func TestClockSpendsTheBankThenStrikes(t *testing.T) {
	t.Parallel()
	clock := perMatch(clock) // the match clock shows the bank and the strikes
	synctest.Test(t, func(t *testing.T) {
		ms := time.Millisecond
		north := refereetest.NewSeat(answering,
			refereetest.Answer(1500*ms, ""), // 0.5 s from the bank: 1.5 s left
			refereetest.Answer(2200*ms, ""), // 1.2 s more: 0.3 s left
			refereetest.Answer(1400*ms, ""), // past 1.3 s: the fallback at 1.3 s, a strike
			refereetest.Answer(900*ms, ""),  // in time, with an empty bank
			refereetest.Quiet,               // the fallback at 1 s, the second strike
		)
		table := newTable(t, "modern", clock, north, refereetest.NewSeat(answering), refereetest.NewSeat(answering))
		rec := play(t, table)

		seen := north.Seen()
		if got, want := banks(seen.Asked)[:6], []time.Duration{2000 * ms, 1500 * ms, 300 * ms, 0, 0, 0}; !reflect.DeepEqual(got, want) {
			t.Errorf("the overage left in north's requests = %v, want %v", got, want)
		}
		for _, a := range seen.Asked {
			if want := a.At.Add(clock.PerDecision); !a.Deadline.Equal(want) {
				t.Errorf("request %s: deadline %v after it was asked, want the time per decision", a.RequestID, a.Deadline.Sub(a.At))
			}
		}
		type outcome struct {
			Latency          time.Duration
			Strike, Fallback bool
		}
		var got []outcome
		for _, d := range decisionsOf(rec, 0)[:6] {
			got = append(got, outcome{d.Latency, d.Strike, d.Fallback})
		}
		want := []outcome{{1500 * ms, false, false}, {2200 * ms, false, false}, {1300 * ms, true, true},
			{900 * ms, false, false}, {1000 * ms, true, true}, {100 * ms, false, false}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("north's decisions (latency, strike, fallback) = %v\nwant %v", got, want)
		}

		struck := decisionsOf(rec, 0)[2]
		if struck.Action != referee.Fallback(seen.Asked[2].Legal) {
			t.Errorf("the late decision played %s, want the fallback %s", struck.Action, referee.Fallback(seen.Asked[2].Legal))
		}
		wantAttempts := []attempt{{1400 * ms, "request " + struck.RequestID + " is over: it was answered, or its deadline passed and the fallback was played"}}
		if got := attempts(struck); !reflect.DeepEqual(got, wantAttempts) {
			t.Errorf("the late decision's attempts = %v, want the late answer %v", got, wantAttempts)
		}
		if got := seen.Refusals; len(got) != 1 || got[0].Rule != referee.ReasonDuplicate || got[0].RequestID != struck.RequestID {
			t.Errorf("north was refused %+v, want the late answer to %s as a duplicate", got, struck.RequestID)
		}
		wantFallbacks := []referee.FallbackPlayed{
			{GameID: "m/0", RequestID: struck.RequestID, Action: struck.Action, Strikes: 1},
			{GameID: "m/0", RequestID: seen.Asked[4].RequestID, Action: referee.Fallback(seen.Asked[4].Legal), Strikes: 2},
		}
		if !reflect.DeepEqual(seen.Fallbacks, wantFallbacks) {
			t.Errorf("north was told of fallbacks %+v\nwant %+v", seen.Fallbacks, wantFallbacks)
		}
		c := table.Players[0].Clock
		if c.Strikes() != 2 || c.Bank() != 0 || c.Forfeited() {
			t.Errorf("north's clock: %d strikes, bank %v, forfeited %v; want 2, 0, false", c.Strikes(), c.Bank(), c.Forfeited())
		}
	})
}

// The strike that reaches the maximum forfeits the match: the bot is told so, and every later
// decision of its seat is the fallback, played at once without asking it.
func TestForfeitAfterTheMaximumStrikes(t *testing.T) {
	t.Parallel()
	clock := perMatch(clock)
	synctest.Test(t, func(t *testing.T) {
		north := refereetest.NewSeat(refereetest.Quiet)
		table := newTable(t, "modern", clock, north, refereetest.NewSeat(answering), refereetest.NewSeat(answering))
		rec := play(t, table)

		seen := north.Seen()
		if len(seen.Asked) != clock.MaxStrikes {
			t.Fatalf("north was asked %d times, want %d (until it forfeited)", len(seen.Asked), clock.MaxStrikes)
		}
		var strikes []int
		var forfeited []bool
		for _, f := range seen.Fallbacks {
			strikes, forfeited = append(strikes, f.Strikes), append(forfeited, f.Forfeited)
		}
		if !reflect.DeepEqual(strikes, []int{1, 2, 3}) || !reflect.DeepEqual(forfeited, []bool{false, false, true}) {
			t.Errorf("north was told strikes %v, forfeited %v; want 1 2 3, forfeited with the third", strikes, forfeited)
		}
		ds := decisionsOf(rec, 0)
		for i, want := range []time.Duration{3 * time.Second, time.Second, time.Second} { // the bank, then none
			if ds[i].Latency != want || !ds[i].Strike {
				t.Errorf("north's decision %d: latency %v, strike %v; want %v, a strike", i, ds[i].Latency, ds[i].Strike, want)
			}
		}
		for _, d := range ds[clock.MaxStrikes:] {
			if d.RequestID != "" || !d.Fallback || d.Strike || d.Latency != 0 || d.Attempts != nil {
				t.Errorf("north's decision %d after the forfeit = %+v, want the fallback without a request or a strike", d.Index, d)
			}
		}
		if c := table.Players[0].Clock; !c.Forfeited() || c.Strikes() != 3 {
			t.Errorf("north's clock: forfeited %v, %d strikes; want forfeited, 3", c.Forfeited(), c.Strikes())
		}
	})
}

// With a per-match clock, deals of one match play at once and share each bot's clock: late
// answers that come due together count one strike each until the bot has forfeited, and none
// after.
func TestStrikesOfParallelDealsStopAtTheForfeit(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		tc := domain.TimeControl{PerDecision: time.Second, Overage: 2 * time.Second, MaxStrikes: 1, Scope: domain.ClockPerMatch}
		shared := referee.NewClock(tc)
		var tables []*referee.Table
		for range 2 {
			table := newTable(t, "modern", tc, refereetest.NewSeat(refereetest.Quiet), refereetest.NewSeat(answering), refereetest.NewSeat(answering))
			table.Players[0].Clock = shared
			tables = append(tables, table)
		}
		recs := make([]*domain.DealRecord, len(tables))
		var wg sync.WaitGroup
		for i, table := range tables {
			wg.Go(func() { recs[i] = play(t, table) })
		}
		wg.Wait()
		strikes := 0
		for _, rec := range recs {
			first := decisionsOf(rec, 0)[0]
			if first.Latency != 3*time.Second || !first.Fallback {
				t.Errorf("north's first decision: latency %v, fallback %v; want both tables to time out after 3 s", first.Latency, first.Fallback)
			}
			if first.Strike {
				strikes++
			}
		}
		if strikes != 1 || shared.Strikes() != 1 || !shared.Forfeited() {
			t.Errorf("%d decisions marked as strikes, clock at %d strikes (forfeited %v); want one strike and the forfeit",
				strikes, shared.Strikes(), shared.Forfeited())
		}
	})
}

// The bot's clock starts when its request leaves the seat's queue; the wait before is the
// arena's share, never charged to the bot. A request still in the queue when its time is up
// gets its time again (retimed), never a strike; one that never leaves gets the fallback
// after every retime, without a strike; one the queue cannot take is late at once.
func TestClockStartsAtTheHandOff(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	for _, tc := range []struct {
		name     string
		step     refereetest.Step
		share    time.Duration // the decision's arena share
		want     time.Duration // its latency
		bank     time.Duration // the overage left in the next request
		fallback bool
		strike   bool
		retimed  int
	}{
		{"queued then answered", refereetest.Step{HandAfter: 400 * ms, Replies: []refereetest.Reply{{After: 300 * ms}}}, 400 * ms, 300 * ms, 2000 * ms, false, false, 0},
		{"queued then overrun", refereetest.Step{HandAfter: 400 * ms, Replies: []refereetest.Reply{{After: 1200 * ms}}}, 400 * ms, 1200 * ms, 1800 * ms, false, false, 0},
		{"queued past its time", refereetest.Step{HandAfter: 4000 * ms, Replies: []refereetest.Reply{{After: 300 * ms}}}, 4000 * ms, 300 * ms, 2000 * ms, false, false, 1},
		{"answered at once", refereetest.Answer(0, ""), 0, 0, 2000 * ms, false, false, 0},
		{"never handed over", refereetest.Step{HandAfter: refereetest.Never}, 27000 * ms, 0, 2000 * ms, true, false, 8},
		{"queue full", refereetest.Step{Full: true}, 0, 3000 * ms, 0, true, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				north := refereetest.NewSeat(answering, tc.step)
				table := newTable(t, "modern", clock, north, refereetest.NewSeat(answering), refereetest.NewSeat(answering))
				rec := play(t, table)
				d := decisionsOf(rec, 0)[0]
				if d.ArenaShare != tc.share || d.Latency != tc.want || d.Fallback != tc.fallback || d.Strike != tc.strike || d.Retimed != tc.retimed {
					t.Errorf("north's first decision: arena share %v, latency %v, fallback %v, strike %v, retimed %d; want %v, %v, %v, %v, %d",
						d.ArenaShare, d.Latency, d.Fallback, d.Strike, d.Retimed, tc.share, tc.want, tc.fallback, tc.strike, tc.retimed)
				}
				if want := tc.name == "never handed over"; d.NeverHanded() != want {
					t.Errorf("NeverHanded = %v, want %v", d.NeverHanded(), want)
				}
				if d.NeverHanded() {
					if !d.Handed().IsZero() {
						t.Errorf("never handed over, but the record says it was at %v", d.Handed())
					}
				} else if got := d.Handed().Sub(d.Asked); !d.Asked.IsZero() && got != tc.share {
					t.Errorf("handed over %v after it was asked, want the arena share %v", got, tc.share)
				}
				asked := north.Seen().Asked
				if got := asked[1].OverageLeft; got != tc.bank {
					t.Errorf("the overage left in north's next request = %v, want %v", got, tc.bank)
				}
				if tc.step.Full {
					if waited := asked[1].At.Sub(asked[0].At); waited != 200*ms {
						t.Errorf("north was asked again %v later, want 200 ms (the deal does not wait for a full queue)", waited)
					}
				}
			})
		})
	}
}

// A bot that leaves is not waited for: the fallback is played at once, without a strike, and
// its seat is never asked again; a bot gone before the deal is never asked at all.
func TestGoneSeatGetsFallbacksWithoutStrikes(t *testing.T) {
	t.Parallel()
	for _, leaveAt := range []int{-1, 0, 2} {
		synctest.Test(t, func(t *testing.T) {
			var script []refereetest.Step
			for range max(leaveAt, 0) {
				script = append(script, answering)
			}
			script = append(script, refereetest.Step{Leave: true, Replies: []refereetest.Reply{{After: 100 * time.Millisecond}}})
			north := refereetest.NewSeat(answering, script...)
			if leaveAt < 0 {
				north.Leave()
			}
			table := newTable(t, "modern", clock, north, refereetest.NewSeat(answering), refereetest.NewSeat(answering))
			rec := play(t, table)

			asked := max(leaveAt+1, 0)
			if got := len(north.Seen().Asked); got != asked {
				t.Errorf("leaving at request %d: north was asked %d times, want %d", leaveAt, got, asked)
			}
			for i, d := range decisionsOf(rec, 0) {
				if i < max(leaveAt, 0) {
					if d.Fallback {
						t.Errorf("leaving at request %d: decision %d before it is a fallback", leaveAt, i)
					}
					continue
				}
				if !d.Fallback || d.Strike || d.Latency != 0 || (d.RequestID != "") != (i == leaveAt) {
					t.Errorf("leaving at request %d: decision %d = %+v, want the fallback at once, no strike, a request only when it left", leaveAt, i, d)
				}
			}
			if c := table.Players[0].Clock; !c.Forfeited() || c.Strikes() != 0 || len(north.Seen().Fallbacks) != 0 {
				t.Errorf("leaving at request %d: forfeited %v, %d strikes, %d fallback notices; want forfeited without strikes or notices",
					leaveAt, c.Forfeited(), c.Strikes(), len(north.Seen().Fallbacks))
			}
		})
	}
}

// The fallback is the first legal action in the engine's stable order.
func TestFallbackIsTheFirstLegalAction(t *testing.T) {
	t.Parallel()
	legal := []engine.Action{{Kind: engine.ActPass}, {Kind: engine.ActPlay}}
	if got := referee.Fallback(legal); got != legal[0] {
		t.Errorf("Fallback(%v) = %v, want %v", legal, got, legal[0])
	}
}

// perMatch is tc with one bank and strike count per bot for the whole match.
func perMatch(tc domain.TimeControl) domain.TimeControl {
	tc.Scope = domain.ClockPerMatch
	return tc
}

// With a clock per game (the default), every deal gives each bot a bank and a strike count
// of its own, and the deals a bot plays at the same time do not share them: overruns on two
// tables at once cost each table's bank only, and strikes forfeit the game they were given
// in, not the next one.
func TestClockPerGame(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ms := time.Millisecond
		match := referee.NewClock(clock) // the bot's match clock: only whether it has left
		var tables []*referee.Table
		for range 2 {
			north := refereetest.NewSeat(answering, refereetest.Answer(2500*ms, "")) // 1.5 s of the 2 s bank
			table := newTable(t, "modern", clock, north, refereetest.NewSeat(answering), refereetest.NewSeat(answering))
			table.Players[0].Clock = match
			tables = append(tables, table)
		}
		recs := make([]*domain.DealRecord, len(tables))
		var wg sync.WaitGroup
		for i, table := range tables {
			wg.Go(func() { recs[i] = play(t, table) })
		}
		wg.Wait()
		for i, rec := range recs {
			first := decisionsOf(rec, 0)[0]
			if first.Strike || first.Fallback || first.Latency != 2500*ms {
				t.Errorf("table %d: north's overrun = %+v, want it paid from that table's bank", i, first)
			}
			if got := tables[i].Players[0].Conn.(*refereetest.Seat).Seen().Asked[1].OverageLeft; got != 500*ms {
				t.Errorf("table %d: the bank left after the overrun = %v, want 500ms", i, got)
			}
		}

		// Three strikes forfeit the game: the rest of it is fallbacks without asking; the next
		// game asks the bot again, with a full bank and no strikes.
		quiet := refereetest.NewSeat(refereetest.Quiet)
		table := newTable(t, "modern", clock, quiet, refereetest.NewSeat(answering), refereetest.NewSeat(answering))
		table.Players[0].Clock = match
		rec := play(t, table)
		seen := quiet.Seen()
		if len(seen.Asked) != clock.MaxStrikes || !seen.Fallbacks[clock.MaxStrikes-1].Forfeited {
			t.Fatalf("the quiet bot was asked %d times, told %+v; want %d requests, the last fallback a forfeit of the game",
				len(seen.Asked), seen.Fallbacks, clock.MaxStrikes)
		}
		for _, d := range decisionsOf(rec, 0)[clock.MaxStrikes:] {
			if d.RequestID != "" || !d.Fallback || d.Strike {
				t.Errorf("after the game's forfeit: %+v, want the fallback without asking", d)
			}
		}
		if match.Forfeited() || match.Strikes() != 0 {
			t.Errorf("the match clock: forfeited %v, %d strikes; want neither: a game's strikes are the game's", match.Forfeited(), match.Strikes())
		}
		next := refereetest.NewSeat(answering)
		table = newTable(t, "modern", clock, next, refereetest.NewSeat(answering), refereetest.NewSeat(answering))
		table.Players[0].Clock = match
		play(t, table)
		if asked := next.Seen().Asked; len(asked) == 0 || asked[0].OverageLeft != clock.Overage {
			t.Errorf("the next game: %d requests, the first with a bank of %v; want the bot asked with the full bank", len(asked), asked[0].OverageLeft)
		}
	})
}

// A strike records where its time went: when the request was handed over, and from the
// bot's late answer what it says it thought and what the transport took.
func TestStrikeIsAttributed(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ms := time.Millisecond
		late := refereetest.Step{HandAfter: 200 * ms, Replies: []refereetest.Reply{{After: 3500 * ms, Think: 3100 * ms}}}
		north := refereetest.NewSeat(answering, late, refereetest.Answer(100*ms, ""))
		table := newTable(t, "modern", clock, north, refereetest.NewSeat(answering), refereetest.NewSeat(answering))
		var decided []domain.DecisionRecord
		table.Decided = func(d *domain.DecisionRecord) { decided = append(decided, *d) }
		begin := time.Now()
		rec := play(t, table)
		d := decisionsOf(rec, 0)[0]
		a := d.Attribution()
		if d.Asked.Before(begin) || d.Asked.IsZero() {
			t.Errorf("the strike was asked at %v, before the deal began at %v", d.Asked, begin)
		}
		if !d.Strike || a.Arena != 200*ms || !a.Handed.Equal(d.Asked.Add(200*ms)) || !a.Answered || a.Think != 3100*ms || a.Transport != 400*ms {
			t.Errorf("the strike's attribution = %+v (strike %v), want handed over at 200ms, 3.1 s thought, 0.4 s transport", a, d.Strike)
		}
		if len(decided) != len(rec.Decisions) || decided[0].RequestID != rec.Decisions[0].RequestID {
			t.Errorf("Decided was told %d decisions, the deal has %d", len(decided), len(rec.Decisions))
		}
	})
}
