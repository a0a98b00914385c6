"""Card and action notation helpers (TAPP-RULES.md R-CARD-1..5, R-PLAY-2, R-PLAY-4).

Cards travel as two-letter strings: suit letter then rank letter, e.g. ``"HA"`` (ace of hearts),
``"CT"`` (ten of clubs), ``"D6"``. These helpers turn them into something easy to reason about::

    >>> c = parse_card("HA")
    >>> c.suit, c.rank, c.points
    ('H', 'A', 11)
    >>> points(["HA", "CT", "D6"])
    21
    >>> trick_winner(["H7", "HA", "C6"], trump="C")
    2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

#: Suit letters in the engine's canonical order (clubs, spades, hearts, diamonds).
SUITS = "CSHD"
#: Rank letters from lowest to highest: the same order in every suit and contract (R-CARD-3).
RANKS = "6789JQKTA"
#: Card points by rank letter (R-CARD-2); the pack holds 120.
RANK_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0, "6": 0}

SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
RANK_NAMES = {
    "A": "ace",
    "T": "ten",
    "K": "king",
    "Q": "queen",
    "J": "jack",
    "9": "nine",
    "8": "eight",
    "7": "seven",
    "6": "six",
}

_RANK_INDEX = {r: i for i, r in enumerate(RANKS)}
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


class Card(NamedTuple):
    """A card: suit letter (C, S, H, D) and rank letter (6 7 8 9 J Q K T A)."""

    suit: str
    rank: str

    @property
    def points(self) -> int:
        """Card points (R-CARD-2): A 11, T 10, K 4, Q 3, J 2, others 0."""
        return RANK_POINTS[self.rank]

    @property
    def strength(self) -> int:
        """Rank order within a suit, 0 (six) to 8 (ace): higher takes the trick."""
        return _RANK_INDEX[self.rank]

    @property
    def name(self) -> str:
        """English name, e.g. "ace of hearts"."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.suit + self.rank


def parse_card(text: str) -> Card:
    """Parse a card in R-CARD-5 notation, upper or lower case; ValueError if it is not one."""
    if len(text) == 2:
        suit, rank = text[0].upper(), text[1].upper()
        if suit in _SUIT_INDEX and rank in _RANK_INDEX:
            return Card(suit, rank)
    raise ValueError(
        f"unknown card {text!r} (R-CARD-5: suit letter C/S/H/D then rank A/T/K/Q/J/9/8/7/6, e.g. HA)"
    )


def is_card(text: str) -> bool:
    """True when text is a card (so an action like "HA" is a card play, "pass" is not)."""
    return len(text) == 2 and text[0].upper() in _SUIT_INDEX and text[1].upper() in _RANK_INDEX


def _card(card: str | Card) -> Card:
    return card if isinstance(card, Card) else parse_card(card)


def suit_of(card: str | Card) -> str:
    """The suit letter of a card."""
    return _card(card).suit


def rank_of(card: str | Card) -> str:
    """The rank letter of a card."""
    return _card(card).rank


def card_points(card: str | Card) -> int:
    """Card points of one card (R-CARD-2)."""
    return RANK_POINTS[_card(card).rank]


def points(cards: Iterable[str | Card]) -> int:
    """Total card points of some cards; a hidden card ("") counts 0."""
    return sum(RANK_POINTS[_card(c).rank] for c in cards if c != "")


def of_suit(cards: Iterable[str], suit: str) -> list[str]:
    """The cards of one suit, in the order given."""
    suit = suit.upper()
    return [c for c in cards if c and c[0].upper() == suit]


def sort_key(card: str | Card) -> tuple[int, int]:
    """Key for the engine's canonical order: by suit C, S, H, D, then rank low to high."""
    c = _card(card)
    return _SUIT_INDEX[c.suit], _RANK_INDEX[c.rank]


def sort_cards(cards: Iterable[str]) -> list[str]:
    """The cards in canonical order."""
    return sorted(cards, key=sort_key)


def highest(cards: Iterable[str]) -> str:
    """The strongest card by rank (ties broken by canonical suit order); ValueError if empty."""
    return max(cards, key=lambda c: (_RANK_INDEX[c[1].upper()], -_SUIT_INDEX[c[0].upper()]))


def lowest(cards: Iterable[str]) -> str:
    """The weakest card by rank (ties broken by canonical suit order); ValueError if empty."""
    return min(cards, key=lambda c: (_RANK_INDEX[c[1].upper()], _SUIT_INDEX[c[0].upper()]))


def trick_winner(cards: Sequence[str], trump: str | None = None) -> int:
    """Index (into cards, in play order from the leader) of the card that wins the trick so far.

    The highest trump wins; with no trump in the trick, the highest card of the suit led
    (R-PLAY-4). ``trump`` is a suit letter, or None / "" / "-" for no trump.
    """
    if not cards:
        raise ValueError("an empty trick has no winner")
    trump = (trump or "").upper()
    best = 0
    best_card = _card(cards[0])
    for i in range(1, len(cards)):
        c = _card(cards[i])
        if c.suit == best_card.suit:
            if c.strength > best_card.strength:
                best, best_card = i, c
        elif c.suit == trump:
            best, best_card = i, c
    return best


def follow_cards(hand: Iterable[str], led: str | None, trump: str | None = None) -> list[str]:
    """The cards of hand that may be played to a trick led with suit ``led`` (R-PLAY-2).

    Follow suit; if you cannot, play a trump if you hold one; otherwise any card. ``led`` None
    means you lead: any card. The arena's ``legal`` list is the authority; this helper is for
    planning ahead.
    """
    hand = list(hand)
    if not led:
        return hand
    same = of_suit(hand, led[0])
    if same:
        return same
    if trump and trump not in ("-",):
        trumps = of_suit(hand, trump)
        if trumps:
            return trumps
    return hand


def split_action(action: str) -> tuple[str, str]:
    """Split an action into its name and argument: "solo:C" -> ("solo", "C"), "pass" -> ("pass", "").

    A card play such as "HA" gives ("card", "HA").
    """
    if is_card(action):
        return "card", action
    name, _, arg = action.partition(":")
    return name, arg
