package referee_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/internal/referee/refereetest"
	"github.com/tapparena/tapp/engine"
)

// The record of a deal is the deal as it was played: every decision in order with its
// request, its answer and its time, the moves that replay it, the outcome and the results;
// every seat was told the start and the end, and got each of its events exactly once, in
// its requests or streamed, whichever it asked for (also when it switches).
func TestRecordIsTheDealAsPlayed(t *testing.T) {
	t.Parallel()
	for _, rules := range []string{"modern", "modern players=4", "classic pot=on"} {
		t.Run(rules, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				begin := time.Now()
				step := refereetest.Step{Replies: []refereetest.Reply{{After: 100 * time.Millisecond, Think: 40 * time.Millisecond}}}
				var seats []*refereetest.Seat
				for i := range mustRules(t, rules).Players {
					s := refereetest.NewSeat(step)
					s.Encode = func(r *referee.Request) []byte { return []byte(r.GameID + " " + r.RequestID) }
					switch i {
					case 1:
						s.Stream = true
					case 2:
						s.Script = []refereetest.Step{step, {Switch: true, Replies: step.Replies}, step, {Switch: true, Replies: step.Replies}}
					}
					seats = append(seats, s)
				}
				table := newTable(t, rules, clock, seats...)
				table.Commitment = "c0ffee"
				table.Number, table.Group = 4, 1
				if table.Rules.Pot {
					table.Options.Pot = 60
				}
				rec, err := referee.Play(context.Background(), table)
				if err != nil {
					t.Fatal(err)
				}
				checkRecord(t, table, rec, begin)
				checkSeats(t, table, rec)
			})
		})
	}
}

// checkRecord checks a deal record against a replay of its moves.
func checkRecord(t *testing.T, table *referee.Table, rec *domain.DealRecord, begin time.Time) {
	t.Helper()
	st, err := engine.NewState(table.Rules, table.Deal, table.Options)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Decisions) != len(rec.Moves) || len(rec.Moves) == 0 {
		t.Fatalf("%d decisions and %d moves", len(rec.Decisions), len(rec.Moves))
	}
	for i, d := range rec.Decisions {
		m := rec.Moves[i]
		want := domain.DecisionRecord{
			Index: i, Seat: st.ToMove(), Bot: table.Players[st.ToMove()].Bot, Decision: st.Decision(),
			RequestID: fmt.Sprintf("r%d", i+1), Sent: []byte(fmt.Sprintf("m/4 r%d", i+1)),
			Attempts: []domain.AnswerAttempt{{Text: m.Action.String(), After: 100 * time.Millisecond}},
			Action:   m.Action, Latency: 100 * time.Millisecond, Think: 40 * time.Millisecond, SentFromState: true,
			Asked: begin.Add(time.Duration(i) * 100 * time.Millisecond), // each answered 100 ms after it was asked
		}
		if m.Seat != st.ToMove() || m.Action != refereetest.Pick(st.LegalActions(nil)) || !reflect.DeepEqual(d, want) {
			t.Errorf("decision %d = %+v\nwant %+v (move %+v)", i, d, want, m)
		}
		if err := st.Apply(m.Action); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
	}
	if !st.Terminal() {
		t.Fatal("the moves do not finish the deal")
	}
	var seating []string
	for _, p := range table.Players {
		seating = append(seating, p.Bot)
	}
	want := &domain.DealRecord{
		MatchID: "m", Number: 4, Group: 1, Seating: seating, Deal: table.Deal, Options: table.Options,
		Moves: st.History(), Decisions: rec.Decisions, Outcome: st.Outcome(), Results: domain.ResultsOf(seating, st.Outcome()),
		Started: begin, Duration: time.Duration(len(rec.Decisions)) * 100 * time.Millisecond,
	}
	if !reflect.DeepEqual(rec, want) {
		t.Errorf("record = %+v\nwant %+v", rec, want)
	}
}

