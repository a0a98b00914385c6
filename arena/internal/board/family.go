package board

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tapparena/tapp/arena/internal/rating"
)

// Family is how a bot that belongs to a family (several versions of one bot) did with and
// without another member of its family at the table. Clones that share conventions can help
// each other: DefendTogether far above DefendApart is a warning on the board.
type Family struct {
	Name           string `json:"name"`
	With           Figure `json:"with_family"`     // units with another member at the table (raw per deal)
	Without        Figure `json:"without_family"`  // units without
	DefendTogether Figure `json:"defend_together"` // deals it defended beside another member (a third bot declared)
	DefendApart    Figure `json:"defend_apart"`    // deals it defended with no other member at the table
}

// addFamilies fills in the family split of every bot that has a family, and warns when
// members defending together did significantly better (more than 2 standard errors) than apart.
func addFamilies(s *Sums, tables []*rating.TableSums, scopes []Scope, o Options, lines map[string]*Standing, lb *Leaderboard) {
	if len(o.Families) == 0 {
		return
	}
	kin := func(bot, other string) bool {
		f := o.Families[bot]
		return f != "" && other != bot && o.Families[other] == f
	}
	hasKin := func(bot string, comp []string) bool {
		return slices.ContainsFunc(comp, func(c string) bool { return kin(bot, c) })
	}
	chosen := map[Scope]bool{}
	for _, sc := range scopes {
		chosen[sc] = true
	}
	for _, b := range slices.Sorted(mapKeys(lines)) {
		name := o.Families[b]
		if name == "" {
			continue
		}
		var with, without []*rating.TableSums
		for _, t := range tables {
			if !slices.Contains(t.Bots, b) {
				continue
			}
			if hasKin(b, t.Bots) {
				with = append(with, t)
			} else {
				without = append(without, t)
			}
		}
		f := &Family{Name: name, With: rawFigure(with, b), Without: rawFigure(without, b)}
		var together, apart RoleSums
		for k, r := range s.Roles {
			if !chosen[k.Scope] || !strings.HasPrefix(k.Role, RoleDefendVs) {
				continue
			}
			comp := strings.Split(k.Bots, ",")
			if k.Bot >= len(comp) || comp[k.Bot] != b {
				continue
			}
			j, err := strconv.Atoi(strings.TrimPrefix(k.Role, RoleDefendVs))
			if err != nil || j >= len(comp) {
				continue
			}
			switch {
			case !hasKin(b, comp):
				apart.add(*r, 1)
			case !kin(b, comp[j]): // a member sits at the table and did not declare: it defended too
				together.add(*r, 1)
			}
		}
		f.DefendTogether, f.DefendApart = figureOf(together), figureOf(apart)
		lines[b].Family = f
		t, a := f.DefendTogether, f.DefendApart
		if t.Deals > 1 && a.Deals > 1 && t.PerDeal-a.PerDeal > 2*math.Hypot(t.SE, a.SE) {
			lb.Warnings = append(lb.Warnings, fmt.Sprintf(
				"family %s: %s defending beside its family won %+.2f per deal (%d deals), apart %+.2f (%d deals): clones may be helping each other; cap them per table (family_cap in the league file)",
				name, b, t.PerDeal, t.Deals, a.PerDeal, a.Deals))
		}
	}
}

func rawFigure(tables []*rating.TableSums, bot string) Figure {
	iv := rating.RawPerDeal(tables, bot)
	var deals int64
	for _, t := range tables {
		deals += t.Deals
	}
	return Figure{Deals: deals, PerDeal: iv.Mean, SE: iv.SE}
}
