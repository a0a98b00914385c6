package engine

import (
	"fmt"
	"reflect"
	"testing"
)

// Property tests over random deals (§9.16 and R-INFO-1..5): a legal action always exists
// until the end, points sum to 120, settlement sums to zero (with the pot), no observation or
// event stream holds a card hidden from its seat, an observation's sample observes the same,
// and replaying the history gives the same state.

type propConfig struct {
	rules string
	deals int // in full mode; -short uses deals/50 (at least 500)
}

var propConfigs = []propConfig{
	{"modern", 100000},
	{"modern players=4", 100000},
	{"classic", 100000},
	{"wuerttemberg", 100000},
	{"modern frage=on", 20000},
	{"modern players=4 frage=on pack=32", 20000},
	{"modern pack=32", 20000},
	{"classic pot=on", 20000},
	{"wuerttemberg pot=on tout=2", 20000},
}

func TestProperties_S9_16_R_INFO(t *testing.T) {
	t.Parallel()
	for ci, pc := range propConfigs {
		pc := pc
		seed := uint64(1000 + ci)
		t.Run(pc.rules, func(t *testing.T) {
			t.Parallel()
			r := mustRules(t, pc.rules)
			n := pc.deals
			if testing.Short() {
				n = max(n/50, 500)
			}
			p := newProp(r, seed)
			for i := 0; i < n; i++ {
				if err := p.deal(uint64(i)); err != nil {
					t.Fatalf("%s deal %d: %v\ndeal: %s\nhistory: %v", pc.rules, i, err, p.s.Deal().Format(r), p.s.History())
				}
			}
		})
	}
}

type prop struct {
	r    RuleSet
	seed uint64
	rng  *Rand
	s    *State
	buf  []Action
	pot  int
}

func newProp(r RuleSet, seed uint64) *prop {
	s, _ := NewState(r, DealFromSeed(r, seed, 0), Options{})
	return &prop{r: r, seed: seed, rng: NewRand(seed, 1<<40), s: s}
}

// deal plays one random deal with all checks.
func (p *prop) deal(i uint64) error {
	r := p.r
	d := DealFromSeed(r, p.seed, i)
	opts := Options{Pot: p.pot}
	if r.Variant == Modern && i%50 == 7 {
		opts.ForcedRamsch = true
	}
	s := p.s
	if err := s.Reset(r, d, opts); err != nil {
		return err
	}
	full := i%8 == 0 // observation checks at every step for every seat
	sampleAt := -1   // one determinization check per few deals
	if i%4 == 1 {
		sampleAt = p.rng.IntN(40)
	}
	for step := 0; ; step++ {
		if full || s.Terminal() || step == sampleAt {
			for seat := Seat(0); seat < Seat(r.Players); seat++ {
				if err := checkObservation(s, seat); err != nil {
					return fmt.Errorf("step %d seat %s: %w", step, seat, err)
				}
			}
		}
		if step == sampleAt || (sampleAt >= 0 && s.Terminal()) {
			seat := Seat(p.rng.IntN(r.Players))
			o := s.Observe(seat)
			st, err := o.Sample(p.rng)
			if err != nil {
				return fmt.Errorf("step %d seat %s: sample: %w", step, seat, err)
			}
			if o2 := st.Observe(seat); !reflect.DeepEqual(o, o2) {
				return fmt.Errorf("step %d seat %s: the sample observes differently:\n%+v\n%+v", step, seat, o, o2)
			}
		}
		if s.Terminal() {
			break
		}
		p.buf = s.LegalActions(p.buf[:0])
		if len(p.buf) == 0 {
			return fmt.Errorf("step %d: no legal action (%s, seat %s)", step, s.Decision(), s.ToMove())
		}
		if s.Decision() == DecideCard && s.LegalCards().Len() != len(p.buf) {
			return fmt.Errorf("LegalCards and LegalActions disagree")
		}
		a := p.buf[p.rng.IntN(len(p.buf))]
		if full {
			for _, b := range p.buf {
				if err := s.Check(b); err != nil {
					return fmt.Errorf("listed action %s fails Check: %w", b, err)
				}
			}
		}
		if err := s.Apply(a); err != nil {
			return fmt.Errorf("step %d: legal %s refused: %w", step, a, err)
		}
		if step > 200 {
			return fmt.Errorf("deal does not end")
		}
	}
	o := s.Outcome()
	if sum := sumPayoff(o); sum != 0 {
		return fmt.Errorf("settlement sums to %d: %+v", sum, o)
	}
	if o.PotBefore != opts.Pot || o.PotAfter < 0 {
		return fmt.Errorf("pot %d→%d, carried %d", o.PotBefore, o.PotAfter, opts.Pot)
	}
	p.pot = o.PotAfter
	if p.pot > 1<<20 {
		p.pot = 0 // random play loses Solos in a row; keep the doubling pot far from overflow
	}
	if err := checkPoints(s, o); err != nil {
		return err
	}
	// Replaying the history gives the same state.
	re, err := NewState(r, d, opts)
	if err != nil {
		return err
	}
	for _, m := range s.History() {
		if re.ToMove() != m.Seat {
			return fmt.Errorf("replay: %s not to move", m.Seat)
		}
		if err := re.Apply(m.Action); err != nil {
			return fmt.Errorf("replay %s: %w", m, err)
		}
	}
	if !statesEqual(re, s) {
		return fmt.Errorf("replay differs")
	}
	if c := s.Clone(); !statesEqual(c, s) {
		return fmt.Errorf("clone differs")
	}
	return nil
}

