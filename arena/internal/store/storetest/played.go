package storetest

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/encode"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/internal/referee/refereetest"
	"github.com/tapparena/tapp/engine"
)

// encodeRequest is a request in the wire form the arena sends it in (what the gRPC session
// and the in-process adapter record): the one place the suite builds it.
func encodeRequest(r *referee.Request) []byte {
	return encode.AppendRequest(nil, r)
}

// playedClock is the clock of the played deals: 1 s per decision, a 2 s bank, 2 strikes.
var playedClock = domain.TimeControl{PerDecision: time.Second, Overage: 2 * time.Second, MaxStrikes: 2}

// playedScripts are the seats' scripts of the played deals: answers at once, late (from
// the bank, and past it), wrong (malformed, for unknown requests, a flood), twice, none;
// a resume, a switch of the event stream, a bot that leaves.
func playedScripts(number int) []*refereetest.Seat {
	ms := time.Millisecond
	at := func(d time.Duration) refereetest.Reply { return refereetest.Reply{After: d, Think: d / 3} }
	answer := refereetest.Step{Replies: []refereetest.Reply{at(20 * ms)}}
	twice := refereetest.Step{Replies: []refereetest.Reply{at(30 * ms), at(40 * ms)}}
	wrong := refereetest.Step{Replies: []refereetest.Reply{{After: 10 * ms, Action: "no such action"},
		{After: 10 * ms, Request: "r999"}, at(25 * ms)}}
	flood := refereetest.Step{Replies: []refereetest.Reply{{After: 10 * ms, Action: "no such action", Times: 70}, at(30 * ms)}}
	seats := []*refereetest.Seat{
		refereetest.NewSeat(answer, twice, answer, refereetest.Step{Resume: true, Replies: []refereetest.Reply{at(200 * ms)}}),
		refereetest.NewSeat(answer, answer, refereetest.Step{Switch: true, Replies: []refereetest.Reply{at(1300 * ms)}}, answer,
			refereetest.Step{Switch: true, Replies: []refereetest.Reply{at(3500 * ms)}}),
		refereetest.NewSeat(answer, wrong, refereetest.Quiet, flood, answer, refereetest.Step{HandAfter: 300 * ms, Replies: []refereetest.Reply{at(50 * ms)}}),
		refereetest.NewSeat(answer, answer, refereetest.Step{Replies: []refereetest.Reply{at(1500 * ms)}}, refereetest.Step{Leave: true}),
	}
	seats[1].Stream = number%2 == 0
	for _, s := range seats {
		s.Encode = encodeRequest
	}
	return seats
}

// playDeals plays the deals of m with the referee against playedScripts, in fake time.
func playDeals(t *testing.T, m *domain.Match) []*domain.DealRecord {
	t.Helper()
	var out []*domain.DealRecord
	synctest.Test(t, func(t *testing.T) {
		spec := m.Spec
		for n := range spec.Deals {
			seats := playedScripts(n)
			players := make([]referee.Player, spec.Rules.Players)
			for i := range players {
				players[i] = referee.Player{Bot: spec.Bots[i], Conn: seats[i], Clock: referee.NewClock(spec.TimeControl)}
			}
			opts := engine.Options{ForcedRamsch: spec.Rules.Variant == engine.Modern && n == 1}
			if spec.Rules.Pot {
				opts.Pot = 40 * n
			}
			rec, err := referee.Play(context.Background(), &referee.Table{MatchID: m.ID, Number: n, Group: n, Rules: spec.Rules,
				Deal: engine.DealFromSeed(spec.Rules, spec.Seed, uint64(n)), Options: opts, Players: players, TimeControl: spec.TimeControl})
			if err != nil {
				t.Fatalf("%s deal %d: Play: %v", spec.Rules, n, err)
			}
			for _, s := range seats {
				s.Wait()
			}
			out = append(out, rec)
		}
	})
	return out
}

// Deals the referee played — with refused answers, late ones, strikes, duplicates, a flood,
// a bot that left — read back as they were played: every decision record, every request as
// the bot got it, byte for byte.
func testPlayedDeals(t *testing.T, s Store) {
	ctx := context.Background()
	var refused, flooded, strikes, unasked, overage, streamed int
	for i, text := range []string{"modern", "modern players=4", "classic pot=on"} {
		rules := Rules(t, text)
		m := &domain.Match{Spec: domain.MatchSpec{Rules: rules, Bots: []string{"north", "east", "south", "west"}[:rules.Players],
			Deals: 2, Seed: uint64(i + 1), TimeControl: playedClock}}
		if err := s.CreateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
		deals := playDeals(t, m)
		for _, d := range deals {
			if err := s.SaveDeal(ctx, d); err != nil {
				t.Fatalf("%s deal %d: SaveDeal: %v", text, d.Number, err)
			}
		}
		got, err := s.Deals(ctx, m.ID)
		if err != nil || len(got) != len(deals) {
			t.Fatalf("%s: Deals = %d deals, %v; want %d", text, len(got), err, len(deals))
		}
		for j, d := range deals {
			CheckDeal(t, &got[j], d)
			for _, x := range d.Decisions {
				flooded += x.Flooded
				for _, a := range x.Attempts {
					if a.Rejected != "" {
						refused++
					}
				}
				switch {
				case x.Strike:
					strikes++
				case x.Fallback && x.RequestID == "":
					unasked++
				case x.Latency > playedClock.PerDecision:
					overage++
				}
				if len(x.Sent) == 0 && x.RequestID != "" {
					t.Errorf("%s deal %d decision %d: a request without its wire form", text, d.Number, x.Index)
				}
			}
			if d.Seating[1] == "east" && d.Number%2 == 0 {
				streamed++
			}
		}
	}
	if refused == 0 || flooded == 0 || strikes == 0 || unasked == 0 || overage == 0 || streamed == 0 {
		t.Errorf("the scripts did not play every case: %d refused answers (%d counted past the attempts kept), %d strikes, "+
			"%d decisions without a request, %d overruns, %d streaming deals", refused, flooded, strikes, unasked, overage, streamed)
	}
}
