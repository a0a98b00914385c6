package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Variant is one of the three rule families of TAPP-RULES.md.
type Variant uint8

// The variants.
const (
	Wuerttemberg Variant = iota // Württemberg Tarock, 2 contracts (§6)
	Classic                     // Classic Tapp, 3 contracts (§5)
	Modern                      // Modern Tapp / Dapp (§4)
	NumVariants
)

var variantNames = [NumVariants]string{"wuerttemberg", "classic", "modern"}

// String returns the variant id: "wuerttemberg", "classic" or "modern".
func (v Variant) String() string {
	if v < NumVariants {
		return variantNames[v]
	}
	return fmt.Sprintf("variant(%d)", uint8(v))
}

// ParseVariant reads a variant id (case-insensitive).
func ParseVariant(text string) (Variant, error) {
	for i, name := range variantNames {
		if equalFold(text, name) {
			return Variant(i), nil
		}
	}
	return 0, fmt.Errorf("unknown variant %q (one of wuerttemberg, classic, modern)", text)
}

// Stakes is the stake table of modern Tapp in cents, indexed by contract (§4.2). The entry for
// Ramsch is the Ramsch payment; a Jungfer receives twice it (CHOICES.md). The older variants
// score by formula (R-CL-SCORE-2, R-WT-SCORE-1) and keep an all-zero table.
type Stakes [NumContracts]int

// RuleSet is a variant with its options. Build one with DefaultRules or ParseRuleSet, change
// fields as needed, and check it with Validate. It is a comparable value.
type RuleSet struct {
	Variant    Variant
	Players    int    // 3, or 4 (modern only)
	PackSize   int    // 36, or 32 (modern only, R-CARD-4)
	Frage      bool   // modern: Frage is biddable (option, default off); always true in the older variants
	Stakes     Stakes // modern only; zero in the older variants
	ToutFactor int    // older variants: Tout value multiplier (classic 2, wuerttemberg 3 or 2); 0 in modern
	Pot        bool   // older variants: the pot of R-POT (default off); always false in modern
}

// defaultStakes returns the leaflet's stakes, or with Frage on the encyclopedia's suggested
// scheme (§4.2).
func defaultStakes(frage bool) Stakes {
	var s Stakes
	if frage {
		s[Frage], s[Solo], s[HeartSolo], s[Bettel], s[Rufer] = 5, 10, 15, 20, 20
	} else {
		s[Solo], s[HeartSolo], s[Bettel], s[Rufer] = 5, 10, 15, 15
	}
	s[HeartRufer], s[Ouvert], s[Durch], s[HeartDurch], s[Ramsch] = 30, 30, 30, 60, 5
	return s
}

// DefaultRules returns the variant with every option at its default: 3 players, 36 cards;
// modern without Frage and with the leaflet's stakes; classic Tout ×2, wuerttemberg Tout ×3;
// no pot.
func DefaultRules(v Variant) RuleSet {
	r := RuleSet{Variant: v, Players: 3, PackSize: 36}
	switch v {
	case Modern:
		r.Stakes = defaultStakes(false)
	case Classic:
		r.Frage, r.ToutFactor = true, 2
	default:
		r.Frage, r.ToutFactor = true, 3
	}
	return r
}