// checkPoints: all card points are credited once, or are left unplayed (R-PLAY-6) or lie in a
// tapp that counts for nobody (R-PLAY-5); in point games and Ramsch all 120 are credited.
func checkPoints(s *State, o Outcome) error {
	if o.ThrownIn {
		return nil
	}
	credited := 0
	for _, p := range o.Points {
		credited += p
	}
	var unplayed CardSet
	for seat := 0; seat < s.Rules().Players; seat++ {
		unplayed |= s.Hand(Seat(seat))
	}
	rest := unplayed.Points()
	c := o.Contract
	if !c.pointGame() && c != Ramsch {
		rest += s.Deal().Tapp.Points() // counts for nobody (R-PLAY-5)
	}
	if credited+rest != 120 {
		return fmt.Errorf("points: credited %d + uncredited %d != 120 (%v)", credited, rest, o.Points)
	}
	if (c.pointGame() && !o.Tout) || c == Ramsch {
		if credited != 120 {
			return fmt.Errorf("points of a %s sum to %d", c, credited)
		}
	}
	return nil
}

// knowledge computes, from the full event log, the cards seat may know (R-INFO-1..4),
// independently of the redaction code.
func knowledge(s *State, seat Seat) CardSet {
	known := s.Deal().Hands[seat]
	for _, e := range s.Events() {
		switch e.Kind {
		case EvCard, EvCall, EvCalledCard:
			known = known.With(e.Card)
		case EvTappTaken, EvDiscard:
			if e.Seat == seat {
				known |= e.Cards
				if e.Card.Valid() {
					known = known.With(e.Card)
				}
			}
		case EvGive:
			if e.Seat == seat || e.Holder == seat {
				known = known.With(e.Card)
			}
		case EvOuvertExposed:
			known |= e.Cards
		case EvDealEnd:
			known = FullPack36
		}
	}
	return known
}

// checkObservation: the observation and the redacted event stream hold only cards the seat
// may know, and the observation agrees with the state on public facts.
func checkObservation(s *State, seat Seat) error {
	known := knowledge(s, seat)
	o := s.Observe(seat)
	if leak := observedCards(o) &^ known; leak != 0 {
		return fmt.Errorf("observation shows hidden %s", leak)
	}
	for _, e := range s.EventsFor(seat, 0) {
		if leak := eventCards(e) &^ known; leak != 0 {
			return fmt.Errorf("event %s shows hidden %s", e, leak)
		}
	}
	if o.Hand != s.Hand(seat) || o.Decision != s.Decision() || o.ToMove != s.ToMove() {
		return fmt.Errorf("observation disagrees with the state")
	}
	if (seat == s.ToMove()) != (o.Legal != nil) {
		return fmt.Errorf("legal actions given to the wrong seat")
	}
	if s.Terminal() != (o.Reveal != nil && o.Outcome != nil) {
		return fmt.Errorf("reveal before the end, or none at the end")
	}
	return nil
}

// Clone and CopyFrom give independent states.
func TestCloneIndependent(t *testing.T) {
	t.Parallel()
	s := newGame(t, modern, dealB, "1:play 2:pass 0:pass 1:solo:C")
	keep := s.Clone()
	c := s.Clone()
	play(t, c, "0:CA 1:C9 2:C6")
	if !statesEqual(s, keep) || statesEqual(s, c) {
		t.Fatal("Clone shares state")
	}
	var d State
	d.CopyFrom(c)
	play(t, &d, "0:SA")
	if len(c.History()) == len(d.History()) || c.ToMove() != 0 {
		t.Fatal("CopyFrom shares state")
	}
}
