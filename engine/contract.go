package engine

import "fmt"

// Contract is a game a declarer can play, without its suit (TAPP-RULES.md §4.2, §5, §6).
// The ranked contracts are numbered lowest first, so bids compare with < and > (R-MOD-BID-3,
// R-AUCTION). Ramsch is not biddable: it is what happens when everybody passes in modern.
type Contract uint8

// The contracts. NoContract is the zero value: no contract (yet), or a thrown-in deal.
const (
	NoContract Contract = iota
	Frage
	Solo
	HeartSolo
	Bettel
	Rufer
	HeartRufer
	Ouvert
	Durch
	HeartDurch
	Ramsch
	NumContracts = 11
)

var contractNames = [NumContracts]string{
	"none", "frage", "solo", "heartsolo", "bettel", "rufer", "heartrufer", "ouvert", "durch",
	"heartdurch", "ramsch",
}

// String returns the rule-file id of the contract without suit ("frage", "solo", …).
func (c Contract) String() string {
	if c < NumContracts {
		return contractNames[c]
	}
	return fmt.Sprintf("contract(%d)", uint8(c))
}

// ParseContract reads a contract id as printed by String (lower or upper case).
func ParseContract(text string) (Contract, error) {
	for i, name := range contractNames {
		if i > 0 && equalFold(text, name) {
			return Contract(i), nil
		}
	}
	return NoContract, fmt.Errorf("unknown contract %q (one of frage, solo, heartsolo, bettel, rufer, heartrufer, ouvert, durch, heartdurch, ramsch)", text)
}

// Biddable reports whether c is one of the ranked contracts a player can bid or name.
func (c Contract) Biddable() bool { return c >= Frage && c <= HeartDurch }

// takesSuit reports whether the contract is named together with a trump suit C, S or D in
// modern round two (R-MOD-BID-2): Suit Solo, Suit Rufer, Suit Durch.
func (c Contract) takesSuit() bool { return c == Solo || c == Rufer || c == Durch }

// pointGame reports whether the declarer plays for 61 card points (Frage, Solo, Heart Solo).
func (c Contract) pointGame() bool { return c == Frage || c == Solo || c == HeartSolo }

// nullGame reports whether the declarer must take no trick (R-MOD-BETTEL, R-MOD-OUVERT).
func (c Contract) nullGame() bool { return c == Bettel || c == Ouvert }

// allTricks reports whether the declarer must take every trick (R-MOD-RUFER, R-MOD-DURCH).
func (c Contract) allTricks() bool {
	return c == Rufer || c == HeartRufer || c == Durch || c == HeartDurch
}

// fixedTrump is the trump a contract implies by itself: hearts for the heart contracts and
// Frage, NoSuit for the null games and Ramsch. For Solo, Rufer and Durch it returns NoSuit
// (the suit is named); the older variants' Solo is handled by the state (R-WT-1, R-CL-ORDER).
func (c Contract) fixedTrump() Suit {
	switch c {
	case Frage, HeartSolo, HeartRufer, HeartDurch:
		return Hearts
	}
	return NoSuit
}

// equalFold is strings.EqualFold for ASCII without the import in hot files.
func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
