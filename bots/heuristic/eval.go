package heuristic

import (
	"math"

	"github.com/tapparena/tapp/engine"
)

// Hand evaluation for bidding. Every estimate looks at the bot's own hand only (R-INFO-1):
// trump length and top trumps, side aces and tens, voids, low cards for the null games, and a
// worst-case count of lost tricks for the all-tricks contracts. The point model's weights were
// fitted by least squares to the card points the heuristic's own play takes as declarer over
// many random deals (see calibrate_test.go); the other mappings were calibrated the same way.

// evaluator rates one hand under one rule set.
type evaluator struct {
	rules engine.RuleSet
	n     int
	pack  engine.CardSet
	hand  engine.CardSet
}

func newEvaluator(r engine.RuleSet, hand engine.CardSet) *evaluator {
	e := &evaluator{rules: r, n: r.Players, pack: packOf(r), hand: hand}
	if e.n != 4 {
		e.n = 3
	}
	return e
}

// numFeatures is the length of the point-contract feature vector.
const numFeatures = 10

// pointFeatures describes hand for a point contract with trump suit trump.
func pointFeatures(pack, hand engine.CardSet, trump engine.Suit) [numFeatures]float64 {
	var f [numFeatures]float64
	f[0] = 1
	trumps := hand.OfSuit(trump)
	t := trumps.Len()
	f[1] = float64(t)
	f[2] = float64(topTricks(pack, hand, trump))
	f[3] = float64(trumps.Points())
	for s := engine.Suit(0); s < engine.NumSuits; s++ {
		if s == trump {
			continue
		}
		cs := hand.OfSuit(s)
		n := cs.Len()
		hasA := cs.Has(engine.NewCard(s, engine.Ace))
		hasT := cs.Has(engine.NewCard(s, engine.Ten))
		if hasA {
			f[4]++
		}
		if hasT {
			if hasA || n >= 3 {
				f[5]++ // guarded ten
			} else {
				f[6]++ // a ten likely to fall to the ace
			}
		}
		f[7] += float64(cs.Points())
		switch {
		case n == 0:
			f[8] += math.Min(float64(t), 3) / 3 // a void is worth what trumps can ruff in it
		case n == 1 && !hasA:
			f[9] += math.Min(float64(t), 3) / 3
		}
	}
	return f
}

// topTricks counts the trumps that should win by rank: the i-th highest trump held wins if
// at most i-1 missing trumps rank above it.
func topTricks(pack, hand engine.CardSet, trump engine.Suit) int {
	count, held, missing := 0, 0, 0
	all := pack.OfSuit(trump)
	for c := all.Highest(); c != engine.NoCard && c.Suit() == trump; c-- {
		if !all.Has(c) {
			if c.Rank() == 0 {
				break
			}
			continue
		}
		if hand.Has(c) {
			held++
			if missing <= held-1 {
				count++
			}
		} else {
			missing++
		}
		if c.Rank() == 0 {
			break
		}
	}
	return count
}

// pointModel holds the fitted weights of the point estimate, and where the chance of
// reaching 61 is one half and how fast it grows: P(win) = logistic((est - center) / scale).
type pointModel struct {
	w             [numFeatures]float64
	center, scale float64
}

// Fitted models (TestCalibrate: 3000 deals, every seat declaring every trump), by player count
// and by whether the tapp is taken up (Frage) or not (Solo, Heart Solo). Feature order: 1,
// trumps, top trumps, trump points, side aces, guarded tens, bare tens, side points, voids,
// singletons. The 32-card pack uses the 36-card models.
var (
	modelSolo3  = pointModel{w: [numFeatures]float64{12.57, 3.42, 0.93, 0.98, 13.60, 6.00, 5.50, -0.20, 10.54, 1.04}, center: 60.5, scale: 7}
	modelFrage3 = pointModel{w: [numFeatures]float64{21.65, 3.66, 0.67, 0.93, 6.09, 1.39, 2.04, 0.27, 6.25, 3.80}, center: 62, scale: 7.7}
	modelSolo4  = pointModel{w: [numFeatures]float64{16.29, 3.46, 1.56, 1.06, 12.43, 2.34, 2.38, -0.25, 11.29, -0.82}, center: 61, scale: 8.5}
	modelFrage4 = pointModel{w: [numFeatures]float64{29.90, 3.61, 1.07, 1.03, 4.22, 1.25, 1.63, 0.30, 6.84, 3.33}, center: 62, scale: 8.8}
)

