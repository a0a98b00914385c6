package heuristic

import (
	"context"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/tapparena/tapp/engine"
)

// TestCalibrate measures how the heuristic's own play fares as declarer of every contract on
// many random deals and fits the bidding models to it. It is a tool, not a check: it runs only
// with TAPP_CALIBRATE=1 and prints the fitted weights and win-rate tables that eval.go uses.
func TestCalibrate(t *testing.T) {
	if os.Getenv("TAPP_CALIBRATE") == "" {
		t.Skip("set TAPP_CALIBRATE=1 to run the calibration")
	}
	deals := 3000
	for _, text := range []string{"modern frage=on", "modern players=4 frage=on"} {
		r, err := engine.ParseRuleSet(text)
		if err != nil {
			t.Fatal(err)
		}
		var soloX, frageX [][numFeatures]float64
		var soloY, frageY []float64
		bettel := map[string][2]int{}
		ouvert := map[string][2]int{}
		durch := map[int][2]int{}
		rufer := map[int][2]int{}
		for i := 0; i < deals; i++ {
			d := engine.DealFromSeed(r, 99, uint64(i))
			for decl := 0; decl < r.Players; decl++ {
				hand := d.Hands[decl]
				pack := packOf(r)
				for _, trump := range []engine.Suit{engine.Clubs, engine.Spades, engine.Hearts, engine.Diamonds} {
					c := engine.Solo
					if trump == engine.Hearts {
						c = engine.HeartSolo
					}
					out := forced(t, r, d, engine.Seat(decl), c, trump)
					soloX = append(soloX, pointFeatures(pack, hand, trump))
					soloY = append(soloY, float64(out.Points[decl]))
				}
				out := forced(t, r, d, engine.Seat(decl), engine.Frage, engine.NoSuit)
				frageX = append(frageX, pointFeatures(pack, hand, engine.Hearts))
				frageY = append(frageY, float64(out.Points[decl]))

				key := fmt.Sprintf("%4.1f", math.Round(bettelRisk(pack, hand)*2)/2)
				out = forced(t, r, d, engine.Seat(decl), engine.Bettel, engine.NoSuit)
				bettel[key] = tally(bettel[key], out.DeclarerWon)
				out = forced(t, r, d, engine.Seat(decl), engine.Ouvert, engine.NoSuit)
				ouvert[key] = tally(ouvert[key], out.DeclarerWon)
				for _, trump := range []engine.Suit{engine.Clubs, engine.Spades, engine.Hearts, engine.Diamonds} {
					c, rc := engine.Durch, engine.Rufer
					if trump == engine.Hearts {
						c, rc = engine.HeartDurch, engine.HeartRufer
					}
					l := losers(pack, hand, trump)
					if l <= 4 {
						out = forced(t, r, d, engine.Seat(decl), c, trump)
						durch[l] = tally(durch[l], out.DeclarerWon)
					}
					lr := ruferLosers(pack, hand, trump)
					if lr <= 4 {
						out = forced(t, r, d, engine.Seat(decl), rc, trump)
						rufer[lr] = tally(rufer[lr], out.DeclarerWon)
					}
				}
			}
		}
		report(t, text+" solo", soloX, soloY)
		report(t, text+" frage", frageX, frageY)
		t.Logf("%s bettel by risk: %s", text, table2(bettel))
		t.Logf("%s ouvert by risk: %s", text, table2(ouvert))
		t.Logf("%s durch by losers: %s", text, tableInt(durch))
		t.Logf("%s rufer by losers after exchange: %s", text, tableInt(rufer))
	}
}

// ruferLosers is the loser count after the best exchange (the call assumed to be held).
func ruferLosers(pack, hand engine.CardSet, trump engine.Suit) int {
	best := 1 << 30
	for _, c := range (pack &^ hand).Cards(nil) {
		h := hand.With(c)
		for _, g := range hand.Cards(nil) {
			if l := losers(pack, h.Without(g), trump); l < best {
				best = l
			}
		}
	}
	return best
}

func tally(x [2]int, won bool) [2]int {
	x[1]++
	if won {
		x[0]++
	}
	return x
}

func table2(m map[string][2]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s:%.2f(%d)", strings.TrimSpace(k), float64(m[k][0])/float64(m[k][1]), m[k][1])
	}
	return b.String()
}

func tableInt(m map[int][2]int) string {
	var b strings.Builder
	for k := 0; k <= 4; k++ {
		if x, ok := m[k]; ok {
			fmt.Fprintf(&b, " %d:%.3f(%d)", k, float64(x[0])/float64(x[1]), x[1])
		}
	}
	return b.String()
}

// forced plays deal d with decl declaring contract c (suit s) in modern, the heuristic
// deciding everything after the bidding.
func forced(t *testing.T, r engine.RuleSet, d engine.Deal, decl engine.Seat, c engine.Contract, s engine.Suit) engine.Outcome {
	st, err := engine.NewState(r, d, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := New()
	for !st.Terminal() {
		var a engine.Action
		switch st.Decision() {
		case engine.DecideBid:
			a = engine.PassAction()
			if st.ToMove() == decl {
				a = engine.PlayAction()
			}
		case engine.DecideContract:
			a = engine.BidAction(c, s)
		default:
			obs := st.Observe(st.ToMove())
			a, _ = b.Decide(context.Background(), &obs)
		}
		if err := st.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	return st.Outcome()
}

// report fits y ≈ w·x by least squares and prints w, the residual spread, and the win rate
// by predicted points.
func report(t *testing.T, name string, xs [][numFeatures]float64, ys []float64) {
	var a [numFeatures][numFeatures]float64
	var b [numFeatures]float64
	for k, x := range xs {
		for i := range x {
			b[i] += x[i] * ys[k]
			for j := range x {
				a[i][j] += x[i] * x[j]
			}
		}
	}
	for i := range a {
		a[i][i] += 1e-6 * float64(len(xs))
	}
	w := solve(a, b)
	var ss float64
	buckets := map[int][2]int{}
	for k, x := range xs {
		pred := 0.0
		for i := range x {
			pred += w[i] * x[i]
		}
		ss += (pred - ys[k]) * (pred - ys[k])
		bk := int(math.Floor(pred/5)) * 5
		buckets[bk] = tally(buckets[bk], ys[k] >= 61)
	}
	sigma := math.Sqrt(ss / float64(len(xs)))
	ws := make([]string, len(w))
	for i, x := range w {
		ws[i] = fmt.Sprintf("%.2f", x)
	}
	keys := make([]int, 0, len(buckets))
	for k := range buckets {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var bs strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&bs, " %d:%.2f(%d)", k, float64(buckets[k][0])/float64(buckets[k][1]), buckets[k][1])
	}
	t.Logf("%s: n=%d w={%s} sigma=%.1f\n  win rate by predicted points:%s", name, len(xs), strings.Join(ws, ", "), sigma, bs.String())
}

func solve(a [numFeatures][numFeatures]float64, b [numFeatures]float64) [numFeatures]float64 {
	n := numFeatures
	for col := 0; col < n; col++ {
		piv := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		a[col], a[piv] = a[piv], a[col]
		b[col], b[piv] = b[piv], b[col]
		for r := 0; r < n; r++ {
			if r == col || a[col][col] == 0 {
				continue
			}
			f := a[r][col] / a[col][col]
			for c := col; c < n; c++ {
				a[r][c] -= f * a[col][c]
			}
			b[r] -= f * b[col]
		}
	}
	var x [numFeatures]float64
	for i := 0; i < n; i++ {
		if a[i][i] != 0 {
			x[i] = b[i] / a[i][i]
		}
	}
	return x
}
