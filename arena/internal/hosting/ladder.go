package hosting

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/host"
	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/arena/internal/league"
	"github.com/tapparena/tapp/arena/internal/league/leaguefile"
	"github.com/tapparena/tapp/arena/internal/league/leaguestore"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/league/sprt"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// LadderStore is what a standing ladder needs from storage.
type LadderStore interface {
	leaguestore.Store
	domain.SubmissionStore
}

// Gauntlet defaults (league file: gauntlet:).
const (
	DefaultGauntletPairs = 200
	DefaultGauntletDeals = 4
)

// Ladder is a standing ladder: the league file's bots, with every hosted bot (submission:
// NAME@latest) at its newest version that has played its gauntlet. A version new to the
// arena is built (in the sandbox), then plays an SPRT gauntlet against the version before it
// with the ladder's other bots as the field (the first version of a bot has nothing to
// compare with and joins at once), then takes its bot's place on the ladder. The ladder is
// played as leagues of one set of bots each ("epochs": NAME.HASH, resumable like any league);
// when a version arrives, the epoch stops cleanly and the next one starts with it. Every
// epoch's matches count on one board, the ladder's (NAME), and pausing NAME pauses every
// epoch and gauntlet of it.
type Ladder struct {
	Store   LadderStore
	Config  *leaguefile.Config
	Host    *host.Host
	Seats   *Seats
	Builder *Builder
	// Runner is the template of the runner of each epoch and gauntlet (its Store, Seats and
	// Goal are set here).
	Runner league.Runner
	// Continuous keeps the ladder going as versions arrive, until the time limit or ctx ends;
	// otherwise one epoch is played (to its rounds, or until the time limit).
	Continuous bool
	Log        *zap.Logger
	// Poll is how often a finished epoch looks for new versions (default 2 s).
	Poll time.Duration

	running map[string]*launch.Process // the hosted versions started, by name
}

// Epoch is one league of the ladder: its id, bots and how its run ended.
type Epoch struct {
	League  string
	Bots    []string
	Outcome *league.Outcome
	Plan    *plan.Plan
}

// Run plays the ladder until until (zero: no limit), ctx's end, or (not Continuous) the end
// of its epoch; it returns the last epoch played.
func (l *Ladder) Run(ctx context.Context, until time.Time) (*Epoch, error) {
	if l.Log == nil {
		l.Log = zap.NewNop()
	}
	if l.Poll <= 0 {
		l.Poll = 2 * time.Second
	}
	l.running = map[string]*launch.Process{}
	if err := l.ensureRow(ctx); err != nil {
		return nil, err
	}
	defer func() {
		if ctx.Err() == nil { // stopped cleanly (the time limit, one epoch played): it resumes
			_ = l.Store.SetLeagueStatus(ctx, l.Config.Name, domain.LeagueStopped)
		}
	}()
	var last *Epoch
	for {
		if ctx.Err() != nil || (!until.IsZero() && time.Now().After(until)) {
			return last, nil
		}
		members, err := l.prepare(ctx, until)
		if err != nil {
			return last, err
		}
		if ctx.Err() != nil || (!until.IsZero() && time.Now().After(until)) {
			return last, nil
		}
		if missing, err := l.seat(ctx, hostedOf(members)); err != nil {
			return last, err
		} else {
			for slot, v := range members {
				if slices.Contains(missing, v) { // it crashes at start, say: the ladder goes on without it
					l.Log.Warn("a hosted version did not connect: left out of this epoch", zap.String("version", v))
					members[slot] = ""
				}
			}
		}
		p, err := l.epochPlan(members)
		if err != nil {
			if !l.Continuous {
				return last, err
			}
			l.Log.Info("the ladder waits for enough bots", zap.Error(err))
			if err := l.waitForVersions(ctx, until); err != nil {
				return last, err
			}
			continue
		}
		l.Log.Info("ladder epoch", zap.String("league", p.League), zap.Strings("bots", p.Bots))
		r := l.Runner
		r.Store, r.Seats = l.Store, l.Host.Server
		if l.Continuous {
			r.Goal = l.versionWaiting
		}
		out, err := r.Run(ctx, p, until)
		last = &Epoch{League: p.League, Bots: p.Bots, Outcome: out, Plan: p}
		if err != nil || !l.Continuous {
			return last, err
		}
		if out != nil && out.Finished {
			if err := l.waitForVersions(ctx, until); err != nil {
				return last, err
			}
		}
	}
}

// ensureRow stores the ladder itself as a league of its own name, which plays nothing: the
// board its epochs count on (tapp ratings --league NAME, the dashboard's leaderboard) and
// the switch that pauses them all, and its gauntlets (tapp league pause NAME).
func (l *Ladder) ensureRow(ctx context.Context) error {
	row, err := l.Store.EnsureLeague(ctx, &domain.League{ID: l.Config.Name, Plan: LadderPlan(l.Config.Name)})
	if err != nil {
		return err
	}
	if row.Status != domain.LeagueRunning {
		return l.Store.SetLeagueStatus(ctx, l.Config.Name, domain.LeagueRunning)
	}
	return nil
}

