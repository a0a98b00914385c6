package board

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// AllScopes is the League or Rules of an EloKey that takes every league or rule set.
const AllScopes = "*"

// EloKey names one running multiplayer-Elo ledger: the finished matches of a league (or of
// every league, AllScopes) under a rule set (or every one), with or without the tainted ones.
// The store keeps all of them up to date as matches finish, so that the board reads one
// rating per bot instead of replaying every match.
type EloKey struct {
	League, Rules string
	Tainted       bool // the ledger counts tainted matches too
}

// EloKeys are the ledgers a finished match counts in, in a fixed order: its league's and every
// league's, under its rule set and every rule set; the ledgers without tainted matches only
// when it is clean.
func EloKeys(m *MatchSums) []EloKey {
	var keys []EloKey
	for _, tainted := range []bool{false, true} {
		if !tainted && m.Tainted() {
			continue
		}
		for _, l := range []string{m.League, AllScopes} {
			for _, r := range []string{m.Rules, AllScopes} {
				keys = append(keys, EloKey{League: l, Rules: r, Tainted: tainted})
			}
		}
	}
	slices.SortFunc(keys, compareEloKeys)
	return slices.Compact(keys)
}

func compareEloKeys(a, b EloKey) int {
	t := func(x bool) int {
		if x {
			return 1
		}
		return 0
	}
	return cmp.Or(strings.Compare(a.League, b.League), strings.Compare(a.Rules, b.Rules), cmp.Compare(t(a.Tainted), t(b.Tainted)))
}

// BoardEloKey is the ledger the board of a filter shows (the bot filter does not change it).
func BoardEloKey(f domain.MatchFilter, includeTainted bool) EloKey {
	k := EloKey{League: f.LeagueID, Rules: f.Rules, Tainted: includeTainted}
	if k.League == "" {
		k.League = AllScopes
	}
	if k.Rules == "" {
		k.Rules = AllScopes
	}
	return k
}

// Counts reports whether a match counts in the ledger (finished, with results, of its scope,
// clean unless the ledger counts tainted matches).
func (k EloKey) Counts(m *MatchSums) bool {
	return m.Status == domain.MatchFinished && m.Deals > 0 && len(m.Bots) >= 2 &&
		(k.League == AllScopes || k.League == m.League) && (k.Rules == AllScopes || k.Rules == m.Rules) &&
		(k.Tainted || !m.Tainted())
}

// EloStep is one match of a ledger: the ratings of its bots (sorted, as m.Bots) after it,
// from their ratings before and their nets ([rating.MultiElo] with the default K and D).
func EloStep(before []float64, nets []int64) ([]float64, error) {
	return rating.MultiElo(before, rating.Places(nets), rating.DefaultK, rating.DefaultD)
}

// EloLedger is one ledger's state: every bot's rating and rated matches, and (when asked)
// the order of the matches and each bot's rating after each of its matches.
type EloLedger struct {
	Rated   int // matches rated
	Ratings map[string]float64
	Matches map[string]int
	Order   []string
	History map[string][]EloPoint
}

// NewEloLedger returns an empty ledger; with history it records Order and History.
func NewEloLedger(history bool) *EloLedger {
	l := &EloLedger{Ratings: map[string]float64{}, Matches: map[string]int{}}
	if history {
		l.History = map[string][]EloPoint{}
	}
	return l
}

// Before returns the ratings of bots before their next match (the initial rating for a bot
// that has none).
func (l *EloLedger) Before(bots []string) []float64 {
	out := make([]float64, len(bots))
	for i, b := range bots {
		r, ok := l.Ratings[b]
		if !ok {
			r = rating.DefaultInitialRating
		}
		out[i] = r
	}
	return out
}

// Apply rates one match: bots sorted, their nets.
func (l *EloLedger) Apply(id string, bots []string, nets []int64) error {
	after, err := EloStep(l.Before(bots), nets)
	if err != nil {
		return err
	}
	l.Set(id, bots, after)
	return nil
}

// Set records the ratings of bots after match id.
func (l *EloLedger) Set(id string, bots []string, after []float64) {
	l.Rated++
	for i, b := range bots {
		l.Ratings[b] = after[i]
		l.Matches[b]++
		if l.History != nil {
			l.History[b] = append(l.History[b], EloPoint{Match: id, Rating: after[i]})
		}
	}
	if l.History != nil {
		l.Order = append(l.Order, id)
	}
}

// EloOrderSource is a store that records the order in which it rated each ledger's matches.
type EloOrderSource interface {
	EloOrder(ctx context.Context, k EloKey) ([]string, error)
}
