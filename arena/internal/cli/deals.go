package cli

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"text/tabwriter"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/engine"
)

func (m *Main) deals(ctx context.Context, args []string) error {
	const usage = "tapp deals gen --count N --seed S [--variant V] [--players P]"
	if len(args) > 0 && helpFlag(args[0]) {
		fmt.Fprintf(m.Stdout, "%s\n(tapp deals gen -h lists its flags)\n", usage)
		return nil
	}
	if len(args) == 0 || args[0] != "gen" {
		return usagef("%s", usage)
	}
	fs := m.flags("deals gen", "[flags]")
	count := fs.Int("count", 100, "number of deals")
	seed := fs.Uint64("seed", 1, "seed")
	variant := fs.String("variant", "modern", "rule variant (decides the pack and hand sizes)")
	players := fs.Int("players", 3, "players")
	rulesText := fs.String("rules", "", "full rule set (overrides --variant and --players)")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	text := *rulesText
	if text == "" {
		text = fmt.Sprintf("%s players=%d", *variant, *players)
	}
	rules, err := engine.ParseRuleSet(text)
	if err != nil {
		return usagef("rules: %v", err)
	}
	if err := checkBounds(fs).count("count", *count, 1, match.MaxDeals).err(); err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "# tapp deal file: %d deals, seed %d, %s\n", *count, *seed, rules)
	fmt.Fprintf(m.Stdout, "# one deal per line: hands from forehand to dealer, then the tapp, separated by \" | \"\n")
	out := bufio.NewWriter(m.Stdout)
	for i := 0; i < *count; i++ {
		if i%1024 == 0 && ctx.Err() != nil {
			break
		}
		fmt.Fprintln(out, engine.DealFromSeed(rules, *seed, uint64(i)).Format(rules))
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted: the deal file is incomplete")
	}
	return nil
}

func (m *Main) matches(ctx context.Context, args []string) error {
	fs := m.flags("matches", "[flags]")
	bot := fs.String("bot", "", "only matches this bot played in")
	league := fs.String("league", "", "only matches of this league")
	rules := fs.String("rules", "", "only matches under this rule set (canonical or short form)")
	since := fs.Duration("since", 0, "only matches started within this long (e.g. 24h)")
	limit := fs.Int("limit", 50, "at most this many")
	dsn := fs.String("db", m.env("TAPP_DB", defaultDB), "store: a SQLite file or a postgres:// URL (env TAPP_DB)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkBounds(fs).count("limit", *limit, 0, math.MaxInt32).duration("since", *since, 0, math.MaxInt64).err(); err != nil {
		return err
	}
	f := domain.MatchFilter{Bot: *bot, LeagueID: *league, Limit: *limit}
	if *rules != "" {
		r, err := engine.ParseRuleSet(*rules)
		if err != nil {
			return usagef("rules: %v", err)
		}
		f.Rules = r.String()
	}
	if *since > 0 {
		f.Since = time.Now().Add(-*since)
	}
	st, err := m.openExistingStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	ms, err := st.ListMatches(ctx, f)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "match\tstarted\tstatus\tdeals\trules\tbots\topen with")
	for _, mt := range ms {
		nums, err := st.DealNumbers(ctx, mt.ID)
		if err != nil {
			return err
		}
		played := len(nums)
		planned := 0
		if tables, err := match.NewSchedule(mt.Spec); err == nil {
			planned = tables.Len()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d/%d\t%s\t%v\ttapp replay %s%s\n", mt.ID, mt.Started.Format("2006-01-02 15:04"),
			mt.Status, played, planned, mt.Spec.Rules.Variant, mt.Spec.Bots, mt.ID, m.suggestDB(*dsn))
	}
	return tw.Flush()
}
