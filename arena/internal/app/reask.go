package app

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/analysis"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/reask"
	"github.com/tapparena/tapp/bots"
)

// Asker says which bot answers re-asked questions, and how it reaches the re-ask arena (an
// ephemeral arena of arena/internal/reask, which stores nothing).
type Asker struct {
	Name   string       // the bot name the arena's one-time token connects as
	Listen string       // the arena's address ("": a free loopback port)
	Store  domain.Store // lets bots connect with their registered token too (nil: the one-time token only)
	// Builtin is a built-in bot (of kind BuiltinKind) asked in this process through the Go
	// SDK; else Command is a bot program launched with TAPP_ARENA and TAPP_TOKEN set (split as
	// a shell would, run without one; its output to Output); with neither, the arena waits for
	// a bot the user starts, and Listening is told where it listens and with which token.
	Builtin     bots.Bot
	BuiltinKind string
	Command     string
	Output      io.Writer
	Listening   func(addr, token string)
	Wait        time.Duration // how long to wait for the bot to connect
	Log         *zap.Logger
}

// startAsker starts the re-ask arena and waits for the asked bot to connect.
func startAsker(ctx context.Context, a Asker) (*reask.LocalArena, error) {
	la, err := reask.StartArena(reask.ArenaConfig{Listen: a.Listen, Store: a.Store, Log: a.Log, Name: a.Name})
	if err != nil {
		return nil, err
	}
	switch {
	case a.Builtin != nil:
		la.RunBuiltin(ctx, "builtin/"+strings.ToLower(a.BuiltinKind), a.Builtin)
	case a.Command != "":
		if err := la.RunCommand(a.Command, a.Output); err != nil {
			la.Close()
			return nil, err
		}
	case a.Listening != nil:
		a.Listening(la.Addr(), la.Token())
	}
	if err := la.WaitBot(ctx, a.Wait); err != nil {
		la.Close()
		return nil, err
	}
	return la, nil
}

// Reask asks a bot the questions, in order, and returns its answers.
func Reask(ctx context.Context, a Asker, questions []*reask.Question) ([]*reask.Answer, error) {
	la, err := startAsker(ctx, a)
	if err != nil {
		return nil, err
	}
	defer la.Close()
	answers := make([]*reask.Answer, 0, len(questions))
	for _, q := range questions {
		ans, err := la.Ask(ctx, q)
		if err != nil {
			return nil, err
		}
		answers = append(answers, ans)
	}
	return answers, nil
}

// DiffRequest asks a new version of a bot every decision the bot made in some recorded deals.
type DiffRequest struct {
	Bot         string         // the recorded bot whose decisions are asked again
	Source      string         // what the deals are (a match, a league, a file), for errors
	Deals       []RecordedDeal // the recorded deals
	PerDecision time.Duration  // the time per decision (0: each match's)
	Asker       Asker          // the new version
	// Progress, when set, is told the decisions asked and to ask: with none asked once the
	// bot is connected, then after every answer.
	Progress func(done, total int)
}

// diffQuestions are the recorded decisions of r.Bot as questions, each with its deal.
func diffQuestions(r DiffRequest) ([]*reask.Question, []RecordedDeal, error) {
	var questions []*reask.Question
	var owners []RecordedDeal
	for _, d := range r.Deals {
		if r.PerDecision > 0 {
			d.Match.TimeControl.PerDecision = r.PerDecision
		}
		for k, mv := range d.Deal.Moves {
			if int(mv.Seat) >= len(d.Deal.Seating) || d.Deal.Seating[mv.Seat] != r.Bot {
				continue
			}
			q, err := reask.NewQuestion(d.Match, d.Deal, k)
			if err != nil {
				return nil, nil, err
			}
			questions = append(questions, q)
			owners = append(owners, d)
		}
	}
	if len(questions) == 0 {
		return nil, nil, fmt.Errorf("bot %q made no recorded decision in %s (%d deals)", r.Bot, r.Source, len(r.Deals))
	}
	return questions, owners, nil
}

// DiffRow is one re-asked decision that changed.
type DiffRow struct {
	Match    string  `json:"match"`
	Deal     int     `json:"deal"`
	Decision int     `json:"decision"`
	Seat     int     `json:"seat"`
	Kind     string  `json:"kind"`
	Then     string  `json:"then"`
	Now      string  `json:"now"` // "" when no legal answer came in time
	Gain     float64 `json:"gain"`
	Unit     string  `json:"unit"`
	Valued   bool    `json:"valued"`
}

// DiffReport is what a new version of a bot decides differently from the recorded one.
type DiffReport struct {
	Bot      string    `json:"bot"`
	Version  string    `json:"version"` // what the new bot said in its hello
	Asked    int       `json:"asked"`
	Changed  []DiffRow `json:"changed"`
	NetGain  float64   `json:"net_gain"` // over the valued changes in the rule set's unit (Ramsch card points apart)
	Unvalued int       `json:"unvalued"`
}

// ReplayDiff re-asks every recorded decision of r.Bot of the new version and lists the
// decisions that changed, each valued against par (double-dummy, in the rule set's unit): a
// regression test of a bot over a stored corpus.
func ReplayDiff(ctx context.Context, r DiffRequest) (*DiffReport, error) {
	questions, owners, err := diffQuestions(r)
	if err != nil {
		return nil, err
	}
	la, err := startAsker(ctx, r.Asker)
	if err != nil {
		return nil, err
	}
	defer la.Close()
	_, version := la.Bot()
	rep := &DiffReport{Bot: r.Bot, Version: version, Asked: len(questions), Changed: []DiffRow{}}
	a := analysis.NewAnalyzer(analysis.Options{})
	if r.Progress != nil {
		r.Progress(0, len(questions))
	}
	for i, q := range questions {
		ans, err := la.Ask(ctx, q)
		if err != nil {
			return nil, err
		}
		if r.Progress != nil {
			r.Progress(i+1, len(questions))
		}
		if ans.Same(q) {
			continue
		}
		d := owners[i]
		row := DiffRow{Match: d.Match.ID, Deal: d.Deal.Number, Decision: q.Index, Seat: int(q.Seat), Kind: q.Decision.String(),
			Then: q.Recorded.Action.String()}
		if ans.Answered {
			row.Now = ans.Action.String()
			ch, err := a.ValueChange(d.Match.Rules, d.Deal, q.Index, ans.Action)
			if err != nil {
				return nil, err
			}
			row.Gain, row.Unit, row.Valued = ch.Gain, ch.Unit, ch.Valued
		}
		if row.Valued && row.Unit != "card points" {
			rep.NetGain += row.Gain
		}
		if !row.Valued {
			rep.Unvalued++
		}
		rep.Changed = append(rep.Changed, row)
	}
	return rep, nil
}
