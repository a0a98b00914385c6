// Package leaguefile reads a league file (YAML, docs/league.md) and checks it: every mistake is
// an *Error that points at the line concerned. Config.Plan turns a checked file into the
// league's plan.
package leaguefile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/tapparena/tapp/arena"
	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/arena/internal/league"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/engine"
)

// Config is a league file (YAML), as documented in docs/league.md. Zero values take the
// defaults listed there.
type Config struct {
	Name            string      `yaml:"name"`
	Rules           string      `yaml:"rules"`
	Format          string      `yaml:"format"`
	Candidate       string      `yaml:"candidate"`
	Rounds          int         `yaml:"rounds"`
	MatchesPerRound int         `yaml:"matches_per_round"`
	Deals           int         `yaml:"deals"`
	Duplicate       *bool       `yaml:"duplicate"`
	DealsFile       string      `yaml:"deals_file"`
	Seed            uint64      `yaml:"seed"`
	Concurrency     int         `yaml:"concurrency"`
	TimeControl     TimeControl `yaml:"time_control"`
	Listen          string      `yaml:"listen"`
	DB              string      `yaml:"db"`
	Logs            string      `yaml:"logs"`
	Lease           Duration    `yaml:"lease"`
	Grace           Duration    `yaml:"grace"`
	Bots            []Bot       `yaml:"bots"`
	// FamilyCap caps the bots of one family (see Bot.Family) at a ladder table; 0: no cap.
	FamilyCap int `yaml:"family_cap"`

	// Filled in by Parse.
	RuleSet   engine.RuleSet `yaml:"-"`
	DealsText string         `yaml:"-"` // the deal file's text when deals_file is set
	Dir       string         `yaml:"-"` // the league file's folder: relative paths start there
}

// TimeControl is the clock of every match of the league.
type TimeControl struct {
	PerDecision Duration `yaml:"per_decision"`
	Overage     Duration `yaml:"overage"`
	Strikes     *int     `yaml:"strikes"`
}

// Bot is one bot of a league and how it is reached: exactly one of Builtin (a built-in
// bot the arena launches as `tapp bot KIND`, with Args added), Command (a program the arena
// launches) and Token (the bot connects by itself with the token `tapp bots add NAME`
// printed). Builtin "*" stands for every built-in bot this build of tapp has, each named
// after its kind (those already listed by name are not added twice).
type Bot struct {
	Name     string            `yaml:"name"`
	Builtin  string            `yaml:"builtin"`
	Args     []string          `yaml:"args"`
	Command  Command           `yaml:"command"`
	Dir      string            `yaml:"dir"`
	Env      map[string]string `yaml:"env"`
	Token    bool              `yaml:"token"`
	Capacity int               `yaml:"capacity"`
	Seed     *uint64           `yaml:"seed"`
	// Family names the bot's family: versions of one bot, whose results the leaderboard splits
	// with and without the family at the table (and which family_cap keeps apart).
	Family string `yaml:"family"`
}

// Launched reports whether the arena starts the bot itself.
func (b Bot) Launched() bool { return b.Builtin != "" || len(b.Command) > 0 }

// Duration is a time.Duration written as Go writes it: 500ms, 2s, 1m30s.
type Duration time.Duration

// UnmarshalYAML reads a duration string.
func (d *Duration) UnmarshalYAML(node ast.Node) error {
	s, ok := node.(*ast.StringNode)
	if !ok {
		return &posError{node: node, msg: fmt.Sprintf("want a duration such as 500ms or 2s, not %s", node)}
	}
	v, err := time.ParseDuration(s.Value)
	if err != nil {
		return &posError{node: node, msg: fmt.Sprintf("%q is not a duration (such as 500ms, 2s or 1m30s)", s.Value)}
	}
	*d = Duration(v)
	return nil
}

// posError is an error at a node of the league file.
type posError struct {
	node ast.Node
	msg  string
}

func (e *posError) Error() string { return e.msg }

