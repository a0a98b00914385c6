package doubledummy

import (
	"math/bits"
	"sync/atomic"
	"time"

	"github.com/tapparena/tapp/engine"
)

// SolverOptions tune a Solver. The zero value is the full solver; the switches exist for tests
// and benchmarks.
type SolverOptions struct {
	TTBits  int  // log2 of the transposition table's buckets (2 slots of 16 bytes each); 0 = 18 (8 MiB)
	NoTT    bool // search without the transposition table
	NoEquiv bool // search every card, not one card per run of equivalent cards
}

// Solver is a perfect-information (double-dummy) solver for Tapp trick play. The side that
// "maximises" tries to raise the value, the other side to lower it: the declarer against the
// defenders, or in Ramsch (paranoid) the viewpoint seat against everybody else.
//
// The search is fail-soft alpha-beta on the value still to be earned, with
//   - bounds: the rest is worth between 0 and the points (or tricks) still open, which gives
//     the early cut-off of R-PLAY-6 under a null window,
//   - move ordering: the transposition table's best lead first, then a heuristic (take tricks
//     you want, smear points onto your side's trick, discard cheaply onto the other side's),
//   - equivalent-card pruning: of the cards of one suit in one hand with no card of another
//     hand or of the current trick between them only the highest is searched (in point
//     goals only cards of equal points are merged, so the pruning is exact),
//   - a transposition table at trick starts, keyed by canonical hands (see tt.go) and kept
//     across solves, samples and deals,
//   - for exact values, bisection over null-window searches (Value, MoveValues), or bounds
//     within a tolerance (Approx, MoveEstimates).
//
// A Solver is not safe for concurrent use; use one per goroutine.
type Solver struct {
	opts  SolverOptions
	tt    *table
	nodes uint64

	// configuration of the current solve
	n          int
	trump      engine.Suit
	team       uint8 // seats whose tricks count for the value
	maxm       uint8 // seats that maximise the value
	tricksUnit bool  // the value counts tricks, not card points
	tappLast   int   // points the last trick's winner also takes (Ramsch)
	cfg        uint32

	// abort: a solve stops (with a meaningless result) once the deadline passes, stop is set
	// or the node count reaches nodeLimit (0: none)
	deadline  time.Time
	stop      *atomic.Bool
	nodeLimit uint64
	aborted   bool

	// the position being searched
	hands  [4]engine.CardSet
	leader int
	trick  [4]engine.Card
	cnt    int
	open   int // card points not yet in a completed trick (hands and current trick)
}

// NewSolver returns a solver with its own transposition table.
func NewSolver(opts SolverOptions) *Solver {
	s := &Solver{opts: opts}
	if !opts.NoTT {
		s.tt = newTable(opts.TTBits)
	}
	return s
}

// SetLimit makes later solves stop early once deadline passes (zero: never) or *stop becomes
// true (nil: never); check Aborted after each solve, whose result is then meaningless. It
// clears a node limit.
func (s *Solver) SetLimit(deadline time.Time, stop *atomic.Bool) {
	s.deadline, s.stop, s.nodeLimit, s.aborted = deadline, stop, 0, false
}

// SetNodeLimit makes later solves stop early, like SetLimit's, once Nodes reaches limit (0:
// never). The count is checked every 4,096 nodes. Unlike a deadline, a node limit stops a
// search at the same point on every machine: with a cleared table (ClearTable) the same
// solves abort alike.
func (s *Solver) SetNodeLimit(limit uint64) { s.nodeLimit = limit }

// ClearTable empties the transposition table, so that the nodes the next solves take do not
// depend on earlier ones (their values never do).
func (s *Solver) ClearTable() {
	if s.tt != nil {
		s.tt.clear()
	}
}

// Aborted reports whether a solve since SetLimit was stopped early.
func (s *Solver) Aborted() bool { return s.aborted }

func (s *Solver) checkAbort() bool {
	if s.aborted {
		return true
	}
	if (s.stop != nil && s.stop.Load()) || (s.nodeLimit != 0 && s.nodes >= s.nodeLimit) ||
		(!s.deadline.IsZero() && time.Now().After(s.deadline)) {
		s.aborted = true
	}
	return s.aborted
}

