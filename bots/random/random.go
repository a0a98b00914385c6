// Package random is the built-in bot that plays a uniformly random legal action.
//
// # Reproducibility
//
// The bot keeps no random-number state. Each choice is derived from a hash (splitmix64-mixed,
// see Hash) of the bot's seed and of the observation it is asked about: the rule set, the
// seat, the decision, the hand, the tapp and lay-away it may see, every move of the deal as
// the seat saw it (bids, trump, Rufer call and give, Tout, every card of every trick), the
// exposed Ouvert hand and the legal actions; the index into obs.Legal is the hash mapped
// uniformly onto len(obs.Legal).
//
// So the same seed and the same observation always give the same action, whatever order the
// games of a match are played in and however many run at once: a match replayed with the same
// seed is reproduced exactly. Different seeds give independent-looking choices. The bot is
// stateless and safe for concurrent use. (A match that wants different random play per deal
// needs nothing more: the hands, and so the observations, differ from deal to deal.)
package random

import (
	"context"
	"errors"
	"math/bits"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/engine"
)

// Bot chooses uniformly among the legal actions; see the package comment.
type Bot struct {
	seed uint64
}

// New returns a random bot whose choices are a pure function of seed and observation.
func New(seed uint64) bots.Bot { return &Bot{seed: seed} }

// errNoLegal is returned when the observation offers no legal action.
var errNoLegal = errors.New("random: observation has no legal action")

// Decide returns one of obs.Legal, chosen by Choose.
func (b *Bot) Decide(_ context.Context, obs *engine.Observation) (engine.Action, error) {
	if obs == nil || len(obs.Legal) == 0 {
		return engine.Action{}, errNoLegal
	}
	return obs.Legal[Choose(b.seed, obs)], nil
}

// Choose returns the index into obs.Legal (which must not be empty) that the bot with this
// seed plays: the hash of seed and observation, mapped uniformly onto len(obs.Legal).
func Choose(seed uint64, obs *engine.Observation) int {
	h := Hash(seed, obs)
	// Multiply-shift maps a 64-bit hash onto [0, n) with negligible bias for small n.
	hi, _ := bits.Mul64(h, uint64(len(obs.Legal)))
	return int(hi)
}

// hasher is a small streaming 64-bit hash: every word is mixed in with the splitmix64
// finaliser, which is enough to make the choices of different observations independent.
type hasher struct{ h uint64 }

func mix(z uint64) uint64 {
	z ^= z >> 30
	z *= 0xbf58476d1ce4e5b9
	z ^= z >> 27
	z *= 0x94d049bb133111eb
	z ^= z >> 31
	return z
}

func (x *hasher) add(v uint64) { x.h = mix(x.h ^ mix(v+0x9e3779b97f4a7c15)) }

// Hash returns the hash of seed and of everything in obs that the bot's choice depends on:
// the rule set and deal options, the seat and the decision, the hand, the private cards the
// seat may see (Frage tapp and lay-away), every move of the deal as this seat saw it
// (obs.History: bids, lay-aways, trump, call, give, Tout, every card played), the exposed
// Ouvert hand, and the legal actions.
func Hash(seed uint64, obs *engine.Observation) uint64 {
	x := hasher{h: mix(seed ^ 0x7461707061726e61)} // "taparna"
	x.add(uint64(obs.Rules.Variant)<<16 | uint64(obs.Rules.Players)<<8 | uint64(obs.Rules.PackSize))
	x.add(uint64(obs.Options.Pot)<<1 | boolWord(obs.Options.ForcedRamsch))
	x.add(uint64(uint8(obs.Seat))<<8 | uint64(obs.Decision))
	x.add(uint64(obs.Hand))
	x.add(uint64(obs.Tapp))
	x.add(uint64(obs.Discarded))
	x.add(uint64(obs.Exposed))
	x.add(uint64(obs.Called)<<8 | uint64(obs.Given))
	x.add(uint64(len(obs.History)))
	for _, m := range obs.History {
		x.add(moveWord(m))
	}
	x.add(uint64(len(obs.Legal)))
	for _, a := range obs.Legal {
		x.add(actionWord(a))
	}
	return x.h
}

func boolWord(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func actionWord(a engine.Action) uint64 {
	return uint64(a.Kind)<<24 | uint64(a.Contract)<<16 | uint64(a.Suit)<<8 | uint64(a.Card)
}

func moveWord(m engine.Move) uint64 {
	return uint64(uint8(m.Seat))<<32 | actionWord(m.Action)
}
