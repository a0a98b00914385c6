package plan

import (
	"errors"
	"testing"
)

// A round is stored in parts of about RoundChunk jobs at most, each part whole matches with all
// their jobs, however many matches the round has, the first of them small (a sixteenth of
// RoundChunk: play starts once it is stored); JobsPerRound counts what the parts hold.
func TestRoundPartsAreBounded(t *testing.T) {
	t.Parallel()
	p := plan(t, RoundRobin, "a", "b", "c", "d")
	p.Format, p.MatchesPerRound, p.Deals = Ladder, MaxMatchesPerRound, 10
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	jobs, matches, parts := 0, 0, 0
	seen := map[string]bool{}
	for part, err := range p.RoundParts(3, p.LadderTableSeq(3, nil, nil), RoundChunk) {
		if err != nil {
			t.Fatal(err)
		}
		parts++
		if parts == 1 && len(part.Jobs) > RoundChunk/16+p.jobsPerMatch() {
			t.Fatalf("the first part holds %d jobs, want about %d", len(part.Jobs), RoundChunk/16)
		}
		if len(part.Jobs) > RoundChunk+p.jobsPerMatch() || len(part.Places) != len(part.Matches) {
			t.Fatalf("a part of %d jobs and %d places for %d matches", len(part.Jobs), len(part.Places), len(part.Matches))
		}
		for _, m := range part.Matches {
			seen[m.ID] = true
		}
		for _, j := range part.Jobs {
			if !seen[j.MatchID] {
				t.Fatalf("job of match %s in a part without it", j.MatchID)
			}
		}
		jobs, matches = jobs+len(part.Jobs), matches+len(part.Matches)
	}
	if matches != MaxMatchesPerRound || jobs != p.JobsPerRound() || parts < jobs/RoundChunk {
		t.Errorf("%d matches, %d jobs in %d parts; want %d matches, %d jobs", matches, jobs, parts, MaxMatchesPerRound, p.JobsPerRound())
	}
}

func TestCheckNamesTheSettingBeyondItsMaximum(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		edit  func(*Plan)
		field string
	}{
		{"deals", func(p *Plan) { p.Deals = 2147483648 }, "deals"},
		{"matches", func(p *Plan) { p.Format, p.MatchesPerRound = Ladder, 1_000_000_000 }, "matches_per_round"},
		{"jobs", func(p *Plan) { p.Format, p.MatchesPerRound, p.Deals = Ladder, 5000, 100 }, "matches_per_round"},
		{"rounds", func(p *Plan) { p.Rounds = MaxRounds + 1 }, "rounds"},
	} {
		p := plan(t, RoundRobin, "a", "b", "c", "d")
		c.edit(p)
		var le *LimitError
		if err := p.Check(); !errors.As(err, &le) || le.Field != c.field {
			t.Errorf("%s: %v, want a limit on %s", c.name, err, c.field)
		}
	}
	if err := plan(t, RoundRobin, "a", "b", "c", "d").Check(); err != nil {
		t.Errorf("a small plan: %v", err)
	}
}
