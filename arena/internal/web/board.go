package web

import (
	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

// boardToProto is the leaderboard in view terms, with a line of help per column.
func boardToProto(lb *board.Leaderboard) *viewv1.GetLeaderboardResponse {
	resp := &viewv1.GetLeaderboardResponse{
		LeagueId: lb.League, Unit: lb.Unit, RuleSets: lb.RuleSets, Matches: int32(lb.Matches),
		Units: int32(lb.Units), Deals: int32(lb.Deals), Duplicate: lb.Duplicate,
		Columns: []*viewv1.Column{
			{Key: "rating", Title: lb.Unit + "/deal", Help: "what the bot wins per deal at a table whose other seats are taken by bots drawn at random from the others (what a complete round robin of them shows), with its 95% interval clustered by deal source; none below 5 deal sources"},
			{Key: "bt_elo", Title: "BT Elo", Help: "Bradley–Terry over all results (a unit's higher total beats a lower one), centred on 0"},
			{Key: "multi_elo", Title: "multi-Elo", Help: "secondary, without uncertainty: updated after every finished match from its ranking, from 1500; it follows the order of the matches and the last ones most"},
			{Key: "matches", Title: "matches", Help: "finished matches rated by multiplayer Elo"},
			{Key: "units", Title: map[bool]string{true: "groups", false: "deals"}[lb.Duplicate], Help: "complete statistical units: duplicate groups, or deals"},
			{Key: "declarer", Title: "as declarer", Help: "result per deal when the bot declared (deals counted singly)"},
			{Key: "defender", Title: "as defender", Help: "result per deal when another bot declared"},
			{Key: "declares", Title: "declares", Help: "share of its deals the bot declared, and of those the share it made"},
		},
	}
	for _, b := range lb.Bots {
		resp.Bots = append(resp.Bots, &viewv1.Standing{
			Bot: b.Bot, Rating: b.Rating, RatingLo: b.RatingLo, RatingHi: b.RatingHi,
			BtElo: b.BT, BtEloLo: b.BTLo, BtEloHi: b.BTHi, MultiElo: b.Elo,
			Matches: int32(b.EloMatches), Units: int32(b.Units), Deals: int32(b.Deals),
			Provisional: b.Provisional, Interval: b.Interval, Sources: int32(b.Sources),
		})
		if r := b.Roles; r != nil {
			st := resp.Bots[len(resp.Bots)-1]
			st.DeclarerPerDeal, st.DefenderPerDeal = r.Declarer.PerDeal, r.Defender.PerDeal
			st.DeclareRate, st.MadeRate = r.DeclareShare, r.Declarer.MadeShare
		}
	}
	for i := range lb.LOS {
		resp.Los = append(resp.Los, lb.LOS[i]...)
	}
	if lb.TaintedMatches > 0 {
		resp.Notes = append(resp.Notes, "matches with a forfeit or more than 1% fallbacks are left out")
	}
	resp.Notes = append(resp.Notes, lb.Warnings...)
	if lb.PartialUnits > 0 {
		resp.Notes = append(resp.Notes, "duplicate groups not yet played under every seating are left out")
	}
	if len(lb.RuleSets) > 1 {
		resp.Notes = append(resp.Notes, "these results mix rule sets, whose scores do not compare: choose one")
	}
	resp.Notes = append(resp.Notes, "is B stronger than A? tapp sprt answers at a stated confidence")
	return resp
}

// historyToProto is the board's rating over its league's time: each bot's headline with its
// interval at the points the store kept (a hundred or so, never a point per match or deal),
// thinned to maxRatingPoints; and
// beneath each bot, its multiplayer Elo after some of its finished matches (elo).
func historyToProto(lb *board.Leaderboard, elo []board.BotEloHistory) *viewv1.GetRatingHistoryResponse {
	resp := &viewv1.GetRatingHistoryResponse{Unit: lb.Unit,
		Rating:    lb.Unit + " per deal against a table of bots drawn from the others, with its 95% interval, over the deal sources stored",
		EloRating: "multiplayer Elo after each finished match, from 1500"}
	if len(lb.History) == 0 {
		resp.Rating = lb.HistoryNote
	}
	byBot := map[string]*viewv1.BotHistory{}
	for _, b := range lb.Bots {
		h := &viewv1.BotHistory{Bot: b.Bot}
		byBot[b.Bot] = h
		resp.Bots = append(resp.Bots, h)
	}
	for _, b := range elo {
		h := byBot[b.Bot]
		if h == nil { // rated by Elo only (its deals not rated by the headline yet)
			h = &viewv1.BotHistory{Bot: b.Bot}
			byBot[b.Bot] = h
			resp.Bots = append(resp.Bots, h)
		}
		h.Matches = int32(b.Matches)
		for _, p := range b.Points {
			pt := &viewv1.EloPoint{MatchId: p.Match, MatchNumber: int32(p.Number), Rating: p.Rating}
			if !p.Finished.IsZero() {
				pt.Finished = protoconv.Timestamp(p.Finished)
			}
			h.Elo = append(h.Elo, pt)
		}
	}
	for _, p := range thinned(lb.History, maxRatingPoints) {
		for _, b := range p.Bots {
			h := byBot[b.Bot]
			if h == nil { // a bot of the league's board that the filter left out
				continue
			}
			h.Points = append(h.Points, &viewv1.RatingPoint{Rating: b.Rating, RatingLo: b.Lo, RatingHi: b.Hi, Interval: b.Interval,
				Provisional: b.Provisional, Clock: p.Clock, Sources: int32(p.Sources), Deals: int32(p.Deals), Taken: protoconv.Timestamp(p.At)})
		}
	}
	return resp
}

// thinned is at most n of points (n ≥ 2): the first, the last, and others evenly spaced
// between.
func thinned(points []board.HistoryPoint, n int) []board.HistoryPoint {
	if len(points) <= n {
		return points
	}
	out := make([]board.HistoryPoint, 0, n)
	for i := range n {
		out = append(out, points[i*(len(points)-1)/(n-1)])
	}
	return out
}
