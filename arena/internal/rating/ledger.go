package rating

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Ledger maintains multiplayer-Elo ratings ([MultiElo]) over a sequence of matches applied
// in order, and keeps the full history. Because Elo depends on the order of matches, the
// arena recomputes ratings by replaying its stored raw results through a fresh Ledger in a
// fixed order (for example by match id); the same matches in the same order always give
// bit-identical ratings. A bot enters at the ledger's initial rating on its first match.
//
// A Ledger is not safe for concurrent use.
type Ledger struct {
	k, d, initial float64
	ratings       map[string]float64
	matches       map[string]int
	history       []LedgerEntry
}

// LedgerEntry records one applied match.
type LedgerEntry struct {
	// Seq is the 0-based position of the match in the ledger.
	Seq int
	// ID is the match's ID, copied from [Match].
	ID string
	// Bots and Cents are copies of the match's participants and net totals.
	Bots  []string
	Cents []int64
	// Places are the finishing places derived from Cents ([Places]; ties averaged).
	Places []float64
	// Before and After are each bot's rating before and after the match, parallel to Bots.
	Before, After []float64
}

// Standing is one bot's current line in a [Ledger].
type Standing struct {
	Bot     string
	Rating  float64
	Matches int
}

// HistoryPoint is a bot's rating after one of its matches.
type HistoryPoint struct {
	// Seq is the ledger position of the match ([LedgerEntry.Seq]).
	Seq    int
	ID     string
	Rating float64
}

// NewLedger returns an empty ledger using K-factor k, logistic scale d and the given initial
// rating for new bots (see [DefaultK], [DefaultD], [DefaultInitialRating]). It returns an error
// if k or d is not positive and finite or initial is not finite.
func NewLedger(k, d, initial float64) (*Ledger, error) {
	if !(k > 0) || math.IsInf(k, 1) || !(d > 0) || math.IsInf(d, 1) {
		return nil, fmt.Errorf("rating: K %v and D %v must be positive and finite", k, d)
	}
	if math.IsNaN(initial) || math.IsInf(initial, 0) {
		return nil, fmt.Errorf("rating: initial rating %v is not finite", initial)
	}
	return &Ledger{
		k: k, d: d, initial: initial,
		ratings: make(map[string]float64),
		matches: make(map[string]int),
	}, nil
}

// ReplayLedger builds a ledger with [NewLedger] and applies the matches in slice order. On
// error it returns nil and the error naming the first invalid match.
func ReplayLedger(k, d, initial float64, matches []Match) (*Ledger, error) {
	l, err := NewLedger(k, d, initial)
	if err != nil {
		return nil, err
	}
	for i, m := range matches {
		if _, err := l.Apply(m); err != nil {
			return nil, fmt.Errorf("match %d: %w", i, err)
		}
	}
	return l, nil
}

// Apply rates one match: it ranks the bots by net cents ([Places], ties share the average
// place), updates every participant simultaneously from its pre-match rating with
// [MultiElo], appends the entry to the history and returns it. An invalid match ([Match.Validate])
// leaves the ledger unchanged and returns an error.
func (l *Ledger) Apply(m Match) (LedgerEntry, error) {
	if err := m.Validate(); err != nil {
		return LedgerEntry{}, err
	}
	before := make([]float64, len(m.Bots))
	for i, b := range m.Bots {
		r, ok := l.ratings[b]
		if !ok {
			r = l.initial
		}
		before[i] = r
	}
	places := Places(m.Cents)
	after, err := MultiElo(before, places, l.k, l.d)
	if err != nil {
		return LedgerEntry{}, err
	}
	for i, b := range m.Bots {
		l.ratings[b] = after[i]
		l.matches[b]++
	}
	e := LedgerEntry{
		Seq:    len(l.history),
		ID:     m.ID,
		Bots:   slices.Clone(m.Bots),
		Cents:  slices.Clone(m.Cents),
		Places: places,
		Before: before,
		After:  after,
	}
	l.history = append(l.history, e)
	return e.clone(), nil
}

// Rating returns a bot's current rating and whether it has played; a bot that has not played
// reports the initial rating and false.
func (l *Ledger) Rating(bot string) (float64, bool) {
	r, ok := l.ratings[bot]
	if !ok {
		return l.initial, false
	}
	return r, true
}

// Len returns the number of matches applied.
func (l *Ledger) Len() int { return len(l.history) }

// Standings returns every bot that has played, best rating first (ties by name).
func (l *Ledger) Standings() []Standing {
	out := make([]Standing, 0, len(l.ratings))
	for b, r := range l.ratings {
		out = append(out, Standing{Bot: b, Rating: r, Matches: l.matches[b]})
	}
	slices.SortFunc(out, func(x, y Standing) int {
		if c := cmp.Compare(y.Rating, x.Rating); c != 0 {
			return c
		}
		return strings.Compare(x.Bot, y.Bot)
	})
	return out
}

// History returns a copy of every applied match, in order.
func (l *Ledger) History() []LedgerEntry {
	out := make([]LedgerEntry, len(l.history))
	for i, e := range l.history {
		out[i] = e.clone()
	}
	return out
}

// BotHistory returns a bot's rating after each of its matches, in ledger order (empty if the
// bot has not played).
func (l *Ledger) BotHistory(bot string) []HistoryPoint {
	var out []HistoryPoint
	for _, e := range l.history {
		if i := slices.Index(e.Bots, bot); i >= 0 {
			out = append(out, HistoryPoint{Seq: e.Seq, ID: e.ID, Rating: e.After[i]})
		}
	}
	return out
}

func (e LedgerEntry) clone() LedgerEntry {
	e.Bots = slices.Clone(e.Bots)
	e.Cents = slices.Clone(e.Cents)
	e.Places = slices.Clone(e.Places)
	e.Before = slices.Clone(e.Before)
	e.After = slices.Clone(e.After)
	return e
}
