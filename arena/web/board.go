package web

import (
	"time"

	"github.com/tapparena/tapp/arena/league"
	"github.com/tapparena/tapp/arena/wire"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

// boardToProto is the leaderboard in view terms, with a line of help per column.
func boardToProto(lb *league.Leaderboard) *viewv1.GetLeaderboardResponse {
	resp := &viewv1.GetLeaderboardResponse{
		LeagueId: lb.League, Unit: lb.Unit, RuleSets: lb.RuleSets, Matches: int32(lb.Matches),
		Units: int32(lb.Units), Deals: int32(lb.Deals), Duplicate: lb.Duplicate,
		Columns: []*viewv1.Column{
			{Key: "rating", Title: lb.Unit + "/deal", Help: "what the bot wins per deal, with its 95% interval"},
			{Key: "bt_elo", Title: "BT Elo", Help: "Bradley–Terry over all results (a unit's higher total beats a lower one), centred on 0"},
			{Key: "multi_elo", Title: "multi-Elo", Help: "updated after every finished match from its final ranking, from 1500"},
			{Key: "matches", Title: "matches", Help: "finished matches rated by multiplayer Elo"},
			{Key: "units", Title: map[bool]string{true: "groups", false: "deals"}[lb.Duplicate], Help: "complete statistical units: duplicate groups, or deals"},
		},
	}
	for _, b := range lb.Bots {
		resp.Bots = append(resp.Bots, &viewv1.Standing{
			Bot: b.Bot, Rating: b.PerDeal, RatingLo: b.PerDealLo, RatingHi: b.PerDealHi,
			BtElo: b.Rating, BtEloLo: b.RatingLo, BtEloHi: b.RatingHi, MultiElo: b.Elo,
			Matches: int32(b.EloMatches), Units: int32(b.Units), Deals: int32(b.Deals),
			Provisional: b.Units < provisionalUnits,
		})
	}
	for i := range lb.LOS {
		resp.Los = append(resp.Los, lb.LOS[i]...)
	}
	if lb.PartialUnits > 0 {
		resp.Notes = append(resp.Notes, "duplicate groups not yet played under every seating are left out")
	}
	if len(lb.RuleSets) > 1 {
		resp.Notes = append(resp.Notes, "these results mix rule sets, whose scores do not compare: choose one")
	}
	resp.Notes = append(resp.Notes, "is B stronger than A? tapp sprt answers at a stated confidence")
	return resp
}

// provisionalUnits is the number of statistical units below which a bot's figures are marked
// provisional rather than read as settled.
const provisionalUnits = 30

// historyToProto is each bot's multiplayer Elo after each of its finished matches.
func historyToProto(lb *league.Leaderboard, finished map[string]time.Time) *viewv1.GetRatingHistoryResponse {
	resp := &viewv1.GetRatingHistoryResponse{Rating: "multiplayer Elo after each finished match, from 1500"}
	for _, b := range lb.Bots {
		h := &viewv1.BotHistory{Bot: b.Bot}
		for i, p := range b.History {
			pt := &viewv1.RatingPoint{MatchId: p.Match, MatchNumber: int32(i + 1), Rating: p.Rating}
			if t, ok := finished[p.Match]; ok && !t.IsZero() {
				pt.Finished = wire.Timestamp(t)
			}
			h.Points = append(h.Points, pt)
		}
		resp.Bots = append(resp.Bots, h)
	}
	return resp
}
