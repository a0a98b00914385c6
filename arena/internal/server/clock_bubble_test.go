package server_test

import (
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// The referee's clock under the bubble's fake time (bubble_harness_test.go): what a bot's
// answer costs its overage bank, when it gets a strike, when it forfeits, and what becomes
// of an answer that comes after its fallback.

// goodBots connects two bots that answer at once and returns the three seats' names with
// odd last.
func goodBots(a *bubbleArena, odd string) []string {
	a.connect("good1", nil, atOnce)
	a.connect("good2", nil, atOnce)
	return []string{"good1", "good2", odd}
}

func TestOverageBankStrikesAndForfeitInFakeTime(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		a := newBubbleArena(t, time.Second)
		defer a.stop()
		// 100 ms per decision and a bank of 150 ms; the second strike forfeits.
		tc := domain.TimeControl{PerDecision: 100 * time.Millisecond, Overage: 150 * time.Millisecond, MaxStrikes: 2, Scope: domain.ClockPerMatch} // the match forfeit: one bank per match
		delays := []time.Duration{
			160 * time.Millisecond, // 60 ms over: from the bank, which keeps 90 ms
			100 * time.Millisecond, // exactly on time: the bank keeps 90 ms
			200 * time.Millisecond, // past 100+90 ms: the fallback at 190 ms, strike 1, the bank is emptied
			101 * time.Millisecond, // past 100+0 ms: the fallback at 100 ms, strike 2, forfeited
		}
		odd := a.connect("odd", nil, func(n int, req *tappv1.DecisionRequest) (*string, time.Duration) {
			if n > len(delays) {
				t.Errorf("request %d sent to a bot that forfeited after request %d", n, len(delays))
				return nil, 0
			}
			return &req.Legal[0], delays[n-1]
		})
		names := goodBots(a, "odd")
		a.waitSessions(3)
		res := a.play(domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: names, Deals: 1, Seed: 3, TimeControl: tc})

		if len(res.Forfeited) != 1 || res.Forfeited[0] != "odd" {
			t.Errorf("forfeited %v, want [odd]", res.Forfeited)
		}
		// The bank each request announced: what the answers before it left.
		var banks []time.Duration
		for _, req := range odd.seen() {
			banks = append(banks, req.GetOverageLeft().AsDuration())
		}
		if want := []time.Duration{150 * time.Millisecond, 90 * time.Millisecond, 90 * time.Millisecond, 0}; !slices.Equal(banks, want) {
			t.Errorf("overage left in the requests = %v, want %v", banks, want)
		}
		decs := a.store.decisionsOf("odd")
		if len(decs) <= len(delays) {
			t.Fatalf("odd made %d decisions, want more than %d (the deal goes on after it forfeits)", len(decs), len(delays))
		}
		for i, want := range []struct {
			latency          time.Duration
			fallback, strike bool
		}{
			{160 * time.Millisecond, false, false},
			{100 * time.Millisecond, false, false},
			{190 * time.Millisecond, true, true},
			{100 * time.Millisecond, true, true},
		} {
			d := decs[i]
			if d.Latency != want.latency || d.Fallback != want.fallback || d.Strike != want.strike {
				t.Errorf("decision %d: latency %v fallback %v strike %v, want %v %v %v", i, d.Latency, d.Fallback, d.Strike, want.latency, want.fallback, want.strike)
			}
		}
		// The answer that came 10 ms after its fallback is in that decision's record, refused.
		late := decs[2].Attempts
		if len(late) != 1 || late[0].After != 200*time.Millisecond || !strings.Contains(late[0].Rejected, "is over") {
			t.Errorf("attempts of the decision answered late = %+v, want one refused (the request is over) after 200ms", late)
		}
		for _, d := range decs[len(delays):] {
			if !d.Fallback || d.Strike || d.RequestID != "" {
				t.Errorf("decision %d after the forfeit: fallback %v strike %v request %q, want a fallback without asking", d.Index, d.Fallback, d.Strike, d.RequestID)
			}
		}
		synctest.Wait() // the notices the session sent last are in the bot's reader
		var notices []string
		for _, msg := range odd.messages() {
			if f := msg.GetFallback(); f != nil {
				notices = append(notices, f.GetRequestId()+":"+string(rune('0'+f.GetStrikes()))+map[bool]string{true: " forfeited"}[f.GetForfeited()])
			}
		}
		if got, want := strings.Join(notices, ", "), "r"+requestNumber(odd, 3)+":1, r"+requestNumber(odd, 4)+":2 forfeited"; got != want {
			t.Errorf("fallback notices %q, want %q", got, want)
		}
		for _, name := range names[:2] {
			for _, d := range a.store.decisionsOf(name) {
				if d.Strike || d.Fallback || d.Latency != 0 {
					t.Fatalf("%s, answering at once, decision %d: strike %v fallback %v latency %v", name, d.Index, d.Strike, d.Fallback, d.Latency)
				}
			}
		}
	})
}

