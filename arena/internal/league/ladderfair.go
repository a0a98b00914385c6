package league

import (
	"context"

	"github.com/tapparena/tapp/arena"
)

// matchesBefore counts each bot's matches in the league's rounds before round, for the
// ladder's fairness (LadderTables): every round before round is scheduled before round is,
// so every host that plans round reads the same counts.
func (ru *run) matchesBefore(ctx context.Context, round int) (map[string]int, error) {
	st := ru.r.Store
	lms, err := st.LeagueMatches(ctx, ru.p.League)
	if err != nil {
		return nil, storeErr(err)
	}
	in := map[string]bool{}
	for _, lm := range lms {
		if lm.Round < round {
			in[lm.MatchID] = true
		}
	}
	counts := map[string]int{}
	if len(in) == 0 {
		return counts, nil
	}
	ms, err := st.ListMatches(ctx, arena.MatchFilter{LeagueID: ru.p.League})
	if err != nil {
		return nil, storeErr(err)
	}
	for _, m := range ms {
		if in[m.ID] {
			for _, b := range m.Spec.Bots {
				counts[b]++
			}
		}
	}
	return counts, nil
}
