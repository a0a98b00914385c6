package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/arena/internal/league/leaguefile"
	"github.com/tapparena/tapp/arena/internal/league/leaguestore"
	"github.com/tapparena/tapp/arena/internal/server"
)

// StartLeague starts an arena for a league's bots: the gRPC server (listening on cfg.Listen,
// with the league file's grace), the launched bots (supervised, stderr in logDir), and waits
// until every bot is connected (token bots may take their time: their absence is logged).
// A host it returns with an error must still be stopped.
func StartLeague(ctx context.Context, cfg Config, st leaguestore.Store, bots []leaguefile.Bot, lc *leaguefile.Config, logDir string) (*Host, error) {
	for _, b := range bots {
		if b.Token {
			if _, err := st.BotByName(ctx, b.Name); errors.Is(err, domain.ErrNotFound) {
				return nil, fmt.Errorf("bot %s connects with a token but is not registered in this store: run `tapp bots add %s` (with the same --db) and give the bot its token", b.Name, b.Name)
			} else if err != nil {
				return nil, err
			}
		}
	}
	cfg.Store, cfg.AdminToken, cfg.Grace = st, "", time.Duration(lc.Grace)
	if cfg.Grace <= 0 {
		cfg.Grace = leaguefile.DefaultGrace
	}
	h, err := Start(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return h, fmt.Errorf("bot logs: %w", err)
	}
	var names []string
	for i, b := range bots {
		names = append(names, b.Name)
		if !b.Launched() {
			continue
		}
		if err := h.launchLeagueBot(ctx, b, lc, i, logDir); err != nil {
			return h, fmt.Errorf("launching bot %s: %w", b.Name, err)
		}
	}
	return h, h.waitForBots(ctx, names, bots)
}

// launchLeagueBot starts one launched bot of a league under supervision: restarted when it
// dies, its stderr appended to LOGDIR/NAME.stderr.log.
func (h *Host) launchLeagueBot(ctx context.Context, b leaguefile.Bot, lc *leaguefile.Config, index int, logDir string) error {
	token := server.NewToken("launch_")
	h.Server.AddLaunchToken(token, b.Name)
	if err := h.EnsureBot(ctx, b.Name); err != nil {
		return err
	}
	capacity := b.Capacity
	if capacity <= 0 {
		capacity = lc.Concurrency
	}
	seed := lc.Seed + uint64(index) + 1
	if b.Seed != nil {
		seed = *b.Seed
	}
	spec := launch.Spec{
		Name:       b.Name,
		StderrPath: filepath.Join(logDir, strings.ReplaceAll(b.Name, "/", "_")+".stderr.log"),
		Env: []string{"TAPP_ARENA=" + h.LaunchAddr, "TAPP_TOKEN=" + token, "TAPP_BOT_NAME=" + b.Name,
			"TAPP_CAPACITY=" + strconv.Itoa(capacity), "TAPP_SEED=" + strconv.FormatUint(seed, 10)},
	}
	for _, k := range sortedEnvKeys(b.Env) {
		spec.Env = append(spec.Env, k+"="+b.Env[k])
	}
	if b.Builtin != "" {
		spec.Command = append([]string{h.exe, "bot", b.Builtin, "--arena", h.LaunchAddr, "--name", b.Name,
			"--capacity", strconv.Itoa(capacity), "--seed", strconv.FormatUint(seed, 10)}, b.Args...)
	} else {
		spec.Command = append([]string(nil), b.Command...)
		spec.Dir = lc.Dir // a bot's folder is relative to the league file's
		if b.Dir != "" {
			spec.Dir = b.Dir
			if !filepath.IsAbs(b.Dir) {
				spec.Dir = filepath.Join(lc.Dir, b.Dir)
			}
		}
		if c := spec.Command[0]; strings.Contains(c, string(filepath.Separator)) && !filepath.IsAbs(c) {
			if abs, err := filepath.Abs(filepath.Join(spec.Dir, c)); err == nil {
				spec.Command[0] = abs
			}
		}
	}
	return h.start(ctx, spec)
}

func sortedEnvKeys(env map[string]string) []string {
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// waitForBots waits until every bot has a connected session. Launched bots get a minute;
// bots that connect by themselves are waited for as long as it takes (Ctrl-C stops), with a
// reminder every 15 s of who is missing and where to connect.
func (h *Host) waitForBots(ctx context.Context, names []string, bots []leaguefile.Bot) error {
	tokenBots := map[string]bool{}
	for _, b := range bots {
		tokenBots[b.Name] = b.Token
	}
	start, lastLog := time.Now(), time.Now()
	for {
		live := h.connected()
		var missing, missingLaunched []string
		for _, n := range names {
			if !live[n] {
				missing = append(missing, n)
				if !tokenBots[n] {
					missingLaunched = append(missingLaunched, n)
				}
			}
		}
		if len(missing) == 0 {
			return nil
		}
		if len(missingLaunched) > 0 && time.Since(start) > time.Minute {
			return fmt.Errorf("bots %s did not connect within a minute: see their stderr logs", strings.Join(missingLaunched, ", "))
		}
		if time.Since(lastLog) > 15*time.Second {
			lastLog = time.Now()
			h.log.Info("waiting for bots to connect", zap.Strings("bots", missing), zap.String("arena", h.Addr))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("interrupted while waiting for bots %s", strings.Join(missing, ", "))
		case <-time.After(20 * time.Millisecond):
		}
	}
}