// requestNumber returns the number in the id of the bot's nth request ("r7" → "7").
func requestNumber(b *timedBot, n int) string {
	return strings.TrimPrefix(b.seen()[n-1].GetRequestId(), "r")
}

// A bot that never answers, at a match whose deals run in parallel: each of its decisions is
// a fallback, it takes exactly MaxStrikes strikes and forfeits; requests already out when the
// last strike fell are told of their fallback but count no further strike.
func TestHangingBotGetsFallbacksStrikesAndForfeits(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		a := newBubbleArena(t, time.Second)
		defer a.stop()
		a.runner.Parallel = 4
		odd := a.connect("odd", nil, never)
		names := goodBots(a, "odd")
		a.waitSessions(3)
		spec := domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: names, Deals: 3, Seed: 3,
			TimeControl: domain.TimeControl{PerDecision: 150 * time.Millisecond, Overage: 100 * time.Millisecond, MaxStrikes: 3, Scope: domain.ClockPerMatch}}
		start := time.Now()
		res := a.play(spec)
		if res.Deals != 3 || len(res.Forfeited) != 1 || res.Forfeited[0] != "odd" {
			t.Fatalf("deals %d forfeited %v, want 3 deals and [odd]", res.Deals, res.Forfeited)
		}
		// A request sent while the bank is full waits 150 ms and the 100 ms bank, one sent after
		// a strike (the bank emptied) 150 ms. How the three deals' requests interleave is up to
		// the scheduler, even in fake time: from all three struck at 250 ms at once to one after
		// another, 250 + 150 + 150 ms.
		if took := time.Since(start); took < 250*time.Millisecond || took > 550*time.Millisecond {
			t.Errorf("the match took %v, want 250ms to 550ms", took)
		}
		strikes := 0
		for _, d := range a.store.decisionsOf("odd") {
			if !d.Fallback {
				t.Fatalf("decision %d of the hanging bot was not a fallback", d.Index)
			}
			if d.Strike {
				strikes++
				if d.Latency != 250*time.Millisecond && d.Latency != 150*time.Millisecond {
					t.Errorf("decision %d: strike after %v, want 250ms (full bank) or 150ms (empty)", d.Index, d.Latency)
				}
			}
		}
		if strikes != 3 {
			t.Fatalf("strikes = %d, want 3", strikes)
		}
		synctest.Wait() // the notices the session sent last are in the bot's reader
		var notices, forfeitNotices int
		for _, msg := range odd.messages() {
			if f := msg.GetFallback(); f != nil {
				notices++
				if f.GetStrikes() > 3 {
					t.Fatalf("fallback notice with %d strikes, max is 3", f.GetStrikes())
				}
				if f.GetStrikes() == 3 && f.GetForfeited() {
					forfeitNotices++
				}
			}
		}
		if notices < 3 || forfeitNotices == 0 {
			t.Fatalf("fallback notices = %d (%d saying forfeited), want at least 3 and one forfeit", notices, forfeitNotices)
		}
		// The match counts its fallbacks, so that its results can be flagged.
		if m := res.Match; m.Status != domain.MatchFinished || m.Fallbacks != len(a.store.decisionsOf("odd")) || m.FallbackShare() <= domain.TaintedShare {
			t.Errorf("match: status %s, %d fallbacks of %d decisions; want finished, the hanging bot's %d, flagged", m.Status, m.Fallbacks, m.Decisions, len(a.store.decisionsOf("odd")))
		}
		for _, name := range names[:2] {
			for _, d := range a.store.decisionsOf(name) {
				if d.Strike || d.Fallback {
					t.Fatalf("%s, answering at once, got strike %v fallback %v at decision %d", name, d.Strike, d.Fallback, d.Index)
				}
			}
		}
	})
}
