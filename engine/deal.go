package engine

import (
	"fmt"
	"strings"
)

// Deal is the cards as dealt: each seat's hand (indexed by Seat; seats beyond the table size
// are empty) and the tapp.
type Deal struct {
	Hands [MaxPlayers]CardSet
	Tapp  CardSet
}

// packet is one step of R-DEAL-1: n cards to each player in turn from forehand, or n to the tapp.
type packet struct {
	n    int8
	tapp bool
}

// packets returns the dealing order of R-DEAL-1 for the rule set (k = 0 if it has none).
func packets(r *RuleSet) (p [5]packet, k int) {
	switch {
	case r.Players == 3 && r.PackSize == 36 && r.Variant == Modern:
		return [5]packet{{4, false}, {3, false}, {3, true}, {4, false}}, 4
	case r.Players == 3 && r.PackSize == 36:
		return [5]packet{{3, true}, {4, false}, {3, false}, {4, false}}, 4
	case r.Players == 4 && r.PackSize == 36:
		return [5]packet{{3, false}, {2, true}, {2, false}, {2, true}, {3, false}}, 5
	case r.Players == 3 && r.PackSize == 32:
		return [5]packet{{4, false}, {3, false}, {2, true}, {3, false}}, 4
	case r.Players == 4 && r.PackSize == 32:
		return [5]packet{{3, false}, {2, true}, {2, false}, {2, true}, {2, false}}, 5
	}
	return p, 0
}

// DealFromSeed returns deal number dealNumber of the seeded sequence seed: the pack in
// canonical order (C6..CA, S6..SA, H6..HA, D6..DA, without sixes for 32 cards) is shuffled by
// Fisher–Yates (for i from n-1 down to 1, swap i with IntN(i+1)) using NewRand(seed,
// dealNumber); the shuffled pack is dealt from its first card in the packets of R-DEAL-1
// (R-DEAL-2). An invalid rule set gives the zero Deal.
func DealFromSeed(r RuleSet, seed, dealNumber uint64) Deal {
	var rng Rand
	rng.Seed(seed, dealNumber)
	return DealFromRand(r, &rng)
}

// DealFromRand shuffles and deals with the given generator, as DealFromSeed does.
func DealFromRand(r RuleSet, rng *Rand) Deal {
	var d Deal
	steps, k := packets(&r)
	if k == 0 {
		return d
	}
	var pack [NumCards]Card
	n := 0
	for set := r.Pack(); set != 0; set &= set - 1 {
		pack[n] = set.Lowest()
		n++
	}
	for i := n - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		pack[i], pack[j] = pack[j], pack[i]
	}
	pos := 0
	for _, st := range steps[:k] {
		if st.tapp {
			for i := 0; i < int(st.n); i++ {
				d.Tapp |= 1 << pack[pos]
				pos++
			}
			continue
		}
		for s := 0; s < r.Players; s++ {
			for i := 0; i < int(st.n); i++ {
				d.Hands[s] |= 1 << pack[pos]
				pos++
			}
		}
	}
	return d
}

func partName(i, players int) string {
	if i == players {
		return "the tapp"
	}
	return fmt.Sprintf("seat %d (%s)", i, SeatName(Seat(i), players))
}

// Validate checks the deal against the rule set: every card of the pack exactly once, none
// outside it, R-DEAL-1 hand and tapp sizes. The error names the problem and the card.
func (d Deal) Validate(r RuleSet) error {
	if err := r.Validate(); err != nil {
		return err
	}
	n := r.Players
	hand, tapp := r.sizes()
	pack := r.Pack()
	var arr [MaxPlayers + 1]CardSet
	parts := arr[:n+1]
	copy(parts, d.Hands[:n])
	parts[n] = d.Tapp
	for s := n; s < MaxPlayers; s++ {
		if d.Hands[s] != 0 {
			return fmt.Errorf("seat %d has cards but the table has %d players", s, n)
		}
	}
	for i, p := range parts {
		if extra := p &^ pack; extra != 0 {
			return fmt.Errorf("%s holds %s, not in the %d-card pack (R-CARD-4)", partName(i, n), extra, r.PackSize)
		}
	}
	for i := range parts {
		for j := i + 1; j < len(parts); j++ {
			if both := parts[i] & parts[j]; both != 0 {
				return fmt.Errorf("card %s is dealt twice: to %s and to %s", both.Lowest(), partName(i, n), partName(j, n))
			}
		}
	}
	var all CardSet
	for _, p := range parts {
		all |= p
	}
	missing := pack &^ all
	for i, p := range parts {
		want := hand
		if i == n {
			want = tapp
		}
		if p.Len() != want {
			msg := fmt.Sprintf("%s has %d cards, want %d (R-DEAL-1)", partName(i, n), p.Len(), want)
			if missing != 0 {
				msg += "; missing from the deal: " + missing.String()
			}
			return fmt.Errorf("%s", msg)
		}
	}
	if missing != 0 {
		return fmt.Errorf("missing from the deal: %s", missing)
	}
	return nil
}

// ParseDeal reads one deal in card notation: the hands in seat order then the tapp, separated
// by "|", e.g. "CA CT … | … | … | H6 H7 H8". A duplicate, missing or unknown card or a wrong
// count is an error naming it.
func ParseDeal(r RuleSet, line string) (Deal, error) {
	if err := r.Validate(); err != nil {
		return Deal{}, err
	}
	parts := strings.Split(line, "|")
	n := r.Players
	if len(parts) != n+1 {
		return Deal{}, fmt.Errorf("want %d hands and the tapp separated by |, got %d parts", n, len(parts))
	}
	var d Deal
	var seen CardSet
	var where [NumCards]int
	for i, p := range parts {
		var set CardSet
		for _, f := range strings.FieldsFunc(p, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
			c, err := ParseCard(f)
			if err != nil {
				return Deal{}, fmt.Errorf("%s: %w", partName(i, n), err)
			}
			if seen.Has(c) {
				if where[c] == i {
					return Deal{}, fmt.Errorf("card %s appears twice in %s", c, partName(i, n))
				}
				return Deal{}, fmt.Errorf("card %s is dealt twice: to %s and to %s", c, partName(where[c], n), partName(i, n))
			}
			seen = seen.With(c)
			where[c] = i
			set = set.With(c)
		}
		if i == n {
			d.Tapp = set
		} else {
			d.Hands[i] = set
		}
	}
	if err := d.Validate(r); err != nil {
		return Deal{}, err
	}
	return d, nil
}

// Format returns the deal in the notation ParseDeal reads, cards in canonical order.
func (d Deal) Format(r RuleSet) string {
	return string(d.AppendFormat(make([]byte, 0, 128), r))
}

// AppendFormat appends Format's text to b: for a caller that formats a deal for every deal
// stored (its deal source's key) and keeps no string of it.
func (d Deal) AppendFormat(b []byte, r RuleSet) []byte {
	n := r.Players
	if n < 1 || n > MaxPlayers {
		n = MaxPlayers
	}
	for s := 0; s < n; s++ {
		b = d.Hands[s].AppendTo(b)
		b = append(b, " | "...)
	}
	return d.Tapp.AppendTo(b)
}

// ParseDeals reads a deal file: one deal per line (lines end in "\n" or "\r\n"); '#' starts
// a comment to the end of the line; blank lines are ignored. Errors say "line N: …".
func ParseDeals(r RuleSet, text string) ([]Deal, error) {
	var out []Deal
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r") // a file written on Windows
		if k := strings.IndexByte(line, '#'); k >= 0 {
			line = line[:k]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		d, err := ParseDeal(r, line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		out = append(out, d)
	}
	return out, nil
}