// Validate reports the first problem with the rule set, or nil.
func (r RuleSet) Validate() error {
	if r.Variant >= NumVariants {
		return fmt.Errorf("unknown variant %d", r.Variant)
	}
	if r.Variant == Modern {
		if r.Players != 3 && r.Players != 4 {
			return fmt.Errorf("modern: players=%d, want 3 or 4", r.Players)
		}
		if r.PackSize != 36 && r.PackSize != 32 {
			return fmt.Errorf("modern: pack=%d, want 36 or 32 (R-CARD-4)", r.PackSize)
		}
		if r.ToutFactor != 0 {
			return errors.New("modern: no Tout announcement (tout factor applies to classic and wuerttemberg only)")
		}
		if r.Pot {
			return errors.New("modern: no pot (R-POT applies to classic and wuerttemberg only)")
		}
		if r.Stakes[NoContract] != 0 {
			return errors.New("modern: stakes: the entry for no contract must be 0")
		}
		for c := Frage; c <= Ramsch; c++ {
			v := r.Stakes[c]
			switch {
			case c == Frage && !r.Frage:
				if v != 0 {
					return errors.New("modern: stakes: frage has a stake but frage=off")
				}
			case v <= 0:
				return fmt.Errorf("modern: stakes: %s must be positive, got %d", c, v)
			}
		}
		return nil
	}
	if r.Players != 3 {
		return fmt.Errorf("%s: players=%d, want 3 (R-CL-1)", r.Variant, r.Players)
	}
	if r.PackSize != 36 {
		return fmt.Errorf("%s: pack=%d, want 36 (R-CL-1)", r.Variant, r.PackSize)
	}
	if !r.Frage {
		return fmt.Errorf("%s: frage is always played (frage=off is a modern option)", r.Variant)
	}
	if r.Stakes != (Stakes{}) {
		return fmt.Errorf("%s: no stake table (scores by R-CL-SCORE-2 / R-WT-SCORE-1); stakes apply to modern only", r.Variant)
	}
	if r.ToutFactor < 1 || r.ToutFactor > 100 {
		return fmt.Errorf("%s: tout=%d, want a factor from 1 to 100 (R-CL-SCORE-3, R-WT-TOUT)", r.Variant, r.ToutFactor)
	}
	return nil
}

