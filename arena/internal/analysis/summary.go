package analysis

import (
	"sort"

	"github.com/tapparena/tapp/arena/internal/rating"
)

// meanOf is the mean of xs with its 95% interval (Student's t on N − 1 degrees of freedom;
// Lo = Hi = Mean when N < 2).
func meanOf(xs []float64) rating.Interval { return rating.CentsPerDeal(xs) }

// BotSummary is one bot's error over the deals it sat in (once per seat it held).
type BotSummary struct {
	Bot   string `json:"bot"`
	Deals int    `json:"deals"` // seats held, summed over the deals
	// CardErrorPerDeal: the loss of its cards per deal, in the rule set's unit (Ramsch deals
	// left out: their losses are card points).
	CardErrorPerDeal rating.Interval `json:"card_error_per_deal"`
	// RamschPointErrorPerDeal: the card points its cards lost per Ramsch deal.
	RamschPointErrorPerDeal rating.Interval `json:"ramsch_point_error_per_deal"`
	// BidRegretPerDeal: its bidding regret per deal in which it bid, in the rule set's unit.
	BidRegretPerDeal rating.Interval `json:"bid_regret_per_deal"`
	// CardsAnalysed and CardsLosing count its analysed cards and those with a loss.
	CardsAnalysed int `json:"cards_analysed"`
	CardsLosing   int `json:"cards_losing"`
}

// Summarize gives every bot's means over the deals, bots in name order.
func Summarize(deals []*Deal) []BotSummary {
	type acc struct {
		cards, ramsch, bids []float64
		seats, analysed     int
		losing              int
	}
	by := map[string]*acc{}
	get := func(bot string) *acc {
		if by[bot] == nil {
			by[bot] = &acc{}
		}
		return by[bot]
	}
	for _, d := range deals {
		ramsch := d.Contract == "ramsch"
		var cardLoss [8]float64
		var bidRegret [8]float64
		var bid [8]bool
		for _, x := range d.Decisions {
			if x.Seat < 0 || x.Seat >= len(cardLoss) {
				continue
			}
			switch x.Kind {
			case "card":
				cardLoss[x.Seat] += x.Loss
				a := get(x.Bot)
				a.analysed++
				if x.Loss > 0 {
					a.losing++
				}
			case "bid":
				bidRegret[x.Seat] += x.Loss
				bid[x.Seat] = true
			}
		}
		for s, bot := range d.Seating {
			if s >= len(cardLoss) {
				break
			}
			a := get(bot)
			a.seats++
			if ramsch {
				a.ramsch = append(a.ramsch, cardLoss[s])
			} else if d.Contract != "thrown in" {
				a.cards = append(a.cards, cardLoss[s])
			}
			if bid[s] {
				a.bids = append(a.bids, bidRegret[s])
			}
		}
	}
	out := make([]BotSummary, 0, len(by))
	for bot, a := range by {
		out = append(out, BotSummary{Bot: bot, Deals: a.seats, CardErrorPerDeal: meanOf(a.cards),
			RamschPointErrorPerDeal: meanOf(a.ramsch), BidRegretPerDeal: meanOf(a.bids),
			CardsAnalysed: a.analysed, CardsLosing: a.losing})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Bot < out[j].Bot })
	return out
}
