package engine

import "fmt"

// Match-format helpers: seating and dealer rotation (R-SEAT-1, R-SEAT-2) and the session of
// R-SESSION-1..4.
//
// Table positions 0..players-1 are fixed per player and numbered in the direction of play.
// When position `dealer` deals, seat 0 (forehand) is the position after the dealer.

// TablePosition returns the table position sitting in seat when dealer deals.
func TablePosition(seat Seat, dealer, players int) int {
	if players <= 0 {
		return 0
	}
	return mod(dealer+1+int(seat), players)
}

// SeatOf returns the seat of table position tablePos when dealer deals.
func SeatOf(tablePos, dealer, players int) Seat {
	if players <= 0 {
		return NoSeat
	}
	return Seat(mod(tablePos-dealer-1, players))
}

// NextDealer returns who deals next: the forehand of this deal (R-SEAT-2), thrown-in deals
// included.
func NextDealer(dealer, players int) int {
	if players <= 0 {
		return 0
	}
	return mod(dealer+1, players)
}

func mod(a, n int) int {
	a %= n
	if a < 0 {
		a += n
	}
	return a
}

type sessionPhase uint8

const (
	sessRounds   sessionPhase = iota // R-SESSION-1: the agreed rounds
	sessDeciding                     // R-SESSION-2: the deal that finds the ace of hearts
	sessLast                         // the last round, from the holder of the ace of hearts
	sessForced                       // R-SESSION-3: one forced Ramsch per player
	sessDone
)

// Session runs the match format "session" (R-SESSION-1..4). Call Next for the next deal,
// play it, then Record its result; repeat until Next reports done. Dealers are table
// positions.
type Session struct {
	players, rounds int
	phase           sessionPhase
	dealer          int // the next deal's dealer
	count           int // deals played in the current phase
	net             []int
	pot             int
	deals           int
}

// NewSession starts a session of `rounds` rounds at a table of `players`, first dealt by
// table position firstDealer.
func NewSession(players, rounds int, firstDealer int) *Session {
	if players < 1 {
		players = 1
	}
	s := &Session{players: players, rounds: max(rounds, 0), dealer: mod(firstDealer, players), net: make([]int, players)}
	if s.rounds == 0 {
		s.phase = sessDeciding
	}
	return s
}

// Next tells the next deal: its dealer, whether it is a forced Ramsch (Options.ForcedRamsch),
// and whether the session is over (then the other results are meaningless).
func (s *Session) Next() (dealer int, forcedRamsch bool, done bool) {
	return s.dealer, s.phase == sessForced, s.phase == sessDone
}

// Pot returns the pot to carry into the next deal (Options.Pot); always 0 in modern.
func (s *Session) Pot() int { return s.pot }

// Deals returns the number of deals recorded.
func (s *Session) Deals() int { return s.deals }

// Record enters a finished deal: its deal (for the ace of hearts, R-SESSION-2), its dealer
// (which must be the one Next gave) and its outcome.
func (s *Session) Record(d Deal, dealer int, o Outcome) error {
	if s.phase == sessDone {
		return fmt.Errorf("session: already over")
	}
	if dealer != s.dealer {
		return fmt.Errorf("session: deal dealt by position %d, want %d", dealer, s.dealer)
	}
	for seat := 0; seat < s.players && seat < MaxPlayers; seat++ {
		s.net[TablePosition(Seat(seat), dealer, s.players)] += o.Payoff[seat]
	}
	s.pot = o.PotAfter
	s.deals++
	s.dealer = NextDealer(dealer, s.players)
	s.count++
	switch s.phase {
	case sessRounds:
		if s.count == s.rounds*s.players {
			s.phase, s.count = sessDeciding, 0
		}
	case sessDeciding:
		ha := NewCard(Hearts, Ace)
		for seat := 0; seat < s.players && seat < MaxPlayers; seat++ {
			if d.Hands[seat].Has(ha) {
				// The player dealt the ace of hearts deals next and starts the last round.
				s.dealer = TablePosition(Seat(seat), dealer, s.players)
				s.phase, s.count = sessLast, 0
			}
		}
		// In the tapp: the deal passes on as usual and the next deal decides again.
	case sessLast:
		if s.count == s.players {
			s.phase, s.count = sessForced, 0
		}
	case sessForced:
		if s.count == s.players {
			s.phase = sessDone
		}
	}
	return nil
}

// Done reports whether the session is over.
func (s *Session) Done() bool { return s.phase == sessDone }

// Net returns each table position's net result so far, with the pot shared equally (R-POT,
// R-SESSION-4). It sums to -PotLeft(): zero unless a pot remainder is left in the ledger.
func (s *Session) Net() []int {
	out := make([]int, s.players)
	share := s.pot / s.players
	for i := range out {
		out[i] = s.net[i] + share
	}
	return out
}

// PotLeft returns the remainder of the pot that cannot be shared equally; it stays in the
// ledger as "pot".
func (s *Session) PotLeft() int { return s.pot - s.pot/s.players*s.players }
