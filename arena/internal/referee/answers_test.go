package referee_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/internal/referee/refereetest"
	"github.com/tapparena/tapp/engine"
)

// Every answer the referee refuses is refused with the rule it broke, and the bot waits for a
// correction; the refused answers to the open request are recorded with its decision, the
// ones that belong to no request of the seat nowhere.
func TestRefusalsCarryTheRuleBroken(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	for _, tc := range []struct {
		name     string
		reply    refereetest.Reply // sent 50 ms after north's first request, which is a bid of round one
		rule     string
		recorded bool
	}{
		{"malformed", refereetest.Reply{Action: "no such action"}, referee.ReasonMalformed, true},
		{"a card in round one", refereetest.Reply{Action: "HA"}, "R-MOD-BID-1", true},
		{"a contract in round one", refereetest.Reply{Action: "solo:C"}, "R-MOD-BID-1", true},
		{"an unknown request", refereetest.Reply{Request: "r999"}, referee.ReasonUnknownRequest, false},
		{"a request not asked yet", refereetest.Reply{Request: "r4"}, referee.ReasonUnknownRequest, false},
		{"another seat's request that is over", refereetest.Reply{Request: "r1"}, referee.ReasonUnknownRequest, false},
		{"a request id out of form", refereetest.Reply{Request: "r01"}, referee.ReasonUnknownRequest, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				wrong := tc.reply
				wrong.After = 50 * ms
				north := refereetest.NewSeat(answering, refereetest.Step{Replies: []refereetest.Reply{wrong, {After: 80 * ms}}})
				table := newTable(t, "modern", clock, north, refereetest.NewSeat(answering), refereetest.NewSeat(answering))
				rec := play(t, table)

				seen := north.Seen()
				first := decisionsOf(rec, 0)[0]
				if first.Decision != engine.DecideBid || first.RequestID != "r3" {
					t.Fatalf("north's first decision is %v (%s); the test wants the third request, a bid of round one", first.Decision, first.RequestID)
				}
				wantID := wrong.Request
				if wantID == "" {
					wantID = first.RequestID
				}
				if got := seen.Refusals; len(got) != 1 || got[0].Rule != tc.rule || got[0].RequestID != wantID || got[0].GameID != "m/0" {
					t.Fatalf("north was refused %+v, want one refusal of %s by %s", got, wantID, tc.rule)
				}
				var want []attempt
				if tc.recorded {
					want = append(want, attempt{50 * ms, seen.Refusals[0].Reason})
					// An engine rule's id leads its reason; a protocol reason is only the Refusal's.
					if strings.HasPrefix(tc.rule, "R-") && ruleOf(seen.Refusals[0].Reason) != tc.rule {
						t.Errorf("the reason %q does not start with the rule %s", seen.Refusals[0].Reason, tc.rule)
					}
				}
				want = append(want, attempt{80 * ms, ""})
				if got := attempts(first); !reflect.DeepEqual(got, want) {
					t.Errorf("north's first decision's attempts = %v, want %v", got, want)
				}
				if first.Latency != 80*ms || first.Fallback {
					t.Errorf("north's first decision: latency %v, fallback %v; want the correction after 80 ms", first.Latency, first.Fallback)
				}
				for _, d := range rec.Decisions {
					if d.Seat != 0 && len(d.Attempts) != 1 {
						t.Errorf("decision %d of seat %d has %d attempts: north's answer landed in another seat's record", d.Index, d.Seat, len(d.Attempts))
					}
				}
			})
		})
	}
}

// A flood of refused answers is refused answer by answer, but a decision records at most 64
// attempts: the refused answers past them are counted (Flooded), not recorded one by one; the
// accepted answer follows.
func TestFloodIsCountedPastTheAttemptsKept(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ms := time.Millisecond
		north := refereetest.NewSeat(answering, refereetest.Step{Replies: []refereetest.Reply{
			{After: 10 * ms, Action: "no such action", Times: 100}, {After: 20 * ms, Action: "nor this"}, {After: 30 * ms},
		}})
		table := newTable(t, "modern", clock, north, refereetest.NewSeat(answering), refereetest.NewSeat(answering))
		rec := play(t, table)

		seen := north.Seen()
		if len(seen.Refusals) != 101 {
			t.Errorf("north was refused %d answers, want each of the 101", len(seen.Refusals))
		}
		d := decisionsOf(rec, 0)[0]
		got := d.Attempts
		if len(got) != 65 || d.Flooded != 37 {
			t.Fatalf("%d attempts recorded and %d counted, want 64 refused recorded, 37 counted and the accepted one", len(got), d.Flooded)
		}
		if a := got[63]; a.Text != "no such action" || !strings.Contains(a.Rejected, `unknown action "no such action"`) {
			t.Errorf("the 64th attempt = %+v, want a malformed answer recorded as it was", a)
		}
		if a := got[64]; a.Rejected != "" || a.After != 30*ms {
			t.Errorf("the last attempt = %+v, want the accepted answer after 30 ms", a)
		}
	})
}

