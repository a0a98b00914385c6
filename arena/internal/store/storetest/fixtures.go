package storetest

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// Rules parses a rule set or fails the test.
func Rules(t testing.TB, text string) engine.RuleSet {
	t.Helper()
	r, err := engine.ParseRuleSet(text)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// NewMatch stores a duplicate match of 12 deal sources among bots under modern Tapp for 3
// players (in league, when not empty) and returns it.
func NewMatch(t testing.TB, s domain.Store, league string, bots ...string) *domain.Match {
	t.Helper()
	m := &domain.Match{Spec: domain.MatchSpec{
		Rules: Rules(t, "modern"), Bots: bots, Deals: 12, Seed: 1<<63 + 12345, Duplicate: true,
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

// SentBytes is a stand-in for a recorded decision request of about size bytes: opaque binary,
// as the protobuf wire form is, with NUL bytes, bytes that are not UTF-8, a part that repeats
// (as observations do) and a part that does not compress (so that a deal of these stays
// about size/2 bytes per decision when stored). A store must keep it exactly.
func SentBytes(i, size int) []byte {
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

// SampleDeal is a realistic deal record of match m: the deal from the match's seed (its
// group's, in a duplicate match), the
// given number of decisions (a round of bids, a contract, then cards), each with about
// sentSize bytes of request (binary, see SentBytes), a rejected answer, a strike, and one
// result per seat.
func SampleDeal(t testing.TB, m *domain.Match, number, decisions, sentSize int) *domain.DealRecord {
	t.Helper()
	rules := m.Spec.Rules
	seats := rules.Players
	source := uint64(number)
	if m.Spec.Duplicate {
		source /= 6 // every seating of a duplicate group plays its source's deal, as in play
	}
	deal := engine.DealFromSeed(rules, m.Spec.Seed, source)
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
			RequestID: fmt.Sprintf("r-%d-%d", number, i), Sent: SentBytes(i, sentSize),
			Attempts: []domain.AnswerAttempt{{Text: act, After: time.Duration(1000+i) * time.Microsecond}},
			Action:   action, Latency: time.Duration(1000+i) * time.Microsecond,
			Think: time.Duration(700+i)*time.Microsecond + time.Duration(i)*time.Nanosecond, // a store may keep the nanoseconds
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

// AtMicros is a deal record at the precision every store keeps: every time in whole µs (the
// start in UTC), and no request marked as built from the state (that is not stored).
func AtMicros(d *domain.DealRecord) *domain.DealRecord {
	c := *d
	c.Started = time.UnixMicro(d.Started.UnixMicro()).UTC()
	c.Duration = d.Duration.Truncate(time.Microsecond)
	c.Decisions = make([]domain.DecisionRecord, len(d.Decisions))
	for i, x := range d.Decisions {
		x.Latency, x.Think, x.ArenaShare = x.Latency.Truncate(time.Microsecond), x.Think.Truncate(time.Microsecond), x.ArenaShare.Truncate(time.Microsecond)
		x.Asked = time.Time{} // not stored: the request's deadline gives it
		x.SentFromState = false
		if x.Attempts != nil {
			as := slices.Clone(x.Attempts)
			for j := range as {
				as[j].After = as[j].After.Truncate(time.Microsecond)
			}
			x.Attempts = as
		}
		c.Decisions[i] = x
	}
	if d.Decisions == nil {
		c.Decisions = nil
	}
	return &c
}

// CheckDeal checks a deal read back against the one saved: equal at the precision every
// store keeps (AtMicros), its digest, if it has one, the digest of the requests saved.
func CheckDeal(t testing.TB, got, saved *domain.DealRecord) {
	t.Helper()
	got = CheckedDigest(t, got, saved)
	if g, w := AtMicros(got), AtMicros(saved); !reflect.DeepEqual(g, w) {
		DiffDeal(t, g, w)
	}
}

// CheckedDigest checks the digest of the requests a deal read back carries, if it carries one
// (its store rebuilds them on reading), against the requests saved, and returns the deal
// without it, to compare with what was saved.
func CheckedDigest(t testing.TB, got, saved *domain.DealRecord) *domain.DealRecord {
	t.Helper()
	if got == nil || got.SentDigest == nil {
		return got
	}
	if want := domain.SentDigest(saved.Decisions); !bytes.Equal(got.SentDigest, want[:]) {
		t.Errorf("deal %d: SentDigest %x, want %x (the requests saved)", saved.Number, got.SentDigest, want)
	}
	g := *got
	g.SentDigest = nil
	return &g
}

// DiffDeal reports which parts of two deal records differ.
func DiffDeal(t testing.TB, got, want *domain.DealRecord) {
	t.Helper()
	g, w := *got, *want
	g.Decisions, w.Decisions, g.Results, w.Results = nil, nil, nil, nil
	if !reflect.DeepEqual(g, w) {
		t.Errorf("deal %d:\n got %+v\nwant %+v", want.Number, g, w)
	}
	if len(got.Decisions) != len(want.Decisions) {
		t.Errorf("deal %d: %d decisions, want %d", want.Number, len(got.Decisions), len(want.Decisions))
	}
	for i := range min(len(got.Decisions), len(want.Decisions)) {
		if !reflect.DeepEqual(got.Decisions[i], want.Decisions[i]) {
			t.Errorf("deal %d decision %d:\n got %+v\nwant %+v", want.Number, i, got.Decisions[i], want.Decisions[i])
		}
	}
	if !reflect.DeepEqual(got.Results, want.Results) {
		t.Errorf("deal %d results:\n got %+v\nwant %+v", want.Number, got.Results, want.Results)
	}
}
