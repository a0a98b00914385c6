package app

import (
	"context"
	"crypto/tls"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/admission"
	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/host"
	"github.com/tapparena/tapp/arena/internal/league"
	"github.com/tapparena/tapp/arena/internal/league/leaguefile"
	"github.com/tapparena/tapp/arena/internal/league/leaguestore"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/league/sprt"
)

// LeagueRun says how to run a league on this host.
type LeagueRun struct {
	Config     *leaguefile.Config // the league file, read (with the command line's overrides)
	Listen     string             // where bots with a token connect ("127.0.0.1:0": a free port)
	TLS        *tls.Config        // serve TLS on Listen (nil: plain text; launched bots connect on loopback either way)
	BotLogs    string             // folder for the launched bots' stderr
	Until      time.Time          // stop cleanly then (zero: play until the league is finished)
	Executable string             // the tapp binary the launched built-in bots run
	StoreName  string             // how the log names the store (a DSN with its password hidden)
	Log        *zap.Logger        // the arena's log
	RunLog     *zap.Logger        // the league runner's log (nil: Log)
	Progress   func(league.Progress)
	Admitted   func(admission.Change) // told every change of the tables the admission control allows
}

// LeagueResult is what a run of a league did, and the league's leaderboard after it.
type LeagueResult struct {
	Plan *plan.Plan
	// AlreadyFinished says every planned round had been played before: nothing was started
	// (a bot that no longer starts would hold it up for nothing).
	AlreadyFinished bool
	Outcome         *league.Outcome
	Elapsed         time.Duration // of the play
	Board           *board.Leaderboard
}

// RunLeague plays a league from its file, resuming what the store holds of it: it starts an
// arena for the league's bots (launched ones supervised, token bots waited for), plays until
// the league is finished, Until, or ctx ends, and computes the leaderboard. A stopped league
// resumes when run again.
func RunLeague(ctx context.Context, st leaguestore.Store, r LeagueRun) (*LeagueResult, error) {
	if r.Log == nil {
		r.Log = zap.NewNop()
	}
	if r.RunLog == nil {
		r.RunLog = r.Log
	}
	p := r.Config.Plan()
	done, err := league.Finished(ctx, st, p)
	if err != nil {
		return nil, err
	}
	res := &LeagueResult{Plan: p, AlreadyFinished: done, Outcome: &league.Outcome{Finished: true}}
	if !done {
		if res.Outcome, res.Elapsed, err = playLeague(ctx, st, p, r); err != nil {
			return nil, err
		}
	}
	// The board of a league stopped by Ctrl-C is still worth showing.
	if res.Board, err = Leaderboard(context.WithoutCancel(ctx), st, BoardQuery{Filter: domain.MatchFilter{LeagueID: p.League}}); err != nil {
		return nil, err
	}
	return res, nil
}

// playLeague starts the league's bots and plays it until it is finished, stopped or r.Until.
func playLeague(ctx context.Context, st leaguestore.Store, p *plan.Plan, r LeagueRun) (*league.Outcome, time.Duration, error) {
	cfg := r.Config
	a, err := host.StartLeague(ctx, host.Config{Listen: r.Listen, Log: r.Log, Executable: r.Executable, TLS: r.TLS}, st, cfg.Bots, cfg, r.BotLogs)
	if a != nil {
		defer a.Stop()
	}
	if err != nil {
		return nil, 0, err
	}
	r.Log.Info("league started", zap.String("league", p.League), zap.String("format", p.Format),
		zap.String("rules", p.Rules.String()), zap.Strings("bots", p.Bots), zap.String("db", r.StoreName),
		zap.String("arena", a.Addr), zap.String("bot_logs", r.BotLogs))
	runner := &league.Runner{Store: st, Seats: a.Server, Log: r.RunLog, Concurrency: cfg.Concurrency,
		Lease: time.Duration(cfg.Lease), Progress: r.Progress, Admitted: r.Admitted}
	started := time.Now()
	out, err := runner.Run(ctx, p, r.Until)
	return out, time.Since(started), err
}

// SPRTRun says how to run a sequential test of a candidate against a baseline.
type SPRTRun struct {
	Plan     *plan.Plan // sprt.NewPlan's
	Settings sprt.Settings
	// Config and Bots are the bots the test launches or waits for, with the league settings
	// they are launched with (leaguefile.NamedBots).
	Config      *leaguefile.Config
	Bots        []leaguefile.Bot
	BotLogs     string
	Until       time.Time // stop undecided then (zero: no limit)
	Concurrency int       // tables played at once
	Executable  string
	Log         *zap.Logger
}

// RunSPRT plays the test as a league (stored under its plan's name, resumable like one) until
// it decides, reaches its pair limit, Until, or ctx ends, and returns its summary.
func RunSPRT(ctx context.Context, st leaguestore.Store, r SPRTRun) (sprt.Summary, *league.Outcome, error) {
	if r.Log == nil {
		r.Log = zap.NewNop()
	}
	p := r.Plan
	a, err := host.StartLeague(ctx, host.Config{Listen: "127.0.0.1:0", Log: r.Log, Executable: r.Executable}, st, r.Bots, r.Config, r.BotLogs)
	if a != nil {
		defer a.Stop()
	}
	if err != nil {
		return sprt.Summary{}, nil, err
	}
	r.Log.Info("sprt started", zap.String("name", p.League), zap.String("candidate", p.Candidate),
		zap.String("baseline", p.Baseline), zap.Strings("field", p.Field), zap.Float64("elo0", r.Settings.NElo0),
		zap.Float64("elo1", r.Settings.NElo1), zap.String("rules", p.Rules.String()))
	runner := &league.Runner{Store: st, Seats: a.Server, Log: r.Log, Concurrency: r.Concurrency}
	return sprt.Run(ctx, runner, p, r.Settings, r.Until)
}
