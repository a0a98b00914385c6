package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/app"
)

// TestAnalyzeStoresItsWorkAndShowsItEverywhere: tapp analyze analyses a stored match, a
// second call reads every deal from the store, the JSON has what scripts read, tapp replay
// shows the analysis beside each card and tapp ratings --analysis adds the error columns.
func TestAnalyzeStoresItsWorkAndShowsItEverywhere(t *testing.T) {
	t.Parallel()
	pm := playMatch(t, "modern", 6, "heuristic", "random", "heuristic")
	out := mustRun(t, "", "analyze", pm.id, "--db", pm.dsn)
	for _, want := range []string{"card error/deal (cents)", "bid regret/deal", "random", "6 deal(s) analysed now, 0 read from the store"} {
		if !strings.Contains(out, want) {
			t.Fatalf("tapp analyze output lacks %q:\n%s", want, out)
		}
	}
	js := mustRun(t, "", "analyze", pm.id, "--json", "--db", pm.dsn)
	var rep struct {
		Computed, Stored int
		Deals            []struct {
			Par       *struct{ Payoff float64 } `json:"par"`
			Contract  string
			Decisions []struct {
				Seat   *int
				Bot    string
				Action string
				Loss   *float64
				Kind   string
			}
		}
		Bots []struct {
			Bot              string
			CardErrorPerDeal *struct{ Mean, Lo, Hi float64 } `json:"card_error_per_deal"`
			BidRegretPerDeal *struct{ Mean, Lo, Hi float64 } `json:"bid_regret_per_deal"`
		}
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatalf("tapp analyze --json: %v\n%s", err, js)
	}
	if rep.Computed != 0 || rep.Stored != 6 || len(rep.Deals) != 6 {
		t.Fatalf("second call: computed %d, stored %d, %d deals; want everything from the store", rep.Computed, rep.Stored, len(rep.Deals))
	}
	cards := 0
	for _, d := range rep.Deals {
		if d.Par == nil && d.Contract != "ramsch" {
			t.Errorf("deal with %s has no par", d.Contract)
		}
		for _, x := range d.Decisions {
			if x.Seat == nil || x.Bot == "" || x.Action == "" || x.Loss == nil || *x.Loss < 0 {
				t.Fatalf("decision without seat, bot, action or a non-negative loss: %+v", x)
			}
			if x.Kind == "card" {
				cards++
			}
		}
	}
	if cards == 0 || len(rep.Bots) != 3 || rep.Bots[0].CardErrorPerDeal == nil || rep.Bots[0].BidRegretPerDeal == nil {
		t.Fatalf("%d cards analysed, bots %+v", cards, rep.Bots)
	}

	view := mustRun(t, "", "replay", pm.id, "--deal", "0", "--no-step", "--db", pm.dsn)
	if !strings.Contains(view, "analysis  ") || !strings.Contains(view, "par-keeping") && !strings.Contains(view, "LOSES") {
		t.Errorf("tapp replay does not show the analysis beside the cards:\n%s", view)
	}
	seatView := mustRun(t, "", "replay", pm.id, "--deal", "0", "--seat", "1", "--no-step", "--db", pm.dsn)
	if strings.Contains(seatView, "analysis  ") {
		t.Errorf("a seat's view shows the analysis, which speaks of cards the seat did not see")
	}
	ratings := mustRun(t, "", "ratings", "--analysis", "--db", pm.dsn)
	if !strings.Contains(ratings, "double-dummy analysis: 6 of 6 deals analysed") || !strings.Contains(ratings, "card error/deal") {
		t.Errorf("tapp ratings --analysis lacks the error columns:\n%s", ratings)
	}
}

// TestAnalyzeOneDealOfAnExport: a JSON Lines export is analysed too, one deal decision by
// decision.
func TestAnalyzeOneDealOfAnExport(t *testing.T) {
	t.Parallel()
	pm := playMatch(t, "modern", 3, "heuristic", "heuristic", "random")
	file := t.TempDir() + "/deals.jsonl"
	mustRun(t, "", "replay", "export", pm.id, "--out", file, "--db", pm.dsn)
	out := mustRun(t, "", "analyze", file, "--deal", "1")
	for _, want := range []string{"deal 1 ·", "par:", "decision  seat  bot", "keeps par"} {
		if !strings.Contains(out, want) {
			t.Fatalf("tapp analyze FILE --deal 1 lacks %q:\n%s", want, out)
		}
	}
	if _, _, err := run(t, "", "analyze", file, "--deal", "9"); err == nil || !strings.Contains(err.Error(), "no deal 9") {
		t.Errorf("a deal the file lacks: %v", err)
	}
}

// TestReplayDiffListsChangedDecisionsAgainstPar: re-asking the random bot's decisions of the
// heuristic bot changes many of them, each valued against par.
func TestReplayDiffListsChangedDecisionsAgainstPar(t *testing.T) {
	t.Parallel()
	pm := playMatch(t, "modern", 3, "heuristic", "random", "heuristic")
	js := mustRun(t, "", "replay", "diff", pm.id, "--bot", "random", "--builtin", "heuristic", "--time", "30s", "--json", "--db", pm.dsn)
	var rep app.DiffReport
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatalf("%v\n%s", err, js)
	}
	if rep.Asked == 0 || len(rep.Changed) == 0 {
		t.Fatalf("asked %d, changed %d: want changes", rep.Asked, len(rep.Changed))
	}
	valued := 0
	for _, c := range rep.Changed {
		if c.Valued {
			valued++
		}
	}
	if valued == 0 {
		t.Errorf("no change valued against par: %+v", rep.Changed)
	}
	same := mustRun(t, "", "replay", "diff", pm.id, "--bot", "heuristic", "--builtin", "heuristic", "--time", "30s", "--db", pm.dsn)
	if !strings.Contains(same, ": 0 changed") {
		t.Errorf("the same bot again changes decisions:\n%s", same)
	}
}
