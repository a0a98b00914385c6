package replay

import (
	"context"
	"math"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// A match's net shown to anyone (the dashboard, the admin API) comes from the sums the store
// keeps, less the stored deals whose cards are still in play at another table (Gate): their
// payoffs would tell their settlement. Only those deals are read, as few as the deals in play;
// no net reads every deal of its match.

// AllDeals is a deal number above every stored one (deal numbers are 32-bit columns).
const AllDeals = math.MaxInt32

// HeldStore is what a net less the held deals reads: the match's kept sums, and the few
// stored deals a gate holds back.
type HeldStore interface {
	// MatchNets: each bot's net over the match's stored deals, from kept sums.
	MatchNets(ctx context.Context, matchID string) (map[string]int64, error)
	DealNumbersBetween(ctx context.Context, matchID string, first, last int) ([]int, error)
	// DealSummaryPage: at most limit of a match's deals numbered first or more, and whether
	// more follow.
	DealSummaryPage(ctx context.Context, matchID string, first, limit int) ([]domain.DealRecord, bool, error)
}

// OpenNets is each bot's net over the match's stored deals that gate lets be shown: the kept
// sums, less the deals still in play at another table (a few: a duplicate group, or a deal of
// a league round not done everywhere; none once the match and its round are done).
func OpenNets(ctx context.Context, st HeldStore, m *domain.Match, gate *Gate) (map[string]int64, error) {
	net, err := st.MatchNets(ctx, m.ID)
	if err != nil || gate.AllOpen() {
		return net, err
	}
	held, err := HeldPayoffs(ctx, st, m.ID, gate, AllDeals)
	if err != nil {
		return nil, err
	}
	Less(net, held)
	return net, nil
}

// HeldPayoffs are each bot's payoff, by deal number, in the match's stored deals below number
// that gate holds back: for each run of consecutive numbers held, the numbers stored, then
// their deals a page per run of those.
func HeldPayoffs(ctx context.Context, st HeldStore, matchID string, gate *Gate, number int) (map[int]map[string]int64, error) {
	out := map[int]map[string]int64{}
	for _, run := range runs(gate.HeldBelow(number)) {
		stored, err := st.DealNumbersBetween(ctx, matchID, run[0], run[1])
		if err != nil {
			return nil, err
		}
		for _, sub := range runs(stored) {
			page, _, err := st.DealSummaryPage(ctx, matchID, sub[0], sub[1]-sub[0]+1)
			if err != nil {
				return nil, err
			}
			for k := range page {
				if d := &page[k]; d.Number <= sub[1] {
					out[d.Number] = payoffs(d)
				}
			}
		}
	}
	return out, nil
}

// Less takes the held deals' payoffs off a net over the deals they are among.
func Less(net map[string]int64, held map[int]map[string]int64) {
	for _, pay := range held {
		for b, p := range pay {
			net[b] -= p
		}
	}
}

// runs are the runs of consecutive numbers in ascending nums, each its first and last.
func runs(nums []int) [][2]int {
	var out [][2]int
	for i := 0; i < len(nums); {
		j := i + 1
		for j < len(nums) && nums[j] == nums[j-1]+1 {
			j++
		}
		out = append(out, [2]int{nums[i], nums[j-1]})
		i = j
	}
	return out
}

// payoffs is each bot's payoff in deal d.
func payoffs(d *domain.DealRecord) map[string]int64 {
	pay := make(map[string]int64, len(d.Results))
	for _, r := range d.Results {
		pay[r.Bot] += int64(r.Payoff)
	}
	return pay
}
