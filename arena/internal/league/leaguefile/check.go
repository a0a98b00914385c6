package leaguefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/loopback"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/engine"
)

// check checks a league file's settings, one group at a time, and fills in the defaults.
func (p *fileChecker) check(c *Config, opts Options) error {
	for _, step := range []func(*Config, Options) error{
		p.checkName, p.checkRules, p.checkFormat, p.checkRunning, p.checkListen, p.checkTimeControl, p.checkDeals,
		p.expandBuiltins, p.checkBots, p.checkFamilyCap, p.checkTables, p.checkLimits,
	} {
		if err := step(c, opts); err != nil {
			return err
		}
	}
	return nil
}

// checkName checks the league's name: how it is resumed.
func (p *fileChecker) checkName(c *Config, opts Options) error {
	if c.Name == "" && !opts.BotsOnly {
		return p.errf("name", "a league needs a name (letters, digits, '-', '_', '.'): it is how the league is resumed")
	}
	if c.Name != "" && !namePattern.MatchString(c.Name) {
		return p.errf("name", "%q is not a valid league name (letters, digits, '-', '_', '.', at most 64)", c.Name)
	}
	return nil
}

// checkRules reads the rule set (modern by default); leagues play without the pot.
func (p *fileChecker) checkRules(c *Config, _ Options) error {
	if c.Rules == "" {
		c.Rules = "modern"
	}
	rules, err := engine.ParseRuleSet(c.Rules)
	if err != nil {
		return p.errf("rules", "%v", err)
	}
	if rules.Pot {
		return p.errf("rules", "the pot carries from deal to deal, so deals are not independent units of work: leagues play without it (pot=off)")
	}
	c.RuleSet = rules
	return nil
}

// checkFormat checks the format and the settings of its schedule.
func (p *fileChecker) checkFormat(c *Config, _ Options) error {
	if c.Format == "" {
		c.Format = plan.RoundRobin
	}
	switch c.Format {
	case plan.RoundRobin, plan.Gauntlet, plan.Ladder:
	default:
		return p.errf("format", "unknown format %q (round-robin, gauntlet or ladder)", c.Format)
	}
	if c.Rounds < 0 {
		return p.errf("rounds", "must not be negative")
	}
	if c.Rounds == 0 && c.Format != plan.Ladder {
		c.Rounds = 1
	}
	if c.MatchesPerRound < 0 {
		return p.errf("matches_per_round", "must not be negative")
	}
	if c.MatchesPerRound > 0 && c.Format != plan.Ladder {
		return p.errf("matches_per_round", "only a ladder chooses its matches per round (a %s plays every table)", c.Format)
	}
	if c.Deals < 0 {
		return p.errf("deals", "must not be negative")
	}
	if c.Duplicate == nil {
		t := true
		c.Duplicate = &t
	}
	return nil
}

// checkRunning checks how the league runs on this host: concurrency, lease and grace.
func (p *fileChecker) checkRunning(c *Config, _ Options) error {
	if c.Concurrency < 0 {
		return p.errf("concurrency", "must not be negative")
	}
	if c.Concurrency > match.MaxTables {
		return p.errf("concurrency", "%d: at most %d tables are played at once", c.Concurrency, match.MaxTables)
	}
	if c.Concurrency == 0 {
		c.Concurrency = DefaultConcurrency
	}
	if c.Lease < 0 || (c.Lease > 0 && time.Duration(c.Lease) < time.Second) || time.Duration(c.Lease) > MaxLease {
		return p.errf("lease", "must be from 1s to %v", MaxLease)
	}
	if c.Lease == 0 {
		c.Lease = Duration(DefaultLease)
	}
	if c.Grace < 0 || time.Duration(c.Grace) > MaxGrace {
		return p.errf("grace", "must be from 0s to %v", MaxGrace)
	}
	if c.Grace == 0 {
		c.Grace = Duration(DefaultGrace)
	}
	return nil
}

// checkListen checks where bots with a token connect: plain text is refused beyond loopback,
// where tokens would cross the network in clear, unless TLS is set up or insecure: true says
// that something else encrypts the traffic. The TLS files are relative to the league file.
func (p *fileChecker) checkListen(c *Config, _ Options) error {
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return p.errf(map[bool]string{true: "tls_key", false: "tls_cert"}[c.TLSCert == ""],
			"TLS needs both tls_cert (the certificate, PEM) and tls_key (its private key)")
	}
	for _, f := range []struct {
		key  string
		path *string
	}{{"tls_cert", &c.TLSCert}, {"tls_key", &c.TLSKey}} {
		if *f.path == "" {
			continue
		}
		if !filepath.IsAbs(*f.path) {
			*f.path = filepath.Join(filepath.Dir(p.file), *f.path)
		}
		if _, err := os.Stat(*f.path); err != nil {
			return p.errf(f.key, "%v", err)
		}
	}
	if c.Listen != "" && c.TLSCert == "" && !c.Insecure && !loopback.Listen(c.Listen) {
		return p.errf("listen", "%s is reachable beyond this machine: bot tokens would cross the network in clear text; "+
			"give tls_cert and tls_key, listen on 127.0.0.1, or say insecure: true if something else encrypts the traffic", c.Listen)
	}
	return nil
}

