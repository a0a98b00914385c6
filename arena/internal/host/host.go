// Package host assembles an arena in this process: the store, the gRPC server with its match
// runner and admin service, the launcher for the bots the arena starts itself (one-time
// tokens, commands split like a shell's), and waiting for bots to connect. The use cases of
// arena/internal/app (a match, a league, an SPRT), the re-ask arena of arena/internal/reask
// (tapp replay ask and diff), `tapp serve` and `tapp bot check` start their arena through it;
// a new front end does too.
package host

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/server"
)

// Config says how to start an arena.
type Config struct {
	// Store keeps the arena's bots and matches. Nil makes an ephemeral arena that stores
	// nothing and runs no matches, where only the tokens it mints connect (a bot check, a
	// replay's re-asked questions).
	Store      domain.Store
	Listen     string        // address to listen on ("127.0.0.1:0" picks a free port)
	AdminToken string        // enables the admin service; empty disables it
	Grace      time.Duration // how long a dropped bot session waits for a resume
	Log        *zap.Logger
	// Executable is the tapp binary, run as `tapp bot KIND` for the built-in bots it launches.
	Executable string
	TLS        *tls.Config // nil: plain text
}

// Host is an arena server in this process, with a match runner wired to it and the bot
// processes it launched.
type Host struct {
	Store   domain.Store
	Server  *server.Server
	Runner  *match.Runner  // nil in an ephemeral arena
	Service *match.Service // nil in an ephemeral arena
	Addr    string         // the address bots connect to
	// LaunchAddr is where the bots this arena launches connect: Addr, or beside a TLS
	// listener a plain-text one on loopback (server.ServeLocal).
	LaunchAddr string

	exe    string
	procs  []*launch.Process
	served chan error
	log    *zap.Logger
}

// Start listens and serves bots (and admins) until Stop.
func Start(ctx context.Context, cfg Config) (*Host, error) {
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	lis, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", cfg.Listen, err)
	}
	var st domain.Store = noBots{}
	if cfg.Store != nil {
		st = cfg.Store
	}
	srv := server.New(server.Config{Store: st, Log: cfg.Log, AdminToken: cfg.AdminToken, Grace: cfg.Grace, TLS: cfg.TLS})
	h := &Host{Store: cfg.Store, Server: srv, Addr: lis.Addr().String(), exe: cfg.Executable,
		served: make(chan error, 1), log: cfg.Log}
	h.LaunchAddr = h.Addr
	if cfg.TLS != nil {
		local, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			lis.Close()
			return nil, fmt.Errorf("listening on loopback for the launched bots: %w", err)
		}
		h.LaunchAddr = local.Addr().String()
		go func() { _ = srv.ServeLocal(local) }()
	}
	if cfg.Store != nil {
		h.Runner = &match.Runner{Store: cfg.Store, Seats: srv, Log: cfg.Log}
		h.Service = match.NewService(ctx, h.Runner, cfg.Log)
		srv.SetMatchStarter(h.Service)
	}
	go func() { h.served <- srv.Serve(lis) }()
	return h, nil
}

// OneTimeToken mints a token that connects as bot name to this arena, for this process's
// lifetime only: it is never stored.
func (h *Host) OneTimeToken(name string) string {
	token := server.NewToken("launch_")
	h.Server.AddLaunchToken(token, name)
	return token
}

// LaunchCommand starts a bot program from its command line, split as a shell would
// (launch.Split: quotes, $VAR, leading NAME=VALUE; no shell runs it), with env added to its
// environment, supervised as spec says (its Command and Name are filled in here). Stop ends it.
func (h *Host) LaunchCommand(ctx context.Context, name, command string, env []string, spec launch.Spec) (*launch.Process, error) {
	argv, assigned, err := launch.Split(command)
	if err != nil {
		return nil, err
	}
	spec.Name, spec.Command = name, argv
	spec.Env = append(append(spec.Env, env...), assigned...)
	return h.Launch(ctx, spec)
}

// Launch starts a supervised bot process that Stop ends.
func (h *Host) Launch(ctx context.Context, spec launch.Spec) (*launch.Process, error) {
	p, err := launch.Start(ctx, spec, h.log)
	if err != nil {
		return nil, err
	}
	h.procs = append(h.procs, p)
	return p, nil
}

// Served reports the server's end: an error it stopped with.
func (h *Host) Served() <-chan error { return h.served }

// LaunchBuiltin starts `tapp bot KIND` as a separate process connected to this arena under
// the bot name, with a one-time token; it is restarted if it dies. Its stderr goes to
// logDir/NAME.stderr.log when logDir is set.
func (h *Host) LaunchBuiltin(ctx context.Context, name, kind string, capacity int, seed uint64, logDir string) error {
	token := h.OneTimeToken(name)
	if err := h.EnsureBot(ctx, name); err != nil {
		return err
	}
	spec := launch.Spec{
		Name: name,
		Command: []string{h.exe, "bot", kind, "--arena", h.LaunchAddr, "--name", name,
			"--capacity", strconv.Itoa(capacity), "--seed", strconv.FormatUint(seed, 10)},
		Env: []string{"TAPP_TOKEN=" + token},
	}
	if logDir != "" {
		spec.StderrPath = filepath.Join(logDir, name+".stderr.log")
	}
	return h.start(ctx, spec)
}

// start is Launch for a caller that needs no handle on the process.
func (h *Host) start(ctx context.Context, spec launch.Spec) error {
	_, err := h.Launch(ctx, spec)
	return err
}

// EnsureBot makes sure a stored bot row exists for name (results refer to it); a bot made
// here has an unusable token until registered properly.
func (h *Host) EnsureBot(ctx context.Context, name string) error {
	return EnsureBot(ctx, h.Store, name)
}

// EnsureBot is Host.EnsureBot for any store (matches of in-process bots need their rows too).
func EnsureBot(ctx context.Context, st domain.Store, name string) error {
	if _, err := st.BotByName(ctx, name); err == nil {
		return nil
	} else if !errors.Is(err, domain.ErrNotFound) {
		return err
	}
	err := st.CreateBot(ctx, &domain.Bot{Name: name, TokenHash: server.HashToken(server.NewToken("unusable_"))})
	if errors.Is(err, domain.ErrConflict) {
		return nil
	}
	return err
}

// connected returns the bots with a connected session now.
func (h *Host) connected() map[string]bool {
	live := make(map[string]bool)
	for _, s := range h.Server.Sessions() {
		live[s.GetBotName()] = live[s.GetBotName()] || s.GetConnected()
	}
	return live
}

// WaitConnected waits until every named bot has a connected session.
func (h *Host) WaitConnected(ctx context.Context, names []string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		live := h.connected()
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

// Stop shuts the server down gracefully and stops launched bots.
func (h *Host) Stop() { h.StopWithin(5 * time.Second) }

// StopWithin is Stop with the time the bots' streams get to finish.
func (h *Host) StopWithin(limit time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	for _, p := range h.procs {
		p.Retire()
	}
	h.Server.Shutdown(ctx)
	launch.StopAll(h.procs, 2*time.Second)
}
