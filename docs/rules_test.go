package docs_test

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tapparena/tapp/engine"
)

// normal writes an action as rules.md lists it: the card of a card action as XX.
func normal(a engine.Action) string {
	switch a.Kind {
	case engine.ActCard:
		return "XX"
	case engine.ActDiscard, engine.ActCall, engine.ActGive:
		s := a.String()
		return s[:strings.Index(s, ":")+1] + "XX"
	}
	return a.String()
}

// compact drops repeats of XX forms, keeping the order of first appearance.
func compact(list []string) []string {
	var out []string
	for _, s := range list {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

var ruleSets = []string{"wuerttemberg", "classic", "modern", "modern frage=on", "modern players=4", "modern pack=32", "modern players=4 pack=32 frage=on"}

func TestDecisionTableListsEveryActionStringOfTheEngine(t *testing.T) {
	t.Parallel()
	// doc[decision][variant] = the strings listed, in order.
	doc := map[string]map[string][]string{}
	for _, row := range tableRows(section(t, readDoc(t, "rules.md"), "decision-table")) {
		kind := codes(row[0])[0]
		if doc[kind] == nil {
			doc[kind] = map[string][]string{}
		}
		for _, v := range strings.Split(row[1], ",") {
			doc[kind][strings.TrimSpace(v)] = codes(row[2])
		}
	}
	seen := map[string]map[string]map[string]bool{} // decision, variant, string
	for _, text := range ruleSets {
		r, err := engine.ParseRuleSet(text)
		if err != nil {
			t.Fatal(err)
		}
		variant := r.Variant.String()
		rng := rand.New(rand.NewPCG(1, 2)) // a fixed generator: the same deals every run
		for n := range uint64(3000) {
			st, err := engine.NewState(r, engine.DealFromSeed(r, 7, n), engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for !st.Terminal() {
				kind := st.Decision().String()
				legal := st.LegalActions(nil)
				listed, ok := doc[kind][variant]
				if !ok {
					t.Fatalf("%s: the engine asks %s, rules.md has no row for %s in %s", text, kind, kind, variant)
				}
				var got []string
				for _, a := range legal {
					got = append(got, normal(a))
				}
				got = compact(got)
				// The legal list is the documented list, in its order, with some left out.
				i := 0
				for _, s := range got {
					for i < len(listed) && listed[i] != s {
						i++
					}
					if i == len(listed) {
						t.Fatalf("%s, %s: legal %q is not the documented list %q in order (%q missing or out of order)", text, kind, got, listed, s)
					}
				}
				if seen[kind] == nil {
					seen[kind] = map[string]map[string]bool{}
				}
				if seen[kind][variant] == nil {
					seen[kind][variant] = map[string]bool{}
				}
				for _, s := range got {
					seen[kind][variant][s] = true
				}
				if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for kind, byVariant := range doc {
		for variant, listed := range byVariant {
			for _, s := range listed {
				if !seen[kind][variant][s] {
					t.Errorf("rules.md lists %q for %s in %s, but no played deal had it legal", s, kind, variant)
				}
			}
		}
	}
}

func rulesOf(t *testing.T, cell string) engine.RuleSet {
	t.Helper()
	r, err := engine.ParseRuleSet(codes(cell)[0])
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.ReplaceAll(s, "−", "-"))
	if err != nil {
		t.Fatalf("not a number in the table: %q", s)
	}
	return n
}

// playTo plays seeded deals, steering the bidding to contract (forehand or the first speaker
// takes it, the others pass) and the Tout question to tout, cards at random, and returns the
// outcomes that match.
func playTo(r engine.RuleSet, contract string, tout bool, match func(*engine.Outcome) bool) *engine.Outcome {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range uint64(40000) {
		st, err := engine.NewState(r, engine.DealFromSeed(r, 11, n), engine.Options{})
		if err != nil {
			return nil
		}
		taken := false
		for !st.Terminal() {
			legal := st.LegalActions(nil)
			pick := legal[rng.IntN(len(legal))]
			switch st.Decision() {
			case engine.DecideBid:
				pick = legal[0] // pass
				for _, a := range legal {
					if !taken && contract != "ramsch" && (a.String() == contract || a.String() == "play") {
						pick, taken = a, true
					}
				}
			case engine.DecideContract:
				for _, a := range legal {
					if a.String() == contract || strings.HasPrefix(a.String(), contract+":") {
						pick = a
						break
					}
				}
			case engine.DecideTout:
				pick = engine.ToutAction(tout)
			}
			if err := st.Apply(pick); err != nil {
				return nil
			}
		}
		out := st.Outcome()
		if out.Contract.String() == contract && out.Tout == tout && match(&out) {
			return &out
		}
	}
	return nil
}

func TestSettlementExamplesAreTheEngines(t *testing.T) {
	t.Parallel()
	rows := tableRows(section(t, readDoc(t, "rules.md"), "settlement-examples"))
	if len(rows) < 10 {
		t.Fatalf("only %d settlement examples", len(rows))
	}
	for _, row := range rows {
		r := rulesOf(t, row[0])
		contract, tout, points, result := codes(row[1])[0], row[2] == "yes", row[3], row[4]
		wantDeclarer, wantDefender := atoi(t, row[5]), atoi(t, row[6])
		name := strings.Join(row[:5], " ")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out := playTo(r, contract, tout, func(o *engine.Outcome) bool {
				if points != "any" && o.DeclarerPoints() != atoi(t, points) {
					return false
				}
				switch result {
				case "won":
					return o.DeclarerWon
				case "lost":
					return !o.DeclarerWon && !o.Draw
				case "drawn":
					return o.Draw
				}
				t.Fatalf("result %q: want won, lost or drawn", result)
				return false
			})
			if out == nil {
				t.Fatalf("no deal in 40000 ends so: choose an example the engine reaches")
			}
			if got := out.Payoff[out.Declarer]; got != wantDeclarer {
				t.Errorf("declarer gets %d, rules.md says %d", got, wantDeclarer)
			}
			for s := engine.Seat(0); int(s) < r.Players; s++ {
				if s != out.Declarer && out.Payoff[s] != wantDefender {
					t.Errorf("defender %d gets %d, rules.md says %d", s, out.Payoff[s], wantDefender)
				}
			}
		})
	}
}

func TestRamschExamplesAreTheEngines(t *testing.T) {
	t.Parallel()
	for _, row := range tableRows(section(t, readDoc(t, "rules.md"), "ramsch-examples")) {
		r := rulesOf(t, row[0])
		jungfer := strings.Contains(row[1], "no trick")
		t.Run(row[0]+" "+row[1], func(t *testing.T) {
			out := playTo(r, "ramsch", false, func(o *engine.Outcome) bool {
				most, tied, virgins := -1, 0, 0
				for s := range r.Players {
					switch {
					case o.Points[s] > most:
						most, tied = o.Points[s], 1
					case o.Points[s] == most:
						tied++
					}
					if o.Tricks[s] == 0 {
						virgins++
					}
				}
				return tied == 1 && (jungfer && virgins == 1 || !jungfer && virgins == 0)
			})
			if out == nil {
				t.Fatal("no Ramsch in 40000 deals ends so")
			}
			loser := 0
			for s := range r.Players {
				if out.Points[s] > out.Points[loser] {
					loser = s
				}
			}
			for s := range r.Players {
				want := row[5]
				switch {
				case s == loser:
					want = row[3]
				case out.Tricks[s] == 0:
					want = row[4]
				}
				if out.Payoff[s] != atoi(t, want) {
					t.Errorf("seat %d (points %v, tricks %v) gets %d, rules.md says %s", s, out.Points[:r.Players], out.Tricks[:r.Players], out.Payoff[s], want)
				}
			}
		})
	}
}

// ruleIDPattern finds rule ids in Go source; an id ending in -* is a family, not an id.
var ruleIDPattern = regexp.MustCompile(`\b(?:R|PROTO|REC)-[A-Z0-9]+(?:-[A-Z0-9]+)*(-\*)?`)

func TestEveryRuleIDOfTheCodeIsExplained(t *testing.T) {
	t.Parallel()
	docs := readDoc(t, "rules.md") + readDoc(t, "protocol.md")
	ids := map[string]string{} // id → a file that uses it
	for _, dir := range []string{"engine", "arena"} {
		err := filepath.WalkDir(filepath.Join(repoRoot(t), dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range ruleIDPattern.FindAllStringSubmatch(string(b), -1) {
				if m[1] == "" {
					ids[m[0]] = path
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(ids) < 50 {
		t.Fatalf("found only %d rule ids in engine/ and arena/: the pattern is wrong", len(ids))
	}
	for id, file := range ids {
		if !strings.Contains(docs, "**"+id+"**") {
			t.Errorf("%s (used in %s) is not explained in docs/rules.md or docs/protocol.md (as **%s**)", id, file, id)
		}
	}
}
