package board

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tapparena/tapp/engine"
)

// Roles is how a bot does in each role: as declarer and as defender, how often it declares
// and makes its contracts, by contract and by seat. Deals count singly here (not clustered by
// duplicate group), so the figures are descriptive: the headline is the rating.
type Roles struct {
	Declarer     Figure           `json:"declarer"`      // deals it declared; MadeShare: contracts made
	Defender     Figure           `json:"defender"`      // deals another bot declared
	NoDeclarer   Figure           `json:"no_declarer"`   // Ramsch or thrown in
	DeclareShare float64          `json:"declare_share"` // share of its deals it declared
	Contracts    []ContractFigure `json:"contracts"`     // what it declared, most often first
	Seats        []SeatFigure     `json:"seats"`         // by seat: forehand (the dealer's left) first
}

// Figure is a count of deals with the bot's payoff per deal and the standard error of that
// mean (deals taken as independent).
type Figure struct {
	Deals     int64   `json:"deals"`
	PerDeal   float64 `json:"per_deal"`
	SE        float64 `json:"se"`
	MadeShare float64 `json:"made_share,omitempty"` // declarer figures: the share of contracts made
}

// ContractFigure is the bot's record with one contract as declarer.
type ContractFigure struct {
	Contract string `json:"contract"`
	Figure
}

// SeatFigure is the bot's record in one seat relative to the dealer.
type SeatFigure struct {
	Seat int    `json:"seat"` // 0 = forehand, the seat after the dealer
	Name string `json:"name"`
	Figure
}

func figureOf(r RoleSums) Figure {
	f := Figure{Deals: r.Deals}
	if r.Deals == 0 {
		return f
	}
	n := float64(r.Deals)
	f.PerDeal = float64(r.Total) / n
	if r.Deals > 1 {
		v := (float64(r.TotalSq) - n*f.PerDeal*f.PerDeal) / (n - 1)
		f.SE = math.Sqrt(math.Max(v, 0) / n)
	}
	if r.Made > 0 {
		f.MadeShare = float64(r.Made) / n
	}
	return f
}

// addRoles sums the role counters of the chosen scopes per bot.
func addRoles(s *Sums, scopes []Scope, o Options, lines map[string]*Standing) {
	chosen := map[Scope]bool{}
	for _, sc := range scopes {
		chosen[sc] = true
	}
	type acc struct {
		decl, def, none RoleSums
		contracts       map[string]*RoleSums
		seats           map[int]*RoleSums
		players         int
	}
	per := map[string]*acc{}
	for k, r := range s.Roles {
		if !chosen[k.Scope] {
			continue
		}
		comp := strings.Split(k.Bots, ",")
		if k.Bot >= len(comp) {
			continue
		}
		b := comp[k.Bot]
		a := per[b]
		if a == nil {
			a = &acc{contracts: map[string]*RoleSums{}, seats: map[int]*RoleSums{}}
			per[b] = a
		}
		a.players = max(a.players, len(comp))
		switch {
		case k.Role == RoleDeclarer:
			a.decl.add(*r, 1)
		case k.Role == RoleNoDeclarer:
			a.none.add(*r, 1)
		case strings.HasPrefix(k.Role, RoleDefendVs):
			a.def.add(*r, 1)
		case strings.HasPrefix(k.Role, RoleContract):
			c := strings.TrimPrefix(k.Role, RoleContract)
			if a.contracts[c] == nil {
				a.contracts[c] = &RoleSums{}
			}
			a.contracts[c].add(*r, 1)
		case strings.HasPrefix(k.Role, RoleSeat):
			seat, err := strconv.Atoi(strings.TrimPrefix(k.Role, RoleSeat))
			if err != nil {
				continue
			}
			if a.seats[seat] == nil {
				a.seats[seat] = &RoleSums{}
			}
			a.seats[seat].add(*r, 1)
		}
	}
	for b, a := range per {
		l := lines[b]
		if l == nil {
			continue
		}
		rs := &Roles{Declarer: figureOf(a.decl), Defender: figureOf(a.def), NoDeclarer: figureOf(a.none)}
		if all := a.decl.Deals + a.def.Deals + a.none.Deals; all > 0 {
			rs.DeclareShare = float64(a.decl.Deals) / float64(all)
		}
		for c, r := range a.contracts {
			rs.Contracts = append(rs.Contracts, ContractFigure{Contract: c, Figure: figureOf(*r)})
		}
		slices.SortFunc(rs.Contracts, func(x, y ContractFigure) int {
			return cmp.Or(cmp.Compare(y.Deals, x.Deals), strings.Compare(x.Contract, y.Contract))
		})
		for _, seat := range slices.Sorted(intKeys(a.seats)) {
			rs.Seats = append(rs.Seats, SeatFigure{Seat: seat, Name: engine.SeatName(engine.Seat(seat), a.players),
				Figure: figureOf(*a.seats[seat])})
		}
		l.Roles = rs
	}
}

func intKeys[V any](m map[int]V) func(func(int) bool) {
	return func(yield func(int) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
