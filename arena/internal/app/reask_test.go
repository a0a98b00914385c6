package app

import (
	"context"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/reask"
	"github.com/tapparena/tapp/bots/builtin"
)

// asker asks a built-in bot in this process.
func asker(t *testing.T, kind string) Asker {
	t.Helper()
	b, err := builtin.New(kind, 1)
	if err != nil {
		t.Fatal(err)
	}
	return Asker{Name: kind, Builtin: b, BuiltinKind: kind, Wait: 10 * time.Second}
}

// A deterministic bot asked again every decision it made decides every one as recorded; a
// new version that plays otherwise shows each change, valued against par where it can be.
func TestReplayDiff(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, m, src := playedSource(t, 1, "heuristic", "random", "random")
	deals, _, err := src.Recorded(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mine := 0
	for _, mv := range deals[0].Deal.Moves {
		if deals[0].Deal.Seating[mv.Seat] == "heuristic" {
			mine++
		}
	}
	var progress [][2]int
	same, err := ReplayDiff(ctx, DiffRequest{Bot: "heuristic", Source: m.ID, Deals: deals, Asker: asker(t, "heuristic"),
		Progress: func(done, total int) { progress = append(progress, [2]int{done, total}) }})
	if err != nil {
		t.Fatal(err)
	}
	if same.Asked != mine || len(same.Changed) != 0 || same.Version != "builtin/heuristic" {
		t.Fatalf("the same bot: %+v, want its %d decisions asked and none changed", same, mine)
	}
	if len(progress) != mine+1 || progress[0] != [2]int{0, mine} || progress[mine] != [2]int{mine, mine} {
		t.Errorf("progress %v, want 0 to %d of %d", progress, mine, mine)
	}
	other, err := ReplayDiff(ctx, DiffRequest{Bot: "heuristic", Source: m.ID, Deals: deals, Asker: asker(t, "random")})
	if err != nil {
		t.Fatal(err)
	}
	if other.Asked != mine || len(other.Changed) == 0 {
		t.Fatalf("another bot: %+v, want some of the %d decisions changed", other, mine)
	}
	net := 0.0
	for _, r := range other.Changed {
		if r.Then == r.Now || r.Now == "" || r.Match != m.ID {
			t.Errorf("change %+v: want what was played and what is played now", r)
		}
		if r.Valued && r.Unit != "card points" {
			net += r.Gain
		}
	}
	if net != other.NetGain {
		t.Errorf("net gain %v, the valued changes sum to %v", other.NetGain, net)
	}
	if _, err := ReplayDiff(ctx, DiffRequest{Bot: "nobody", Source: m.ID, Deals: deals, Asker: asker(t, "random")}); err == nil {
		t.Error("a bot that made no decision: no error")
	}
}

// Re-asking questions returns one answer per question, in order, from the bot asked.
func TestReaskAnswersInOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, _, src := playedSource(t, 1, "heuristic", "random", "random")
	mt, rec, err := src.Deal(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	var qs []*reask.Question
	for _, k := range []int{0, 3, len(rec.Moves) - 1} {
		q, err := reask.NewQuestion(mt, rec, k)
		if err != nil {
			t.Fatal(err)
		}
		qs = append(qs, q)
	}
	answers, err := Reask(ctx, asker(t, "heuristic"), qs)
	if err != nil {
		t.Fatal(err)
	}
	if len(answers) != 3 {
		t.Fatalf("%d answers to 3 questions", len(answers))
	}
	for i, a := range answers {
		if !a.Answered || a.Bot != "heuristic" {
			t.Errorf("answer %d: %+v, want an answer of the heuristic", i, a)
		}
		if qs[i].Recorded.Bot == "heuristic" && !a.Same(qs[i]) {
			t.Errorf("question %d, the heuristic's own decision: answered %s, recorded %s", qs[i].Index, a.Action, qs[i].Recorded.Action)
		}
	}
}
