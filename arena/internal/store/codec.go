package store

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// This file is the only place that knows how engine values are written as text in the
// database. Every format is the engine's own notation, or JSON.

func formatRules(r engine.RuleSet) string { return r.String() }

func parseRules(text string) (engine.RuleSet, error) {
	r, err := engine.ParseRuleSet(text)
	if err != nil {
		return r, fmt.Errorf("stored rule set %q: %w", text, err)
	}
	return r, nil
}

func formatDeal(d engine.Deal, r engine.RuleSet) string { return d.Format(r) }

func parseDeal(r engine.RuleSet, text string) (engine.Deal, error) {
	d, err := engine.ParseDeal(r, text)
	if err != nil {
		return d, fmt.Errorf("stored deal %q: %w", text, err)
	}
	return d, nil
}

// noAction is how the zero Action (no action) is written; engine.ParseAction does not read it.
const noAction = "none"

func formatAction(a engine.Action) string {
	if a == (engine.Action{}) {
		return noAction
	}
	return a.String()
}

func parseAction(text string) (engine.Action, error) {
	if text == noAction {
		return engine.Action{}, nil
	}
	a, err := engine.ParseAction(text)
	if err != nil {
		return a, fmt.Errorf("stored action %q: %w", text, err)
	}
	return a, nil
}

// formatMoves writes one move per line in the engine's "seat:action" notation (Move.String).
func formatMoves(moves []engine.Move) string {
	var b strings.Builder
	for i, m := range moves {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.Itoa(int(m.Seat)))
		b.WriteByte(':')
		b.WriteString(formatAction(m.Action))
	}
	return b.String()
}

func parseMoves(text string) ([]engine.Move, error) {
	if text == "" {
		return nil, nil
	}
	lines := strings.Split(text, "\n")
	moves := make([]engine.Move, 0, len(lines))
	for i, line := range lines {
		seat, act, ok := strings.Cut(line, ":")
		n, err := strconv.Atoi(seat)
		if !ok || err != nil || n < 0 || n >= engine.MaxPlayers {
			return nil, fmt.Errorf("stored move %d %q: want seat:action", i, line)
		}
		a, err := parseAction(act)
		if err != nil {
			return nil, fmt.Errorf("stored move %d: %w", i, err)
		}
		moves = append(moves, engine.Move{Seat: engine.Seat(n), Action: a})
	}
	return moves, nil
}

func formatDecision(d engine.Decision) string { return d.String() }

// decisionByName maps the name of every engine.Decision back to its value (the engine has
// no parser for them).
var decisionByName = func() map[string]engine.Decision {
	m := map[string]engine.Decision{}
	for d := engine.DecideNone; d < 255; d++ {
		name := d.String()
		if _, dup := m[name]; !dup && !strings.Contains(name, "(") {
			m[name] = d
		}
	}
	return m
}()

func parseDecision(text string) (engine.Decision, error) {
	d, ok := decisionByName[text]
	if !ok {
		return d, fmt.Errorf("stored decision %q is not one the engine knows", text)
	}
	return d, nil
}

// options is engine.Options as stored (JSON).
type options struct {
	Pot          int  `json:"pot"`
	ForcedRamsch bool `json:"forced_ramsch"`
}

func formatOptions(o engine.Options) string {
	b, _ := json.Marshal(options{Pot: o.Pot, ForcedRamsch: o.ForcedRamsch})
	return string(b)
}

func parseOptions(text string) (engine.Options, error) {
	var o options
	if err := json.Unmarshal([]byte(text), &o); err != nil {
		return engine.Options{}, fmt.Errorf("stored options %q: %w", text, err)
	}
	return engine.Options{Pot: o.Pot, ForcedRamsch: o.ForcedRamsch}, nil
}

