"""Deals: the cards as dealt, and the engine's seeded dealing (R-DEAL-1, R-DEAL-2).

:func:`deal_from_seed` reproduces engine.DealFromSeed bit for bit: the engine's PCG-DXSM
generator (:class:`PCG`, engine/rand.go), a Fisher–Yates shuffle of the pack in canonical
order, dealt in the packets of R-DEAL-1. So deal *k* of seed *s* here is deal *k* of seed *s*
in every match the arena plays.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from .cards import CARD_NAMES, cards_of, names_of, parse_card
from .rules import MODERN, RuleSet

_M64 = (1 << 64) - 1
_M128 = (1 << 128) - 1
_MUL = (2549297995355413924 << 64) | 4865540595714422341
_INC = (6364136223846793005 << 64) | 1442695040888963407
_STREAM_SALT = 0xA0761D6478BD642F


def splitmix64(x: int) -> int:
    """The engine's seed mixer (engine.SplitMix64)."""
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


class PCG:
    """The engine's PRNG (engine.Rand): 128-bit LCG state, PCG-DXSM output, Lemire's bounded ints.

    Slow in Python (big-int arithmetic); used for dealing. Search code should use its own
    ``random.Random(seed)``.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int, stream: int) -> None:
        self.state = (splitmix64(seed & _M64) << 64) | splitmix64((stream ^ _STREAM_SALT) & _M64)

    def uint64(self) -> int:
        s = (self.state * _MUL + _INC) & _M128
        self.state = s
        hi, lo = s >> 64, s & _M64
        hi ^= hi >> 32
        hi = (hi * 0xDA942042E4DD58B5) & _M64
        hi ^= hi >> 48
        return (hi * (lo | 1)) & _M64

    def intn(self, n: int) -> int:
        """A uniform int in [0, n) (0 for n <= 1), exactly as engine Rand.IntN."""
        if n <= 1:
            return 0
        prod = self.uint64() * n
        lo = prod & _M64
        if lo < n:
            thresh = ((1 << 64) - n) % n
            while lo < thresh:
                prod = self.uint64() * n
                lo = prod & _M64
        return prod >> 64


def _packets(r: RuleSet) -> list[tuple[int, bool]]:
    key = (r.players, r.pack_size)
    if key == (3, 36):
        if r.variant == MODERN:
            return [(4, False), (3, False), (3, True), (4, False)]
        return [(3, True), (4, False), (3, False), (4, False)]
    if key == (4, 36):
        return [(3, False), (2, True), (2, False), (2, True), (3, False)]
    if key == (3, 32):
        return [(4, False), (3, False), (2, True), (3, False)]
    return [(3, False), (2, True), (2, False), (2, True), (2, False)]


class DealError(ValueError):
    """Cards that do not make a deal of the rule set."""


def _part_name(i: int, n: int) -> str:
    if i == n:
        return "the tapp"
    names = ["forehand", "middlehand", "rearhand", "dealer" if n == 4 else f"seat {i}"]
    return f"seat {i} ({names[i] if i < 4 else i})"


class Deal(NamedTuple):
    """The cards as dealt: each seat's hand (bitmasks, by seat) and the tapp."""

    hands: tuple[int, ...]
    tapp: int

    def validate(self, r: RuleSet) -> None:
        """Raise DealError unless every card of the pack is dealt once in R-DEAL-1 sizes."""
        n = r.players
        if len(self.hands) != n:
            raise DealError(f"{len(self.hands)} hands for {n} players")
        parts = [*list(self.hands), self.tapp]
        pack = r.pack
        for i, p in enumerate(parts):
            extra = p & ~pack
            if extra:
                raise DealError(f"{_part_name(i, n)} holds {' '.join(names_of(extra))}, not in the {r.pack_size}-card pack (R-CARD-4)")
        for i in range(len(parts)):
            for j in range(i + 1, len(parts)):
                both = parts[i] & parts[j]
                if both:
                    raise DealError(f"card {CARD_NAMES[cards_of(both)[0]]} is dealt twice: to {_part_name(i, n)} and to {_part_name(j, n)}")
        seen = 0
        for p in parts:
            seen |= p
        missing = pack & ~seen
        for i, p in enumerate(parts):
            want = r.tapp_size if i == n else r.hand_size
            if p.bit_count() != want:
                msg = f"{_part_name(i, n)} has {p.bit_count()} cards, want {want} (R-DEAL-1)"
                if missing:
                    msg += "; missing from the deal: " + " ".join(names_of(missing))
                raise DealError(msg)

    @staticmethod
    def from_names(hands: Sequence[Sequence[str]], tapp: Sequence[str]) -> Deal:
        """A deal from card names by seat and the tapp (as the export's ``hands`` and ``tapp``)."""
        def mask(names: Sequence[str]) -> int:
            m = 0
            for name in names:
                m |= 1 << parse_card(name)
            return m
        return Deal(tuple(mask(h) for h in hands), mask(tapp))

    @staticmethod
    def parse(r: RuleSet, line: str) -> Deal:
        """Read a deal-file line: the hands in seat order, then the tapp, separated by ``|``."""
        parts = line.split("|")
        if len(parts) != r.players + 1:
            raise DealError(f"want {r.players} hands and the tapp separated by |, got {len(parts)} parts")
        masks = []
        for part in parts:
            m = 0
            for f in part.replace(",", " ").split():
                c = parse_card(f)
                if m >> c & 1:
                    raise DealError(f"card {CARD_NAMES[c]} appears twice")
                m |= 1 << c
            masks.append(m)
        d = Deal(tuple(masks[:-1]), masks[-1])
        d.validate(r)
        return d

    def format(self) -> str:
        """The deal as a deal-file line (engine Deal.Format)."""
        return " | ".join(" ".join(names_of(p)) for p in [*list(self.hands), self.tapp])


def deal_from_rand(r: RuleSet, rng: PCG) -> Deal:
    """Shuffle and deal with the engine's generator, as engine.DealFromRand does."""
    pack = cards_of(r.pack)
    for i in range(len(pack) - 1, 0, -1):
        j = rng.intn(i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    hands = [0] * r.players
    tapp = 0
    pos = 0
    for count, to_tapp in _packets(r):
        if to_tapp:
            for _ in range(count):
                tapp |= 1 << pack[pos]
                pos += 1
            continue
        for s in range(r.players):
            for _ in range(count):
                hands[s] |= 1 << pack[pos]
                pos += 1
    return Deal(tuple(hands), tapp)


def deal_from_seed(r: RuleSet, seed: int, deal_number: int) -> Deal:
    """Deal number ``deal_number`` of the seeded sequence ``seed`` (engine.DealFromSeed)."""
    return deal_from_rand(r, PCG(seed, deal_number))


def random_deal(r: RuleSet, rng: random.Random) -> Deal:
    """A uniformly random deal drawn with a ``random.Random`` (fast; not the engine's sequence)."""
    pack = cards_of(r.pack)
    rng.shuffle(pack)
    h = r.hand_size
    hands = []
    for s in range(r.players):
        m = 0
        for c in pack[s * h:(s + 1) * h]:
            m |= 1 << c
        hands.append(m)
    tapp = 0
    for c in pack[r.players * h:]:
        tapp |= 1 << c
    return Deal(tuple(hands), tapp)
