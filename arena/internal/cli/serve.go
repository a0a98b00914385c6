package cli

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/host"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/arena/internal/store"
)

// maxGrace bounds how long a dropped session is held (a league file's grace is bounded alike).
const maxGrace = time.Hour

// defaultDB is the embedded SQLite file used when neither --db nor TAPP_DB says otherwise.
const defaultDB = "tapp.db"

func (m *Main) openStore(ctx context.Context, dsn string) (*store.Store, error) {
	if err := refuseBareMemory(dsn); err != nil {
		return nil, err
	}
	st, err := store.OpenWith(ctx, dsn, store.Options{Progress: m.migrationProgress()})
	if err != nil {
		return nil, fmt.Errorf("opening store %s: %w", dsn, err)
	}
	return st, nil
}

// refuseBareMemory refuses --db memory: it would be a new SQLite file named memory beside the
// command, where memory: (the in-memory store) was almost surely meant.
func refuseBareMemory(dsn string) error {
	if dsn == "memory" {
		return usagef("--db memory: the in-memory store is memory: (with a colon); a SQLite file named memory is ./memory")
	}
	return nil
}

// migrationProgress shows how far a migration that converts every stored deal has come (a
// bar on a terminal, log lines otherwise): minutes on a database of millions.
func (m *Main) migrationProgress() func(what string, done, total int) {
	var step string
	var show func(done int)
	return func(what string, done, total int) {
		if what != step {
			step = what
			m.Log.Info("migrating the store", zap.String("converting", what), zap.Int("total", total))
			show = m.progress(total, what)
		}
		show(done)
		if done == total {
			show(-1)
			m.Log.Info("migrated", zap.String("converted", what), zap.Int("total", total))
			step = ""
		}
	}
}

// openExistingStore opens a store to read from (ratings, matches, replays, league status,
// the dashboard), read-only (store.OpenReadOnly: so a database on read-only media reads too):
// a SQLite file that does not exist is an error here, not a new empty database made by a typo.
func (m *Main) openExistingStore(ctx context.Context, dsn string) (*store.Store, error) {
	if err := mustExist(dsn); err != nil {
		return nil, err
	}
	st, err := store.OpenReadOnly(ctx, dsn, store.Options{Progress: m.migrationProgress()})
	if err != nil {
		return nil, fmt.Errorf("opening store %s: %w", dsn, err)
	}
	return st, nil
}

// openExistingStoreToWrite is openExistingStore for a command that writes to what it reads
// (tapp analyze keeps its analyses).
func (m *Main) openExistingStoreToWrite(ctx context.Context, dsn string) (*store.Store, error) {
	if err := mustExist(dsn); err != nil {
		return nil, err
	}
	return m.openStore(ctx, dsn)
}

// mustExist is an error when dsn names a SQLite file that does not exist (or is memory,
// refuseBareMemory).
func mustExist(dsn string) error {
	if err := refuseBareMemory(dsn); err != nil {
		return err
	}
	if !strings.Contains(dsn, "://") || strings.HasPrefix(dsn, "sqlite:") {
		path := strings.TrimPrefix(strings.TrimPrefix(dsn, "sqlite:"), "//")
		path, _, _ = strings.Cut(path, "?")
		if _, err := os.Stat(path); err != nil {
			return fmt.Errorf("no database %s here (give --db or set TAPP_DB): %w", path, err)
		}
	}
	return nil
}

// startHost starts an arena in this process (arena/internal/host) on the command's log and binary.
// tlsCfg, when set, makes the server speak TLS.
func (m *Main) startHost(ctx context.Context, st domain.Store, listen, adminToken string, grace time.Duration, tlsCfg *tls.Config) (*host.Host, error) {
	return host.Start(ctx, host.Config{Store: st, Listen: listen, AdminToken: adminToken, Grace: grace, Log: m.Log, Executable: m.Executable, TLS: tlsCfg})
}

