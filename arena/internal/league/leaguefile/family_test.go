package leaguefile

import (
	"strings"
	"testing"
)

// A family cap keeps the versions of one bot apart: with family_cap 1, no ladder table seats
// two of them, round after round, and the league file says so in its fingerprint.
func TestLadderCapsFamilies(t *testing.T) {
	t.Parallel()
	file := `name: clones
rules: modern players=3
format: ladder
matches_per_round: 2
deals: 2
family_cap: 1
bots:
  - {name: kib-1, builtin: random, family: kib}
  - {name: kib-2, builtin: random, family: kib}
  - {name: kib-3, builtin: random, family: kib}
  - {name: other-1, builtin: random}
  - {name: other-2, builtin: random}
`
	c, err := Parse("clones.yaml", []byte(file), Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := c.Plan()
	if !strings.Contains(p.Fingerprint(), `"family_cap":1`) {
		t.Errorf("fingerprint %s does not hold the family cap", p.Fingerprint())
	}
	counts := map[string]int{}
	for r := range 30 {
		for _, table := range p.LadderTables(r, nil, counts) {
			kin := 0
			for _, b := range table {
				counts[b]++
				if p.Families[b] == "kib" {
					kin++
				}
			}
			if kin > 1 {
				t.Fatalf("round %d seats %v: %d of family kib, cap 1", r, table, kin)
			}
		}
	}
	// Three seats cannot be filled from one family and one other bot.
	tooFew := strings.Replace(file, "  - {name: other-2, builtin: random}\n", "", 1)
	if _, err := Parse("clones.yaml", []byte(tooFew), Options{}); err == nil || !strings.Contains(err.Error(), "fill only 2 of the 3 seats") {
		t.Errorf("a cap that leaves too few bots: %v, want an error saying so", err)
	}
}