func (e *evaluator) model(frage bool) pointModel {
	switch {
	case e.n == 4 && frage:
		return modelFrage4
	case e.n == 4:
		return modelSolo4
	case frage:
		return modelFrage3
	}
	return modelSolo3
}

// points estimates the card points the declarer takes in a point contract with trump suit
// trump; frage says the tapp is taken up and as many cards laid away (R-MOD-FRAGE).
func (e *evaluator) points(trump engine.Suit, frage bool) float64 {
	f := pointFeatures(e.pack, e.hand, trump)
	m := e.model(frage)
	total := 0.0
	for i, x := range f {
		total += m.w[i] * x
	}
	return math.Max(0, math.Min(120, total))
}

// pWinPoints is the chance of reaching 61 with an estimate of est points.
func (e *evaluator) pWinPoints(est float64, frage bool) float64 {
	m := e.model(frage)
	return logistic((est - m.center) / m.scale)
}

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// losers counts the tricks the declarer may lose in an all-tricks contract in the worst case:
// every outstanding card of a suit in one opponent's hand, who beats each lead he can with his
// cheapest winning card. Trumps are drawn first; trumps the opponent keeps after the declarer
// has run out each cost a trick. The declarer's side cards after the opponent is void are
// winners.
func losers(pack, hand engine.CardSet, trump engine.Suit) int {
	lost := 0
	if trump != engine.NoSuit {
		l, left := suitLosers(pack, hand, trump)
		lost += l + left
	}
	for s := engine.Suit(0); s < engine.NumSuits; s++ {
		if s == trump {
			continue
		}
		l, _ := suitLosers(pack, hand, s)
		lost += l
	}
	return lost
}

// suitLoserShare is suit s's share of losers(pack, hand, trump).
func suitLoserShare(pack, hand engine.CardSet, s, trump engine.Suit) int {
	l, left := suitLosers(pack, hand, s)
	if s == trump {
		return l + left
	}
	return l
}

// suitLosers plays out suit s with the declarer leading from the top each time against one
// opponent holding all the rest; it returns the tricks lost and the opponent's cards left when
// the declarer runs out.
func suitLosers(pack, hand engine.CardSet, s engine.Suit) (lost, oppLeft int) {
	ours := hand.OfSuit(s)
	opp := pack.OfSuit(s) &^ hand
	for ours != 0 && opp != 0 {
		top := ours.Highest()
		ours = ours.Without(top)
		if hi := opp.Highest(); hi > top {
			lost++
			// He wins with the cheapest card that beats ours.
			for c := top + 1; c <= hi; c++ {
				if opp.Has(c) {
					opp = opp.Without(c)
					break
				}
			}
		} else {
			opp = opp.Without(opp.Lowest())
		}
	}
	return lost, opp.Len()
}

// pAllByLosers maps a worst-case loser count to the chance of taking every trick; the
// count is pessimistic, so one loser still wins often (TestCalibrate).
func (e *evaluator) pAllByLosers(l int) float64 {
	switch l {
	case 0:
		return 0.9
	case 1:
		if e.n == 4 {
			return 0.32
		}
		return 0.42
	case 2:
		return 0.16
	case 3:
		return 0.06
	}
	return 0.02
}

// durchChance is the chance of taking every trick with trump suit trump.
func (e *evaluator) durchChance(trump engine.Suit) float64 {
	return e.pAllByLosers(losers(e.pack, e.hand, trump))
}