// Nodes is the number of search nodes visited since the solver was made.
func (s *Solver) Nodes() uint64 { return s.nodes }

// load sets up the solver for p and returns the value already earned.
func (s *Solver) load(p *Position) int {
	s.n = p.Players
	s.trump = p.Trump
	d := uint8(1) << p.Declarer
	all := uint8(1)<<p.Players - 1
	s.team = d
	s.maxm = d
	s.tricksUnit = false
	s.tappLast = 0
	switch p.Goal {
	case GoalAllTricks:
		s.tricksUnit = true
	case GoalNoTrick:
		s.tricksUnit = true
		s.maxm = all &^ d
	case GoalRamsch:
		s.maxm = all &^ d
	}
	if p.TappRule == TappLastTrick && !s.tricksUnit {
		s.tappLast = p.Tapp
	}
	unit := uint32(0)
	if s.tricksUnit {
		unit = 1
	}
	tr := uint32(s.trump)
	if s.trump == engine.NoSuit {
		tr = 4
	}
	s.cfg = 1 | tr<<1 | uint32(s.team)<<4 | uint32(s.maxm)<<8 | unit<<12 | uint32(s.n)<<13 | uint32(s.tappLast)<<16

	s.hands = p.Hands
	s.leader = p.Leader
	s.cnt = p.NTrick
	s.trick = p.Trick
	s.open = 0
	for seat := 0; seat < s.n; seat++ {
		s.open += s.hands[seat].Points()
	}
	for i := 0; i < s.cnt; i++ {
		s.open += s.trick[i].Points()
	}
	return p.Value()
}

func (s *Solver) toMove() int { return (s.leader + s.cnt) % s.n }

// potential is the most the rest can still be worth.
func (s *Solver) potential() int {
	if s.tricksUnit {
		n := s.hands[s.leader].Len()
		if s.cnt > 0 {
			n++
		}
		return n
	}
	if s.hands[s.leader] == 0 && s.cnt == 0 {
		return 0
	}
	return s.open + s.tappLast
}

const inf = 1 << 20

// Value returns the goal's exact value of p under perfect play by both sides: for GoalPoints
// the declarer's final card points (the tapp included when it counts for him), for the trick
// goals the declarer's final number of tricks, for GoalRamsch the viewpoint seat's final card
// points. p must be valid (Position.Validate).
func (s *Solver) Value(p *Position) int {
	past := s.load(p)
	return past + s.exact(0, s.potential(), -1)
}

// exact finds the exact remaining value, known to lie in [lo, hi], by bisection: a sequence
// of null-window searches that reuse the transposition table. (MTD(f), which steps from the
// last bound, converges slowly here: fail-soft bounds move by a few card points a step.)
func (s *Solver) exact(lo, hi, guess int) int {
	if s.tt == nil {
		return s.ab(lo-1, hi+1)
	}
	lo, _ = s.bracket(lo, hi, 0, guess)
	return lo
}

// bracket narrows lo ≤ value ≤ hi (value: the remaining value) until hi-lo ≤ tol, probing
// first at guess when it lies inside.
func (s *Solver) bracket(lo, hi, tol, guess int) (int, int) {
	return s.narrow(lo, hi, tol, guess, func(beta int) int { return s.ab(beta-1, beta) })
}

// narrow narrows a ≤ x ≤ b, where probe(beta) is the fail-soft result of a null-window
// search for x ≥ beta, until b-a ≤ tol, probing first at anchor when it lies inside, then
// bisecting. With tol > 0 the bounds move only to the probe points (fail-hard), so that the
// result never depends on what the transposition table held; with tol = 0 the result is
// exact either way and fail-soft bounds save probes.
func (s *Solver) narrow(a, b, tol, anchor int, probe func(beta int) int) (int, int) {
	for b-a > tol && !s.aborted {
		beta := (a + b + 1) / 2
		if anchor > a && anchor <= b {
			beta = anchor
		}
		v := probe(beta)
		switch {
		case v >= beta && tol > 0:
			a = beta
		case v >= beta:
			a = min(b, max(a, v))
		case tol > 0:
			b = beta - 1
		default:
			b = max(a, min(b, v))
		}
	}
	return a, b
}

