package server_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// hashLegal answers with a legal action chosen by a hash of the game and request ids: varied
// play that is the same on every run.
func hashLegal(req *tappv1.DecisionRequest) *string {
	h := fnv.New64a()
	h.Write([]byte(req.GetGameId() + "|" + req.GetRequestId()))
	return &req.Legal[h.Sum64()%uint64(len(req.Legal))]
}

// TestNoMessageLeaksAHiddenCard is the arena's main security property (TAPP-RULES.md §8): it
// records every message each bot receives over 1,000 deals of every variant and checks every
// card in it against what that seat may know at that moment, computed from the true deal and
// the moves — independently of the engine's observation code.
func TestNoMessageLeaksAHiddenCard(t *testing.T) {
	t.Parallel()
	deals := 1000
	if testing.Short() {
		deals = 150
	}
	ruleSets := []string{
		"wuerttemberg", "classic pot=on", "modern", "modern frage=on", "modern players=4",
		"modern pack=32", "modern players=4 pack=32 frage=on",
	}
	for _, text := range ruleSets {
		t.Run(strings.ReplaceAll(text, " ", "_"), func(t *testing.T) {
			t.Parallel()
			rules, err := engine.ParseRuleSet(text)
			if err != nil {
				t.Fatal(err)
			}
			a := newTestArena(t, 5*time.Second)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			names := []string{"north", "east", "south", "west"}[:rules.Players]
			var recorders []*rawBot
			for i, name := range names {
				hello := &tappv1.Hello{Name: name, Version: "leak-test", Capacity: 8, StreamEvents: i%2 == 0}
				b, err := a.connectRaw(ctx, name, a.register(name), hello, hashLegal)
				if err != nil {
					t.Fatal(err)
				}
				recorders = append(recorders, b)
			}
			spec := domain.MatchSpec{Rules: rules, Bots: names, Deals: deals, Seed: 42,
				TimeControl: domain.TimeControl{PerDecision: 5 * time.Second, Overage: 10 * time.Second, MaxStrikes: 3}}
			res := a.play(ctx, spec)
			if res.Deals != deals {
				t.Fatalf("deals played = %d, want %d", res.Deals, deals)
			}
			records, err := a.store.Deals(ctx, res.Match.ID)
			if err != nil {
				t.Fatal(err)
			}
			byGame := make(map[string]*domain.DealRecord)
			for i := range records {
				byGame[fmt.Sprintf("%s/%d", res.Match.ID, records[i].Number)] = &records[i]
			}
			checked := 0
			for _, b := range recorders {
				checked += checkMessages(t, rules, b, byGame)
			}
			if checked < deals*rules.Players*5 {
				t.Fatalf("only %d messages checked for %d deals: the recorders saw too little", checked, deals)
			}
		})
	}
}

// checkMessages checks every message one bot received; it returns how many it checked.
func checkMessages(t *testing.T, rules engine.RuleSet, b *rawBot, byGame map[string]*domain.DealRecord) int {
	t.Helper()
	seatOf := make(map[string]engine.Seat)
	checked := 0
	for _, msg := range b.messages() {
		var game string
		var moves int // how many moves had happened when the message was sent
		switch m := msg.GetMessage().(type) {
		case *tappv1.ConnectResponse_GameStarted:
			game, moves = m.GameStarted.GetGameId(), 0
			seatOf[game] = engine.Seat(m.GameStarted.GetSeat())
		case *tappv1.ConnectResponse_DecisionRequest:
			game, moves = m.DecisionRequest.GetGameId(), len(m.DecisionRequest.GetObservation().GetHistory())
		case *tappv1.ConnectResponse_Event:
			game = m.Event.GetGameId()
			rec := byGame[game]
			if rec == nil {
				t.Fatalf("%s: event for unknown game %s", b.name, game)
			}
			moves = movesBeforeEvent(t, rules, rec, int(m.Event.Events[len(m.Event.Events)-1].GetIndex()))
		default:
			continue // Welcome, Fallback, AnswerRejected carry no cards; GameEnded reveals all by rule
		}
		rec := byGame[game]
		if rec == nil {
			t.Fatalf("%s: message for unknown game %s", b.name, game)
		}
		seat := seatOf[game]
		known := knownCards(rules, rec, seat, moves)
		for _, c := range cardsIn(msg.ProtoReflect()) {
			if !known.Has(c) {
				t.Fatalf("LEAK: %s (seat %d) received card %s after %d moves of deal %s, which it may not know.\nmessage: %v",
					b.name, seat, c, moves, rec.Deal.Format(rules), msg)
			}
		}
		checked++
	}
	return checked
}

