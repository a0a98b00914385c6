package sdk_test

import (
	"slices"
	"testing"

	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
)

func cards(t *testing.T, texts ...string) []engine.Card {
	t.Helper()
	cs, err := sdk.ParseCards(texts...)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestParseCardsRefusesNonCards(t *testing.T) {
	t.Parallel()
	if _, err := sdk.ParseCards("HA", "pass"); err == nil {
		t.Error(`ParseCards("HA", "pass") = nil error, want one naming "pass"`)
	}
	got := cards(t, "ha", "CT", "D6")
	want := []engine.Card{engine.NewCard(engine.Hearts, engine.Ace), engine.NewCard(engine.Clubs, engine.Ten), engine.NewCard(engine.Diamonds, engine.Six)}
	if !slices.Equal(got, want) {
		t.Errorf("ParseCards = %v, want %v", got, want)
	}
}

// R-CARD-3: the ten ranks between the king and the ace.
func TestStrengthPutsTheTenAboveTheKing(t *testing.T) {
	t.Parallel()
	order := cards(t, "S6", "S7", "S8", "S9", "SJ", "SQ", "SK", "ST", "SA")
	for i, c := range order {
		if got := sdk.Strength(c); got != i {
			t.Errorf("Strength(%s) = %d, want %d", c, got, i)
		}
	}
}

// R-CARD-2: card points; an unseen card counts nothing.
func TestPoints(t *testing.T) {
	t.Parallel()
	hand := append(cards(t, "HA", "CT", "DK", "SQ", "HJ", "C9"), engine.NoCard)
	if got := sdk.Points(hand...); got != 30 {
		t.Errorf("Points(%v) = %d, want 30", hand, got)
	}
}

func TestSortOfSuitHighestLowest(t *testing.T) {
	t.Parallel()
	hand := cards(t, "HK", "CA", "HT", "D6", "C6", "H7")
	sdk.Sort(hand)
	if got, want := hand, cards(t, "C6", "CA", "H7", "HK", "HT", "D6"); !slices.Equal(got, want) {
		t.Errorf("Sort = %v, want %v", got, want)
	}
	if got, want := sdk.OfSuit(hand, engine.Hearts), cards(t, "H7", "HK", "HT"); !slices.Equal(got, want) {
		t.Errorf("OfSuit(hearts) = %v, want %v", got, want)
	}
	if got := sdk.Highest(sdk.OfSuit(hand, engine.Hearts)); got.String() != "HT" {
		t.Errorf("Highest(hearts) = %s, want HT (the ten beats the king)", got)
	}
	if got := sdk.Lowest(hand); got.String() != "C6" {
		t.Errorf("Lowest = %s, want C6 (equal ranks: the first suit)", got)
	}
	if got := sdk.Highest(nil); got != engine.NoCard {
		t.Errorf("Highest(nil) = %v, want NoCard", got)
	}
}

// R-PLAY-4: the highest trump wins, else the highest card of the suit led.
func TestTrickWinner(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		trick []string
		trump engine.Suit
		want  int
	}{
		{[]string{"H7", "HA", "C6"}, engine.Clubs, 2},
		{[]string{"H7", "HA", "C6"}, engine.NoSuit, 1},
		{[]string{"HK", "HT", "SA"}, engine.Diamonds, 1},
		{[]string{"C6", "CA", "C7", "CT"}, engine.Hearts, 1},
		{[]string{"D9"}, engine.NoSuit, 0},
	} {
		if got := sdk.TrickWinner(cards(t, tc.trick...), tc.trump); got != tc.want {
			t.Errorf("TrickWinner(%v, trump %s) = %d, want %d", tc.trick, tc.trump, got, tc.want)
		}
	}
	if got := sdk.TrickWinner(nil, engine.NoSuit); got != -1 {
		t.Errorf("TrickWinner(empty) = %d, want -1", got)
	}
	current := engine.Trick{Cards: [engine.MaxPlayers]engine.Card{engine.NewCard(engine.Spades, engine.King), engine.NewCard(engine.Spades, engine.Ten), engine.NoCard, engine.NoCard}}
	if got := sdk.TrickWinner(sdk.TrickCards(current), engine.NoSuit); got != 1 {
		t.Errorf("TrickWinner(current SK ST) = %d, want 1", got)
	}
}

// R-PLAY-2: follow suit, else trump, else anything.
func TestFollowCards(t *testing.T) {
	t.Parallel()
	hand, err := engine.ParseCardSet("CA C7 HK D6")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		trick []string
		trump engine.Suit
		want  string
	}{
		{nil, engine.Clubs, "CA C7 HK D6"},
		{[]string{"C9"}, engine.Hearts, "C7 CA"},
		{[]string{"S9"}, engine.Hearts, "HK"},
		{[]string{"S9"}, engine.NoSuit, "C7 CA HK D6"},
		{[]string{"S9", "SA"}, engine.Spades, "C7 CA HK D6"},
	} {
		want, _ := engine.ParseCardSet(tc.want)
		if got := sdk.FollowCards(hand, cards(t, tc.trick...), tc.trump); got != want {
			t.Errorf("FollowCards(%s, %v, trump %s) = %s, want %s", hand, tc.trick, tc.trump, got, want)
		}
	}
}

func TestSplitAction(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ action, name, arg string }{
		{"solo:C", "solo", "C"}, {"pass", "pass", ""}, {"HA", "card", "HA"}, {"heartsolo", "heartsolo", ""},
	} {
		if name, arg := sdk.SplitAction(tc.action); name != tc.name || arg != tc.arg {
			t.Errorf("SplitAction(%q) = %q, %q; want %q, %q", tc.action, name, arg, tc.name, tc.arg)
		}
	}
}
