package dataset

import (
	"fmt"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/notation"
	"github.com/tapparena/tapp/engine"
)

// DealRow is one row of DealsFile: one deal. Seats count from forehand (seat 0); lists by
// seat have one entry per seat at the table. docs/dataset.md explains every column.
type DealRow struct {
	League     string `parquet:"league,dict"`
	Match      string `parquet:"match,dict"`
	Deal       int32  `parquet:"deal"`
	Group      int32  `parquet:"group"`
	Rules      string `parquet:"rules,dict"`
	Variant    string `parquet:"variant,dict"`
	Players    int32  `parquet:"players"`
	Seeded     bool   `parquet:"seeded"`
	Seed       uint64 `parquet:"seed"`
	Commitment string `parquet:"commitment,dict"`
	Nonce      string `parquet:"nonce,dict"`

	Bots           []string `parquet:"bots,list"`
	Seating        []string `parquet:"seating,list"`
	DealerPosition int32    `parquet:"dealer_position"`

	Hand0 []string `parquet:"hand_0,list"`
	Hand1 []string `parquet:"hand_1,list"`
	Hand2 []string `parquet:"hand_2,list"`
	Hand3 []string `parquet:"hand_3,list"`
	Tapp  []string `parquet:"tapp,list"`

	PotBefore    int32    `parquet:"pot_before"`
	ForcedRamsch bool     `parquet:"forced_ramsch"`
	Moves        []string `parquet:"moves,list"`

	Contract    string  `parquet:"contract,dict"`
	Trump       string  `parquet:"trump,dict"`
	Declarer    int32   `parquet:"declarer"`
	ThrownIn    bool    `parquet:"thrown_in"`
	Tout        bool    `parquet:"tout"`
	DeclarerWon bool    `parquet:"declarer_won"`
	Draw        bool    `parquet:"draw"`
	Points      []int32 `parquet:"points,list"`
	Tricks      []int32 `parquet:"tricks,list"`
	Payoff      []int32 `parquet:"payoff,list"`
	PotAfter    int32   `parquet:"pot_after"`

	Decisions  int32     `parquet:"decisions"`
	Strikes    int32     `parquet:"strikes"`
	Fallbacks  int32     `parquet:"fallbacks"`
	Started    time.Time `parquet:"started,timestamp(microsecond)"`
	DurationUS int64     `parquet:"duration_us"`
}

// DecisionRow is one row of DecisionsFile: one decision, with what the deciding seat knew
// just before it (the observation the arena sent with the request, computed again by the
// engine from the record) and the seat's payoff at the end of the deal.
type DecisionRow struct {
	League   string `parquet:"league,dict"`
	Match    string `parquet:"match,dict"`
	Deal     int32  `parquet:"deal"`
	Index    int32  `parquet:"index"`
	Rules    string `parquet:"rules,dict"`
	Seat     int32  `parquet:"seat"`
	Bot      string `parquet:"bot,dict"`
	Decision string `parquet:"decision,dict"`

	Legal     []string `parquet:"legal,list"`
	Action    string   `parquet:"action,dict"`
	LatencyUS int64    `parquet:"latency_us"`
	Strike    bool     `parquet:"strike"`
	Fallback  bool     `parquet:"fallback"`

	Hand         []string `parquet:"hand,list"`
	Dealt        []string `parquet:"dealt,list"`
	History      []string `parquet:"history,list"`
	Declarer     int32    `parquet:"declarer"`
	Contract     string   `parquet:"contract,dict"`
	Trump        string   `parquet:"trump,dict"`
	Tout         bool     `parquet:"tout"`
	TappSeen     []string `parquet:"tapp_seen,list"`
	Discarded    []string `parquet:"discarded,list"`
	Called       string   `parquet:"called,dict"`
	CalledHolder int32    `parquet:"called_holder"`
	Given        string   `parquet:"given,dict"`
	Exposed      []string `parquet:"exposed,list"`
	Trick        []string `parquet:"trick,list"`
	TrickLeader  int32    `parquet:"trick_leader"`
	TricksTaken  []int32  `parquet:"tricks_taken,list"`
	HandSizes    []int32  `parquet:"hand_sizes,list"`
	Voids        []string `parquet:"voids,list"`
	Pot          int32    `parquet:"pot"`
	ForcedRamsch bool     `parquet:"forced_ramsch"`

	Payoff int32 `parquet:"payoff"`
}