func (m *Main) serve(ctx context.Context, args []string) error {
	fs := m.flags("serve", "[flags]")
	listen := fs.String("listen", m.env("TAPP_LISTEN", "127.0.0.1:7000"), "address to listen on (env TAPP_LISTEN)")
	dsn := fs.String("db", m.env("TAPP_DB", defaultDB), "store: a SQLite file or a postgres:// URL (env TAPP_DB)")
	grace := fs.Duration("grace", 30*time.Second, "how long a dropped bot session waits for a resume")
	certFile := fs.String("tls-cert", m.Getenv("TAPP_TLS_CERT"), "serve TLS with this certificate (PEM; env TAPP_TLS_CERT)")
	keyFile := fs.String("tls-key", m.Getenv("TAPP_TLS_KEY"), "the certificate's private key (PEM; env TAPP_TLS_KEY)")
	plain := fs.Bool("insecure", false, "allow plain text on an address beyond loopback (tokens in clear: only behind a TLS proxy or on a trusted network)")
	httpAddr := fs.String("http", "", "also serve the web dashboard (and the admin API) on this address, e.g. "+defaultHTTP+", with the same TLS as --listen")
	viewer := fs.String("viewer-token", m.env("TAPP_VIEWER_TOKEN", ""), "token the dashboard's pages need (required beyond loopback; env TAPP_VIEWER_TOKEN)")
	parallel := fs.Int("parallel", 8, "tables each match plays at once (fewer while the host is overloaded)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkBounds(fs).duration("grace", *grace, 0, maxGrace).count("parallel", *parallel, 1, match.MaxTables).err(); err != nil {
		return err
	}
	tlsCfg, err := server.LoadTLS(*certFile, *keyFile)
	if err != nil {
		return usagef("%v", err)
	}
	if err := server.CheckPlainText(*listen, tlsCfg != nil, *plain); err != nil {
		return usagef("%v", err)
	}
	if *httpAddr != "" {
		// The dashboard carries the admin API: the same TLS as the bots' listener.
		if err := server.CheckPlainText(*httpAddr, tlsCfg != nil, *plain); err != nil {
			return usagef("--http: %v", err)
		}
	}
	adminToken := m.Getenv("TAPP_ADMIN_TOKEN")
	if err := server.CheckToken("TAPP_ADMIN_TOKEN", adminToken); err != nil {
		return usagef("%v", err)
	}
	if adminToken == "" {
		m.Log.Warn("TAPP_ADMIN_TOKEN is not set: the admin service is disabled")
	}
	st, err := m.openStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	a, err := m.startHost(ctx, st, *listen, adminToken, *grace, tlsCfg)
	if err != nil {
		return err
	}
	a.Runner.Parallel = *parallel // before any match runs
	if _, err := a.Service.ResumeRunning(ctx); err != nil {
		return fmt.Errorf("resuming the matches left running: %w", err)
	}
	m.Log.Info("arena serving", zap.String("addr", a.Addr), zap.String("db", *dsn), zap.Bool("tls", tlsCfg != nil))
	var dashboard <-chan error
	if *httpAddr != "" {
		at := dashboardAt{addr: *httpAddr, viewerToken: *viewer, tls: tlsCfg, insecure: *plain}
		if _, dashboard, err = m.startDashboard(ctx, st, a, at); err != nil {
			a.Stop()
			return err
		}
	}
	select {
	case err := <-dashboard:
		a.Stop()
		return err
	case <-ctx.Done():
		m.Log.Info("shutting down: telling bots, finishing streams")
		a.Stop()
		a.Service.Wait()
		return nil
	case err := <-a.Served():
		return err
	}
}

func (m *Main) botsCmd(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usagef("tapp bots add NAME | tapp bots list | tapp bots rotate NAME | tapp bots revoke NAME")
	}
	if helpFlag(args[0]) {
		fmt.Fprintln(m.Stdout, "tapp bots add NAME [--db DSN] | tapp bots list [--db DSN]\n"+
			"tapp bots rotate NAME [--db DSN] (a new token; the old one stops working) | tapp bots revoke NAME [--db DSN]\n"+
			"(tapp bots SUBCOMMAND -h lists its flags)")
		return nil
	}
	usage := map[string]string{
		"add":    "NAME [flags]\n\nRegisters bot NAME and prints its token once (only a hash is stored).",
		"rotate": "NAME [flags]\n\nGives bot NAME a new token (printed once); the old one stops working at once.",
		"revoke": "NAME [flags]\n\nTakes bot NAME's token away; the bot keeps its name and results.",
		"list":   "[flags]\n\nLists the registered bots.",
	}[args[0]]
	if usage == "" {
		usage = "[flags]"
	}
	fs := m.flags("bots "+args[0], usage)
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
	case "rotate", "revoke":
		if len(pos) != 1 {
			return usagef("tapp bots %s NAME", args[0])
		}
		return m.botToken(ctx, st, args[0], pos[0])
	case "list":
		bots, err := st.ListBots(ctx)
		if err != nil {
			return err
		}
		for _, b := range bots {
			line := fmt.Sprintf("%-24s %s", b.Name, b.Created.Format(time.RFC3339))
			if len(b.TokenHash) == 0 {
				line += "  (token revoked: tapp bots rotate gives a new one)"
			}
			fmt.Fprintln(m.Stdout, line)
		}
		return nil
	}
	return usagef("unknown bots subcommand %q (add, list, rotate, revoke)", args[0])
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
