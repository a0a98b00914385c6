package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/engine"
)

// The replay viewer shows the whole deal: the bidding log and every trick as stored, the
// analysis of each decision as `tapp analyze --json` gives it (beside the card in the full
// view, at the end of the deal in a seat's view), and in a seat's view no card, on any part
// of the page, that the seat did not know at that step.

// shownEntry is a row of the bidding log or a card of the trick log as the page shows them.
type shownEntry struct {
	Decision int    `json:"decision"`
	Seat     int    `json:"seat"`
	Action   string `json:"action"`
	Loss     string `json:"loss"`
}

type shownTrick struct {
	Leader int      `json:"leader"`
	Winner int      `json:"winner"`
	Cards  []string `json:"cards"`
	Losses []string `json:"losses"`
	Steps  []int    `json:"steps"`
}

const (
	jsBidding = `[...document.querySelectorAll("#bidding-log tr")].map(r => ({decision: +r.dataset.decision, seat: +r.dataset.seat,
		action: r.dataset.action, loss: r.querySelector("[data-regret]").dataset.regret}))`
	jsTricks = `[...document.querySelectorAll("#trick-log tr")].map(r => ({leader: +r.dataset.leader, winner: +r.dataset.winner,
		cards: [...r.querySelectorAll(".trick-card")].map(c => c.querySelector(".card").dataset.card),
		losses: [...r.querySelectorAll(".trick-card")].map(c => (c.querySelector("[data-loss]") || {dataset: {loss: ""}}).dataset.loss),
		steps: [...r.querySelectorAll(".trick-card")].map(c => +c.dataset.cardDecision)}))`
)

// analyzed is the part of `tapp analyze --json` the page shows.
type analyzed struct {
	Deals []struct {
		Number    int `json:"deal"`
		Decisions []struct {
			Index     int      `json:"index"`
			Seat      int      `json:"seat"`
			Kind      string   `json:"kind"`
			Loss      float64  `json:"loss"`
			Best      []string `json:"best"`
			ParBefore float64  `json:"par_before"`
			ParAfter  float64  `json:"par_after"`
		} `json:"decisions"`
	} `json:"deals"`
}

