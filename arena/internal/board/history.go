package board

import (
	"context"
	"math/bits"
	"slices"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// The rating over time: the headline of a league's board (one rule set), with its interval,
// as it stood at moments of the league's time, kept by the store as deals are stored. The
// league's clock is the deal sources its kept sums hold (every table and seating of one deal
// counts once): it only grows, whatever the schedule, the workers or the restarts. The
// history keeps at most about MaxHistoryPoints points, evenly spaced on that clock: a point is
// taken when the clock enters a new stretch of HistoryStride sources, and when the stride
// doubles every other point goes. Reading it costs those points, never the deals.

// MaxHistoryPoints bounds the points of one history.
const MaxHistoryPoints = 64

// HistoryPoint is the board's headline after Clock deal sources were stored.
type HistoryPoint struct {
	Clock   int64        `json:"clock"`   // deal sources stored: the league's time
	Sources int          `json:"sources"` // deal sources rated (tainted matches left out)
	Deals   int          `json:"deals"`   // deals rated
	At      time.Time    `json:"at"`      // when the point was taken
	Bots    []HistoryBot `json:"bots"`    // best headline first
}

// HistoryBot is one bot's headline at a point: with its 95% interval where it has one.
type HistoryBot struct {
	Bot         string  `json:"bot"`
	Rating      float64 `json:"rating"`
	Lo          float64 `json:"rating_lo"`
	Hi          float64 `json:"rating_hi"`
	Interval    bool    `json:"interval"`
	Provisional bool    `json:"provisional"`
}

// HistoryStride is the spacing of a history's points when its clock reads clock: the smallest
// power of two that keeps ⌈clock/stride⌉ within MaxHistoryPoints.
func HistoryStride(clock int64) int64 {
	if clock <= MaxHistoryPoints {
		return 1
	}
	s := int64(1) << bits.Len64(uint64((clock-1)/MaxHistoryPoints))
	for (clock+s-1)/s > MaxHistoryPoints {
		s *= 2
	}
	return s
}

// HistoryDue reports whether a point is to be taken at clock when the last was taken at last
// (−1: none yet): the clock has entered a stretch of the stride without one.
func HistoryDue(last, clock int64) bool {
	if clock <= 0 {
		return false
	}
	if last < 0 {
		return true
	}
	s := HistoryStride(clock)
	return clock/s > last/s
}

// HistoryDrop lists the points (by clock) to drop when one is taken at clock: all but the
// first of each stretch of the stride.
func HistoryDrop(clocks []int64, clock int64) []int64 {
	s := HistoryStride(clock)
	seen := map[int64]bool{clock / s: true}
	var drop []int64
	for _, c := range slices.Sorted(slices.Values(clocks)) {
		if b := c / s; seen[b] {
			drop = append(drop, c)
		} else {
			seen[b] = true
		}
	}
	return drop
}

// PointOf is the board's headline as a point of its history at clock.
func PointOf(lb *Leaderboard, clock int64, at time.Time) HistoryPoint {
	p := HistoryPoint{Clock: clock, Sources: lb.Sources, Deals: lb.Deals, At: at}
	for _, b := range lb.Bots {
		p.Bots = append(p.Bots, HistoryBot{Bot: b.Bot, Rating: b.Rating, Lo: b.RatingLo, Hi: b.RatingHi,
			Interval: b.Interval, Provisional: b.Provisional})
	}
	return p
}

// HistoryStore is a store that keeps the rating history beside the kept sums.
type HistoryStore interface {
	domain.Store
	Source
	// RatingHistory is the history of a league and rule set, oldest first.
	RatingHistory(ctx context.Context, lr LeagueRules) ([]HistoryPoint, error)
	// AddHistory stores point p and drops the points at the clocks given; a point already
	// there for p's clock (another writer's) is kept.
	AddHistory(ctx context.Context, lr LeagueRules, p HistoryPoint, drop []int64) error
}

// HistoryClocks is a HistoryStore that reads the clocks of a history's points alone, oldest
// first: all that taking a point needs of the points before it.
type HistoryClocks interface {
	HistoryClocks(ctx context.Context, lr LeagueRules) ([]int64, error)
}

// historyClocks are the clocks of lr's points, oldest first.
func historyClocks(ctx context.Context, st HistoryStore, lr LeagueRules) ([]int64, error) {
	if hc, ok := st.(HistoryClocks); ok {
		return hc.HistoryClocks(ctx, lr)
	}
	points, err := st.RatingHistory(ctx, lr)
	if err != nil {
		return nil, err
	}
	clocks := make([]int64, len(points))
	for i, p := range points {
		clocks[i] = p.Clock
	}
	return clocks, nil
}

// RecordHistory takes the point due at clock (the deal sources the store now keeps for the
// league and rule set, after a point at last): the board from the kept sums, stored with the
// points the stride no longer keeps dropped. It returns the clock of the history's last point.
func RecordHistory(ctx context.Context, st HistoryStore, lr LeagueRules, last, clock int64) (int64, error) {
	if !HistoryDue(last, clock) {
		return last, nil
	}
	sums, err := Load(ctx, st, domain.MatchFilter{LeagueID: lr.League, Rules: lr.Rules}, LoadOptions{})
	if err != nil {
		return last, err
	}
	lb, err := Compute(sums, Options{})
	if err != nil {
		return last, err
	}
	clocks, err := historyClocks(ctx, st, lr)
	if err != nil {
		return last, err
	}
	for _, c := range clocks {
		if c >= clock { // another writer's point is as new
			return c, nil
		}
	}
	if err := st.AddHistory(ctx, lr, PointOf(lb, clock, time.Now().UTC().Truncate(time.Microsecond)), HistoryDrop(clocks, clock)); err != nil {
		return last, err
	}
	return clock, nil
}
