package encode

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/internal/encode/encodetest"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	wf "github.com/tapparena/tapp/arena/internal/wireform"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// marshal is the reference: the protobuf message built by the converters, marshalled.
func marshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The hand-written encoder must give the very bytes of the protobuf messages it stands for,
// for every decision of random deals of every variant, with the events sent along.
func TestAppendRequestIsProtoMarshal(t *testing.T) {
	t.Parallel()
	encodetest.EachRequest(t, 60, func(rr encodetest.Request) {
		r := *rr.Req
		if rr.Index%2 == 0 {
			r.Rules = "" // a request built by hand may leave it out
		}
		want := marshal(t, &tappv1.DecisionRequest{GameId: r.GameID, RequestId: r.RequestID,
			Decision: protoconv.DecisionToProto(r.Observation.Decision), Legal: protoconv.ActionsToProto(r.Legal), Deadline: protoconv.Timestamp(r.Deadline),
			OverageLeft: protoconv.Duration(r.OverageLeft), Observation: protoconv.ObservationToProto(r.Observation), Events: protoconv.EventsToProto(r.Events, r.FirstEvent)})
		if got := AppendRequest(nil, &r); !bytes.Equal(got, want) {
			t.Fatalf("%s deal %d decision %d: encoded\n%x\nwant\n%x", rr.Rules, rr.Deal, rr.Index, got, want)
		}
	})
}

// Every kind of event, as every seat and the public see it, with and without the table size.
func TestAppendEventIsProtoMarshal(t *testing.T) {
	t.Parallel()
	for _, text := range encodetest.RuleSets {
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
			encodetest.PlayOut(t, st, rng)
			views := [][]engine.Event{st.Events(), st.EventsFor(engine.NoSeat, 0)}
			for seat := range rules.Players {
				views = append(views, st.EventsFor(engine.Seat(seat), 0))
			}
			for _, evs := range views {
				for i := range evs {
					kinds[evs[i].Kind] = true
					for _, players := range []int{0, rules.Players} {
						want := marshal(t, protoconv.EventToProto(&evs[i], i, players))
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
	for _, text := range encodetest.RuleSets {
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
			encodetest.PlayOut(t, st, rng)
			reveal := protoconv.RevealToProto(rules, deal, st)
			settlement := protoconv.SettlementForPlayers(protoconv.OutcomeToProto(st.Outcome()), rules.Players)
			for seat := range rules.Players {
				first := max(st.NumEvents()-3-seat*2, 0) // the seat's events since its last request
				evs := st.EventsFor(engine.Seat(seat), first)
				want := marshal(t, &tappv1.GameEnded{GameId: "m-5/9", Reveal: reveal, Settlement: settlement, Events: protoconv.EventsToProto(evs, first)})
				got := AppendGameEnded(nil, "m-5/9", marshal(t, reveal), marshal(t, settlement), evs, first)
				if !bytes.Equal(got, want) {
					t.Fatalf("%s deal %d seat %d: encoded\n%x\nwant\n%x", text, n, seat, got, want)
				}
				if msg, err := decodeResponse(wf.ResponseGameEnded, got); err != nil || msg.GetGameEnded().GetGameId() != "m-5/9" {
					t.Fatalf("decodeResponse: %v, %v", msg, err)
				}
			}
		}
	}
}

// A deal's reveal and settlement, encoded by hand, are the very bytes of their protobuf
// messages, for random deals of every variant (thrown in, won, lost, drawn), and a reveal
// without the state.
func TestAppendRevealAndSettlementAreProtoMarshal(t *testing.T) {
	t.Parallel()
	for _, text := range encodetest.RuleSets {
		rules, err := engine.ParseRuleSet(text)
		if err != nil {
			t.Fatal(err)
		}
		rng := engine.NewRand(3, 0)
		for n := range 60 {
			deal := engine.DealFromSeed(rules, 8, uint64(n))
			var opts engine.Options
			if rules.Pot {
				opts.Pot = n % 3 * 20
			}
			st, err := engine.NewState(rules, deal, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := AppendReveal(nil, rules, deal, nil), marshal(t, protoconv.RevealToProto(rules, deal, nil)); !bytes.Equal(got, want) {
				t.Fatalf("%s deal %d, no state: reveal\n%x\nwant\n%x", text, n, got, want)
			}
			encodetest.PlayOut(t, st, rng)
			if got, want := AppendReveal(nil, rules, deal, st), marshal(t, protoconv.RevealToProto(rules, deal, st)); !bytes.Equal(got, want) {
				t.Fatalf("%s deal %d: reveal\n%x\nwant\n%x", text, n, got, want)
			}
			want := marshal(t, protoconv.SettlementForPlayers(protoconv.OutcomeToProto(st.Outcome()), rules.Players))
			if got := AppendSettlement(nil, st.Outcome(), rules.Players); !bytes.Equal(got, want) {
				t.Fatalf("%s deal %d (%+v): settlement\n%x\nwant\n%x", text, n, st.Outcome(), got, want)
			}
		}
	}
}

// decodeResponse decodes a ConnectResponse message sent in wire form (kind and body).
func decodeResponse(kind protowire.Number, body []byte) (*tappv1.ConnectResponse, error) {
	b := protowire.AppendTag(nil, kind, protowire.BytesType)
	msg := &tappv1.ConnectResponse{}
	return msg, proto.Unmarshal(protowire.AppendBytes(b, body), msg)
}
