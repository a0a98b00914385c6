package web

import (
	"context"
	"maps"
	"math"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/replay"
)

// The running scores the pages show (a match's net, the score before a replayed deal, a
// running match's live net) come from the sums the store keeps (Store.MatchNets,
// Store.ScoreBefore), less the stored deals whose cards are still in play at another table
// (replay.Gate): their payoffs would tell their settlement. Only those are read, as few as the
// deals in play; no score reads every deal of its match.

// allDeals is a deal number above every stored one (deal numbers are 32-bit columns).
const allDeals = math.MaxInt32

// heldPayoffs are each bot's payoff, by deal number, in the match's stored deals below number
// that gate holds back: for each run of consecutive numbers held, the numbers stored, then
// their deals a page per run of those.
func (v *View) heldPayoffs(ctx context.Context, matchID string, gate *replay.Gate, number int) (map[int]map[string]int64, error) {
	out := map[int]map[string]int64{}
	for _, run := range runs(gate.HeldBelow(number)) {
		stored, err := v.Store.DealNumbersBetween(ctx, matchID, run[0], run[1])
		if err != nil {
			return nil, err
		}
		for _, sub := range runs(stored) {
			page, _, err := v.Store.DealSummaryPage(ctx, matchID, sub[0], sub[1]-sub[0]+1)
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

// less takes the held deals' payoffs off a net over the deals they are among.
func less(net map[string]int64, held map[int]map[string]int64) {
	for _, pay := range held {
		for b, p := range pay {
			net[b] -= p
		}
	}
}

// scoreBefore is each bot's net over the match's deals played before deal number, and how
// many there were, leaving out those whose cards are still in play at another table (gate),
// as GetMatch leaves them out of the match's net.
func (v *View) scoreBefore(ctx context.Context, matchID string, number int, gate *replay.Gate) (map[string]int64, int, error) {
	net, counted, err := v.Store.ScoreBefore(ctx, matchID, number)
	if err != nil {
		return nil, 0, err
	}
	held, err := v.heldPayoffs(ctx, matchID, gate, number)
	if err != nil {
		return nil, 0, err
	}
	less(net, held)
	return net, counted - len(held), nil
}

// openNets is each bot's net over the match's stored deals that gate lets be shown: the kept
// sums, less the deals still in play at another table (a few: a duplicate group, or a deal of
// a league round not done everywhere; none once the match and its round are done).
func (v *View) openNets(ctx context.Context, m *domain.Match, gate *replay.Gate) (map[string]int64, error) {
	net, err := v.Store.MatchNets(ctx, m.ID)
	if err != nil || gate.AllOpen() {
		return net, err
	}
	held, err := v.heldPayoffs(ctx, m.ID, gate, allDeals)
	if err != nil {
		return nil, err
	}
	less(net, held)
	return net, nil
}

// liveTotal is a running match's score as far as the dashboard knows it: the stored deals as
// of the last look at the store, and the deals the live feed saw settle since.
type liveTotal struct {
	stored  map[int]bool             // the deal numbers stored at the last look
	base    map[string]int64         // each bot's net over them, less those the gate held back
	feed    map[int]map[string]int64 // deals settled since, not stored at the last look: payoffs by bot
	gate    *replay.Gate             // which deals may be shown, as of checked
	checked time.Time                // the last look
}

// liveCheckEvery is how often a live score looks at the store again, for the deals stored
// since (a deal that settled just before the watch began, say) and the gate.
const liveCheckEvery = 10 * time.Second

// liveScore is a running match's deals played and each bot's net: at the first poll and every
// liveCheckEvery the kept sums of its stored deals (less those still in play at another
// table: replay.Gate, read again at each look), and in between the deals the live feed saw
// settle (settled: payoffs by seat, by deal number). A poll reads nothing; a look reads the
// match's deal numbers and its sums, not its deals.
func (v *View) liveScore(ctx context.Context, m *domain.Match, tables *match.Schedule, settled map[int32][]int32) (int, map[string]int64, error) {
	v.mu.Lock()
	lt := v.live[m.ID]
	v.mu.Unlock()
	now := v.clock()
	if lt == nil || now.Sub(lt.checked) >= liveCheckEvery {
		fresh, err := v.lookAtStore(ctx, m, now)
		if err != nil {
			return 0, nil, err
		}
		if lt != nil {
			for n, pay := range lt.feed {
				if !fresh.stored[n] {
					fresh.feed[n] = pay
				}
			}
		}
		lt = fresh
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.live == nil || len(v.live) > 64 {
		v.live = make(map[string]*liveTotal)
	}
	v.live[m.ID] = lt
	for n, pay := range settled {
		if lt.stored[int(n)] || lt.feed[int(n)] != nil || int(n) >= tables.Len() {
			continue
		}
		seating := tables.Table(int(n)).Seating
		byBot := make(map[string]int64, len(seating))
		for seat, p := range pay {
			if seat < len(seating) {
				byBot[seating[seat]] += int64(p)
			}
		}
		lt.feed[int(n)] = byBot
	}
	net := maps.Clone(lt.base) // never nil: ScoreBefore gives every bot a net
	for n, pay := range lt.feed {
		if lt.gate.Check(n) != nil {
			continue
		}
		for b, p := range pay {
			net[b] += p
		}
	}
	return len(lt.stored) + len(lt.feed), net, nil
}

// lookAtStore reads a running match's stored deals for its live score: their numbers, and
// their kept sums less the deals the gate holds back. The numbers and the sums are read one
// after the other; a deal stored in between makes their counts differ, and they are read
// again.
func (v *View) lookAtStore(ctx context.Context, m *domain.Match, now time.Time) (*liveTotal, error) {
	gate, err := replay.NewGate(ctx, v.Store, m)
	if err != nil {
		return nil, err
	}
	var nums []int
	var net map[string]int64
	for try := 0; ; try++ {
		if nums, err = v.Store.DealNumbers(ctx, m.ID); err != nil {
			return nil, err
		}
		var counted int
		if net, counted, err = v.Store.ScoreBefore(ctx, m.ID, allDeals); err != nil {
			return nil, err
		}
		if counted == len(nums) || try == 2 {
			break
		}
	}
	held, err := v.heldPayoffs(ctx, m.ID, gate, allDeals)
	if err != nil {
		return nil, err
	}
	less(net, held)
	lt := &liveTotal{stored: make(map[int]bool, len(nums)), base: net, feed: map[int]map[string]int64{}, gate: gate, checked: now}
	for _, n := range nums {
		lt.stored[n] = true
	}
	return lt, nil
}