func TestWebReplayShowsTheWholeDeal(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "deal.db")
	// Heuristic bots bid and declare; with this seed the first deal is a Frage, whose tapp and
	// lay-away only its declarer sees before the end.
	if out, err := exec.Command(tappBin, "match", "--in-process", "--bots", "heuristic,heuristic,random", "--rules", "modern frage=on",
		"--deals", "4", "--seed", "6", "--db", db).CombinedOutput(); err != nil {
		t.Fatalf("tapp match: %v\n%s", err, out)
	}
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := st.ListMatches(context.Background(), domain.MatchFilter{})
	if err != nil || len(ms) != 1 {
		t.Fatalf("stored matches: %v, %v", ms, err)
	}
	m := ms[0]
	// A deal with a contract that is not a Ramsch (so it has a par and a declaration).
	number := -1
	var rec *domain.DealRecord
	for n := range 4 {
		d, err := st.Deal(context.Background(), m.ID, n)
		if err != nil {
			t.Fatal(err)
		}
		if d.Outcome.Contract != engine.Ramsch && !d.Outcome.ThrownIn {
			number, rec = n, d
			break
		}
	}
	st.Close()
	if rec == nil {
		t.Fatal("no deal of the match was declared: choose another seed")
	}
	base := startWeb(t, db)
	ctx := browser(t)

	// The full view at the end: the page computes the analysis (none is stored yet).
	open(t, ctx, base, fmt.Sprintf("#/replay/%s/%d?view=full&step=%d", m.ID, number, len(rec.Moves)))
	waitAnalysis(t, ctx)
	bids, tricks := evalJS[[]shownEntry](t, ctx, jsBidding), evalJS[[]shownTrick](t, ctx, jsTricks)
	wantBids, wantTricks := storedLogs(t, &m, rec)
	if got, want := entriesText(bids), entriesText(wantBids); got != want {
		t.Errorf("deal %d: the bidding log shows\n%s\nthe stored deal has\n%s", number, got, want)
	}
	if got, want := tricksText(tricks), tricksText(wantTricks); got != want {
		t.Errorf("deal %d: the tricks show\n%s\nthe stored deal has\n%s", number, got, want)
	}
	screenshot(t, ctx, "full-end")

	// What `tapp analyze --json` says of the deal (it stores it; the page computed its own).
	out, err := exec.Command(tappBin, "analyze", m.ID, "--deal", strconv.Itoa(number), "--json", "--db", db).Output()
	if err != nil {
		t.Fatalf("tapp analyze: %v", err)
	}
	var rep analyzed
	if err := json.Unmarshal(out, &rep); err != nil || len(rep.Deals) != 1 {
		t.Fatalf("tapp analyze --json: %v\n%s", err, out)
	}
	cardLoss, bidRegret := map[int]float64{}, map[int]float64{}
	for _, x := range rep.Deals[0].Decisions {
		if x.Kind == "card" {
			cardLoss[x.Index] = x.Loss
		} else {
			bidRegret[x.Index] = x.Loss
		}
	}
	checkLosses := func(when string, tricks []shownTrick, bids []shownEntry) {
		t.Helper()
		for _, tr := range tricks {
			for i, step := range tr.Steps {
				want, analysed := cardLoss[step]
				got := tr.Losses[i]
				if !analysed {
					if got != "" {
						t.Errorf("%s: decision %d shows a loss of %s; tapp analyze has none", when, step, got)
					}
					continue
				}
				if g, err := strconv.ParseFloat(got, 64); err != nil || math.Abs(g-want) > 1e-9 {
					t.Errorf("%s: decision %d (%s) shows a loss of %q; tapp analyze says %v", when, step, tr.Cards[i], got, want)
				}
			}
		}
		for _, b := range bids {
			if want, ok := bidRegret[b.Decision]; ok {
				if g, err := strconv.ParseFloat(b.Loss, 64); err != nil || math.Abs(g-want) > 1e-9 {
					t.Errorf("%s: bid %d shows a regret of %q; tapp analyze says %v", when, b.Decision, b.Loss, want)
				}
			}
		}
	}
	checkLosses("full view", tricks, bids)
	if len(cardLoss) == 0 {
		t.Fatal("tapp analyze analysed no card")
	}
	// Beside each analysed card of the full view: par before and after, the loss, the cards
	// that keep par.
	checked := 0
	for _, x := range rep.Deals[0].Decisions {
		if x.Kind != "card" || checked >= 4 {
			continue
		}
		checked++
		open(t, ctx, base, fmt.Sprintf("#/replay/%s/%d?view=full&step=%d", m.ID, number, x.Index))
		waitAnalysis(t, ctx)
		shown := evalJS[map[string]string](t, ctx, `({...(document.querySelector('#analysis [data-kind="card"]') || {dataset: {}}).dataset})`)
		for key, want := range map[string]float64{"loss": x.Loss, "parBefore": x.ParBefore, "parAfter": x.ParAfter} {
			if g, err := strconv.ParseFloat(shown[key], 64); err != nil || math.Abs(g-want) > 1e-9 {
				t.Errorf("decision %d: the panel shows %s %q; tapp analyze says %v", x.Index, key, shown[key], want)
			}
		}
		if shown["best"] != strings.Join(x.Best, " ") {
			t.Errorf("decision %d: the panel names %q as keeping par; tapp analyze says %v", x.Index, shown["best"], x.Best)
		}
		if checked == 1 {
			screenshot(t, ctx, "full-analysis")
		}
	}

	// A seat's view, the declarer's (who alone sees the tapp he takes up in a Frage) and the
	// public one: no card the view did not know, anywhere on the page, at any step; no
	// analysis before the end; at the end the reveal and the analysis (now the stored one).
	views := []struct {
		name, param string
		seat        engine.Seat
	}{{"seat", "1", 1}, {"public", "public", engine.NoSeat}}
	if d := rec.Outcome.Declarer; d != engine.NoSeat && d != 1 {
		views = append(views, struct {
			name, param string
			seat        engine.Seat
		}{"declarer", strconv.Itoa(int(d)), d})
	}
	var dealt []string
	for s := range m.Spec.Rules.Players {
		dealt = append(dealt, cardTexts(rec.Deal.Hands[s])...)
	}
	laidAway, afterLayAway := engine.CardSet(0), 0
	for k, mv := range rec.Moves {
		if mv.Action.Kind == engine.ActDiscard {
			laidAway, afterLayAway = laidAway.With(mv.Action.Card), k+1
		}
	}
	if rec.Outcome.Contract != engine.Frage || laidAway.Empty() {
		t.Errorf("deal %d is a %v without a lay-away: choose a seed whose first declared deal is a Frage", number, rec.Outcome.Contract)
	}
	for _, v := range views {
		known := seatKnowledge(t, &m, rec, v.seat)
		for k := 0; k <= len(rec.Moves); k++ {
			if k > afterLayAway && k%4 != 0 && k != len(rec.Moves) { // every step of the bidding, then every fourth
				continue
			}
			open(t, ctx, base, fmt.Sprintf("#/replay/%s/%d?view=%s&step=%d", m.ID, number, v.param, k))
			waitAnalysis(t, ctx)
			for _, c := range visibleCards(t, ctx, "#main .card") {
				card, err := engine.ParseCard(c)
				if err != nil || !known[k].Has(card) {
					t.Errorf("deal %d step %d: the %s view shows %s, which it did not know", number, k, v.name, c)
				}
			}
			// Nor in the page's text (the decision panel names the step's answer, which the
			// move makes known: a card played, not a card laid away).
			next := known[min(k+1, len(rec.Moves))]
			for _, word := range strings.FieldsFunc(evalJS[string](t, ctx, `document.querySelector("#main").innerText`), func(r rune) bool {
				return !('A' <= r && r <= 'Z' || '0' <= r && r <= '9')
			}) {
				if card, err := engine.ParseCard(word); err == nil && !next.Has(card) {
					t.Errorf("deal %d step %d: the %s view's text names %s, which it did not know", number, k, v.name, word)
				}
			}
			losses := evalJS[int](t, ctx, `document.querySelectorAll("[data-loss], [data-par]").length`)
			if k < len(rec.Moves) && losses > 0 {
				t.Errorf("deal %d step %d: the %s view shows %d analysis figures before the end (they depend on every hand)", number, k, v.name, losses)
			}
			if k == 8 {
				screenshot(t, ctx, v.name+"-view")
			}
		}
		if laidAway.Empty() {
			continue
		}
		// Right after the lay-away: the declarer sees what he laid away, the others that he did.
		open(t, ctx, base, fmt.Sprintf("#/replay/%s/%d?view=%s&step=%d", m.ID, number, v.param, afterLayAway))
		shown := evalJS[[]string](t, ctx, `[...document.querySelectorAll("#laidaway .card")].map(c => c.dataset.card)`)
		slices.Sort(shown)
		want := strings.Repeat("hidden ", laidAway.Len())
		if v.seat == rec.Outcome.Declarer {
			want = strings.Join(slices.Sorted(slices.Values(cardTexts(laidAway))), " ") + " "
		}
		if got := strings.Join(shown, " ") + " "; got != want {
			t.Errorf("step %d: the %s view's lay-away shows %q, want %q", afterLayAway, v.name, got, want)
		}
		open(t, ctx, base, fmt.Sprintf("#/replay/%s/%d?view=%s&step=%d", m.ID, number, v.param, len(rec.Moves)))
		waitAnalysis(t, ctx)
		seatTricks, seatBids := evalJS[[]shownTrick](t, ctx, jsTricks), evalJS[[]shownEntry](t, ctx, jsBidding)
		revealed := evalJS[[]string](t, ctx, `[...document.querySelectorAll("#felt [data-hand] .card")].map(c => c.dataset.card)`)
		checkLosses(v.name+" view, the end", seatTricks, seatBids)
		if got, want := tricksText(seatTricks), tricksText(wantTricks); got != want {
			t.Errorf("the end of the %s view shows the tricks\n%s\nthe stored deal has\n%s", v.name, got, want)
		}
		if strings.Join(revealed, " ") != strings.Join(dealt, " ") {
			t.Errorf("the end of the %s view shows hands %v; the rules reveal every hand as dealt: %v", v.name, revealed, dealt)
		}
		screenshot(t, ctx, v.name+"-end")
	}
}

