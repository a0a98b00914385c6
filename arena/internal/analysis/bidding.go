package analysis

import (
	"hash/fnv"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/bots/doubledummy"
	"github.com/tapparena/tapp/engine"
)

// Contender is a contract a seat could have declared.
type Contender struct {
	Contract engine.Contract
	Trump    engine.Suit
}

func (c Contender) String() string {
	text := c.Contract.String()
	if c.Contract == engine.Solo || c.Contract == engine.Rufer || c.Contract == engine.Durch {
		text += ":" + c.Trump.String()
	}
	return text
}

var sideSuits = []engine.Suit{engine.Clubs, engine.Spades, engine.Diamonds}

// Contenders lists every contract of the rule set a declarer could play, with each trump
// suit where one is named (R-MOD-BID-2, R-CL-ORDER; in wuerttemberg hearts are always
// trumps, R-WT-1).
func Contenders(r engine.RuleSet) []Contender {
	var out []Contender
	for _, c := range r.Contracts() {
		switch {
		case c == engine.Bettel || c == engine.Ouvert:
			out = append(out, Contender{c, engine.NoSuit})
		case c == engine.Solo && r.Variant == engine.Wuerttemberg:
			out = append(out, Contender{c, engine.Hearts})
		case c == engine.Solo || c == engine.Rufer || c == engine.Durch:
			for _, t := range sideSuits {
				out = append(out, Contender{c, t})
			}
		default:
			out = append(out, Contender{c, engine.Hearts})
		}
	}
	return out
}

// ContractValue is the payoff of seat me declaring c on a deal with these hands and tapp,
// every seat playing perfectly (see doubledummy.DeclaredPosition for the declaration): in modern
// point contracts and trick contracts from made or not, in the older variants' point
// contracts from the exact card points.
func (a *Analyzer) ContractValue(r engine.RuleSet, o engine.Options, hands [engine.MaxPlayers]engine.CardSet, tapp engine.CardSet, me int, c Contender) float64 {
	p := doubledummy.DeclaredPosition(r, hands, tapp, me, c.Contract, c.Trump)
	s := a.solver
	h := r.HandSize()
	var v int
	switch p.Goal {
	case doubledummy.GoalPoints:
		if r.Variant == engine.Modern {
			v = 60
			if s.AtLeast(&p, 61) {
				v = 61
			}
		} else {
			v = s.Value(&p)
		}
	case doubledummy.GoalAllTricks:
		v = h - 1
		if s.DeclarerWins(&p) {
			v = h
		}
	default:
		v = 1
		if s.DeclarerWins(&p) {
			v = 0
		}
	}
	return doubledummy.Payoff(r, o, c.Contract, false, me, me, v)
}

// bidding collects what each seat did in the bidding while a deal is replayed.
type bidding struct {
	rules engine.RuleSet
	rec   *domain.DealRecord
	first map[int]engine.Observation // each seat's observation at its first bid
	last  map[int]int                // each seat's last bid decision
	named map[int]engine.Action      // modern round two: the contract named
	order []int                      // seats in the order they first bid
}

func newBidding(r engine.RuleSet, rec *domain.DealRecord) *bidding {
	return &bidding{rules: r, rec: rec, first: map[int]engine.Observation{}, last: map[int]int{}, named: map[int]engine.Action{}}
}

// see notes bid move k (st is the state before it).
func (b *bidding) see(st *engine.State, k int, mv engine.Move) {
	s := int(mv.Seat)
	if _, ok := b.first[s]; !ok {
		b.first[s] = st.Observe(mv.Seat)
		b.order = append(b.order, s)
	}
	b.last[s] = k
	if mv.Action.Kind == engine.ActBid {
		b.named[s] = mv.Action
	}
}

// regrets computes every bidder's regret once the deal is over.
func (b *bidding) regrets(a *Analyzer, o engine.Outcome, par *Par, rec *domain.DealRecord) ([]Bid, error) {
	r := b.rules
	var out []Bid
	for _, s := range sortedSeats(b.order) {
		bid := Bid{Seat: s}
		if s < len(rec.Seating) {
			bid.Bot = rec.Seating[s]
		}
		declared := o.Declarer == engine.Seat(s) && o.Contract != engine.Ramsch
		switch {
		case declared:
			bid.Did = "declared " + contractText(o)
		case b.named[s].Kind == engine.ActBid:
			bid.Did = "outbid with " + b.named[s].String()
		default:
			bid.Did = "passed"
		}
		values, did, err := a.bidValues(r, rec, b.first[s], s, declared, o, par)
		if err != nil {
			return nil, err
		}
		bid.DidValue = did
		bid.Best, bid.BestValue = "pass", 0
		for i, c := range Contenders(r) {
			if values[i] > bid.BestValue {
				bid.Best, bid.BestValue = c.String(), values[i]
			}
		}
		if declared && did >= bid.BestValue {
			bid.Best, bid.BestValue = contractText(o), did
		}
		bid.Regret = max(0, bid.BestValue-bid.DidValue)
		out = append(out, bid)
	}
	return out, nil
}

func sortedSeats(seats []int) []int {
	out := append([]int(nil), seats...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// bidValues values every contender for seat s, and what s did: with full information on
// the real deal (what it did: the par of its contract), or as means over deals drawn from
// its first observation in the bidding (what it did: its contract declared on each draw).
func (a *Analyzer) bidValues(r engine.RuleSet, rec *domain.DealRecord, obs engine.Observation, s int, declared bool, o engine.Outcome, par *Par) ([]float64, float64, error) {
	cs := Contenders(r)
	values := make([]float64, len(cs))
	mine := Contender{Contract: o.Contract, Trump: o.Trump}
	if a.opts.BidSamples <= 0 {
		for i, c := range cs {
			values[i] = a.ContractValue(r, rec.Options, rec.Deal.Hands, rec.Deal.Tapp, s, c)
		}
		did := 0.0
		if declared && par != nil {
			did = par.Payoff
		}
		return values, did, nil
	}
	did := 0.0
	n := 0
	seed := a.opts.Seed ^ dealSeed(rec.MatchID, rec.Number)
	for i := 0; i < a.opts.BidSamples; i++ {
		sample, err := obs.Sample(engine.NewRand(seed, uint64(s)<<32|uint64(i)))
		if err != nil {
			continue
		}
		var hands [engine.MaxPlayers]engine.CardSet
		for seat := 0; seat < r.Players; seat++ {
			hands[seat] = sample.Hand(engine.Seat(seat))
		}
		tapp := sample.Deal().Tapp
		for j, c := range cs {
			values[j] += a.ContractValue(r, rec.Options, hands, tapp, s, c)
		}
		if declared {
			did += a.ContractValue(r, rec.Options, hands, tapp, s, mine)
		}
		n++
	}
	if n == 0 {
		return values, 0, nil
	}
	for j := range values {
		values[j] /= float64(n)
	}
	return values, did / float64(n), nil
}

// dealSeed mixes a match id and a deal number into a seed for the bidding draws.
func dealSeed(match string, number int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(match))
	return engine.SplitMix64(h.Sum64() ^ uint64(number))
}
