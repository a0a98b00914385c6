package cli

import (
	"context"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/app"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/host"
	"github.com/tapparena/tapp/arena/internal/hosting"
	"github.com/tapparena/tapp/arena/internal/league"
	"github.com/tapparena/tapp/arena/internal/league/leaguefile"
	"github.com/tapparena/tapp/arena/internal/league/leaguestore"
	"github.com/tapparena/tapp/arena/internal/notify"
)

// ladderRun is tapp league run for a league with hosted bots (submission:), or with
// --continuous: a standing ladder whose hosted bots are built, gauntleted against their
// previous versions and seated in their sandboxes as their versions arrive.
type ladderRun struct {
	cfg              *leaguefile.Config
	st               leaguestore.Store
	db, listen, logs string
	until            time.Time
	continuous       bool
	hf               *hostingFlags
	notify           []string // the file's notify: and --notify: told when the run ends
}

func (m *Main) runStandingLadder(ctx context.Context, lr ladderRun) error {
	ls, ok := lr.st.(hosting.LadderStore)
	if !ok {
		return fmt.Errorf("this store keeps no hosted bots")
	}
	parts, err := m.hosting(ctx, lr.hf, lr.db)
	if err != nil {
		return err
	}
	var launched []leaguefile.Bot
	for _, b := range lr.cfg.Bots {
		if b.Submission == "" {
			launched = append(launched, b)
		}
	}
	a, err := host.StartLeague(ctx, host.Config{Listen: lr.listen, Log: m.Log, Executable: m.Executable}, lr.st, launched, lr.cfg, lr.logs, lr.until)
	seats := &hosting.Seats{Host: a, Sandbox: parts.sandbox, Python: parts.python, Dir: parts.dir, LogDir: lr.logs}
	defer func() {
		if a != nil {
			a.Stop()
		}
		seats.Close()
	}()
	if err != nil {
		return err
	}
	m.Log.Info("standing ladder started", zap.String("league", lr.cfg.Name), zap.Bool("continuous", lr.continuous),
		zap.String("sandbox", parts.sandbox.Name()), zap.String("arena", a.Addr), zap.String("bot_logs", lr.logs))
	lad := &hosting.Ladder{Store: ls, Config: lr.cfg, Host: a, Seats: seats, Builder: parts.builder, Continuous: lr.continuous,
		Log:    m.Log.Named("ladder"),
		Runner: league.Runner{Log: m.Log, Concurrency: lr.cfg.Concurrency, Lease: time.Duration(lr.cfg.Lease)}}
	started := time.Now()
	ep, err := lad.Run(ctx, lr.until)
	summary := notify.Summary{Kind: notify.League, Name: lr.cfg.Name, DB: redactDSN(lr.db), Status: "stopped",
		Next: []string{"tapp submissions list" + m.suggestDB(lr.db)}}
	if err != nil {
		summary.Status, summary.Reason = "failed", err.Error()
		m.notify(ctx, lr.notify, summary)
		return err
	}
	if ep != nil {
		// The ladder's one board counts every epoch; the epoch played last has the replays.
		summary.Next = append([]string{"tapp ratings --league " + lr.cfg.Name + m.suggestDB(lr.db)}, summary.Next...)
		if ep.Outcome != nil {
			summary.Deals, summary.Reason = ep.Outcome.Played, ep.Outcome.Stopped
			if ep.Outcome.Finished {
				summary.Status = "finished"
			}
		}
	}
	m.notify(ctx, lr.notify, summary)
	if ep == nil {
		fmt.Fprintln(m.Stdout, "the ladder played nothing")
		return nil
	}
	lb, err := app.Leaderboard(context.WithoutCancel(ctx), lr.st, app.BoardQuery{Filter: domain.MatchFilter{LeagueID: lr.cfg.Name}})
	if err != nil {
		return err
	}
	lb.League = lr.cfg.Name
	played := 0
	if ep.Outcome != nil {
		played = ep.Outcome.Played
	}
	fmt.Fprintf(m.Stdout, "standing ladder %s, its board over every epoch (the last: %s, %d bots) — %d deals played in its last run, %s in all\n\n",
		lr.cfg.Name, ep.League, len(ep.Bots), played, time.Since(started).Round(time.Second))
	m.printLeaderboard(lb, shortRules(ep.Plan.Rules), false)
	m.printReplayHint(context.WithoutCancel(ctx), lr.st, ep.League, lr.db)
	fmt.Fprintf(m.Stdout, "\nversions and their gauntlets: tapp submissions list --db %s\n", lr.db)
	return nil
}