// knownCards is what seat may know after the first n moves of a deal (R-INFO-1..4), computed
// from the true deal: its own hand, every card played, called cards, and its private facts.
func knownCards(rules engine.RuleSet, rec *domain.DealRecord, seat engine.Seat, n int) engine.CardSet {
	if n >= len(rec.Moves) {
		return engine.FullPack36 // the deal is over: everything is revealed (R-INFO-4)
	}
	known := rec.Deal.Hands[seat]
	decl, contract := rec.Outcome.Declarer, rec.Outcome.Contract
	declarerPlayed := false
	for i, m := range rec.Moves[:n] {
		a := m.Action
		switch a.Kind {
		case engine.ActCard:
			known = known.With(a.Card)
			if m.Seat == decl {
				declarerPlayed = true
			}
		case engine.ActCall:
			known = known.With(a.Card) // the card's name is public; where it lies is announced
		case engine.ActGive:
			if seat == m.Seat || rec.Deal.Hands[seat].Has(calledCard(rec.Moves[:i])) {
				known = known.With(a.Card) // R-INFO-3: declarer and former holder only
			}
		}
	}
	if contract == engine.Frage && seat == decl && n >= bidMoves(rec.Moves) {
		known |= rec.Deal.Tapp // R-INFO-2: he took it up
	}
	if contract == engine.Ouvert && declarerPlayed {
		known |= rec.Deal.Hands[decl] // R-MOD-OUVERT: the rest of his hand lies face up
	}
	return known
}

func calledCard(moves []engine.Move) engine.Card {
	for _, m := range moves {
		if m.Action.Kind == engine.ActCall {
			return m.Action.Card
		}
	}
	return engine.NoCard
}

func bidMoves(moves []engine.Move) int {
	for i, m := range moves {
		if k := m.Action.Kind; k != engine.ActPass && k != engine.ActPlay && k != engine.ActBid {
			return i
		}
	}
	return len(moves)
}

// movesBeforeEvent replays a record to find how many moves had been applied when the event
// with the given log index was written.
func movesBeforeEvent(t *testing.T, rules engine.RuleSet, rec *domain.DealRecord, index int) int {
	st, err := engine.NewState(rules, rec.Deal, rec.Options)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range rec.Moves {
		if len(st.Events()) > index {
			return i
		}
		if err := st.Apply(m.Action); err != nil {
			t.Fatal(err)
		}
	}
	return len(rec.Moves)
}

// cardsIn collects every card named anywhere in a message: card fields, card lists, and the
// cards inside actions. The names of callable cards (legal "call:" options) are skipped: a
// call option names a card the caller lacks, not where it lies.
func cardsIn(m protoreflect.Message) []engine.Card {
	var out []engine.Card
	add := func(fd protoreflect.FieldDescriptor, s string) {
		if s == "" || fd.Name() == "rules" || fd.Name() == "game_id" || fd.Name() == "request_id" || fd.Name() == "match_id" {
			return
		}
		if c, err := engine.ParseCard(s); err == nil {
			out = append(out, c)
			return
		}
		if a, err := engine.ParseAction(s); err == nil && a.Card.Valid() && a.Kind != engine.ActCall {
			out = append(out, a.Card)
		}
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Kind() == protoreflect.StringKind:
			for i := 0; i < v.List().Len(); i++ {
				add(fd, v.List().Get(i).String())
			}
		case fd.IsList() && fd.Kind() == protoreflect.MessageKind:
			for i := 0; i < v.List().Len(); i++ {
				out = append(out, cardsIn(v.List().Get(i).Message())...)
			}
		case fd.Kind() == protoreflect.StringKind:
			add(fd, v.String())
		case fd.Kind() == protoreflect.MessageKind && !fd.IsMap():
			out = append(out, cardsIn(v.Message())...)
		}
		return true
	})
	return out
}
