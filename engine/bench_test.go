package engine

import "testing"

// playRandomDeal plays one seeded deal to the end with uniformly random legal choices,
// reusing s and buf (the hot loop of a search bot or a simulation).
func playRandomDeal(s *State, r *RuleSet, rng *Rand, buf []Action) []Action {
	d := DealFromRand(*r, rng)
	if err := s.Reset(*r, d, Options{}); err != nil {
		panic(err)
	}
	for s.phase != phDone {
		buf = s.LegalActions(buf[:0])
		if err := s.Apply(buf[rng.IntN(len(buf))]); err != nil {
			panic(err)
		}
	}
	return buf
}

// BenchmarkRandomDeal measures one complete random deal (shuffle, bidding, play, settlement;
// modern, 3 players) with uniformly random legal choices on a reused State.
func BenchmarkRandomDeal(b *testing.B) {
	r := DefaultRules(Modern)
	s, _ := NewState(r, DealFromSeed(r, 1, 0), Options{})
	rng := NewRand(1, 1)
	buf := make([]Action, 0, 64)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = playRandomDeal(s, &r, rng, buf)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "deals/s")
}

// BenchmarkLegalActions measures LegalActions in trick play.
func BenchmarkLegalActions(b *testing.B) {
	r := DefaultRules(Modern)
	s, _ := NewState(r, DealFromSeed(r, 1, 0), Options{})
	for s.Decision() != DecideCard {
		s.Apply(s.LegalActions(nil)[0])
	}
	s.Apply(s.LegalActions(nil)[0])
	buf := make([]Action, 0, 64)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = s.LegalActions(buf[:0])
	}
}

// BenchmarkRandomDealAllVariants reports deals/s and actions per deal for every variant.
func BenchmarkRandomDealVariants(b *testing.B) {
	for _, text := range []string{"modern", "modern players=4", "modern frage=on", "classic", "wuerttemberg"} {
		b.Run(text, func(b *testing.B) {
			r, _ := ParseRuleSet(text)
			s, _ := NewState(r, DealFromSeed(r, 1, 0), Options{})
			rng := NewRand(1, 1)
			buf := make([]Action, 0, 64)
			actions := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				buf = playRandomDeal(s, &r, rng, buf)
				actions += len(s.History())
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "deals/s")
			b.ReportMetric(float64(actions)/float64(b.N), "actions/deal")
		})
	}
}

// BenchmarkClone measures Clone of a state in mid-play (allocates the copy).
func BenchmarkClone(b *testing.B) {
	s := midPlay()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = s.Clone()
	}
}

// BenchmarkCopyFrom measures CopyFrom into a reused state (no allocation).
func BenchmarkCopyFrom(b *testing.B) {
	s := midPlay()
	c := s.Clone()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c.CopyFrom(s)
	}
}

// BenchmarkObserve measures building one seat's observation in mid-play.
func BenchmarkObserve(b *testing.B) {
	s := midPlay()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = s.Observe(1)
	}
}

// BenchmarkSample measures one determinization in mid-play.
func BenchmarkSample(b *testing.B) {
	s := midPlay()
	o := s.Observe(1)
	rng := NewRand(2, 2)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := o.Sample(rng); err != nil {
			b.Fatal(err)
		}
	}
}

// midPlay returns a modern Heart Solo after four tricks.
func midPlay() *State {
	r := DefaultRules(Modern)
	s, _ := NewState(r, DealFromSeed(r, 5, 5), Options{})
	for _, m := range []string{"play", "pass", "pass", "heartsolo"} {
		a, _ := ParseAction(m)
		if err := s.Apply(a); err != nil {
			panic(err)
		}
	}
	for s.TricksPlayed() < 4 {
		s.Apply(s.LegalActions(nil)[0])
	}
	return s
}
