package wire

import (
	"bytes"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

var encodeRuleSets = []string{"modern", "modern frage=on", "modern players=4", "modern pack=32", "classic",
	"wuerttemberg pot=on"}

// marshal is the reference: the protobuf message built by the converters, marshalled.
func marshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// randomRequest is one decision of a random deal, as the referee would put it in a request.
type randomRequest struct {
	rules string // the rule set's text as in encodeRuleSets
	deal  int
	index int // the decision's number in the deal
	req   *Request
}

// eachRandomRequest calls f with the request of every decision of deals random deals of every
// rule set of encodeRuleSets (a pot carried in and forced Ramsch deals among them), with the
// events since the seat's last request, as the referee sends them.
func eachRandomRequest(t testing.TB, deals int, f func(r randomRequest)) {
	for _, text := range encodeRuleSets {
		rules, err := engine.ParseRuleSet(text)
		if err != nil {
			t.Fatal(err)
		}
		rng := engine.NewRand(5, 0)
		for n := range deals {
			var opts engine.Options
			if rules.Pot {
				opts.Pot = n % 3 * 20
			}
			if rules.Variant == engine.Modern {
				opts.ForcedRamsch = n%7 == 0
			}
			st, err := engine.NewState(rules, engine.DealFromSeed(rules, 8, uint64(n)), opts)
			if err != nil {
				t.Fatal(err)
			}
			sent := make([]int, rules.Players)
			var legal []engine.Action
			for i := 0; !st.Terminal(); i++ {
				seat := st.ToMove()
				obs := st.Observe(seat)
				evs := st.EventsFor(seat, sent[seat])
				r := &Request{GameID: "m-1/2", RequestID: "r" + string(rune('a'+i%26)), Legal: obs.Legal,
					Deadline:    time.Unix(1_800_000_000+int64(i), int64(i)*7919),
					OverageLeft: time.Duration(i-5) * 123456789, // negative too
					Observation: &obs, Events: evs, FirstEvent: sent[seat]}
				if i%2 == 0 {
					r.Rules = rules.String()
				}
				f(randomRequest{rules: text, deal: n, index: i, req: r})
				sent[seat] += len(evs)
				legal = st.LegalActions(legal[:0])
				if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// playOut plays random legal actions until the deal is over.
func playOut(t testing.TB, st *engine.State, rng *engine.Rand) {
	var legal []engine.Action
	for !st.Terminal() {
		legal = st.LegalActions(legal[:0])
		if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
}

// The hand-written encoder must give the very bytes of the protobuf messages it stands for,
// for every decision of random deals of every variant, with the events sent along.
func TestAppendRequestIsProtoMarshal(t *testing.T) {
	t.Parallel()
	eachRandomRequest(t, 60, func(rr randomRequest) {
		r := rr.req
		want := marshal(t, &tappv1.DecisionRequest{GameId: r.GameID, RequestId: r.RequestID,
			Decision: DecisionToProto(r.Observation.Decision), Legal: ActionsToProto(r.Legal), Deadline: Timestamp(r.Deadline),
			OverageLeft: Duration(r.OverageLeft), Observation: ObservationToProto(r.Observation), Events: EventsToProto(r.Events, r.FirstEvent)})
		if got := AppendRequest(nil, r); !bytes.Equal(got, want) {
			t.Fatalf("%s deal %d decision %d: encoded\n%x\nwant\n%x", rr.rules, rr.deal, rr.index, got, want)
		}
	})
}

// Every kind of event, as every seat and the public see it, with and without the table size.
func TestAppendEventIsProtoMarshal(t *testing.T) {
	t.Parallel()
	for _, text := range encodeRuleSets {
		rules, err := engine.ParseRuleSet(text)
		if err != nil {
			t.Fatal(err)
		}
		rng := engine.NewRand(9, 0)
		kinds := map[engine.EventKind]bool{}
		for n := range 40 {
			st, err := engine.NewState(rules, engine.DealFromSeed(rules, 4, uint64(n)), engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			playOut(t, st, rng)
			views := [][]engine.Event{st.Events(), st.EventsFor(engine.NoSeat, 0)}
			for seat := range rules.Players {
				views = append(views, st.EventsFor(engine.Seat(seat), 0))
			}
			for _, evs := range views {
				for i := range evs {
					kinds[evs[i].Kind] = true
					for _, players := range []int{0, rules.Players} {
						want := marshal(t, EventToProto(&evs[i], i, players))
						if got := AppendEvent(nil, &evs[i], i, players); !bytes.Equal(got, want) {
							t.Fatalf("%s deal %d event %d (%v, players %d): encoded %x, want %x", text, n, i, evs[i], players, got, want)
						}
					}
				}
			}
		}
		if len(kinds) < 8 {
			t.Errorf("%s: only %d event kinds seen; the test needs more deals", text, len(kinds))
		}
	}
}

// A game's end, encoded by hand around the reveal and settlement encoded once, is the very
// bytes of its protobuf message, for every seat of random deals of every variant.
func TestAppendGameEndedIsProtoMarshal(t *testing.T) {
	t.Parallel()
	for _, text := range encodeRuleSets {
		rules, err := engine.ParseRuleSet(text)
		if err != nil {
			t.Fatal(err)
		}
		rng := engine.NewRand(2, 0)
		for n := range 30 {
			deal := engine.DealFromSeed(rules, 6, uint64(n))
			st, err := engine.NewState(rules, deal, engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			playOut(t, st, rng)
			reveal := RevealToProto(rules, deal, st)
			settlement := SettlementForPlayers(OutcomeToProto(st.Outcome()), rules.Players)
			for seat := range rules.Players {
				first := max(st.NumEvents()-3-seat*2, 0) // the seat's events since its last request
				evs := st.EventsFor(engine.Seat(seat), first)
				want := marshal(t, &tappv1.GameEnded{GameId: "m-5/9", Reveal: reveal, Settlement: settlement, Events: EventsToProto(evs, first)})
				got := AppendGameEnded(nil, "m-5/9", marshal(t, reveal), marshal(t, settlement), evs, first)
				if !bytes.Equal(got, want) {
					t.Fatalf("%s deal %d seat %d: encoded\n%x\nwant\n%x", text, n, seat, got, want)
				}
				if msg, err := DecodeResponse(ResponseGameEnded, got); err != nil || msg.GetGameEnded().GetGameId() != "m-5/9" {
					t.Fatalf("DecodeResponse: %v, %v", msg, err)
				}
			}
		}
	}
}
