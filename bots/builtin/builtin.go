// Package builtin is the registry of the built-in Go bots by name, for the arena and the
// command line. It lives apart from package bots so that bot packages can import bots (for the
// Bot interface) while this package imports them, without an import cycle.
//
// To add a bot, add its constructor to builtins.
package builtin

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/bots/search"
	"github.com/tapparena/tapp/bots/sleuth"
)

// builtins maps a bot name to its constructor. The seed makes randomised bots reproducible;
// deterministic bots ignore it.
var builtins = map[string]func(seed uint64) bots.Bot{
	"random":    random.New,
	"heuristic": func(uint64) bots.Bot { return heuristic.New() },
	search.Name: func(seed uint64) bots.Bot { return search.New(search.Config{Seed: seed}) },
	sleuth.Name: func(seed uint64) bots.Bot { return sleuth.New(sleuth.Config{Seed: seed}) },
}

// New returns the built-in bot called name (case-insensitive), seeded with seed.
func New(name string, seed uint64) (bots.Bot, error) {
	mk, ok := builtins[strings.ToLower(strings.TrimSpace(name))]
	if !ok {
		return nil, fmt.Errorf("unknown built-in bot %q (one of %s)", name, strings.Join(Names(), ", "))
	}
	return mk(seed), nil
}

// Names returns the names of the built-in bots, sorted.
func Names() []string {
	out := make([]string, 0, len(builtins))
	for name := range builtins {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
