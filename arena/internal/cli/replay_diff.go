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

	"github.com/tapparena/tapp/arena/internal/analysis"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/reask"
	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/bots/builtin"
)

const replayDiffUsage = `MATCH|LEAGUE|FILE.jsonl --bot NAME (--bot-cmd CMD | --builtin KIND) [flags]

Re-asks every recorded decision of bot NAME of a new version of it and lists the decisions
that changed, each with what the change gains (+) or costs (-) against par, in the rule
set's unit (see docs/analysis.md): a regression test of a bot over a stored corpus.`

// diffRow is one re-asked decision that changed.
type diffRow struct {
	Match    string  `json:"match"`
	Deal     int     `json:"deal"`
	Decision int     `json:"decision"`
	Seat     int     `json:"seat"`
	Kind     string  `json:"kind"`
	Then     string  `json:"then"`
	Now      string  `json:"now"` // "" when no legal answer came in time
	Gain     float64 `json:"gain"`
	Unit     string  `json:"unit"`
	Valued   bool    `json:"valued"`
}

// diffReport is the outcome of tapp replay diff.
type diffReport struct {
	Bot      string    `json:"bot"`
	Version  string    `json:"version"` // what the new bot said in its hello
	Asked    int       `json:"asked"`
	Changed  []diffRow `json:"changed"`
	NetGain  float64   `json:"net_gain"` // over the valued changes in the rule set's unit (Ramsch card points apart)
	Unvalued int       `json:"unvalued"`
}

// diffDeal is one recorded deal with its match.
type diffDeal struct {
	match replay.Match
	rec   *domain.DealRecord
}

// replayDiff is `tapp replay diff`.
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
	if (*botCmd == "") == (*builtinKind == "") {
		return usagef("say which new version to ask: --bot-cmd CMD or --builtin KIND")
	}
	deals, st, closeStore, err := m.diffDeals(ctx, pos[0], *dsn)
	if err != nil {
		return err
	}
	defer closeStore()
	var questions []*reask.Question
	var owners []diffDeal
	for _, d := range deals {
		if *perDecision > 0 {
			d.match.TimeControl.PerDecision = *perDecision
		}
		for k, mv := range d.rec.Moves {
			if int(mv.Seat) >= len(d.rec.Seating) || d.rec.Seating[mv.Seat] != *botName {
				continue
			}
			q, err := reask.NewQuestion(d.match, d.rec, k)
			if err != nil {
				return err
			}
			questions = append(questions, q)
			owners = append(owners, d)
		}
	}
	if len(questions) == 0 {
		return fmt.Errorf("bot %q made no recorded decision in %s (%d deals)", *botName, pos[0], len(deals))
	}

	cfg := reask.ArenaConfig{Log: m.Log, Name: *botName}
	if st != nil {
		cfg.Store = st
	}
	la, err := reask.StartArena(cfg)
	if err != nil {
		return err
	}
	defer la.Close()
	if *builtinKind != "" {
		b, err := builtin.New(*builtinKind, *seed)
		if err != nil {
			return usagef("%v", err)
		}
		la.RunBuiltin(ctx, "builtin/"+strings.ToLower(*builtinKind), b)
	} else if err := la.RunCommand(*botCmd, m.Stderr); err != nil {
		return err
	}
	if err := la.WaitBot(ctx, *wait); err != nil {
		return err
	}
	rep := diffReport{Bot: *botName, Asked: len(questions), Changed: []diffRow{}}
	a := analysis.NewAnalyzer(analysis.Options{})
	progress := m.progress(len(questions), "decisions")
	for i, q := range questions {
		ans, err := la.Ask(ctx, q)
		if err != nil {
			return err
		}
		progress(i + 1)
		if rep.Version == "" {
			_, rep.Version = la.Bot()
		}
		if ans.Same(q) {
			continue
		}
		d := owners[i]
		row := diffRow{Match: d.match.ID, Deal: d.rec.Number, Decision: q.Index, Seat: int(q.Seat), Kind: q.Decision.String(),
			Then: q.Recorded.Action.String(), Unit: ""}
		if ans.Answered {
			row.Now = ans.Action.String()
			ch, err := a.ValueChange(d.match.Rules, d.rec, q.Index, ans.Action)
			if err != nil {
				return err
			}
			row.Gain, row.Unit, row.Valued = ch.Gain, ch.Unit, ch.Valued
		}
		if row.Valued && row.Unit != "card points" {
			rep.NetGain += row.Gain
		}
		if !row.Valued {
			rep.Unvalued++
		}
		rep.Changed = append(rep.Changed, row)
	}
	progress(-1)
	if *asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	m.printDiff(&rep)
	return nil
}

// diffDeals reads the deals of a match, of every match of a league, or of an export file.
func (m *Main) diffDeals(ctx context.Context, arg, dsn string) (deals []diffDeal, st domain.Store, closeFn func(), err error) {
	if fi, statErr := os.Stat(arg); statErr != nil || !fi.Mode().IsRegular() {
		s, err := m.openExistingStore(ctx, dsn)
		if err != nil {
			return nil, nil, nil, err
		}
		if _, err := s.GetMatch(ctx, arg); errors.Is(err, domain.ErrNotFound) {
			if _, lerr := s.GetLeague(ctx, arg); lerr == nil {
				ms, err := s.ListMatches(ctx, domain.MatchFilter{LeagueID: arg})
				if err != nil {
					s.Close()
					return nil, nil, nil, err
				}
				for _, mt := range ms {
					recs, err := s.Deals(ctx, mt.ID)
					if err != nil {
						s.Close()
						return nil, nil, nil, err
					}
					for i := range recs {
						deals = append(deals, diffDeal{replay.MatchOf(&mt), &recs[i]})
					}
				}
				return deals, s, func() { s.Close() }, nil
			}
		}
		s.Close()
	}
	src, err := m.openSource(ctx, arg, dsn)
	if err != nil {
		return nil, nil, nil, err
	}
	if src.st == nil {
		for _, d := range src.lines {
			deals = append(deals, diffDeal{d.match, d.rec})
		}
		return deals, nil, src.Close, nil
	}
	am, err := src.st.GetMatch(ctx, src.matchID)
	if err != nil {
		src.Close()
		return nil, nil, nil, err
	}
	recs, err := src.st.Deals(ctx, src.matchID)
	if err != nil {
		src.Close()
		return nil, nil, nil, err
	}
	for i := range recs {
		deals = append(deals, diffDeal{replay.MatchOf(am), &recs[i]})
	}
	return deals, src.st, src.Close, nil
}

func (m *Main) printDiff(rep *diffReport) {
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
