"""Cards as small ints and card sets as bitmasks: the model's fast representation.

A card is ``suit * 9 + rank`` (suits C S H D = 0..3, ranks 6 7 8 9 J Q K T A = 0..8), exactly
the engine's numbering, so within a suit a higher number is a stronger card (R-CARD-3) and a
set of cards is an int with bit ``c`` set for card ``c``. Strings appear only at the notation
boundary (:func:`card_name`, :func:`parse_card`, R-CARD-5).
"""

from __future__ import annotations

from collections.abc import Iterable

NUM_SUITS = 4
NUM_RANKS = 9
NUM_CARDS = 36
#: Marks "no card" (a hidden card, an empty trick position).
NO_CARD = -1
#: Marks "no suit" (no trump).
NO_SUIT = -1

SUIT_LETTERS = "CSHD"
RANK_LETTERS = "6789JQKTA"
CLUBS, SPADES, HEARTS, DIAMONDS = 0, 1, 2, 3
SIX, SEVEN, EIGHT, NINE, JACK, QUEEN, KING, TEN, ACE = range(9)

#: Card points by rank (R-CARD-2).
RANK_POINTS = (0, 0, 0, 0, 2, 3, 4, 10, 11)

#: Per card: its suit, its points, its name ("HA").
SUIT_OF: tuple[int, ...] = tuple(c // NUM_RANKS for c in range(NUM_CARDS))
POINTS_OF: tuple[int, ...] = tuple(RANK_POINTS[c % NUM_RANKS] for c in range(NUM_CARDS))
CARD_NAMES: tuple[str, ...] = tuple(SUIT_LETTERS[c // 9] + RANK_LETTERS[c % 9] for c in range(NUM_CARDS))

_SUIT_MASK = (1 << NUM_RANKS) - 1
#: Per suit: the set of its nine cards.
SUIT_SETS: tuple[int, ...] = tuple(_SUIT_MASK << (NUM_RANKS * s) for s in range(NUM_SUITS))
FULL_PACK_36 = (1 << NUM_CARDS) - 1
SIXES = sum(1 << (9 * s) for s in range(NUM_SUITS))
#: The 32-card pack: without the sixes (R-CARD-4).
FULL_PACK_32 = FULL_PACK_36 & ~SIXES

_CARD_BY_NAME = {name: c for c, name in enumerate(CARD_NAMES)}
_CARD_BY_NAME.update({name.lower(): c for name, c in list(_CARD_BY_NAME.items())})
_CARD_BY_NAME.update({name[0] + name[1].lower(): c for name, c in list(_CARD_BY_NAME.items())})
_CARD_BY_NAME.update({name[0].lower() + name[1].upper(): c for name, c in list(_CARD_BY_NAME.items())})


def card_name(c: int) -> str:
    """The card in R-CARD-5 notation, e.g. ``"HA"``."""
    return CARD_NAMES[c]


def parse_card(text: str) -> int:
    """Read a card in R-CARD-5 notation (either case); ValueError naming it if it is not one."""
    c = _CARD_BY_NAME.get(text)
    if c is None:
        raise ValueError(f"unknown card {text!r} (R-CARD-5: suit letter C/S/H/D then rank A/T/K/Q/J/9/8/7/6, e.g. HA)")
    return c


def parse_suit(text: str) -> int:
    """Read a suit letter (C, S, H, D, either case); ValueError otherwise."""
    i = SUIT_LETTERS.find(text.upper()) if len(text) == 1 else -1
    if i < 0:
        raise ValueError(f"unknown suit {text!r} (R-CARD-5: one of C, S, H, D)")
    return i


def suit_name(s: int) -> str:
    """The suit letter, or "" for NO_SUIT (the wire's "no trump")."""
    return SUIT_LETTERS[s] if 0 <= s < NUM_SUITS else ""


def cards_of(mask: int) -> list[int]:
    """The cards of a set in canonical order (suit C S H D, then rank low to high)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def names_of(mask: int) -> list[str]:
    """The cards of a set as names, in canonical order."""
    return [CARD_NAMES[c] for c in cards_of(mask)]


def mask_of(cards: Iterable[int]) -> int:
    """The set of some cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def parse_cards(names: Iterable[str]) -> int:
    """The set of some card names; ValueError on an unknown or repeated card."""
    m = 0
    for name in names:
        c = parse_card(name)
        if m >> c & 1:
            raise ValueError(f"card {CARD_NAMES[c]} appears twice")
        m |= 1 << c
    return m


def set_points(mask: int) -> int:
    """The card points of a set (R-CARD-2)."""
    total = 0
    while mask:
        low = mask & -mask
        total += POINTS_OF[low.bit_length() - 1]
        mask ^= low
    return total


def popcount(mask: int) -> int:
    """The number of cards in a set."""
    return mask.bit_count()