// String returns the canonical text form, which ParseRuleSet reads back:
//
//	modern players=3 pack=36 frage=off stakes=solo:5,heartsolo:10,bettel:15,rufer:15,heartrufer:30,ouvert:30,durch:30,heartdurch:60,ramsch:5
//	classic players=3 pack=36 tout=2 pot=off
//
// Only the options of the variant are printed.
func (r RuleSet) String() string {
	var b strings.Builder
	b.WriteString(r.Variant.String())
	fmt.Fprintf(&b, " players=%d pack=%d", r.Players, r.PackSize)
	if r.Variant == Modern {
		b.WriteString(" frage=")
		b.WriteString(onOff(r.Frage))
		b.WriteString(" stakes=")
		first := true
		for c := Frage; c <= Ramsch; c++ {
			if c == Frage && !r.Frage && r.Stakes[c] == 0 {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			fmt.Fprintf(&b, "%s:%d", c, r.Stakes[c])
		}
		return b.String()
	}
	fmt.Fprintf(&b, " tout=%d pot=%s", r.ToutFactor, onOff(r.Pot))
	return b.String()
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func parseOnOff(key, v string) (bool, error) {
	switch strings.ToLower(v) {
	case "on", "true", "yes", "1":
		return true, nil
	case "off", "false", "no", "0":
		return false, nil
	}
	return false, fmt.Errorf("%s=%s: want on or off", key, v)
}

// ParseRuleSet reads a rule set in the form of RuleSet.String. Only the variant is required;
// options not given keep their defaults ("modern", "modern players=4 pack=32 frage=on").
// Without stakes=, a modern rule set gets the default table for its frage setting; a partial
// stakes= list ("stakes=solo:10") changes only the contracts it names.
func ParseRuleSet(text string) (RuleSet, error) {
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return RuleSet{}, errors.New("empty rule set: want a variant (wuerttemberg, classic, modern) and options")
	}
	v, err := ParseVariant(fields[0])
	if err != nil {
		return RuleSet{}, err
	}
	r := DefaultRules(v)
	seen := map[string]bool{}
	var stakesText string
	haveStakes := false
	for _, f := range fields[1:] {
		key, val, ok := strings.Cut(f, "=")
		if !ok || val == "" {
			return RuleSet{}, fmt.Errorf("option %q: want key=value", f)
		}
		key = strings.ToLower(key)
		if seen[key] {
			return RuleSet{}, fmt.Errorf("option %s given twice", key)
		}
		seen[key] = true
		switch key {
		case "players", "pack", "tout":
			n, err := strconv.Atoi(val)
			if err != nil {
				return RuleSet{}, fmt.Errorf("%s=%s: want a number", key, val)
			}
			switch key {
			case "players":
				r.Players = n
			case "pack":
				r.PackSize = n
			default:
				if v == Modern {
					return RuleSet{}, errors.New("tout: modern has no Tout announcement (classic and wuerttemberg only)")
				}
				r.ToutFactor = n
			}
		case "frage":
			b, err := parseOnOff(key, val)
			if err != nil {
				return RuleSet{}, err
			}
			r.Frage = b
		case "pot":
			b, err := parseOnOff(key, val)
			if err != nil {
				return RuleSet{}, err
			}
			if v == Modern && b {
				return RuleSet{}, errors.New("pot: modern has no pot (classic and wuerttemberg only)")
			}
			r.Pot = b
		case "stakes":
			if v != Modern {
				return RuleSet{}, fmt.Errorf("stakes: %s scores by formula; stakes apply to modern only", v)
			}
			stakesText, haveStakes = val, true
		default:
			return RuleSet{}, fmt.Errorf("unknown option %q (players, pack, frage, stakes, tout, pot)", key)
		}
	}
	if v == Modern {
		r.Stakes = defaultStakes(r.Frage)
		if haveStakes {
			for _, item := range strings.Split(stakesText, ",") {
				name, num, ok := strings.Cut(item, ":")
				if !ok {
					return RuleSet{}, fmt.Errorf("stakes: %q: want contract:cents", item)
				}
				c, err := ParseContract(name)
				if err != nil {
					return RuleSet{}, fmt.Errorf("stakes: %w", err)
				}
				n, err := strconv.Atoi(num)
				if err != nil {
					return RuleSet{}, fmt.Errorf("stakes: %s:%s: want a number", name, num)
				}
				r.Stakes[c] = n
			}
		}
	}
	if err := r.Validate(); err != nil {
		return RuleSet{}, err
	}
	return r, nil
}

// HandSize is the number of cards each player is dealt (R-DEAL-1), 0 for an invalid rule set.
func (r RuleSet) HandSize() int { h, _ := r.sizes(); return h }

// TappSize is the number of cards in the tapp (R-DEAL-1), 0 for an invalid rule set.
func (r RuleSet) TappSize() int { _, t := r.sizes(); return t }

func (r RuleSet) sizes() (hand, tapp int) {
	switch {
	case r.Players == 3 && r.PackSize == 36:
		return 11, 3
	case r.Players == 4 && r.PackSize == 36:
		return 8, 4
	case r.Players == 3 && r.PackSize == 32:
		return 10, 2
	case r.Players == 4 && r.PackSize == 32:
		return 7, 4
	}
	return 0, 0
}

// Pack returns the set of cards in play: 36, or 32 without the sixes (R-CARD-4).
func (r RuleSet) Pack() CardSet {
	if r.PackSize == 32 {
		return FullPack32
	}
	return FullPack36
}

// Contracts returns the biddable contracts of the rule set, lowest first: modern Frage (when
// on) to Heart Durch; classic Frage, Solo, Heart Solo; wuerttemberg Frage, Solo.
func (r RuleSet) Contracts() []Contract {
	switch r.Variant {
	case Modern:
		out := []Contract{Solo, HeartSolo, Bettel, Rufer, HeartRufer, Ouvert, Durch, HeartDurch}
		if r.Frage {
			out = append([]Contract{Frage}, out...)
		}
		return out
	case Classic:
		return []Contract{Frage, Solo, HeartSolo}
	}
	return []Contract{Frage, Solo}
}

// biddable reports whether c can be bid under the rule set.
func (r *RuleSet) biddable(c Contract) bool {
	switch r.Variant {
	case Modern:
		return c.Biddable() && (c != Frage || r.Frage)
	case Classic:
		return c == Frage || c == Solo || c == HeartSolo
	}
	return c == Frage || c == Solo
}