// Command is a command line: a YAML list of arguments, or one string split as a shell would
// (launch.Split: quotes honoured; no shell runs it).
type Command []string

// UnmarshalYAML reads a list or a string.
func (c *Command) UnmarshalYAML(node ast.Node) error {
	switch n := node.(type) {
	case *ast.SequenceNode:
		var list []string
		if err := yaml.NodeToValue(n, &list); err != nil {
			return err
		}
		*c = list
	case *ast.StringNode:
		argv, env, err := launch.Split(n.Value)
		if err != nil {
			return &posError{node: node, msg: err.Error()}
		}
		if len(env) > 0 {
			return &posError{node: node, msg: fmt.Sprintf("command %q sets environment variables: give them under env", n.Value)}
		}
		*c = argv
	case *ast.NullNode:
		*c = nil
	default:
		return &posError{node: node, msg: fmt.Sprintf("command must be a list of arguments or a string, not %s", node.Type())}
	}
	return nil
}

// Defaults of a league file (the runner's own defaults for concurrency and lease).
const (
	DefaultConcurrency = league.DefaultConcurrency
	DefaultLease       = league.DefaultLease
	DefaultGrace       = 30 * time.Second
)

var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// Error is a mistake in a league file, with the position it points at.
type Error struct {
	File         string
	Line, Column int    // 0 when unknown
	Path         string // the key, e.g. bots[1].builtin
	Msg          string
	Excerpt      string // the lines around the position, with a caret
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Line > 0 && e.Column > 0 {
		fmt.Fprintf(&b, ":%d", e.Column)
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path + ": ")
	}
	b.WriteString(e.Msg)
	if e.Excerpt != "" {
		b.WriteString("\n" + e.Excerpt)
	}
	return b.String()
}

// Options tell Parse what it cannot know by itself.
type Options struct {
	// Builtin checks a built-in bot name (nil: any name is accepted).
	Builtin func(name string) error
	// BuiltinNames lists the built-in bots, for builtin: "*" (nil: "*" is refused).
	BuiltinNames func() []string
	// BotsOnly reads the file for its bots only (tapp sprt --bots): whether they fill the
	// tables of a format is not checked.
	BotsOnly bool
}

// Load reads and checks a league file.
func Load(path string, opts Options) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, opts)
}

// Parse reads a league file's text and checks it; file names it in errors, and its
// folder is where relative paths (deals_file, logs, bot dirs) start. Every error is a
// *Error that points at the line concerned.
func Parse(file string, data []byte, opts Options) (*Config, error) {
	p := &fileChecker{file: file, src: data}
	astFile, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, p.yamlError(err)
	}
	if len(astFile.Docs) > 1 && astFile.Docs[1].Body != nil {
		line := 0
		if start := astFile.Docs[1].Start; start != nil {
			line = start.Position.Line
		}
		return nil, p.errAt(line, 0, "", fmt.Sprintf("the file holds %d YAML documents (--- starts another): a league file is one",
			len(astFile.Docs)))
	}
	if len(astFile.Docs) == 0 || astFile.Docs[0].Body == nil {
		return nil, &Error{File: file, Msg: "the file holds no league (want one YAML document with name, bots, ...)"}
	}
	p.ast = astFile
	if err := p.checkWholeNumbers(astFile.Docs[0].Body, "", ""); err != nil {
		return nil, err
	}
	var c Config
	if err := yaml.NodeToValue(astFile.Docs[0].Body, &c, yaml.DisallowUnknownField()); err != nil {
		return nil, p.yamlError(err)
	}
	c.Dir = filepath.Dir(file)
	if err := p.check(&c, opts); err != nil {
		return nil, err
	}
	return &c, nil
}

type fileChecker struct {
	file string
	src  []byte
	ast  *ast.File
}

// wholeNumbers are the settings that take a whole number, by where they are in the file.
var wholeNumbers = map[string]bool{
	"rounds": true, "matches_per_round": true, "deals": true, "seed": true, "concurrency": true,
	"time_control.strikes": true, "bots.capacity": true, "bots.seed": true,
}