// evalJS evaluates a script on the page.
func evalJS[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// waitAnalysis waits for the page's analysis request to come back.
func waitAnalysis(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`body[data-analysis="1"]`)); err != nil {
		t.Fatal(err)
	}
	note, _ := chromedp.Run(ctx, chromedp.Text("#analysis-status"))
	if strings.Contains(note, "analysis: none") || strings.Contains(note, "takes too long") {
		t.Fatalf("the page has no analysis: %s", note)
	}
}

// storedLogs is a stored deal's bidding log and tricks, replayed with the engine.
func storedLogs(t *testing.T, m *domain.Match, rec *domain.DealRecord) ([]shownEntry, []shownTrick) {
	t.Helper()
	st, err := engine.NewState(m.Spec.Rules, rec.Deal, rec.Options)
	if err != nil {
		t.Fatal(err)
	}
	var bids []shownEntry
	var tricks []shownTrick
	n := m.Spec.Rules.Players
	for k, mv := range rec.Moves {
		if mv.Action.Kind != engine.ActCard {
			bids = append(bids, shownEntry{Decision: k, Seat: int(mv.Seat), Action: mv.Action.String()})
		} else {
			if len(tricks) == 0 || len(tricks[len(tricks)-1].Cards) == n {
				tricks = append(tricks, shownTrick{Leader: int(mv.Seat), Winner: -1})
			}
			tr := &tricks[len(tricks)-1]
			tr.Cards, tr.Steps = append(tr.Cards, mv.Action.Card.String()), append(tr.Steps, k)
		}
		if err := st.Apply(mv.Action); err != nil {
			t.Fatal(err)
		}
	}
	for _, ev := range st.Events() {
		if ev.Kind == engine.EvTrickWon {
			tricks[ev.Trick].Winner = int(ev.Seat)
		}
	}
	return bids, tricks
}