// Approx returns bounds lo ≤ Value(p) ≤ hi with hi-lo ≤ tol, cheaper than Value for a
// tolerance of a few points. The first null-window search tests anchor (e.g. 61) when it
// lies inside the possible range, so the side of a threshold is always known exactly.
func (s *Solver) Approx(p *Position, tol, anchor int) (lo, hi int) {
	past := s.load(p)
	lo, hi = s.bracket(0, s.potential(), tol, anchor-past)
	return past + lo, past + hi
}

// AtLeast reports whether the value of p under perfect play is at least t (a null-window
// search, much cheaper than Value).
func (s *Solver) AtLeast(p *Position, t int) bool {
	past := s.load(p)
	return past+s.ab(t-past-1, t-past) >= t
}

// DeclarerWins reports whether the declarer reaches his goal under perfect play: 61 card
// points, every trick, or no trick. For GoalRamsch it reports whether the viewpoint seat ends
// with at most 40 points (a third of the pack; not a real win condition).
func (s *Solver) DeclarerWins(p *Position) bool {
	switch p.Goal {
	case GoalPoints:
		return s.AtLeast(p, 61)
	case GoalAllTricks:
		for seat := 0; seat < p.Players; seat++ {
			if seat != p.Declarer && p.Tricks[seat] > 0 {
				return false
			}
		}
		return s.AtLeast(p, p.Tricks[p.Declarer]+p.RemainingTricks())
	case GoalNoTrick:
		return p.Tricks[p.Declarer] == 0 && !s.AtLeast(p, 1)
	default:
		return !s.AtLeast(p, 41)
	}
}

// MoveValue is the value of one card for the player to move.
type MoveValue struct {
	Card  engine.Card
	Value int
}

// MoveValues returns, for every legal card of the player to move, the value of p after that
// card under perfect play, searched in the window (lo, hi): a value strictly inside is exact,
// a value of lo means "at most lo" and hi means "at least hi". Value(-1, 1000) gives exact
// values; (t-1, t) tells only whether each card reaches t. Cards equivalent to another
// (see Solver) share its value. The result is appended to buf.
func (s *Solver) MoveValues(p *Position, lo, hi int, buf []MoveValue) []MoveValue {
	return s.moveValues(p, lo, hi, 0, -1, buf)
}

// MoveEstimates is MoveValues with a tolerance: each card's value is known within tol
// (probing first at anchor, then bisecting) and reported as the middle of its bounds.
func (s *Solver) MoveEstimates(p *Position, tol, anchor int, buf []MoveValue) []MoveValue {
	return s.moveValues(p, -1, 1000, tol, anchor, buf)
}

func (s *Solver) moveValues(p *Position, lo, hi, tol, anchor int, buf []MoveValue) []MoveValue {
	past := s.load(p)
	me := s.toMove()
	legal := p.Legal()
	var mv [16]engine.Card
	moves := s.genMoves(me, legal, engine.NoCard, mv[:0])
	start := len(buf)
	guess := anchor - past
	pot := s.potential()
	for _, c := range moves {
		// a ≤ clip(value, lo, hi) ≤ b, in remaining terms
		a0, b0 := lo-past, hi-past
		a, b := max(a0, min(b0, 0)), min(b0, max(a0, pot))
		a, b = s.narrow(a, b, tol, guess, func(beta int) int { return s.child(me, c, beta-1, beta) })
		if tol == 0 {
			guess = a
		}
		buf = append(buf, MoveValue{Card: c, Value: past + (a+b+1)/2})
	}
	// cards pruned as equivalent take the value of the card representing them
	reps := buf[start:]
	for rest := legal &^ cardSetOf(moves); rest != 0; rest &= rest - 1 {
		c := engine.Card(bits.TrailingZeros64(uint64(rest)))
		r := s.representative(me, c)
		for _, m := range reps {
			if m.Card == r {
				buf = append(buf, MoveValue{Card: c, Value: m.Value})
				break
			}
		}
	}
	return buf
}

func cardSetOf(cards []engine.Card) engine.CardSet {
	var set engine.CardSet
	for _, c := range cards {
		set = set.With(c)
	}
	return set
}

// inPlay is every card still held or lying in the current trick.
func (s *Solver) inPlay() engine.CardSet {
	var all engine.CardSet
	for i := 0; i < s.n; i++ {
		all |= s.hands[i]
	}
	for i := 0; i < s.cnt; i++ {
		all = all.With(s.trick[i])
	}
	return all
}