// An answer to a request that is over — answered already, or given its fallback — is
// refused as a duplicate and recorded with the decision it was for, with its time from that
// request.
func TestAnswersToRequestsThatAreOverAreDuplicates(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ms := time.Millisecond
		north := refereetest.NewSeat(answering,
			refereetest.Step{Replies: []refereetest.Reply{{After: 100 * ms}, {After: 150 * ms}, {After: 160 * ms, Action: "no such action"}}})
		table := newTable(t, "modern", clock, north, refereetest.NewSeat(answering), refereetest.NewSeat(answering))
		rec := play(t, table)

		first := decisionsOf(rec, 0)[0]
		over := "request " + first.RequestID + " is over: it was answered, or its deadline passed and the fallback was played"
		want := []attempt{{100 * ms, ""}, {150 * ms, over}, {160 * ms, over}}
		if got := attempts(first); !reflect.DeepEqual(got, want) {
			t.Errorf("north's first decision's attempts = %v, want %v", got, want)
		}
		if got := rules(north.Seen().Refusals); !reflect.DeepEqual(got, []string{referee.ReasonDuplicate, referee.ReasonDuplicate}) {
			t.Errorf("north was refused %v, want two duplicates", got)
		}
		if second := decisionsOf(rec, 0)[1]; len(second.Attempts) != 1 {
			t.Errorf("north's second decision has attempts %+v, want only its own answer", second.Attempts)
		}
	})
}

// A bot that resumes while its request is open reads that request as it was sent.
func TestResumeReadsTheOpenRequest(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		north := refereetest.NewSeat(answering, refereetest.Step{Resume: true, Replies: []refereetest.Reply{{After: 500 * time.Millisecond}}})
		table := newTable(t, "modern", clock, north, refereetest.NewSeat(answering), refereetest.NewSeat(answering))
		play(t, table)

		seen := north.Seen()
		if len(seen.Resumed) != 1 {
			t.Fatalf("the resume read %d open requests, want 1", len(seen.Resumed))
		}
		got, want := seen.Resumed[0], seen.Asked[0]
		got.At, want.At = time.Time{}, time.Time{}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the resume read %+v\nwant the request as asked %+v", got, want)
		}
	})
}

// The refusal's reason names the request for a duplicate and quotes the id for an unknown one.
func TestRefusalReasonsNameTheRequest(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		north := refereetest.NewSeat(answering, refereetest.Step{Replies: []refereetest.Reply{{After: 10 * time.Millisecond, Request: "x\n1"}, {After: 20 * time.Millisecond}}})
		table := newTable(t, "modern", clock, north, refereetest.NewSeat(answering), refereetest.NewSeat(answering))
		play(t, table)
		if got := north.Seen().Refusals; len(got) != 1 || !strings.Contains(got[0].Reason, `"x\n1"`) {
			t.Errorf("refusals %+v, want the unknown request id quoted", got)
		}
	})
}

// flooding is a seat whose connection refused answers itself (as the gRPC session does for a
// full buffer) and says so at the end of the game.
type flooding struct {
	*refereetest.Seat
	counts map[string]int
}

func (f flooding) Flooded(string) map[string]int { return f.counts }

// The answers a seat's connection refused itself are counted with the decision they name,
// if it is one of that seat's; those naming another seat's request, or none, are not.
func TestFloodsTheConnectionRefusedAreCountedWithTheirDecision(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		// The same deal twice: the first shows whose requests are whose.
		seats := []*refereetest.Seat{refereetest.NewSeat(answering), refereetest.NewSeat(answering), refereetest.NewSeat(answering)}
		table := newTable(t, "modern", clock, seats...)
		first := play(t, newTable(t, "modern", clock, refereetest.NewSeat(answering), refereetest.NewSeat(answering), refereetest.NewSeat(answering)))
		mine, other := decisionsOf(first, 0)[0].RequestID, decisionsOf(first, 1)[0].RequestID
		table.Players[0].Conn = flooding{seats[0], map[string]int{mine: 5, other: 7, "": 3, "r999": 2}}
		rec, err := referee.Play(context.Background(), table)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range seats {
			s.Wait()
		}
		total := 0
		for _, d := range rec.Decisions {
			total += d.Flooded
			switch {
			case d.RequestID == mine && d.Flooded != 5:
				t.Errorf("seat 0's request %s: %d flooded answers counted, want 5", mine, d.Flooded)
			case d.RequestID != mine && d.Flooded != 0:
				t.Errorf("decision %d (%s, seat %d): %d flooded answers counted, want none", d.Index, d.RequestID, d.Seat, d.Flooded)
			}
		}
		if total != 5 {
			t.Errorf("%d flooded answers counted in all, want seat 0's 5 (%s is seat 1's request, r999 none)", total, other)
		}
	})
}