// checkWholeNumbers refuses a number with a fraction, or text, where the file wants a whole
// number: the YAML library cuts deals: 1.5 down to 1, and reads deals: "3" as 3, without a
// word. key names where n is with the items of a list under the list's name (wholeNumbers),
// path as errors name it (bots[2].capacity).
func (p *fileChecker) checkWholeNumbers(n ast.Node, key, path string) error {
	switch n := n.(type) {
	case *ast.MappingNode:
		for _, v := range n.Values {
			if err := p.checkWholeNumbers(v, key, path); err != nil {
				return err
			}
		}
	case *ast.MappingValueNode:
		name := n.Key.GetToken().Value
		key, path := key+name, path+name
		if wholeNumbers[key] {
			switch v := n.Value.(type) {
			case *ast.IntegerNode, *ast.NullNode:
			case *ast.FloatNode, *ast.StringNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
				pos := v.GetToken().Position
				return p.errAt(pos.Line, pos.Column, path, "must be a whole number, not "+v.GetToken().Value)
			}
		}
		return p.checkWholeNumbers(n.Value, key+".", path+".")
	case *ast.SequenceNode:
		for i, item := range n.Values {
			if err := p.checkWholeNumbers(item, key, fmt.Sprintf("%s[%d].", strings.TrimSuffix(path, "."), i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// yamlError turns an error of the YAML library into a Error at its token.
func (p *fileChecker) yamlError(err error) error {
	var pe *posError
	if errors.As(err, &pe) && pe.node.GetToken() != nil {
		pos := pe.node.GetToken().Position
		return p.errAt(pos.Line, pos.Column, "", pe.msg)
	}
	var ye yaml.Error
	if errors.As(err, &ye) && ye.GetToken() != nil {
		pos := ye.GetToken().Position
		return p.errAt(pos.Line, pos.Column, "", plainTypeError(ye.GetMessage()))
	}
	return &Error{File: p.file, Msg: err.Error()}
}

// goTypeError is the YAML library's message for a value of the wrong type, in Go's terms.
var goTypeError = regexp.MustCompile(`^cannot unmarshal (.+) into Go (?:struct field \S+|value) of type (.+)$`)

// plainTypeError says a type error in the league file's terms rather than Go's.
func plainTypeError(msg string) string {
	m := goTypeError.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	return fmt.Sprintf("want %s here, not %s", yamlKind(m[2]), yamlKind(m[1]))
}

// yamlKind names a Go type by what it is written as in YAML.
func yamlKind(goType string) string {
	switch {
	case goType == "bool":
		return "true or false"
	case goType == "string":
		return "text"
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.HasPrefix(goType, "map["):
		return "a mapping (key: value)"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"):
		return "a whole number"
	case strings.HasPrefix(goType, "float"):
		return "a number"
	}
	return goType
}

// errf returns an error at the node the path names ($.bots[1].name style, without "$."),
// or at its closest existing parent.
func (p *fileChecker) errf(path, format string, args ...any) error {
	line, col := p.position(path)
	return p.errAt(line, col, path, fmt.Sprintf(format, args...))
}

func (p *fileChecker) position(path string) (int, int) {
	for q := path; ; {
		if yp, err := yaml.PathString("$." + q); err == nil && p.ast != nil {
			if n, err := yp.FilterFile(p.ast); err == nil && n != nil && n.GetToken() != nil {
				pos := n.GetToken().Position
				return pos.Line, pos.Column
			}
		}
		i := strings.LastIndexAny(q, ".[")
		if i <= 0 {
			// Not even the top-level key is there (a setting left out): the top of the league.
			if p.ast != nil && len(p.ast.Docs) > 0 && p.ast.Docs[0].Body != nil && p.ast.Docs[0].Body.GetToken() != nil {
				return p.ast.Docs[0].Body.GetToken().Position.Line, 0
			}
			return 0, 0
		}
		q = q[:i]
	}
}

func (p *fileChecker) errAt(line, col int, path, msg string) error {
	e := &Error{File: p.file, Line: line, Column: col, Path: path, Msg: msg}
	if line > 0 {
		lines := bytes.Split(p.src, []byte("\n"))
		var b strings.Builder
		for i := max(line-2, 1); i <= min(line, len(lines)); i++ {
			mark := "  "
			if i == line {
				mark = "> "
			}
			fmt.Fprintf(&b, "%s%4d | %s\n", mark, i, strings.TrimRight(string(lines[i-1]), "\r"))
		}
		if col > 0 {
			fmt.Fprintf(&b, "%s^", strings.Repeat(" ", 9+col-1))
		}
		e.Excerpt = strings.TrimRight(b.String(), "\n")
	}
	return e
}

func (p *fileChecker) check(c *Config, opts Options) error {
	if c.Name == "" && !opts.BotsOnly {
		return p.errf("name", "a league needs a name (letters, digits, '-', '_', '.'): it is how the league is resumed")
	}
	if c.Name != "" && !namePattern.MatchString(c.Name) {
		return p.errf("name", "%q is not a valid league name (letters, digits, '-', '_', '.', at most 64)", c.Name)
	}
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
	if c.Concurrency < 0 {
		return p.errf("concurrency", "must not be negative")
	}
	if c.Concurrency == 0 {
		c.Concurrency = DefaultConcurrency
	}
	if c.Lease < 0 || (c.Lease > 0 && time.Duration(c.Lease) < time.Second) {
		return p.errf("lease", "must be at least 1s")
	}
	if c.Lease == 0 {
		c.Lease = Duration(DefaultLease)
	}
	if c.Grace < 0 {
		return p.errf("grace", "must not be negative")
	}
	if c.Grace == 0 {
		c.Grace = Duration(DefaultGrace)
	}
	tc := &c.TimeControl
	if tc.PerDecision < 0 || tc.Overage < 0 || (tc.Strikes != nil && *tc.Strikes < 0) {
		return p.errf("time_control", "times and strikes must not be negative")
	}
	if tc.PerDecision == 0 {
		tc.PerDecision = Duration(arena.DefaultTimeControl.PerDecision)
	}
	if time.Duration(tc.PerDecision) < 10*time.Millisecond {
		return p.errf("time_control.per_decision", "%v is too short to answer over the network (at least 10ms)", time.Duration(tc.PerDecision))
	}
	if tc.Overage == 0 {
		tc.Overage = Duration(arena.DefaultTimeControl.Overage)
	}
	if tc.Strikes == nil {
		s := arena.DefaultTimeControl.MaxStrikes
		tc.Strikes = &s
	}
	if c.DealsFile != "" {
		path := c.DealsFile
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(p.file), path)
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return p.errf("deals_file", "%v", err)
		}
		deals, err := engine.ParseDeals(rules, string(text))
		if err != nil {
			return p.errf("deals_file", "%s: %v", path, err)
		}
		if len(deals) == 0 {
			return p.errf("deals_file", "%s holds no deals", path)
		}
		c.DealsText = string(text)
	}
	if c.Deals == 0 {
		c.Deals = plan.DefaultDeals
	}

	if len(c.Bots) == 0 {
		return p.errf("bots", "a league needs bots")
	}
	// Expand builtin: "*" (positions of later entries are then off; errors in expanded
	// entries point at the "*" entry's line, which is where they come from).
	origin := make([]int, 0, len(c.Bots))
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
			origin = append(origin, i)
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
				origin = append(origin, i)
			}
		}
	}
	c.Bots = bots
	seen := map[string]int{}
	for k, b := range c.Bots {
		i := origin[k]
		at := fmt.Sprintf("bots[%d]", i)
		if b.Name == "" {
			return p.errf(at, "a bot needs a name")
		}
		if err := arena.ValidBotName(b.Name); err != nil {
			return p.errf(at+".name", "%q is not a valid bot name: %v", b.Name, err)
		}
		if j, ok := seen[b.Name]; ok {
			return p.errf(at+".name", "bot %q is listed twice (also bots[%d])", b.Name, j)
		}
		seen[b.Name] = i
		ways := 0
		for _, set := range []bool{b.Builtin != "", len(b.Command) > 0, b.Token} {
			if set {
				ways++
			}
		}
		if ways != 1 {
			return p.errf(at, "bot %q needs exactly one of builtin: KIND, command: [...] or token: true", b.Name)
		}
		if b.Builtin != "" && opts.Builtin != nil {
			if err := opts.Builtin(b.Builtin); err != nil {
				return p.errf(at+".builtin", "%v", err)
			}
		}
		if b.Capacity < 0 {
			return p.errf(at+".capacity", "must not be negative")
		}
		if len(b.Args) > 0 && b.Builtin == "" {
			return p.errf(at+".args", "args are for built-in bots; put a command's arguments in its command")
		}
		if b.Token && (b.Dir != "" || len(b.Env) > 0 || b.Seed != nil) {
			return p.errf(at, "bot %q connects by itself (token: true): dir, env and seed are for launched bots", b.Name)
		}
	}
	n := rules.Players
	if c.FamilyCap < 0 {
		return p.errf("family_cap", "must not be negative")
	}
	if c.FamilyCap > 0 {
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
		if seats < n && !opts.BotsOnly {
			return p.errf("family_cap", "with at most %d of a family per table, the bots fill only %d of the %d seats", c.FamilyCap, seats, n)
		}
	}
	if opts.BotsOnly {
		return nil
	}
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
		if _, ok := seen[c.Candidate]; !ok {
			return p.errf("candidate", "%q is not one of the bots", c.Candidate)
		}
		if len(c.Bots)-1 < n-1 {
			return p.errf("bots", "a gauntlet at tables of %d needs at least %d bots besides the candidate", n, n-1)
		}
	}
	return nil
}

