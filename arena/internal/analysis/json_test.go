package analysis

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/rating"
)

// TestJSONShapeIsTheDocumentedOne: the fields of `tapp analyze --json`, which scripts read,
// are these and no others (a change here is a change of the format users read: a new
// JSONFormat, said in docs/analysis.md), and docs/analysis.md's section "JSON" names every one of them. Its
// intervals are rating.Interval, the arena's one interval type, whose fields are part of it.
func TestJSONShapeIsTheDocumentedOne(t *testing.T) {
	want := map[string]struct {
		typ    reflect.Type
		fields []string
	}{
		"report":   {reflect.TypeFor[Report](), []string{"format", "match", "rules", "unit", "method", "deals", "bots", "computed", "stored"}},
		"deal":     {reflect.TypeFor[Deal](), []string{"match", "deal", "contract", "declarer", "unit", "par", "declarer_payoff", "seating", "decisions", "bidding"}},
		"par":      {reflect.TypeFor[Par](), []string{"goal", "card_points", "card_points_low", "card_points_high", "made", "payoff"}},
		"decision": {reflect.TypeFor[Decision](), []string{"index", "seat", "bot", "kind", "action", "loss", "unit", "loss_points", "best", "par_before", "par_after"}},
		"bid":      {reflect.TypeFor[Bid](), []string{"seat", "bot", "did", "did_value", "best", "best_value", "regret"}},
		"bot":      {reflect.TypeFor[BotSummary](), []string{"bot", "deals", "card_error_per_deal", "ramsch_point_error_per_deal", "bid_regret_per_deal", "cards_analysed", "cards_losing"}},
		"interval": {reflect.TypeFor[rating.Interval](), []string{"n", "mean", "sd", "se", "crit", "half", "lo", "hi"}},
	}
	doc, err := os.ReadFile("../../../docs/analysis.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(doc)
	start := strings.Index(section, "\n## JSON\n")
	if start < 0 {
		t.Fatal(`docs/analysis.md has no section "## JSON"`)
	}
	section = section[start+1:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	for name, w := range want {
		got := jsonFields(w.typ)
		if !slices.Equal(got, w.fields) {
			t.Errorf("the %s of tapp analyze --json has the fields %v, want %v: a changed format, to be documented in docs/analysis.md",
				name, got, w.fields)
		}
		for _, f := range got {
			if !strings.Contains(section, "`"+f+"`") {
				t.Errorf(`docs/analysis.md, section "JSON", does not name the %s's field %q`, name, f)
			}
		}
	}
}

// jsonFields are the names a struct's fields marshal under, in order.
func jsonFields(t reflect.Type) []string {
	var names []string
	for f := range t.Fields() {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" || !f.IsExported() {
			continue
		}
		if tag == "" {
			tag = f.Name
		}
		names = append(names, tag)
	}
	return names
}
