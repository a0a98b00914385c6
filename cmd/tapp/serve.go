package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena"
	"github.com/tapparena/tapp/arena/launch"
	"github.com/tapparena/tapp/arena/match"
	"github.com/tapparena/tapp/arena/server"
	"github.com/tapparena/tapp/arena/store"
)

// defaultDB is the embedded SQLite file used when neither --db nor TAPP_DB says otherwise.
const defaultDB = "tapp.db"

func (m *Main) openStore(ctx context.Context, dsn string) (*store.Store, error) {
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("opening store %s: %w", dsn, err)
	}
	return st, nil
}

// openExistingStore opens a store to read from (ratings, matches, replays, league status): a
// SQLite file that does not exist is an error here, not a new empty database made by a typo.
func (m *Main) openExistingStore(ctx context.Context, dsn string) (*store.Store, error) {
	if !strings.Contains(dsn, "://") || strings.HasPrefix(dsn, "sqlite:") {
		path := strings.TrimPrefix(strings.TrimPrefix(dsn, "sqlite:"), "//")
		path, _, _ = strings.Cut(path, "?")
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("no database %s here (give --db or set TAPP_DB): %w", path, err)
		}
	}
	return m.openStore(ctx, dsn)
}

// localArena is an arena server in this process, with a match runner wired to it.
type localArena struct {
	store   arena.Store
	srv     *server.Server
	runner  *match.Runner
	service *match.Service
	addr    string
	procs   []*launch.Process
	served  chan error
	log     *zap.Logger
}

func (m *Main) startArena(ctx context.Context, st arena.Store, listen, adminToken string, grace time.Duration) (*localArena, error) {
	lis, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", listen, err)
	}
	srv := server.New(server.Config{Store: st, Log: m.Log, AdminToken: adminToken, Grace: grace})
	runner := &match.Runner{Store: st, Seats: srv, Log: m.Log}
	a := &localArena{store: st, srv: srv, runner: runner, addr: lis.Addr().String(), served: make(chan error, 1), log: m.Log}
	a.service = match.NewService(ctx, runner, m.Log)
	srv.SetMatchStarter(a.service)
	go func() { a.served <- srv.Serve(lis) }()
	return a, nil
}

// launchBuiltin starts `tapp bot KIND` as a separate process connected to this arena under
// the bot name, with a one-time token; it is restarted if it dies.
func (m *Main) launchBuiltin(ctx context.Context, a *localArena, name, kind string, capacity int, seed uint64, logDir string) error {
	token := server.NewToken("launch_")
	a.srv.AddLaunchToken(token, name)
	if err := a.ensureBot(ctx, name); err != nil {
		return err
	}
	spec := launch.Spec{
		Name: name,
		Command: []string{m.Executable, "bot", kind, "--arena", a.addr, "--name", name,
			"--capacity", strconv.Itoa(capacity), "--seed", strconv.FormatUint(seed, 10)},
		Env: []string{"TAPP_TOKEN=" + token},
	}
	if logDir != "" {
		spec.StderrPath = filepath.Join(logDir, name+".stderr.log")
	}
	p, err := launch.Start(ctx, spec, m.Log)
	if err != nil {
		return err
	}
	a.procs = append(a.procs, p)
	return nil
}

// ensureBot makes sure a stored bot row exists for name (results refer to it); a bot made
// here has an unusable token until registered properly.
func (a *localArena) ensureBot(ctx context.Context, name string) error {
	if _, err := a.store.BotByName(ctx, name); err == nil {
		return nil
	} else if !errors.Is(err, arena.ErrNotFound) {
		return err
	}
	err := a.store.CreateBot(ctx, &arena.Bot{Name: name, TokenHash: server.HashToken(server.NewToken("unusable_"))})
	if errors.Is(err, arena.ErrConflict) {
		return nil
	}
	return err
}

