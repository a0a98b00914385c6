package web

import (
	"context"
	"maps"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/replay"
)

// The running scores the pages show (a match's net, the score before a replayed deal, a
// running match's live net) come from the sums the store keeps (Store.MatchNets,
// Store.ScoreBefore), less the stored deals whose cards are still in play at another table
// (replay.Gate, replay.HeldPayoffs): no score reads every deal of its match.

// scoreBefore is each bot's net over the match's deals played before deal number, and how
// many there were, leaving out those whose cards are still in play at another table (gate),
// as GetMatch leaves them out of the match's net.
func (v *View) scoreBefore(ctx context.Context, matchID string, number int, gate *replay.Gate) (map[string]int64, int, error) {
	net, counted, err := v.Store.ScoreBefore(ctx, matchID, number)
	if err != nil {
		return nil, 0, err
	}
	held, err := replay.HeldPayoffs(ctx, v.Store, matchID, gate, number)
	if err != nil {
		return nil, 0, err
	}
	replay.Less(net, held)
	return net, counted - len(held), nil
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
		if net, counted, err = v.Store.ScoreBefore(ctx, m.ID, replay.AllDeals); err != nil {
			return nil, err
		}
		if counted == len(nums) || try == 2 {
			break
		}
	}
	held, err := replay.HeldPayoffs(ctx, v.Store, m.ID, gate, replay.AllDeals)
	if err != nil {
		return nil, err
	}
	replay.Less(net, held)
	lt := &liveTotal{stored: make(map[int]bool, len(nums)), base: net, feed: map[int]map[string]int64{}, gate: gate, checked: now}
	for _, n := range nums {
		lt.stored[n] = true
	}
	return lt, nil
}