// LadderPlan is the stored plan of a standing ladder's own league row: it plays nothing
// itself (its epochs do), and a league file of the same name that is not a ladder is told
// apart by it.
func LadderPlan(name string) string {
	return fmt.Sprintf(`{"standing_ladder":%q}`, name)
}

// slot is a hosted bot of the league file.
type slot struct {
	bot     leaguefile.Bot
	name    string // the hosted bot's name
	version int    // pinned version, 0 for latest
}

func (l *Ladder) slots() []slot {
	var out []slot
	for _, b := range l.Config.Bots {
		if b.Submission == "" {
			continue
		}
		name, v, _ := domain.ParseVersionName(b.Submission)
		out = append(out, slot{bot: b, name: name, version: v})
	}
	return out
}

// prepare builds the versions waiting for a build, plays the gauntlets of those built (with
// the ladder as it stands as their field), and returns each hosted slot's current version
// ("" when it has none yet), by slot name.
func (l *Ladder) prepare(ctx context.Context, until time.Time) (map[string]string, error) {
	members := map[string]string{}
	type pending struct {
		slot slot
		subs []domain.Submission
	}
	var todo []pending
	for _, s := range l.slots() {
		subs, err := l.Store.Submissions(ctx, s.name)
		if err != nil {
			return nil, err
		}
		for i := range subs {
			sub := &subs[i]
			if sub.Status == domain.SubmissionQueued || sub.Status == domain.SubmissionBuilding {
				if _, err := l.Builder.Build(ctx, l.Store, sub); err != nil {
					var be *BuildError
					if !errors.As(err, &be) {
						return nil, err
					}
					l.Log.Warn("a submitted version did not build", zap.String("version", sub.Name()))
				}
			}
		}
		for _, sub := range subs {
			if sub.Status == domain.SubmissionReady && (sub.Version == s.version || (s.version == 0 && sub.Gauntlet != domain.GauntletNone)) {
				members[s.bot.Name] = sub.Name()
			}
		}
		if s.version == 0 {
			todo = append(todo, pending{s, subs})
		}
	}
	for _, p := range todo {
		var admitted *domain.Submission
		for i := range p.subs {
			sub := &p.subs[i]
			if sub.Status != domain.SubmissionReady {
				continue
			}
			if sub.Gauntlet == domain.GauntletNone {
				verdict := domain.GauntletFirst
				if admitted != nil {
					var err error
					if verdict, err = l.gauntlet(ctx, sub, admitted, l.field(members, p.slot.bot.Name), until); err != nil {
						return nil, err
					}
					if verdict == domain.GauntletNone { // interrupted: it goes on next time
						break
					}
				}
				if err := l.Store.SetSubmissionGauntlet(ctx, sub.Bot, sub.Version, verdict); err != nil {
					return nil, err
				}
				sub.Gauntlet = verdict
				l.Log.Info("version admitted to the ladder", zap.String("version", sub.Name()), zap.String("gauntlet", verdict))
			}
			admitted = sub
			members[p.slot.bot.Name] = sub.Name()
		}
	}
	return members, nil
}

// field is the gauntlet's field: the ladder's other bots now (not of the same family).
func (l *Ladder) field(members map[string]string, self string) []string {
	var out []string
	for _, b := range l.Config.Bots {
		switch {
		case b.Name == self:
		case b.Submission != "":
			if v := members[b.Name]; v != "" {
				out = append(out, v)
			}
		default:
			out = append(out, b.Name)
		}
	}
	return out
}

// gauntlet plays the SPRT of the new version against the previous one and returns its
// verdict ("" when it was interrupted before it ended).
func (l *Ladder) gauntlet(ctx context.Context, cand, prev *domain.Submission, field []string, until time.Time) (string, error) {
	base := l.Config.Plan()
	g := l.Config.Gauntlet
	pairs, deals := g.MaxPairs, g.Deals
	if pairs <= 0 {
		pairs = DefaultGauntletPairs
	}
	if deals <= 0 {
		deals = DefaultGauntletDeals
	}
	base.Deals, base.DealsText = deals, ""
	settings := sprt.Settings{NElo0: 0, NElo1: 10, Alpha: 0.05, Beta: 0.05, MaxPairs: pairs}
	name := fmt.Sprintf("%s.gauntlet.%s.v%d", l.Config.Name, cand.Bot, cand.Version)
	p, err := sprt.NewPlan(name, *base, cand.Name(), prev.Name(), field, settings)
	if err != nil {
		l.Log.Warn("no gauntlet: the ladder has too few other bots", zap.String("version", cand.Name()), zap.Error(err))
		return domain.GauntletUndecided, nil
	}
	if missing, err := l.seat(ctx, p.Bots); err != nil {
		return "", err
	} else if len(missing) > 0 {
		l.Log.Warn("no gauntlet: bots did not connect", zap.String("version", cand.Name()), zap.Strings("missing", missing))
		return domain.GauntletUndecided, nil
	}
	l.Log.Info("gauntlet", zap.String("candidate", cand.Name()), zap.String("baseline", prev.Name()), zap.Strings("field", field))
	r := l.Runner
	r.Store, r.Seats = l.Store, l.Host.Server
	p.Ladder = l.Config.Name // paused with the ladder; its board is its own
	s, out, err := sprt.Run(ctx, &r, p, settings, until)
	if err != nil {
		return "", err
	}
	return Verdict(s.Report.Status, s.Over(pairs) || (out != nil && out.Finished)), nil
}