// nextUp returns the next higher in-play card of c's suit, or NoCard.
func nextUp(all engine.CardSet, c engine.Card) engine.Card {
	above := all & engine.SuitSet(c.Suit()) &^ (engine.CardSet(2)<<c - 1)
	return above.Lowest()
}

// equivalent reports whether c and the next higher in-play card up of its suit, held by the
// same hand, are interchangeable for the goal.
func (s *Solver) mergeable(c, up engine.Card) bool {
	return s.tricksUnit || c.Points() == up.Points()
}

// representative is the highest card of the run of equivalent cards c belongs to.
func (s *Solver) representative(me int, c engine.Card) engine.Card {
	if s.opts.NoEquiv {
		return c
	}
	all := s.inPlay()
	h := s.hands[me]
	for {
		up := nextUp(all, c)
		if up == engine.NoCard || !h.Has(up) || !s.mergeable(c, up) {
			return c
		}
		c = up
	}
}

// genMoves appends the cards to search (one per run of equivalent cards) in search order.
func (s *Solver) genMoves(me int, legal engine.CardSet, ttBest engine.Card, buf []engine.Card) []engine.Card {
	h := s.hands[me]
	all := s.inPlay()
	var scores [16]int
	n := 0
	base := len(buf)
	for l := legal; l != 0; l &= l - 1 {
		c := engine.Card(bits.TrailingZeros64(uint64(l)))
		if !s.opts.NoEquiv {
			if up := nextUp(all, c); up != engine.NoCard && h.Has(up) && s.mergeable(c, up) {
				continue
			}
		}
		pts := c.Points()
		if s.tricksUnit {
			pts = 0
		}
		rank := int(c.Rank())
		var sc int
		if c == ttBest {
			sc = 1 << 20
		} else if s.predictGood(me, c) {
			sc = 1000 + 4*pts - rank
		} else {
			sc = -4*pts - rank
		}
		// insertion sort, best first
		buf = append(buf, c)
		i := n
		for i > 0 && scores[i-1] < sc {
			scores[i] = scores[i-1]
			buf[base+i] = buf[base+i-1]
			i--
		}
		scores[i] = sc
		buf[base+i] = c
		n++
	}
	return buf
}

// happy reports whether seat r likes the trick going to seat w.
func (s *Solver) happy(r, w int) bool { return (s.team>>w)&1 == (s.maxm>>r)&1 }

// predictGood guesses whether the trick goes the way me likes if me plays c: every later
// player who dislikes the trick's winner and would like to win it himself beats it if he can.
func (s *Solver) predictGood(me int, c engine.Card) bool {
	led := c.Suit()
	wc, w := c, me
	if s.cnt > 0 {
		led = s.trick[0].Suit()
		wi := trickWinner(s.trick[:s.cnt], s.trump)
		wc, w = s.trick[wi], (s.leader+wi)%s.n
		if (c.Suit() == wc.Suit() && c > wc) ||
			(s.trump != engine.NoSuit && c.Suit() == s.trump && wc.Suit() != s.trump) {
			wc, w = c, me
		}
	}
	for i := s.cnt + 1; i < s.n; i++ {
		r := (s.leader + i) % s.n
		if s.happy(r, w) || !s.happy(r, r) {
			continue
		}
		if b := s.beatCard(r, wc, led); b != engine.NoCard {
			wc, w = b, r
		}
	}
	return s.happy(me, w)
}

// beatCard is the card with which seat r would beat wc in a trick led in suit led, or NoCard.
func (s *Solver) beatCard(r int, wc engine.Card, led engine.Suit) engine.Card {
	h := s.hands[r]
	if f := h.OfSuit(led); f != 0 {
		if wc.Suit() == led && f.Highest() > wc {
			return f.Highest()
		}
		return engine.NoCard
	}
	if s.trump != engine.NoSuit {
		if t := h.OfSuit(s.trump); t != 0 && (wc.Suit() != s.trump || t.Highest() > wc) {
			return t.Highest()
		}
	}
	return engine.NoCard
}

