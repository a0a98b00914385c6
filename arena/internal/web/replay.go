package web

import (
	"context"
	"strconv"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

// parseView reads "full" (or ""), "public", or a seat number.
func parseView(text string, players int) (replay.View, error) {
	switch text {
	case "", "full":
		return replay.FullView, nil
	case "public":
		return replay.SeatView(engine.NoSeat), nil
	}
	n, err := strconv.Atoi(text)
	if err != nil || n < 0 || n >= players {
		return replay.View{}, status.Errorf(codes.InvalidArgument, "view %q: want full, public or a seat 0-%d", text, players-1)
	}
	return replay.SeatView(engine.Seat(n)), nil
}

// GetReplay steps through one stored deal from one view; a deal whose cards are still in play
// at another table (replay.Gate) is FailedPrecondition, whatever the view. The steps are built by
// replay.NewWalk, which leaves out what the view may not know when it builds them: this
// conversion adds nothing of its own.
func (v *View) GetReplay(ctx context.Context, req *viewv1.GetReplayRequest) (*viewv1.GetReplayResponse, error) {
	stored, rec, walk, err := v.walk(ctx, req.GetMatchId(), req.GetDealNumber(), req.GetView())
	if err != nil {
		return nil, err
	}
	m, view := walk.Match, walk.View
	players := m.Rules.Players
	nums, played, err := v.neighbours(ctx, m.ID, rec.Number)
	if err != nil {
		return nil, grpcError(err)
	}
	resp := &viewv1.GetReplayResponse{
		Match: matchInfo(stored, played), DealNumber: int32(rec.Number), Group: int32(rec.Group),
		Seating: rec.Seating, View: view.String(), Players: int32(players), Dealer: int32(players - 1),
		Pot: int32(rec.Options.Pot), ForcedRamsch: rec.Options.ForcedRamsch,
	}
	for _, n := range nums {
		resp.DealNumbers = append(resp.DealNumbers, int32(n))
	}
	gate, err := replay.NewGate(ctx, v.Store, stored)
	if err != nil {
		return nil, grpcError(err)
	}
	before, counted, err := v.scoreBefore(ctx, stored.ID, rec.Number, gate)
	if err != nil {
		return nil, grpcError(err)
	}
	resp.DealsBefore = int32(counted)
	for _, b := range rec.Seating {
		resp.ScoreBefore = append(resp.ScoreBefore, before[b])
	}
	moves := walkMoves(walk)
	for i := range walk.Steps {
		p := stepToProto(&walk.Steps[i], view, players)
		p.Table = tableOf(walk, i, moves)
		resp.Steps = append(resp.Steps, p)
	}
	return resp, nil
}

// neighbours are the numbers of the match's stored deals around deal n (replayNeighbours on
// either side, and the first and the last), for the replay's navigation, and how many are
// stored.
func (v *View) neighbours(ctx context.Context, matchID string, n int) ([]int, int, error) {
	played, first, last, err := v.Store.DealSpan(ctx, matchID)
	if err != nil {
		return nil, 0, err
	}
	around, err := v.Store.DealNumbersBetween(ctx, matchID, max(n-replayNeighbours, 0), n+replayNeighbours)
	if err != nil {
		return nil, 0, err
	}
	var nums []int
	if played > 0 && (len(around) == 0 || first < around[0]) {
		nums = append(nums, first)
	}
	nums = append(nums, around...)
	if played > 0 && last > nums[len(nums)-1] {
		nums = append(nums, last)
	}
	return nums, played, nil
}

func stepToProto(s *replay.Step, view replay.View, players int) *viewv1.Step {
	p := &viewv1.Step{
		Index: int32(s.Index), End: s.End, Seat: int32(s.Seat), Bot: s.Bot,
		Decision: protoconv.DecisionToProto(s.Decision), Own: s.Own,
		Observation: protoconv.ObservationToProto(&s.Obs), Trick: -1,
	}
	if s.Decision == engine.DecideCard || s.End {
		p.Trick = int32(len(s.Obs.Tricks))
	}
	if view.Full {
		for seat := 0; seat < players; seat++ {
			p.Hands = append(p.Hands, &tappv1.Hand{Cards: protoconv.CardsToProto(s.Hands[seat])})
		}
		p.Tapp = protoconv.CardsToProto(s.Tapp)
		p.Discards = protoconv.CardsToProto(s.Discards)
	}
	if s.End {
		p.Settlement = protoconv.SettlementForPlayers(protoconv.OutcomeToProto(s.Outcome), players)
		return p
	}
	p.Action = s.Action.String()
	if (s.Action.Kind == engine.ActDiscard || s.Action.Kind == engine.ActGive) && !s.Action.Card.Valid() {
		p.Action = s.Action.Kind.String()
	}
	p.After = protoconv.EventsToProto(s.After, 0)
	if s.Own {
		p.Legal = protoconv.ActionsToProto(s.Legal)
		p.Request = s.Request
		for _, a := range s.Record.Attempts {
			p.Attempts = append(p.Attempts, &viewv1.Attempt{Text: a.Text, After: protoconv.Duration(a.After), Rejected: a.Rejected})
		}
		p.Think = protoconv.Duration(s.Record.Think)
		p.Flooded = int32(s.Record.Flooded)
	}
	if s.HasRecord {
		p.Latency = protoconv.Duration(s.Record.Latency)
		p.Strike, p.Fallback = s.Record.Strike, s.Record.Fallback
	}
	return p
}