// Verdict is the rule that names a new version's gauntlet: the SPRT's decision when it made
// one (H1 accepted: stronger; H0 accepted: not better), undecided when the gauntlet used up
// its pairs (exhausted) without a decision, and none while it goes on — a gauntlet cut short
// (the time limit, a stop) resumes at the next run, and its version waits meanwhile. Every
// verdict but none admits the version: it takes its bot's place on the ladder whatever the
// verdict, which informs its author and does not gate.
func Verdict(status rating.SPRTStatus, exhausted bool) string {
	switch {
	case status == rating.SPRTAcceptH1:
		return domain.GauntletStronger
	case status == rating.SPRTAcceptH0:
		return domain.GauntletNotBetter
	case exhausted:
		return domain.GauntletUndecided
	}
	return domain.GauntletNone
}

// epochPlan is the plan of the ladder with these versions: the league file's plan with
// every hosted slot replaced by its current version (each in its bot's family).
func (l *Ladder) epochPlan(members map[string]string) (*plan.Plan, error) {
	p := l.Config.Plan()
	var bots, missing []string
	fam := map[string]string{}
	for name, f := range p.Families {
		fam[name] = f
	}
	for _, b := range l.Config.Bots {
		if b.Submission == "" {
			bots = append(bots, b.Name)
			continue
		}
		v := members[b.Name]
		if v == "" {
			missing = append(missing, b.Name)
			continue
		}
		bots = append(bots, v)
		f := b.Family
		if f == "" {
			f = b.Name
		}
		fam[v] = f
		delete(fam, b.Name)
	}
	if len(missing) > 0 {
		l.Log.Info("hosted bots without a playable version yet", zap.Strings("bots", missing))
	}
	if len(bots) < p.Rules.Players {
		return nil, fmt.Errorf("the ladder has %d bots with a playable version (%s), a table needs %d", len(bots), strings.Join(bots, ", "), p.Rules.Players)
	}
	p.Bots, p.Families = bots, fam
	sum := sha256.Sum256([]byte(strings.Join(bots, "\n")))
	p.League = l.Config.Name + "." + hex.EncodeToString(sum[:4])
	// Every epoch counts on the ladder's one board and pauses with the ladder.
	p.Ladder, p.Board = l.Config.Name, l.Config.Name
	return p, nil
}

// hostedOf lists the versions of members.
func hostedOf(members map[string]string) []string {
	var out []string
	for _, v := range members {
		if v != "" {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// connectWait is how long a hosted version gets to connect after its start.
const connectWait = time.Minute

// seat starts the hosted versions among names that are not running yet and waits (up to
// connectWait) until every named bot is connected; it returns those that did not connect.
func (l *Ladder) seat(ctx context.Context, names []string) ([]string, error) {
	for i, name := range names {
		bot, v, ok := domain.ParseVersionName(name)
		if !ok || l.running[name] != nil {
			continue
		}
		sub, err := l.Store.Submission(ctx, bot, v)
		if err != nil {
			return nil, err
		}
		a, err := l.Builder.Build(ctx, l.Store, sub)
		if err != nil {
			return nil, err
		}
		capacity := l.Config.Concurrency
		for _, b := range l.Config.Bots {
			if b.Name == bot && b.Capacity > 0 {
				capacity = b.Capacity
			}
		}
		proc, err := l.Seats.Start(ctx, a, max(capacity, 1), l.Config.Seed+uint64(i)+1)
		if err != nil {
			return nil, err
		}
		l.running[name] = proc
	}
	if err := l.Host.WaitConnected(ctx, names, connectWait); err == nil || ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var missing []string
	for _, n := range names {
		if l.Host.WaitConnected(ctx, []string{n}, 0) != nil {
			missing = append(missing, n)
		}
	}
	return missing, nil
}

// versionWaiting is the goal of an epoch: a hosted slot has a version to build or to
// gauntlet, so the ladder's bots change.
func (l *Ladder) versionWaiting(ctx context.Context) (bool, error) {
	for _, s := range l.slots() {
		if s.version > 0 {
			continue
		}
		subs, err := l.Store.Submissions(ctx, s.name)
		if err != nil {
			return false, err
		}
		for _, sub := range subs {
			if sub.Status == domain.SubmissionQueued || (sub.Status == domain.SubmissionReady && sub.Gauntlet == domain.GauntletNone) {
				return true, nil
			}
		}
	}
	return false, nil
}

// waitForVersions waits until a version arrives, the time limit or ctx's end.
func (l *Ladder) waitForVersions(ctx context.Context, until time.Time) error {
	for {
		if waiting, err := l.versionWaiting(ctx); err != nil || waiting {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(l.Poll):
		}
		if !until.IsZero() && time.Now().After(until) {
			return nil
		}
	}
}
