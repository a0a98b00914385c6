package web

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/internal/analysis"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/engine"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

// cardToken finds card notation inside any string of a response: a hand's "HA" as well as an
// action such as "give:C7".
var cardToken = regexp.MustCompile(`(?:^|[^A-Za-z0-9])([CSHD](?:[6-9]|T|J|Q|K|A))(?:$|[^A-Za-z0-9])`)

func collectStrings(v any, out *[]string) {
	switch x := v.(type) {
	case string:
		*out = append(*out, x)
	case []any:
		for _, e := range x {
			collectStrings(e, out)
		}
	case map[string]any:
		for k, e := range x {
			if k == "rules" || k == "legal" { // the rule set names no card; the options name cards to call, not holdings
				continue
			}
			collectStrings(e, out)
		}
	}
}

// cardsIn lists every card a message names anywhere.
func cardsIn(t *testing.T, step *viewv1.Step) []string {
	t.Helper()
	b, err := protojson.Marshal(step)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var texts, cards []string
	collectStrings(v, &texts)
	for _, s := range texts {
		for _, m := range cardToken.FindAllStringSubmatch(s, -1) {
			cards = append(cards, m[1])
		}
	}
	return cards
}

// known is what the engine says a seat may know at this point (TAPP-RULES.md §8): its hand,
// every card played, the called card, and what the rules show it (an exposed hand, a tapp it
// took up, its lay-away); everything once the deal is over.
func known(o engine.Observation) engine.CardSet {
	if o.Reveal != nil {
		return engine.CardSet(1<<engine.NumCards - 1)
	}
	k := o.Hand | o.Exposed | o.Tapp | o.Discarded | o.Dealt
	for s := range o.Played {
		k |= o.Played[s]
	}
	for _, c := range o.Current.Cards {
		if c.Valid() {
			k = k.With(c)
		}
	}
	if o.Called.Valid() {
		k = k.With(o.Called)
	}
	if o.Given.Valid() {
		k = k.With(o.Given)
	}
	return k
}

// TestReplayOfASeatNamesNoCardTheSeatDidNotKnow checks every string of every step of
// seat views against the engine's own information sets, replayed independently of the
// replay package.
func TestReplayOfASeatNamesNoCardTheSeatDidNotKnow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "replay.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const deals = 40
	matchID := fillRandomDeals(t, ctx, st, deals)
	m, err := st.GetMatch(ctx, matchID)
	if err != nil {
		t.Fatal(err)
	}
	v := NewView(st, nil, nil)
	checked := 0
	for n := 0; n < deals; n++ {
		rec, err := st.Deal(ctx, matchID, n)
		if err != nil {
			t.Fatal(err)
		}
		for seat := 0; seat < m.Spec.Rules.Players; seat++ {
			resp, err := v.GetReplay(ctx, &viewv1.GetReplayRequest{MatchId: matchID, DealNumber: int32(n), View: strconv.Itoa(seat)})
			if err != nil {
				t.Fatal(err)
			}
			game, err := engine.NewState(m.Spec.Rules, rec.Deal, rec.Options)
			if err != nil {
				t.Fatal(err)
			}
			for k, step := range resp.Steps {
				// A step shows the position before its decision and what the seat saw of it.
				before := known(game.Observe(engine.Seat(seat)))
				if k < len(rec.Moves) {
					if err := game.Apply(rec.Moves[k].Action); err != nil {
						t.Fatal(err)
					}
				}
				allowed := before | known(game.Observe(engine.Seat(seat)))
				for _, c := range cardsIn(t, step) {
					card, err := engine.ParseCard(c)
					if err != nil || !allowed.Has(card) {
						b, _ := protojson.Marshal(step)
						t.Fatalf("deal %d, seat %d, step %d names %s, which the seat did not know: %s", n, seat, k, c, b)
					}
					checked++
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no card checked")
	}
	// The full view, by contrast, shows the hands: the check above would catch one.
	full, err := v.GetReplay(ctx, &viewv1.GetReplayRequest{MatchId: matchID, DealNumber: 0, View: "full"})
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Steps[0].Hands) != m.Spec.Rules.Players || len(full.Steps[0].Hands[1].Cards) == 0 {
		t.Fatalf("the full view shows no hands: %v", full.Steps[0].Hands)
	}
}

// The analysis depends on every hand: a seat's or the public view gets it only with the end of
// the deal (whose reveal shows every hand), the full view at every step, each step its own
// decision's; and its numbers are the analysis package's.
func TestReplayAnalysisOnlyWhereTheViewSeesEveryCard(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "analysis.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	matchID := fillRandomDeals(t, ctx, st, 3)
	v := NewView(st, nil, nil)
	v.Analyses = NewAnalyses(st)
	for n := range 3 {
		full, err := v.GetReplayAnalysis(ctx, &viewv1.GetReplayAnalysisRequest{MatchId: matchID, DealNumber: int32(n), View: "full"})
		if err != nil {
			t.Fatal(err)
		}
		end := full.Steps[len(full.Steps)-1]
		for k, sa := range full.Steps[:len(full.Steps)-1] {
			for _, d := range sa.Decisions {
				if int(d.Decision) != k {
					t.Errorf("deal %d, full view: step %d carries decision %d's analysis", n, k, d.Decision)
				}
			}
		}
		for _, view := range []string{"0", "1", "2", "public"} {
			resp, err := v.GetReplayAnalysis(ctx, &viewv1.GetReplayAnalysisRequest{MatchId: matchID, DealNumber: int32(n), View: view})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Contract != "" || len(resp.Steps) != len(full.Steps) {
				t.Errorf("deal %d, view %s: contract %q and %d steps; want none and %d", n, view, resp.Contract, len(resp.Steps), len(full.Steps))
			}
			for k, sa := range resp.Steps[:len(resp.Steps)-1] {
				if sa.Par != nil || len(sa.Decisions) > 0 {
					t.Errorf("deal %d, view %s, step %d: analysis before the end: %v", n, view, k, sa)
				}
			}
			if got := resp.Steps[len(resp.Steps)-1]; !proto.Equal(got, end) {
				t.Errorf("deal %d, view %s: the end's analysis\n%v\nis not the full view's\n%v", n, view, got, end)
			}
		}
		// The same numbers as the analysis package gives.
		rec, err := st.Deal(ctx, matchID, n)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := st.GetMatch(ctx, matchID)
		want, err := analysis.Run{Workers: 1}.Deals(ctx, m.Spec.Rules, []*domain.DealRecord{rec})
		if err != nil {
			t.Fatal(err)
		}
		if len(end.Decisions) != len(want[0].Decisions) {
			t.Fatalf("deal %d: %d decisions analysed, the analysis package has %d", n, len(end.Decisions), len(want[0].Decisions))
		}
		for i, x := range want[0].Decisions {
			got := end.Decisions[i]
			if int(got.Decision) != x.Index || got.Loss != x.Loss || got.ParBefore != x.ParBefore || got.ParAfter != x.ParAfter || got.Kind != x.Kind {
				t.Errorf("deal %d: decision %+v, the analysis package says %+v", n, got, x)
			}
		}
	}
}
