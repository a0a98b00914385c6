package league

import (
	"context"
	"maps"
)

// matchesBefore counts each bot's matches in the league's rounds before round, for the
// ladder's fairness (LadderTables): every round before round is scheduled before round is,
// so every host that plans round reads the same counts, and a round once counted stays so.
// Each call reads only the rounds the last one did not, so a round's scheduling costs the same
// at the end of a night as at its start.
func (ru *run) matchesBefore(ctx context.Context, round int) (map[string]int, error) {
	if ru.seats == nil || round < ru.seatsTo { // asked about an earlier round: count again
		ru.seats, ru.seatsTo = map[string]int{}, 0
	}
	if round > ru.seatsTo {
		more, err := ru.r.Store.LeagueSeats(ctx, ru.p.League, ru.p.FirstPosition(ru.seatsTo), ru.p.FirstPosition(round))
		if err != nil {
			return nil, storeErr(err)
		}
		for b, n := range more {
			ru.seats[b] += n
		}
		ru.seatsTo = round
	}
	return maps.Clone(ru.seats), nil
}
