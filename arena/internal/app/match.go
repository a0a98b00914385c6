package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/admission"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/host"
	"github.com/tapparena/tapp/arena/internal/inproc"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/builtin"
)

// MatchPlay says how to play a match among built-in bots on this machine.
type MatchPlay struct {
	Spec  domain.MatchSpec // its Bots name the seats (SeatNames of Kinds)
	Kinds []string         // the built-in bot at each table position
	// InProcess calls the bots in this process (arena/internal/inproc) instead of launching
	// one `tapp bot` process per bot that connects to an arena on a loopback port.
	InProcess bool
	// Unrecorded (in process only) keeps no request or answer in the decision records, and
	// encodes none: the fastest bulk play; replays show the moves, not what was asked.
	Unrecorded bool
	Parallel   int    // tables played at once
	BotLogs    string // folder for the launched bots' stderr ("": discarded)
	Executable string // the tapp binary the launched bots run
	Log        *zap.Logger
	// Progress, when set, is told the deals done and planned: with none done once the match
	// is created, then after every stored deal.
	Progress func(done, total int)
	// Admitted, when set, is told every change of the tables the admission control lets the
	// match play at once (match.Runner.Admitted).
	Admitted func(admission.Change)
}

// PlayedMatch is a match played to its end (or to its last forfeit).
type PlayedMatch struct {
	Match  *domain.Match // as stored, with its decisions and fallbacks counted
	Result *match.Result
	Lines  []BotLine // the result per bot, best first
}

// PlayMatch creates a match of p.Spec in st, seats the built-in bots, plays every deal and
// sums the results per bot. The bot at table position i is seeded with the match's seed
// plus i, in a process of its own or in this one.
func PlayMatch(ctx context.Context, st domain.Store, p MatchPlay) (*PlayedMatch, error) {
	if p.Log == nil {
		p.Log = zap.NewNop()
	}
	if len(p.Kinds) != len(p.Spec.Bots) {
		return nil, fmt.Errorf("%d bot kinds for %d seats", len(p.Kinds), len(p.Spec.Bots))
	}
	runner, where, stop, err := seat(ctx, st, p)
	if err != nil {
		return nil, err
	}
	defer stop()
	runner.Parallel, runner.Admitted = p.Parallel, p.Admitted
	mt, err := runner.Create(ctx, p.Spec)
	if err != nil {
		return nil, err
	}
	p.Log.Info("match started", zap.String("match", mt.ID), zap.String("rules", p.Spec.Rules.String()),
		zap.Strings("bots", p.Spec.Bots), zap.String("addr", where))
	if p.Progress != nil {
		tables, err := match.NewSchedule(p.Spec)
		if err != nil {
			return nil, err
		}
		p.Progress(0, tables.Len())
		runner.Progress = p.Progress
	}
	res, err := runner.Run(ctx, mt)
	if err != nil {
		return nil, fmt.Errorf("match %s: %w", mt.ID, err)
	}
	if stored, err := st.GetMatch(ctx, mt.ID); err == nil {
		mt = stored // with the head of its deals' chain
	}
	rows, err := st.Results(ctx, domain.MatchFilter{MatchID: mt.ID})
	if err != nil {
		return nil, err
	}
	return &PlayedMatch{Match: mt, Result: res, Lines: ResultLines(p.Spec, rows)}, nil
}

// seat returns a match runner whose seats are the built-in bots, where they play, and what
// stops them: in this process, or launched as `tapp bot` processes connected to an arena
// started for them.
func seat(ctx context.Context, st domain.Store, p MatchPlay) (runner *match.Runner, where string, stop func(), err error) {
	if p.InProcess {
		if runner, err = inProcessRunner(ctx, st, p.Spec, p.Kinds, p.Unrecorded); err != nil {
			return nil, "", nil, err
		}
		runner.Log = p.Log
		return runner, "in-process", func() {}, nil
	}
	if p.Unrecorded {
		return nil, "", nil, errors.New("only a match in process plays unrecorded: over gRPC every request is encoded to be sent")
	}
	a, err := host.Start(ctx, host.Config{Store: st, Listen: "127.0.0.1:0", Grace: 5 * time.Second, Log: p.Log, Executable: p.Executable})
	if err != nil {
		return nil, "", nil, err
	}
	if err := launchBuiltins(ctx, a, p); err != nil {
		a.Stop()
		return nil, "", nil, err
	}
	return a.Runner, a.Addr, a.Stop, nil
}

// launchBuiltins launches the match's built-in bots and waits until every one is connected.
func launchBuiltins(ctx context.Context, a *host.Host, p MatchPlay) error {
	if p.BotLogs != "" {
		if err := os.MkdirAll(p.BotLogs, 0o755); err != nil {
			return err
		}
	}
	for i, k := range p.Kinds {
		if err := a.LaunchBuiltin(ctx, p.Spec.Bots[i], k, p.Parallel, p.Spec.Seed+uint64(i), p.BotLogs); err != nil {
			return err
		}
	}
	return a.WaitConnected(ctx, p.Spec.Bots, 30*time.Second)
}

// inProcessRunner is a match runner that seats the built-in bots (kinds in table order, named
// as in spec) in this process: the bot at table position i is seeded with the match's seed
// plus i, as the launched `tapp bot` processes are, and every decision is recorded with its
// clock (its request, the one the gRPC session would have sent, is rebuilt when the deal is
// read), unless unrecorded.
func inProcessRunner(ctx context.Context, st domain.Store, spec domain.MatchSpec, kinds []string, unrecorded bool) (*match.Runner, error) {
	seats := &inproc.Seats{Bots: make(map[string]bots.Bot, len(kinds))}
	for i, k := range kinds {
		b, err := builtin.New(k, spec.Seed+uint64(i))
		if err != nil {
			return nil, err
		}
		seats.Bots[spec.Bots[i]] = b
		if err := host.EnsureBot(ctx, st, spec.Bots[i]); err != nil {
			return nil, err
		}
	}
	return &match.Runner{Store: st, Seats: seats, Unrecorded: unrecorded}, nil
}

// SeatNames names the bots at a table: a kind that appears more than once gets a suffix per
// extra copy (random, heuristic, random → random, heuristic, random#2), so each copy is its own
// process and no process ever sees two seats of one deal.
func SeatNames(kinds []string) []string {
	seen := make(map[string]int)
	out := make([]string, len(kinds))
	for i, k := range kinds {
		seen[k]++
		out[i] = k
		if seen[k] > 1 {
			out[i] = k + "#" + strconv.Itoa(seen[k])
		}
	}
	return out
}
