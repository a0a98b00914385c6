package sleuth

import "math"

// evaluation is the weighted value of every alternative of a decision over the worlds solved
// so far.
type evaluation struct {
	alts   int
	values [][]float64 // per world solved, one value per alternative
	weight []float64   // per world solved
}

func (ev *evaluation) add(w float64, vals []float64) {
	ev.values = append(ev.values, vals)
	ev.weight = append(ev.weight, w)
}

// worlds is the number of worlds solved.
func (ev *evaluation) worlds() int { return len(ev.values) }

// means returns the weighted mean value of every alternative (nil if no world was solved).
func (ev *evaluation) means() []float64 {
	if len(ev.values) == 0 {
		return nil
	}
	out := make([]float64, ev.alts)
	total := 0.0
	for i, vs := range ev.values {
		w := ev.weight[i]
		total += w
		for j, v := range vs {
			out[j] += w * v
		}
	}
	for j := range out {
		out[j] /= total
	}
	return out
}

// gap returns the weighted mean and standard error of the difference between alternatives a
// and b, paired by world (the effective number of worlds from the weights).
func (ev *evaluation) gap(a, b int) (mean, se float64) {
	sw, sw2 := 0.0, 0.0
	for i, vs := range ev.values {
		w := ev.weight[i]
		sw += w
		sw2 += w * w
		mean += w * (vs[a] - vs[b])
	}
	if sw == 0 {
		return 0, 0
	}
	mean /= sw
	vr := 0.0
	for i, vs := range ev.values {
		x := vs[a] - vs[b] - mean
		vr += ev.weight[i] * x * x
	}
	vr /= sw
	n := sw * sw / sw2
	if n <= 1 {
		return mean, math.Inf(1)
	}
	return mean, math.Sqrt(vr / (n - 1))
}

// settled reports whether more worlds could hardly change the choice: the best alternative
// leads the runner-up by more than two standard errors, or the two are worth the same in
// every world solved.
func (ev *evaluation) settled() bool {
	m := ev.means()
	if len(m) < 2 {
		return len(m) == 1
	}
	b1, b2 := 0, 1
	if m[b2] > m[b1] {
		b1, b2 = b2, b1
	}
	for j := 2; j < len(m); j++ {
		switch {
		case m[j] > m[b1]:
			b1, b2 = j, b1
		case m[j] > m[b2]:
			b2 = j
		}
	}
	mean, se := ev.gap(b1, b2)
	if se == 0 {
		return mean > 0 || ev.worlds() >= 8
	}
	return mean > 2*se
}

// evaluate solves worlds batch by batch: solve writes one value per alternative for a world
// and reports success (false: the world does not count). It stops when the budget or the
// clock runs out (a solve cut short does not count), when the choice is settled after a
// batch, or after maxBatches.
func (d *decision) evaluate(alts, maxBatches int, solve func(w *world, out []float64) bool) *evaluation {
	return d.evaluateFrom(0, alts, maxBatches, solve)
}

// evaluateFrom is evaluate on batches first, first+1, …: fresh worlds for a second look.
func (d *decision) evaluateFrom(first, alts, maxBatches int, solve func(w *world, out []float64) bool) *evaluation {
	ev := &evaluation{alts: alts}
	k := d.b.cfg.Samples
	n := k
	if !d.b.cfg.NoInference {
		n = candidatesPerWorld * k
	}
	for bi := first; bi < first+maxBatches; bi++ {
		if bi > first && (d.exhausted() || ev.settled()) {
			break
		}
		bt := d.drawBatch(bi*n, n, k)
		for i := range bt.worlds {
			if d.exhausted() {
				return ev
			}
			d.limitSolve()
			out := make([]float64, alts)
			if !solve(&bt.worlds[i], out) {
				if d.exhausted() {
					return ev // cut short: the world does not count
				}
				continue
			}
			ev.add(bt.worlds[i].weight, out)
		}
	}
	return ev
}

// candidatesPerWorld is how many candidates inference draws for each world it solves.
const candidatesPerWorld = 2