// Plan returns the league's plan: what decides its schedule and results.
func (c *Config) Plan() *plan.Plan {
	p := &plan.Plan{
		League: c.Name, Rules: c.RuleSet, Format: c.Format, Candidate: c.Candidate,
		Rounds: c.Rounds, MatchesPerRound: c.MatchesPerRound, Deals: c.Deals, Duplicate: *c.Duplicate,
		DealsText: c.DealsText, Seed: c.Seed,
		TimeControl: arena.TimeControl{PerDecision: time.Duration(c.TimeControl.PerDecision), Overage: time.Duration(c.TimeControl.Overage),
			MaxStrikes: *c.TimeControl.Strikes},
	}
	for _, b := range c.Bots {
		p.Bots = append(p.Bots, b.Name)
		if b.Family != "" {
			if p.Families == nil {
				p.Families = map[string]string{}
			}
			p.Families[b.Name] = b.Family
		}
	}
	p.FamilyCap = c.FamilyCap
	return p
}

// NamedBots returns the bots named, in order: each as the league file c defines it (c nil:
// none), else the built-in bot of that kind named after itself (`tapp sprt` names its bots
// this way). A name that is neither is an error naming the built-in bots.
func NamedBots(c *Config, names []string, opts Options) ([]Bot, error) {
	defined := map[string]Bot{}
	if c != nil {
		for _, b := range c.Bots {
			defined[b.Name] = b
		}
	}
	var bots []Bot
	for _, n := range names {
		b, ok := defined[n]
		if !ok {
			if opts.Builtin == nil || opts.Builtin(n) != nil {
				var kinds []string
				if opts.BuiltinNames != nil {
					kinds = opts.BuiltinNames()
				}
				return nil, fmt.Errorf("bot %q is neither a built-in bot (%s) nor defined in the league file", n, strings.Join(kinds, ", "))
			}
			b = Bot{Name: n, Builtin: n}
		}
		bots = append(bots, b)
	}
	return bots, nil
}