// checkTimeControl checks the clock of the league's matches and fills in the arena's
// defaults; the bounds are every match's (domain.TimeControl.Check).
func (p *fileChecker) checkTimeControl(c *Config, _ Options) error {
	tc := &c.TimeControl
	if tc.PerDecision < 0 || tc.Overage < 0 || (tc.Strikes != nil && *tc.Strikes < 0) {
		return p.errf("time_control", "times and strikes must not be negative")
	}
	if tc.PerDecision == 0 {
		tc.PerDecision = Duration(domain.DefaultTimeControl.PerDecision)
	}
	if tc.Overage == 0 {
		tc.Overage = Duration(domain.DefaultTimeControl.Overage)
	}
	if tc.Strikes == nil {
		s := domain.DefaultTimeControl.MaxStrikes
		tc.Strikes = &s
	}
	if _, err := domain.ParseClockScope(tc.Bank); err != nil {
		var te *domain.TimeControlError
		if errors.As(err, &te) {
			return p.errf("time_control.bank", "%s", te.Msg)
		}
		return p.errf("time_control.bank", "%v", err)
	}
	if err := c.timeControl().Check(); err != nil {
		var te *domain.TimeControlError
		if errors.As(err, &te) {
			return p.errf("time_control."+te.Field, "%s", te.Msg)
		}
		return p.errf("time_control", "%v", err)
	}
	return nil
}

// checkDeals reads the deal file, when there is one (relative to the league file), and
// fills in the deals per match.
func (p *fileChecker) checkDeals(c *Config, _ Options) error {
	if c.DealsFile != "" {
		path := c.DealsFile
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(p.file), path)
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return p.errf("deals_file", "%v", err)
		}
		deals, err := engine.ParseDeals(c.RuleSet, string(text))
		if err != nil {
			return p.errf("deals_file", "%s: %v", path, err)
		}
		if len(deals) == 0 {
			return p.errf("deals_file", "%s holds no deals", path)
		}
		if c.Deals > len(deals) {
			return p.errf("deals", "%d deals per match, but %s holds only %d (leave deals out to play the whole file)", c.Deals, path, len(deals))
		}
		c.DealsText = string(text)
	}
	if c.Deals == 0 {
		c.Deals = plan.DefaultDeals
	}
	return nil
}

// expandBuiltins replaces builtin: "*" by every built-in bot not listed by name, and records
// where each bot comes from in the file (p.origin), for errors. Positions of later entries
// are then off; errors in expanded entries point at the "*" entry's line, which is where
// they come from.
func (p *fileChecker) expandBuiltins(c *Config, opts Options) error {
	if len(c.Bots) == 0 {
		return p.errf("bots", "a league needs bots")
	}
	p.origin = make([]int, 0, len(c.Bots))
	var bots []Bot
	listed := map[string]bool{}
	for _, b := range c.Bots {
		if b.Builtin != "*" && b.Name != "" {
			listed[b.Name] = true
		}
	}
	for i, b := range c.Bots {
		if b.Builtin != "*" {
			bots = append(bots, b)
			p.origin = append(p.origin, i)
			continue
		}
		if b.Name != "" || len(b.Command) > 0 || b.Token || len(b.Args) > 0 || b.Seed != nil {
			return p.errf(fmt.Sprintf("bots[%d]", i), `builtin: "*" adds every built-in bot under its own name: it takes no name, command, token, args or seed`)
		}
		if opts.BuiltinNames == nil {
			return p.errf(fmt.Sprintf("bots[%d].builtin", i), `builtin: "*" is not available here`)
		}
		for _, kind := range opts.BuiltinNames() {
			if !listed[kind] {
				listed[kind] = true
				bots = append(bots, Bot{Name: kind, Builtin: kind, Capacity: b.Capacity, Dir: b.Dir, Env: b.Env})
				p.origin = append(p.origin, i)
			}
		}
	}
	c.Bots = bots
	return nil
}

