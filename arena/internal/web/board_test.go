package web

import (
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/board"
)

// The dashboard's rating history is the board's headline with its interval at each point the
// store kept, on the league's clock; a board without a history says why.
func TestRatingHistoryIsTheHeadlineWithItsBand(t *testing.T) {
	t.Parallel()
	lb := &board.Leaderboard{Unit: "cents", Bots: []board.Standing{{Bot: "a"}, {Bot: "b"}}}
	if resp := historyToProto(&board.Leaderboard{HistoryNote: "kept per league"}, nil); len(resp.Bots) != 0 || resp.Rating != "kept per league" {
		t.Errorf("no history: %v", resp)
	}
	for c := int64(1); c <= 3; c++ {
		lb.History = append(lb.History, board.HistoryPoint{Clock: 10 * c, Sources: int(10 * c), Deals: 60 * int(c), At: time.Unix(c, 0),
			Bots: []board.HistoryBot{{Bot: "a", Rating: 1, Lo: -1, Hi: 3, Interval: c > 1, Provisional: true}, {Bot: "b", Rating: -1, Lo: -1, Hi: -1}}})
	}
	elo := []board.BotEloHistory{{Bot: "b", Rating: 1510, Matches: 7, Points: []board.EloSample{{Number: 1, Match: "m1", Rating: 1505}, {Number: 7, Match: "m7", Rating: 1510}}}}
	resp := historyToProto(lb, elo)
	if resp.Unit != "cents" || len(resp.Bots) != 2 || resp.Bots[0].Bot != "a" || len(resp.Bots[0].Points) != 3 {
		t.Fatalf("history %v, want a's and b's 3 points", resp)
	}
	p := resp.Bots[0].Points[2]
	if p.Clock != 30 || p.Sources != 30 || p.Deals != 180 || p.Rating != 1 || p.RatingLo != -1 || p.RatingHi != 3 || !p.Interval ||
		!p.Provisional || p.Taken.AsTime().Unix() != 3 {
		t.Errorf("a's last point %v, want clock 30, 1 [−1, 3], provisional, taken at 3 s", p)
	}
	if resp.Bots[0].Points[0].Interval || resp.Bots[1].Points[0].Interval {
		t.Error("a point without an interval has one")
	}
	// Beneath the headline, each bot's sampled multiplayer Elo: the secondary history.
	if b := resp.Bots[1]; b.Matches != 7 || len(b.Elo) != 2 || b.Elo[1].MatchNumber != 7 || b.Elo[1].MatchId != "m7" || b.Elo[1].Rating != 1510 {
		t.Errorf("b's Elo %v (%d matches), want its 2 sampled points of 7 matches", b.Elo, b.Matches)
	}
	if len(resp.Bots[0].Elo) != 0 || resp.EloRating == "" {
		t.Errorf("a's Elo %v (none was given), Elo rating %q", resp.Bots[0].Elo, resp.EloRating)
	}
}

// A long league's headline history is thinned to maxRatingPoints, its first and last point
// kept and the rest evenly spaced, in order: the answer's size does not grow with the league.
func TestRatingHistoryIsThinned(t *testing.T) {
	t.Parallel()
	lb := &board.Leaderboard{Unit: "cents", Bots: []board.Standing{{Bot: "a"}}}
	for c := int64(1); c <= 104; c++ {
		lb.History = append(lb.History, board.HistoryPoint{Clock: c, At: time.Unix(c, 0), Bots: []board.HistoryBot{{Bot: "a", Rating: float64(c)}}})
	}
	pts := historyToProto(lb, nil).Bots[0].Points
	if len(pts) != maxRatingPoints || pts[0].Clock != 1 || pts[len(pts)-1].Clock != 104 {
		t.Fatalf("%d points from clock %d to %d, want %d from 1 to 104", len(pts), pts[0].Clock, pts[len(pts)-1].Clock, maxRatingPoints)
	}
	lo := int64(103 / (maxRatingPoints - 1)) // evenly spaced: every gap this or one more
	for i := 1; i < len(pts); i++ {
		if gap := pts[i].Clock - pts[i-1].Clock; gap < lo || gap > lo+1 {
			t.Errorf("points %d and %d are %d clocks apart, want %d or %d (evenly spaced)", i-1, i, gap, lo, lo+1)
		}
	}
}