// waitConnected waits until every named bot has a connected session.
func (a *localArena) waitConnected(ctx context.Context, names []string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		live := make(map[string]bool)
		for _, s := range a.srv.Sessions() {
			live[s.GetBotName()] = live[s.GetBotName()] || s.GetConnected()
		}
		var missing []string
		for _, n := range names {
			if !live[n] {
				missing = append(missing, n)
			}
		}
		if len(missing) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("bots %s did not connect within %s (see their logs with --bot-logs DIR)", strings.Join(missing, ", "), limit)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// stop shuts the server down gracefully and stops launched bots.
func (a *localArena) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, p := range a.procs {
		p.Retire()
	}
	a.srv.Shutdown(ctx)
	launch.StopAll(a.procs, 2*time.Second)
}

func (m *Main) serve(ctx context.Context, args []string) error {
	fs := m.flags("serve", "[flags]")
	listen := fs.String("listen", m.env("TAPP_LISTEN", "127.0.0.1:7000"), "address to listen on (env TAPP_LISTEN)")
	dsn := fs.String("db", m.env("TAPP_DB", defaultDB), "store: a SQLite file or a postgres:// URL (env TAPP_DB)")
	grace := fs.Duration("grace", 30*time.Second, "how long a dropped bot session waits for a resume")
	httpAddr := fs.String("http", "", "also serve the web dashboard on this address (e.g. "+defaultHTTP+")")
	viewer := fs.String("viewer-token", m.env("TAPP_VIEWER_TOKEN", ""), "token the dashboard's pages need (required beyond loopback; env TAPP_VIEWER_TOKEN)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	adminToken := m.Getenv("TAPP_ADMIN_TOKEN")
	if adminToken == "" {
		m.Log.Warn("TAPP_ADMIN_TOKEN is not set: the admin service is disabled")
	}
	st, err := m.openStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	a, err := m.startArena(ctx, st, *listen, adminToken, *grace)
	if err != nil {
		return err
	}
	m.Log.Info("arena serving", zap.String("addr", a.addr), zap.String("db", *dsn))
	var dashboard <-chan error
	if *httpAddr != "" {
		if _, dashboard, err = m.startDashboard(ctx, st, a.service, a.srv.RegisterAdmin, *httpAddr, *viewer); err != nil {
			a.stop()
			return err
		}
	}
	select {
	case err := <-dashboard:
		a.stop()
		return err
	case <-ctx.Done():
		m.Log.Info("shutting down: telling bots, finishing streams")
		a.stop()
		a.service.Wait()
		return nil
	case err := <-a.served:
		return err
	}
}

func (m *Main) botsCmd(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usagef("tapp bots add NAME | tapp bots list")
	}
	if helpFlag(args[0]) {
		fmt.Fprintln(m.Stdout, "tapp bots add NAME [--db DSN] | tapp bots list [--db DSN]\n(tapp bots SUBCOMMAND -h lists its flags)")
		return nil
	}
	fs := m.flags("bots "+args[0], "[flags]")
	dsn := fs.String("db", m.env("TAPP_DB", defaultDB), "store: a SQLite file or a postgres:// URL (env TAPP_DB)")
	pos, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	st, err := m.openStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	switch args[0] {
	case "add":
		if len(pos) != 1 {
			return usagef("tapp bots add NAME")
		}
		bot, token, err := server.RegisterBot(ctx, st, pos[0])
		if err != nil {
			if s, ok := status.FromError(err); ok { // RegisterBot speaks gRPC, for the admin API
				if s.Code() == codes.AlreadyExists {
					return fmt.Errorf("%s (tapp bots list shows the bots)", s.Message())
				}
				return errors.New(s.Message())
			}
			return err
		}
		fmt.Fprintf(m.Stderr, "registered bot %s; its token (shown once, keep it secret):\n", bot.Name)
		fmt.Fprintln(m.Stdout, token)
		return nil
	case "list":
		bots, err := st.ListBots(ctx)
		if err != nil {
			return err
		}
		for _, b := range bots {
			fmt.Fprintf(m.Stdout, "%-24s %s\n", b.Name, b.Created.Format(time.RFC3339))
		}
		return nil
	}
	return usagef("unknown bots subcommand %q (add, list)", args[0])
}

// helpFlag reports whether a command with subcommands was given a help flag instead of one.
func helpFlag(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// splitList splits a comma-separated flag value.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func mkdirAll(dir string) error { return os.MkdirAll(dir, 0o755) }