// child plays c for me, searches the rest in the window (alpha, beta) on the value still to
// be earned after the cards already in completed tricks, and takes c back.
func (s *Solver) child(me int, c engine.Card, alpha, beta int) int {
	s.hands[me] = s.hands[me].Without(c)
	s.trick[s.cnt] = c
	s.cnt++
	var v int
	if s.cnt < s.n {
		v = s.ab(alpha, beta)
	} else {
		wi := trickWinner(s.trick[:s.n], s.trump)
		w := (s.leader + wi) % s.n
		pts := 0
		for i := 0; i < s.n; i++ {
			pts += s.trick[i].Points()
		}
		gain := 0
		if (s.team>>w)&1 == 1 {
			if s.tricksUnit {
				gain = 1
			} else {
				gain = pts
				if s.hands[w] == 0 {
					gain += s.tappLast
				}
			}
		}
		oldLeader, oldOpen, oldTrick := s.leader, s.open, s.trick
		s.leader = w
		s.cnt = 0
		s.open -= pts
		v = gain + s.ab(alpha-gain, beta-gain)
		s.leader, s.open, s.trick = oldLeader, oldOpen, oldTrick
		s.cnt = s.n
	}
	s.cnt--
	s.hands[me] = s.hands[me].With(c)
	return v
}

// lastTrick plays out the last trick, every hand holding one card.
func (s *Solver) lastTrick() int {
	var cards [4]engine.Card
	pts := s.tappLast
	for i := 0; i < s.n; i++ {
		c := s.hands[(s.leader+i)%s.n].Lowest()
		cards[i] = c
		pts += c.Points()
	}
	s.nodes += uint64(s.n)
	w := (s.leader + trickWinner(cards[:s.n], s.trump)) % s.n
	if (s.team>>w)&1 == 0 {
		return 0
	}
	if s.tricksUnit {
		return 1
	}
	return pts
}

// ab is fail-soft alpha-beta on the value still to be earned (the current trick included).
func (s *Solver) ab(alpha, beta int) int {
	s.nodes++
	if s.nodes&4095 == 0 && s.checkAbort() {
		return 0
	}
	pot := s.potential()
	if pot <= alpha {
		return pot
	}
	if beta <= 0 {
		return 0
	}
	ttBest := engine.NoCard
	useTT := false
	var key uint64
	if s.cnt == 0 {
		lh := s.hands[s.leader]
		if lh == 0 {
			return 0
		}
		if lh&(lh-1) == 0 {
			return s.lastTrick()
		}
		if s.tt != nil && lh.Len() > 1 {
			useTT = true
			key = s.ttKey()
			if e := s.tt.probe(key); e != nil {
				lo, hi := int(e.lo), int(e.hi)
				if lo >= beta {
					return lo
				}
				if hi <= alpha {
					return hi
				}
				if lo > alpha {
					alpha = lo
				}
				if hi < beta {
					beta = hi
				}
				if alpha >= beta {
					return alpha
				}
				ttBest = decodeBest(e.best, s.inPlay())
			}
		}
	}
	me := s.toMove()
	var legal engine.CardSet
	if s.cnt == 0 {
		legal = s.hands[me]
	} else {
		legal = legalFollow(s.hands[me], s.trick[0].Suit(), s.trump)
	}
	var mv [16]engine.Card
	moves := s.genMoves(me, legal, ttBest, mv[:0])
	maxing := (s.maxm>>me)&1 == 1
	a0, b0 := alpha, beta
	best := inf
	if maxing {
		best = -inf
	}
	bestCard := engine.NoCard
	for _, c := range moves {
		v := s.child(me, c, alpha, beta)
		if s.aborted {
			return 0
		}
		if maxing {
			if v > best {
				best, bestCard = v, c
				if v > alpha {
					alpha = v
				}
			}
		} else if v < best {
			best, bestCard = v, c
			if v < beta {
				beta = v
			}
		}
		if alpha >= beta {
			break
		}
	}
	if useTT {
		lo, hi := 0, pot
		if best <= a0 {
			hi = best
		} else if best >= b0 {
			lo = best
		} else {
			lo, hi = best, best
		}
		s.tt.store(key, s.hands[s.leader].Len(), lo, hi, encodeBest(bestCard, s.inPlay()))
	}
	return best
}