// rows replays a stored deal with the engine and returns its deal row and a row per decision.
func rows(m *domain.Match, rec *domain.DealRecord, names *pseudonyms) (DealRow, []DecisionRow, error) {
	r := m.Spec.Rules
	n := r.Players
	o := rec.Outcome
	nonce := ""
	if m.Status == domain.MatchFinished {
		nonce = m.Nonce // revealed only once the match is over
	}
	d := DealRow{League: m.Spec.LeagueID, Match: m.ID, Deal: int32(rec.Number), Group: int32(rec.Group), Rules: r.String(),
		Variant: r.Variant.String(), Players: int32(n), Seeded: m.Spec.DealsText == "", Commitment: m.Commitment, Nonce: nonce,
		Bots: names.names(m.Spec.Bots), Seating: names.names(rec.Seating), DealerPosition: -1,
		Tapp: cardNames(rec.Deal.Tapp), PotBefore: int32(rec.Options.Pot), ForcedRamsch: rec.Options.ForcedRamsch,
		Contract: contractText(o.Contract), Trump: suitText(o.Trump), Declarer: int32(o.Declarer), ThrownIn: o.ThrownIn,
		Tout: o.Tout, DeclarerWon: o.DeclarerWon, Draw: o.Draw, PotAfter: int32(o.PotAfter),
		Started: rec.Started.UTC(), DurationUS: rec.Duration.Microseconds()}
	if d.Seeded {
		d.Seed = m.Spec.Seed
	}
	if len(rec.Seating) == n {
		for i, b := range m.Spec.Bots {
			if b == rec.Seating[n-1] {
				d.DealerPosition = int32(i) // the dealer sits in the last seat (R-SEAT-2)
			}
		}
	}
	hands := []*[]string{&d.Hand0, &d.Hand1, &d.Hand2, &d.Hand3}
	for s := 0; s < engine.MaxPlayers; s++ {
		*hands[s] = []string{}
		if s < n {
			*hands[s] = cardNames(rec.Deal.Hands[s])
		}
	}
	for s := 0; s < n; s++ {
		d.Points = append(d.Points, int32(o.Points[s]))
		d.Tricks = append(d.Tricks, int32(o.Tricks[s]))
		d.Payoff = append(d.Payoff, int32(o.Payoff[s]))
	}
	byIndex := map[int]*domain.DecisionRecord{}
	for i := range rec.Decisions {
		x := &rec.Decisions[i]
		byIndex[x.Index] = x
		d.Decisions++
		if x.Strike {
			d.Strikes++
		}
		if x.Fallback {
			d.Fallbacks++
		}
	}
	st, err := engine.NewState(r, rec.Deal, rec.Options)
	if err != nil {
		return d, nil, err
	}
	var out []DecisionRow
	for k, mv := range rec.Moves {
		d.Moves = append(d.Moves, mv.String())
		if mv.Seat != st.ToMove() {
			return d, nil, fmt.Errorf("move %d (%s): seat %d is to move", k, mv, st.ToMove())
		}
		obs := st.Observe(mv.Seat)
		row := decisionRow(&d, k, &obs)
		row.Bot = names.name(botOf(rec.Seating, mv.Seat))
		row.Action = mv.Action.String()
		if x := byIndex[k]; x != nil {
			row.LatencyUS, row.Strike, row.Fallback = x.Latency.Microseconds(), x.Strike, x.Fallback
		}
		row.Payoff = int32(o.Payoff[mv.Seat])
		out = append(out, row)
		if err := st.Apply(mv.Action); err != nil {
			return d, nil, fmt.Errorf("move %d (%s): %w", k, mv, err)
		}
	}
	return d, out, nil
}

func botOf(seating []string, s engine.Seat) string {
	if int(s) < len(seating) {
		return seating[s]
	}
	return ""
}

// decisionRow is the observation part of a decision's row.
func decisionRow(d *DealRow, k int, obs *engine.Observation) DecisionRow {
	n := obs.Rules.Players
	row := DecisionRow{League: d.League, Match: d.Match, Deal: d.Deal, Index: int32(k), Rules: d.Rules, Seat: int32(obs.Seat),
		Decision: obs.Decision.String(), Hand: cardNames(obs.Hand), Dealt: cardNames(obs.Dealt),
		Declarer: int32(obs.Declarer), Contract: contractText(obs.Contract), Trump: suitText(obs.Trump), Tout: obs.Tout,
		TappSeen: cardNames(obs.Tapp), Discarded: cardNames(obs.Discarded), CalledHolder: int32(obs.CalledHolder),
		Exposed: cardNames(obs.Exposed), TrickLeader: int32(obs.Current.Leader), Pot: int32(obs.Options.Pot),
		ForcedRamsch: obs.Options.ForcedRamsch}
	for _, a := range obs.Legal {
		row.Legal = append(row.Legal, a.String())
	}
	for _, mv := range obs.History {
		row.History = append(row.History, notation.MoveText(mv))
	}
	if obs.Called != engine.NoCard {
		row.Called = obs.Called.String()
	}
	if obs.Given != engine.NoCard {
		row.Given = obs.Given.String()
	}
	for _, c := range obs.Current.Cards {
		if c.Valid() {
			row.Trick = append(row.Trick, c.String())
		}
	}
	for s := 0; s < n; s++ {
		row.TricksTaken = append(row.TricksTaken, int32(obs.TricksTaken[s]))
		row.HandSizes = append(row.HandSizes, int32(obs.HandSizes[s]))
		row.Voids = append(row.Voids, voidsText(obs.Voids[s]))
	}
	return row
}
