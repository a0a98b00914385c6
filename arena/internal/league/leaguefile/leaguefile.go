// Package leaguefile reads a league file (YAML, docs/league.md) and checks it: every mistake is
// an *Error that points at the line concerned. Config.Plan turns a checked file into the
// league's plan.
package leaguefile

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/tapparena/tapp/arena/internal/domain"
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
	// TLSCert and TLSKey make the league's arena serve TLS on Listen (paths relative to the
	// file); Insecure allows plain text beyond loopback (behind a TLS-terminating proxy).
	TLSCert  string   `yaml:"tls_cert"`
	TLSKey   string   `yaml:"tls_key"`
	Insecure bool     `yaml:"insecure"`
	DB       string   `yaml:"db"`
	Logs     string   `yaml:"logs"`
	Lease    Duration `yaml:"lease"`
	Grace    Duration `yaml:"grace"`
	Bots     []Bot    `yaml:"bots"`
	// FamilyCap caps the bots of one family (see Bot.Family) at a ladder table; 0: no cap.
	FamilyCap int `yaml:"family_cap"`
	// Gauntlet is how a new version of a hosted bot (submission:) is tested against the
	// version before it before it joins the ladder.
	Gauntlet Gauntlet `yaml:"gauntlet"`

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
	// Bank says whose bank and strikes: game (each deal's, the default) or match.
	Bank string `yaml:"bank"`
}

// Gauntlet is the SPRT a new version of a hosted bot plays against its previous version,
// with the ladder's other bots as the field (docs/hosting.md).
type Gauntlet struct {
	MaxPairs int `yaml:"max_pairs"` // stop undecided after this many pairs (default 200)
	Deals    int `yaml:"deals"`     // deal sources per round of the test (default 4)
}

// Bot is one bot of a league and how it is reached: exactly one of Builtin (a built-in
// bot the arena launches as `tapp bot KIND`, with Args added), Command (a program the arena
// launches), Token (the bot connects by itself with the token `tapp bots add NAME`
// printed) and Submission (a hosted bot's version, NAME@V or NAME@latest, built and run
// sandboxed by the arena). Builtin "*" stands for every built-in bot this build of tapp has, each named
// after its kind (those already listed by name are not added twice).
type Bot struct {
	Name    string            `yaml:"name"`
	Builtin string            `yaml:"builtin"`
	Args    []string          `yaml:"args"`
	Command Command           `yaml:"command"`
	Dir     string            `yaml:"dir"`
	Env     map[string]string `yaml:"env"`
	Token   bool              `yaml:"token"`
	// Submission names a hosted bot's version, NAME@V or NAME@latest (its newest version
	// that has played its gauntlet): it plays under its version's name, NAME@V.
	Submission string  `yaml:"submission"`
	Capacity   int     `yaml:"capacity"`
	Seed       *uint64 `yaml:"seed"`
	// Family names the bot's family: versions of one bot, whose results the leaderboard splits
	// with and without the family at the table (and which family_cap keeps apart).
	Family string `yaml:"family"`
}

// Launched reports whether the arena starts the bot itself.
func (b Bot) Launched() bool { return b.Builtin != "" || len(b.Command) > 0 || b.Submission != "" }

// HasSubmissions reports whether the league has hosted bots (submission:).
func (c *Config) HasSubmissions() bool {
	for _, b := range c.Bots {
		if b.Submission != "" {
			return true
		}
	}
	return false
}

// Defaults of a league file (the runner's own defaults for concurrency and lease).
const (
	DefaultConcurrency = league.DefaultConcurrency
	DefaultLease       = league.DefaultLease
	DefaultGrace       = 30 * time.Second
	MaxLease           = time.Hour
	MaxGrace           = time.Hour
)

var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

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
	file   string
	src    []byte
	ast    *ast.File
	origin []int // the file's index of each bot after builtin: "*" is expanded
}

// Plan returns the league's plan: what decides its schedule and results.
func (c *Config) Plan() *plan.Plan {
	p := &plan.Plan{
		League: c.Name, Rules: c.RuleSet, Format: c.Format, Candidate: c.Candidate,
		Rounds: c.Rounds, MatchesPerRound: c.MatchesPerRound, Deals: c.Deals, Duplicate: *c.Duplicate,
		DealsText: c.DealsText, Seed: c.Seed,
		TimeControl: c.timeControl(),
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

// timeControl is the league's clock (its defaults filled in by the check).
func (c *Config) timeControl() domain.TimeControl {
	tc := domain.TimeControl{PerDecision: time.Duration(c.TimeControl.PerDecision), Overage: time.Duration(c.TimeControl.Overage)}
	tc.Scope, _ = domain.ParseClockScope(c.TimeControl.Bank) // the check refuses another
	if c.TimeControl.Strikes != nil {
		tc.MaxStrikes = *c.TimeControl.Strikes
	}
	return tc
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
