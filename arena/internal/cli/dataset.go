package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tapparena/tapp/arena/internal/dataset"
	"github.com/tapparena/tapp/arena/internal/domain"
)

const datasetUsage = `tapp dataset export (--league NAME | --match ID[,ID…]) [--out DIR] [--anonymise] [--db DSN]`

// datasetCmd dispatches the dataset subcommands.
func (m *Main) datasetCmd(ctx context.Context, args []string) error {
	if len(args) > 0 && args[0] == "export" {
		return m.datasetExport(ctx, args[1:])
	}
	if len(args) > 0 && helpFlag(args[0]) {
		fmt.Fprintf(m.Stdout, "usage:\n%s\n(tapp dataset export -h lists its flags)\n", datasetUsage)
		return nil
	}
	return usagef("usage:\n%s", datasetUsage)
}

// datasetExport writes a league's (or some matches') deals and decisions as Parquet files.
func (m *Main) datasetExport(ctx context.Context, args []string) error {
	fs := m.flags("dataset export", "(--league NAME | --match ID[,ID…]) [flags]\n\nWrites DIR/deals.parquet and DIR/decisions.parquet (docs/dataset.md).")
	league := fs.String("league", "", "export every match of this league, in its schedule's order")
	matches := fs.String("match", "", "export these matches (ids separated by commas)")
	out := fs.String("out", "", "the folder to write (default dataset-LEAGUE, or dataset)")
	anonymise := fs.Bool("anonymise", false, "replace bot names by bot-1, bot-2, … (in the order the export meets them)")
	dsn := m.dbFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 || (*league == "") == (*matches == "") {
		return usagef("usage: %s", datasetUsage)
	}
	st, err := m.openExistingStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	var ids []string
	source := "league " + *league
	total := 0
	if *league != "" {
		if _, err := st.GetLeague(ctx, *league); err != nil {
			if errors.Is(err, domain.ErrNotFound) {
				return fmt.Errorf("no league %q in %s (list them with: tapp league list%s)", *league, *dsn, m.suggestDB(*dsn))
			}
			return err
		}
		lms, err := st.LeagueMatches(ctx, *league)
		if err != nil {
			return err
		}
		for _, lm := range lms {
			ids = append(ids, lm.MatchID)
		}
		if total, err = st.LeagueDeals(ctx, *league); err != nil {
			return err
		}
	} else {
		ids = strings.Split(*matches, ",")
		source = "matches " + *matches
		for _, id := range ids {
			nums, err := st.DealNumbers(ctx, id)
			if err != nil {
				return err
			}
			total += len(nums)
		}
	}
	dir := *out
	if dir == "" {
		dir = "dataset"
		if *league != "" {
			dir = "dataset-" + *league
		}
	}
	show := m.progress(total, "deals")
	sum, err := dataset.Export(ctx, st, ids, dir, dataset.Options{Anonymise: *anonymise, Progress: show, Source: source})
	show(-1)
	if err != nil {
		return fmt.Errorf("dataset export: %w", err)
	}
	fmt.Fprintf(m.Stdout, "exported %d deal(s) and %d decision(s) of %d match(es) to %s/%s and %s/%s\n",
		sum.Deals, sum.Decisions, sum.Matches, dir, dataset.DealsFile, dir, dataset.DecisionsFile)
	return nil
}