// checkBots checks every bot: a unique valid name, and exactly one way to reach it.
func (p *fileChecker) checkBots(c *Config, opts Options) error {
	seen := map[string]int{}
	for k, b := range c.Bots {
		i := p.origin[k]
		at := fmt.Sprintf("bots[%d]", i)
		if b.Name == "" && b.Submission != "" { // a hosted bot's slot is named after the bot
			name, _, ok := domain.ParseVersionName(b.Submission)
			if !ok {
				return p.errf(at+".submission", "%q: name a version as NAME@V or NAME@latest", b.Submission)
			}
			b.Name, c.Bots[k].Name = name, name
		}
		if b.Name == "" {
			return p.errf(at, "a bot needs a name")
		}
		if err := domain.ValidBotName(b.Name); err != nil {
			return p.errf(at+".name", "%q is not a valid bot name: %v", b.Name, err)
		}
		if j, ok := seen[b.Name]; ok {
			return p.errf(at+".name", "bot %q is listed twice (also bots[%d])", b.Name, j)
		}
		seen[b.Name] = i
		if err := p.checkBot(b, at, opts); err != nil {
			return err
		}
	}
	return nil
}

// checkBot checks how one bot (at, in errors) is reached and launched.
func (p *fileChecker) checkBot(b Bot, at string, opts Options) error {
	ways := 0
	for _, set := range []bool{b.Builtin != "", len(b.Command) > 0, b.Token, b.Submission != ""} {
		if set {
			ways++
		}
	}
	if ways != 1 {
		return p.errf(at, "bot %q needs exactly one of builtin: KIND, command: [...], token: true or submission: NAME@latest", b.Name)
	}
	if b.Submission != "" {
		if _, _, ok := domain.ParseVersionName(b.Submission); !ok {
			return p.errf(at+".submission", "%q: name a version as NAME@V or NAME@latest", b.Submission)
		}
		if b.Dir != "" || b.Seed != nil {
			return p.errf(at, "bot %q is hosted (submission:): the arena chooses its folder; dir and seed are for commands", b.Name)
		}
	}
	if b.Builtin != "" && opts.Builtin != nil {
		if err := opts.Builtin(b.Builtin); err != nil {
			return p.errf(at+".builtin", "%v", err)
		}
	}
	if b.Capacity < 0 || b.Capacity > match.MaxTables {
		return p.errf(at+".capacity", "must be from 0 (the league's concurrency) to %d", match.MaxTables)
	}
	if len(b.Args) > 0 && b.Builtin == "" {
		return p.errf(at+".args", "args are for built-in bots; put a command's arguments in its command")
	}
	if b.Token && (b.Dir != "" || len(b.Env) > 0 || b.Seed != nil) {
		return p.errf(at, "bot %q connects by itself (token: true): dir, env and seed are for launched bots", b.Name)
	}
	return nil
}

// checkFamilyCap checks that a ladder's family cap leaves enough bots to fill a table.
func (p *fileChecker) checkFamilyCap(c *Config, opts Options) error {
	if c.FamilyCap < 0 {
		return p.errf("family_cap", "must not be negative")
	}
	if c.FamilyCap == 0 {
		return nil
	}
	if c.Format != plan.Ladder {
		return p.errf("family_cap", "caps a family at ladder tables only (format: ladder)")
	}
	seats, per := 0, map[string]int{}
	for _, b := range c.Bots {
		if b.Family == "" {
			seats++
		} else if per[b.Family]++; per[b.Family] <= c.FamilyCap {
			seats++
		}
	}
	if n := c.RuleSet.Players; seats < n && !opts.BotsOnly {
		return p.errf("family_cap", "with at most %d of a family per table, the bots fill only %d of the %d seats", c.FamilyCap, seats, n)
	}
	return nil
}

// checkLimits refuses a schedule beyond the plan's maximums (plan.Plan.Check), at the
// setting that asks for it.
func (p *fileChecker) checkLimits(c *Config, opts Options) error {
	if opts.BotsOnly {
		return nil
	}
	if err := c.Plan().Check(); err != nil {
		var le *plan.LimitError
		if errors.As(err, &le) {
			return p.errf(le.Field, "%s", le.Msg)
		}
		return p.errf("", "%v", err)
	}
	return nil
}

// checkTables checks that the bots fill the format's tables (not for a file read for its
// bots only).
func (p *fileChecker) checkTables(c *Config, opts Options) error {
	if opts.BotsOnly {
		return nil
	}
	n := c.RuleSet.Players
	switch c.Format {
	case plan.RoundRobin, plan.Ladder:
		if len(c.Bots) < n {
			return p.errf("bots", "%d bots cannot fill a table of %d (rules: %s)", len(c.Bots), n, c.Rules)
		}
		if c.Candidate != "" {
			return p.errf("candidate", "only a gauntlet has a candidate")
		}
	case plan.Gauntlet:
		if c.Candidate == "" {
			return p.errf("format", "a gauntlet needs a candidate: the name of the bot that meets the field (candidate: NAME)")
		}
		if !slices.ContainsFunc(c.Bots, func(b Bot) bool { return b.Name == c.Candidate }) {
			return p.errf("candidate", "%q is not one of the bots", c.Candidate)
		}
		if len(c.Bots)-1 < n-1 {
			return p.errf("bots", "a gauntlet at tables of %d needs at least %d bots besides the candidate", n, n-1)
		}
	}
	return nil
}