// outcome is engine.Outcome as stored: JSON with the contract by name ("solo", "none") and
// the trump by suit letter ("C", "-" for none); seats are numbers (-1: nobody).
type outcome struct {
	ThrownIn    bool                   `json:"thrown_in"`
	Declarer    int                    `json:"declarer"`
	Contract    string                 `json:"contract"`
	Trump       string                 `json:"trump"`
	Tout        bool                   `json:"tout"`
	Points      [engine.MaxPlayers]int `json:"points"`
	Tricks      [engine.MaxPlayers]int `json:"tricks"`
	DeclarerWon bool                   `json:"declarer_won"`
	Draw        bool                   `json:"draw"`
	Payoff      [engine.MaxPlayers]int `json:"payoff"`
	PotBefore   int                    `json:"pot_before"`
	PotAfter    int                    `json:"pot_after"`
}

func formatOutcome(o engine.Outcome) string {
	b, _ := json.Marshal(outcome{
		ThrownIn: o.ThrownIn, Declarer: int(o.Declarer), Contract: o.Contract.String(), Trump: o.Trump.String(),
		Tout: o.Tout, Points: o.Points, Tricks: o.Tricks, DeclarerWon: o.DeclarerWon, Draw: o.Draw,
		Payoff: o.Payoff, PotBefore: o.PotBefore, PotAfter: o.PotAfter,
	})
	return string(b)
}

func parseOutcome(text string) (engine.Outcome, error) {
	var j outcome
	if err := json.Unmarshal([]byte(text), &j); err != nil {
		return engine.Outcome{}, fmt.Errorf("stored outcome %q: %w", text, err)
	}
	o := engine.Outcome{
		ThrownIn: j.ThrownIn, Declarer: engine.Seat(j.Declarer), Tout: j.Tout, Points: j.Points, Tricks: j.Tricks,
		DeclarerWon: j.DeclarerWon, Draw: j.Draw, Payoff: j.Payoff, PotBefore: j.PotBefore, PotAfter: j.PotAfter,
	}
	if j.Contract != engine.NoContract.String() {
		c, err := engine.ParseContract(j.Contract)
		if err != nil {
			return o, fmt.Errorf("stored outcome: %w", err)
		}
		o.Contract = c
	}
	o.Trump = engine.NoSuit
	if j.Trump != engine.NoSuit.String() {
		su, err := engine.ParseSuit(j.Trump)
		if err != nil {
			return o, fmt.Errorf("stored outcome: %w", err)
		}
		o.Trump = su
	}
	return o, nil
}

// attempt is an domain.AnswerAttempt as JSON.
type attempt struct {
	Text     string `json:"text"`
	AfterUS  int64  `json:"after_us"`
	Rejected string `json:"rejected,omitempty"`
}

func formatAttempts(as []domain.AnswerAttempt) (string, error) {
	js := make([]attempt, len(as))
	for i, a := range as {
		js[i] = attempt{Text: a.Text, AfterUS: a.After.Microseconds(), Rejected: a.Rejected}
	}
	b, err := json.Marshal(js)
	return string(b), err
}

func parseAttempts(text string) ([]domain.AnswerAttempt, error) {
	var js []attempt
	if err := json.Unmarshal([]byte(text), &js); err != nil {
		return nil, fmt.Errorf("stored attempts: %w", err)
	}
	if len(js) == 0 {
		return nil, nil
	}
	as := make([]domain.AnswerAttempt, len(js))
	for i, a := range js {
		as[i] = domain.AnswerAttempt{Text: a.Text, After: time.Duration(a.AfterUS) * time.Microsecond, Rejected: a.Rejected}
	}
	return as, nil
}

// formatNames writes a list of bot names as a JSON array (never null).
func formatNames(names []string) string {
	if names == nil {
		names = []string{}
	}
	b, _ := json.Marshal(names)
	return string(b)
}

func parseNames(text string) ([]string, error) {
	var names []string
	if err := json.Unmarshal([]byte(text), &names); err != nil {
		return nil, fmt.Errorf("stored names %q: %w", text, err)
	}
	if len(names) == 0 {
		return nil, nil
	}
	return names, nil
}

func us(d time.Duration) int64 { return d.Microseconds() }

func fromUS(v int64) time.Duration { return time.Duration(v) * time.Microsecond }
