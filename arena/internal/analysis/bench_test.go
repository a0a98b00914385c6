package analysis

import (
	"context"
	"fmt"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/engine"
)

// benchDeals plays n modern deals (3 players) in which the seat whose hand suits contract c
// best declares it and the heuristic bot plays the cards; c = NoContract lets the heuristic
// bots (and a random bidder at one seat in every third deal, for variety) bid as they like.
func benchDeals(b *testing.B, c engine.Contract, trump engine.Suit, n int) []*domain.DealRecord {
	r := engine.DefaultRules(engine.Modern)
	h := botDecider(heuristic.New())
	var recs []*domain.DealRecord
	for i := 0; i < n; i++ {
		deal := engine.DealFromSeed(r, 4242, uint64(i))
		table := make([]seated, r.Players)
		for s := range table {
			table[s] = seated{fmt.Sprint("heuristic", s), h}
		}
		switch c {
		case engine.NoContract:
			if i%3 == 0 {
				table[i%r.Players] = seated{"random", botDecider(random.New(uint64(i)))}
			}
		case engine.Ramsch:
			for s := range table {
				table[s] = seated{fmt.Sprint("heuristic", s), contractScript(engine.NoSeat, c, trump, false, h)}
			}
		default:
			decl := suitedSeat(r, deal, kind{rules: r, contract: c, trump: trump})
			for s := range table {
				table[s] = seated{fmt.Sprint("heuristic", s), contractScript(decl, c, trump, false, h)}
			}
		}
		recs = append(recs, playGiven(b, r, deal, i, table))
	}
	return recs
}

// BenchmarkAnalyzeDeal: deals of one contract kind analysed per second on one core (par,
// every card, every bidder's regret), with the transposition table kept from deal to deal
// as in a real run. Deals and nodes per deal are reported.
func BenchmarkAnalyzeDeal(b *testing.B) {
	kinds := []struct {
		name  string
		c     engine.Contract
		trump engine.Suit
	}{
		{"solo", engine.Solo, engine.Clubs},
		{"heartsolo", engine.HeartSolo, engine.Hearts},
		{"bettel", engine.Bettel, engine.NoSuit},
		{"rufer", engine.Rufer, engine.Spades},
		{"ouvert", engine.Ouvert, engine.NoSuit},
		{"durch", engine.Durch, engine.Diamonds},
		{"ramsch", engine.Ramsch, engine.NoSuit},
		{"as-bid", engine.NoContract, engine.NoSuit},
	}
	r := engine.DefaultRules(engine.Modern)
	for _, k := range kinds {
		b.Run(k.name, func(b *testing.B) {
			recs := benchDeals(b, k.c, k.trump, 40)
			a := NewAnalyzer(Options{})
			b.ResetTimer()
			cpu0 := cpuSeconds()
			for i := 0; i < b.N; i++ {
				if _, err := a.Analyze(r, recs[i%len(recs)]); err != nil {
					b.Fatal(err)
				}
			}
			cpu := cpuSeconds() - cpu0
			s := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.N)/s, "deals/s")
			b.ReportMetric(float64(b.N)/cpu, "deals/cpu-s")
			b.ReportMetric(float64(a.solver.Nodes())/cpu/1e6, "Mnodes/cpu-s")
			b.ReportMetric(float64(a.solver.Nodes())/float64(b.N), "nodes/deal")
			b.ReportMetric(float64(a.Nodes.Par)/float64(b.N), "par-nodes/deal")
			b.ReportMetric(float64(a.Nodes.Bidding)/float64(b.N), "bid-nodes/deal")
		})
	}
}

// BenchmarkAnalyzeMatch: a 1,000-deal modern match (heuristic bots, a random bidder at one
// seat in every third deal) analysed on every core, as tapp analyze does; one iteration is
// the whole match.
func BenchmarkAnalyzeMatch(b *testing.B) {
	recs := benchDeals(b, engine.NoContract, engine.NoSuit, 1000)
	r := engine.DefaultRules(engine.Modern)
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		if _, err := (Run{}).Deals(context.Background(), r, recs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/match")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/match")
	b.ReportMetric(float64(len(recs)*b.N)/b.Elapsed().Seconds(), "deals/s")
}
