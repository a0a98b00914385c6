package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tapparena/tapp/arena/internal/app"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/builtin"
)

const replayDiffUsage = `MATCH|LEAGUE|FILE.jsonl --bot NAME (--bot-cmd CMD | --builtin KIND) [flags]

Re-asks every recorded decision of bot NAME of a new version of it and lists the decisions
that changed, each with what the change gains (+) or costs (-) against par, in the rule
set's unit (see docs/analysis.md): a regression test of a bot over a stored corpus.`

// replayDiff is `tapp replay diff` (app.ReplayDiff).
func (m *Main) replayDiff(ctx context.Context, args []string) error {
	fs := m.flags("replay diff", replayDiffUsage)
	botName := fs.String("bot", "", "the recorded bot whose decisions are asked again")
	botCmd := fs.String("bot-cmd", "", "a command that starts the new version, split like a shell would but run without one, with TAPP_ARENA and TAPP_TOKEN set")
	builtinKind := fs.String("builtin", "", "ask a built-in bot instead: "+strings.Join(builtin.Names(), ", "))
	seed := fs.Uint64("seed", 1, "seed of a randomised built-in bot")
	wait := fs.Duration("wait", 30*time.Second, "how long to wait for the bot to connect")
	perDecision := fs.Duration("time", 0, "time per decision (default: each match's)")
	asJSON := fs.Bool("json", false, "print the changed decisions as JSON")
	dsn := m.dbFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *botName == "" {
		return usagef("usage: tapp replay diff %s", strings.SplitN(replayDiffUsage, "\n", 2)[0])
	}
	if err := checkBounds(fs).duration("wait", *wait, time.Millisecond, time.Hour).
		durationOrZero("time", *perDecision, domain.MinPerDecision, domain.MaxPerDecision).err(); err != nil {
		return err
	}
	if (*botCmd == "") == (*builtinKind == "") {
		return usagef("say which new version to ask: --bot-cmd CMD or --builtin KIND")
	}
	var b bots.Bot
	if *builtinKind != "" {
		if b, err = builtin.New(*builtinKind, *seed); err != nil {
			return usagef("%v", err)
		}
	}
	src, deals, err := m.diffDeals(ctx, pos[0], *dsn)
	if err != nil {
		return err
	}
	defer src.Close()
	asker := app.Asker{Name: *botName, Wait: *wait, Log: m.Log, Builtin: b, BuiltinKind: *builtinKind, Command: *botCmd, Output: m.Stderr}
	if src.st != nil {
		asker.Store = src.st
	}
	progress, endProgress, _ := m.progressFrom("decisions")
	rep, err := app.ReplayDiff(ctx, app.DiffRequest{Bot: *botName, Source: pos[0], Deals: deals, PerDecision: *perDecision,
		Asker: asker, Progress: progress})
	endProgress()
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	m.printDiff(rep)
	return nil
}

// diffDeals reads the deals of an export file, of a stored match, or of every match of a
// stored league.
func (m *Main) diffDeals(ctx context.Context, arg, dsn string) (*replaySource, []app.RecordedDeal, error) {
	fi, statErr := os.Stat(arg)
	isFile := statErr == nil && fi.Mode().IsRegular()
	if isFile || strings.HasSuffix(arg, ".jsonl") || strings.ContainsRune(arg, os.PathSeparator) {
		src, err := m.openSource(ctx, arg, dsn)
		if err != nil {
			return nil, nil, err
		}
		deals, withheld, err := src.Recorded(ctx)
		if err != nil {
			src.Close()
			return nil, nil, err
		}
		m.noteWithheld(withheld)
		return src, deals, nil
	}
	st, err := m.openExistingStore(ctx, dsn)
	if err != nil {
		return nil, nil, err
	}
	deals, withheld, err := app.MatchOrLeagueDeals(ctx, st, arg)
	if err != nil {
		st.Close()
		if errors.Is(err, domain.ErrNotFound) {
			return nil, nil, noMatchError(arg, dsn)
		}
		return nil, nil, err
	}
	m.noteWithheld(withheld)
	return &replaySource{Source: &app.Source{Name: arg}, st: st}, deals, nil
}

func (m *Main) printDiff(rep *app.DiffReport) {
	w := m.Stdout
	fmt.Fprintf(w, "%d decisions of %s re-asked of %s: %d changed\n", rep.Asked, rep.Bot, rep.Version, len(rep.Changed))
	if len(rep.Changed) == 0 {
		fmt.Fprintln(w, "the new version decides every one of them as recorded")
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "match\tdeal\tdecision\tseat\tkind\tthen\tnow\tagainst par\t")
	for _, r := range rep.Changed {
		now, gain := r.Now, "not valued"
		if now == "" {
			now = "no answer"
		}
		if r.Valued {
			gain = fmt.Sprintf("%+g %s", r.Gain, r.Unit)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t\n", r.Match, r.Deal, r.Decision, r.Seat, r.Kind, r.Then, now, gain)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nnet against par over the valued changes: %+g (Ramsch card points apart); %d change(s) not valued\n", rep.NetGain, rep.Unvalued)
}

// noteWithheld says on stderr how many stored deals were left out because their cards are
// still in play.
func (m *Main) noteWithheld(n int) {
	if n > 0 {
		fmt.Fprintf(m.Stderr, "%d stored deal(s) left out: their cards are still in play at another table\n", n)
	}
}