func entriesText(es []shownEntry) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%d: seat %d %s\n", e.Decision, e.Seat, e.Action)
	}
	return b.String()
}

func tricksText(ts []shownTrick) string {
	var b strings.Builder
	for i, tr := range ts {
		fmt.Fprintf(&b, "trick %d led by %d: %v (decisions %v), won by %d\n", i+1, tr.Leader, tr.Cards, tr.Steps, tr.Winner)
	}
	return b.String()
}

func cardTexts(set engine.CardSet) []string {
	var out []string
	for _, c := range set.Cards(nil) {
		out = append(out, c.String())
	}
	return out
}

// seatKnowledge is, for every step (decision index, and the end), the cards the seat knew:
// its own hand as dealt and what it was shown, every card played, and at the end every card
// (R-INFO-4).
func seatKnowledge(t *testing.T, m *domain.Match, rec *domain.DealRecord, seat engine.Seat) []engine.CardSet {
	t.Helper()
	st, err := engine.NewState(m.Spec.Rules, rec.Deal, rec.Options)
	if err != nil {
		t.Fatal(err)
	}
	know := func() engine.CardSet {
		o := st.Observe(seat)
		k := o.Dealt | o.Hand | o.Exposed | o.Tapp | o.Discarded
		if o.Called.Valid() {
			k = k.With(o.Called)
		}
		if o.Given.Valid() {
			k = k.With(o.Given)
		}
		for s := range o.Played {
			k |= o.Played[s]
		}
		if o.Reveal != nil {
			for s := range o.Reveal.Hands {
				k |= o.Reveal.Hands[s]
			}
			k |= o.Reveal.Tapp | o.Discards
		}
		return k
	}
	out := []engine.CardSet{know()}
	for _, mv := range rec.Moves {
		if err := st.Apply(mv.Action); err != nil {
			t.Fatal(err)
		}
		out = append(out, know())
	}
	return out
}
