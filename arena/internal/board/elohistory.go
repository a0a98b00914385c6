package board

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"
)

// The multiplayer Elo's history: the board's secondary history (its primary one, the
// headline over the league's time, is history.go's), sampled to a bounded number of points.

// EloHistorySource is a store that keeps each bot's multiplayer Elo after each of its rated
// matches (arena/internal/store does): an Elo history read in proportion to the points it
// shows, not to the matches rated.
type EloHistorySource interface {
	// EloHistory returns ledger k's bots, best first, each with at most its share of points
	// (PointsPerBot, SampleMatches).
	EloHistory(ctx context.Context, k EloKey, points int) ([]BotEloHistory, error)
}

// BotEloHistory is one bot's rating history in a ledger: its rating now, its rated matches, and
// its rating after some of them.
type BotEloHistory struct {
	Bot     string
	Rating  float64
	Matches int
	Points  []EloSample // by Number
}

// EloSample is a bot's rating after its Number-th rated match (from 1).
type EloSample struct {
	Number   int
	Match    string
	Finished time.Time // zero if unknown
	Rating   float64
}

// PointsPerBot shares a history's points among bots: at least 2 each (a bot's first and last
// match), the rest evenly.
func PointsPerBot(points, bots int) int {
	if bots == 0 {
		return 0
	}
	return max(points/bots, 2)
}

// SampleMatches picks at most per of a bot's matches 1..matches to show: all of them when
// they are few enough, else the first, the last and the others evenly spaced between, in
// ascending order.
func SampleMatches(matches, per int) []int {
	if matches <= 0 || per <= 0 {
		return nil
	}
	if matches <= per {
		out := make([]int, matches)
		for i := range out {
			out[i] = i + 1
		}
		return out
	}
	if per == 1 {
		return []int{matches}
	}
	out := make([]int, 0, per)
	for i := range per {
		// Rounded to the nearest match, i = 0 is match 1 and i = per-1 is the last.
		n := 1 + (i*(matches-1)*2+(per-1))/(2*(per-1))
		if len(out) == 0 || n > out[len(out)-1] {
			out = append(out, n)
		}
	}
	return out
}

// LedgerHistory is the history of a ledger replayed with its history (NewEloLedger(true)):
// its bots best first, each with its share of points, finished giving a match's end (for
// stores that replay their ledgers rather than keep their points).
func LedgerHistory(l *EloLedger, points int, finished func(matchID string) time.Time) []BotEloHistory {
	var out []BotEloHistory
	for b, r := range l.Ratings {
		out = append(out, BotEloHistory{Bot: b, Rating: r, Matches: l.Matches[b]})
	}
	slices.SortFunc(out, func(a, b BotEloHistory) int {
		return cmp.Or(cmp.Compare(b.Rating, a.Rating), strings.Compare(a.Bot, b.Bot))
	})
	per := PointsPerBot(points, len(out))
	for i := range out {
		h := &out[i]
		all := l.History[h.Bot]
		for _, n := range SampleMatches(len(all), per) {
			p := all[n-1]
			h.Points = append(h.Points, EloSample{Number: n, Match: p.Match, Rating: p.Rating, Finished: finished(p.Match)})
		}
	}
	return out
}