// ruferPlan returns the card to call and the chance of taking every trick after the exchange
// (R-MOD-RUFER). The chance comes from the loser count after the best give; its calibration
// includes the deals where the called card lies in the tapp and no exchange happens.
func (e *evaluator) ruferPlan(trump engine.Suit, allowed func(engine.Card) bool) (engine.Card, float64) {
	best, bestP, bestL := engine.NoCard, -1.0, 1<<30
	// losers(pack, hand+c-g, trump) is a sum over suits; a call and a give change only their
	// own suits, so the other suits' shares are computed once (this runs for every bid).
	var base [engine.NumSuits]int
	for s := engine.Suit(0); s < engine.NumSuits; s++ {
		base[s] = suitLoserShare(e.pack, e.hand, s, trump)
	}
	var cards [engine.NumCards]engine.Card
	held := e.hand.Cards(cards[:0])
	var given [engine.NumCards]int // a give's suit share when the call is of another suit
	for _, g := range held {
		given[g] = suitLoserShare(e.pack, e.hand.Without(g), g.Suit(), trump)
	}
	for _, c := range (e.pack &^ e.hand).Cards(nil) {
		if allowed != nil && !allowed(c) {
			continue
		}
		h := e.hand.With(c)
		withCall := base
		withCall[c.Suit()] = suitLoserShare(e.pack, h, c.Suit(), trump)
		total := 0
		for _, x := range withCall {
			total += x
		}
		l := 1 << 30
		for _, g := range held {
			gs := g.Suit()
			share := given[g]
			if gs == c.Suit() {
				share = suitLoserShare(e.pack, h.Without(g), gs, trump)
			}
			if x := total - withCall[gs] + share; x < l {
				l = x
			}
		}
		p := e.pAllByLosers(l)
		// Prefer fewer losers, then a trump, then the higher card.
		better := p > bestP+1e-9 || (math.Abs(p-bestP) <= 1e-9 && (l < bestL ||
			(l == bestL && callRank(c, trump) > callRank(best, trump))))
		if better {
			best, bestP, bestL = c, p, l
		}
	}
	if best == engine.NoCard {
		return engine.NoCard, 0
	}
	return best, bestP
}

// callRank orders candidate calls of equal value: trumps first, then aces, then by rank.
func callRank(c engine.Card, trump engine.Suit) int {
	if c == engine.NoCard {
		return -1
	}
	r := int(c.Rank())
	if c.Suit() == trump {
		r += 20
	} else if c.Rank() == engine.Ace {
		r += 10
	}
	return r
}

// bettelRisk rates a hand for the null games: for every suit, how far its cards stand above
// the safe pattern (lowest card, then every second card: the i-th lowest card held should
// rank no higher than the 2i-th rank of the suit); a suit whose lowest card is high ("sick")
// weighs most. Voids let the declarer discard dangerous cards and lower the risk.
func bettelRisk(pack, hand engine.CardSet) float64 {
	risk := 0.0
	voids := 0
	for s := engine.Suit(0); s < engine.NumSuits; s++ {
		cs := hand.OfSuit(s)
		if cs == 0 {
			voids++
			continue
		}
		suit := pack.OfSuit(s)
		worst := 0
		i := 0
		for _, c := range cs.Cards(nil) {
			pos := 0
			for _, o := range suit.Cards(nil) {
				if o < c {
					pos++
				}
			}
			if ex := pos - 2*i; ex > worst {
				worst = ex
			}
			i++
		}
		switch worst {
		case 0:
		case 1:
			risk += 1
		case 2:
			risk += 2.5
		case 3:
			risk += 4
		default:
			risk += 6 + float64(worst-4)
		}
	}
	if risk > 0 {
		risk = math.Max(risk*0.5, risk-0.8*float64(voids))
	}
	return risk
}

// bettelChance is the chance of taking no trick; ouvert when the hand is exposed. The
// logistic curves were fitted to the heuristic's own play (TestCalibrate).
func (e *evaluator) bettelChance(ouvert bool) float64 {
	r := bettelRisk(e.pack, e.hand)
	switch {
	case e.n == 4 && ouvert:
		return logistic(0.94 - 0.19*r)
	case e.n == 4:
		return logistic(2.5 - 0.27*r)
	case ouvert:
		return logistic(1.3 - 0.43*r)
	}
	return logistic(1.7 - 0.42*r)
}