// checkSeats checks what the seats were told: the start, their events once each, the end.
func checkSeats(t *testing.T, table *referee.Table, rec *domain.DealRecord) {
	t.Helper()
	st := finalState(t, table, rec)
	for i, p := range table.Players {
		seat := engine.Seat(i)
		seen := p.Conn.(*refereetest.Seat).Seen()
		start := referee.Start{GameID: "m/4", MatchID: "m", Number: 4, Rules: table.Rules, Seat: seat, Players: rec.Seating,
			TimeControl: clock, Hand: table.Deal.Hands[seat], Commitment: "c0ffee"}
		if len(seen.Starts) != 1 || !reflect.DeepEqual(seen.Starts[0], start) {
			t.Errorf("seat %d was told the start %+v, want %+v", i, seen.Starts, start)
		}
		if len(seen.Ends) != 1 || seen.Ends[0].Aborted || seen.Ends[0].Outcome != rec.Outcome || seen.Ends[0].GameID != "m/4" {
			t.Fatalf("seat %d was told the end %+v, want the outcome once", i, seen.Ends)
		}
		// Every event of the seat once, in order, each batch from where the last one ended.
		var got []engine.Event
		streamed := 0
		for _, d := range seen.Delivered {
			if d.First != len(got) {
				t.Errorf("seat %d: a batch of events from log index %d, want %d", i, d.First, len(got))
			}
			got = append(got, d.Events...)
			if d.Streamed {
				streamed++
			}
		}
		if want := st.EventsFor(seat, 0); !reflect.DeepEqual(got, want) {
			t.Errorf("seat %d got %d events, want its %d redacted events once each, in order", i, len(got), len(want))
		}
		if (streamed > 0) != (i == 1 || i == 2) {
			t.Errorf("seat %d got %d batches of streamed events (seat 1 streams, seat 2 for a while, the others never)", i, streamed)
		}
	}
}

// When the context ends, the deal is dropped: no record, ErrAborted, and every seat is told
// that the game ended without a result.
func TestContextEndsTheDeal(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		slow := domain.TimeControl{PerDecision: time.Minute, MaxStrikes: 3}
		seats := []*refereetest.Seat{refereetest.NewSeat(answering), refereetest.NewSeat(refereetest.Quiet), refereetest.NewSeat(answering)}
		table := newTable(t, "modern", slow, seats...)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		rec, err := referee.Play(ctx, table)
		if !errors.Is(err, referee.ErrAborted) || rec != nil {
			t.Fatalf("Play = %v, %v; want no record and ErrAborted", rec, err)
		}
		for i, s := range seats {
			if ends := s.Seen().Ends; len(ends) != 1 || !ends[0].Aborted || ends[0].GameID != "m/0" {
				t.Errorf("seat %d was told the end %+v, want one aborted end", i, ends)
			}
		}
	})
}

// A watcher sees every event as it happens, with the public view beside it; while nobody
// watches, nothing is built for it.
func TestWatchSeesEveryEventWithItsPublicView(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		for _, watching := range []bool{true, false} {
			table := newTable(t, "modern", clock, refereetest.NewSeat(answering), refereetest.NewSeat(answering), refereetest.NewSeat(answering))
			var all, public []engine.Event
			table.Watch = func(number int, ev engine.Event, pub []engine.Event) {
				if number != table.Number || len(pub) != 1 {
					t.Errorf("watched deal %d with %d public events, want deal %d with one", number, len(pub), table.Number)
				}
				all, public = append(all, ev), append(public, pub...)
			}
			table.Watching = func() bool { return watching }
			rec := play(t, table)
			st := finalState(t, table, rec)
			if !watching {
				if len(all) > 0 {
					t.Errorf("%d events built for a watcher while nobody watched", len(all))
				}
				continue
			}
			if want := st.EventsSince(0); !reflect.DeepEqual(all, want) {
				t.Errorf("watched %d events, want the deal's %d", len(all), len(want))
			}
			if want := st.EventsFor(engine.NoSeat, 0); !reflect.DeepEqual(public, want) {
				t.Errorf("watched %d public events, want the deal's public view", len(public))
			}
			if slices.Equal(all, public) {
				t.Error("the public view shows what the full events show: the hands are not hidden")
			}
		}
	})
}
