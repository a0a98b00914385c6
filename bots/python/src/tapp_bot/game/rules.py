"""Rule sets: variant, players, pack and options, in the engine's canonical text form.

``RuleSet.parse("modern players=4 pack=32 frage=on")`` reads the form the arena sends
(engine/rules.go, ParseRuleSet); ``str(rules)`` writes the canonical form back, e.g.
``modern players=3 pack=36 frage=off stakes=solo:5,…`` or ``classic players=3 pack=36 tout=2
pot=off``. Errors say what is wrong with the same wording as the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import FULL_PACK_32, FULL_PACK_36

WUERTTEMBERG, CLASSIC, MODERN = 0, 1, 2
VARIANT_NAMES = ("wuerttemberg", "classic", "modern")

# Contracts, numbered as the engine numbers them (lowest first, so bids compare with <).
NO_CONTRACT, FRAGE, SOLO, HEARTSOLO, BETTEL, RUFER, HEARTRUFER, OUVERT, DURCH, HEARTDURCH, RAMSCH = range(11)
NUM_CONTRACTS = 11
CONTRACT_NAMES = (
    "none", "frage", "solo", "heartsolo", "bettel", "rufer", "heartrufer", "ouvert", "durch", "heartdurch", "ramsch",
)
_CONTRACT_BY_NAME = {name: i for i, name in enumerate(CONTRACT_NAMES) if i > 0}

#: Contracts named with a trump suit C, S or D in modern round two (R-MOD-BID-2).
TAKES_SUIT = frozenset((SOLO, RUFER, DURCH))
POINT_GAMES = frozenset((FRAGE, SOLO, HEARTSOLO))
NULL_GAMES = frozenset((BETTEL, OUVERT))
ALL_TRICKS = frozenset((RUFER, HEARTRUFER, DURCH, HEARTDURCH))


class RuleSetError(ValueError):
    """A rule set text or value the engine would refuse."""


def parse_contract(text: str) -> int:
    """A contract id ("frage" … "ramsch", either case) as its number; ValueError otherwise."""
    c = _CONTRACT_BY_NAME.get(text.lower())
    if c is None:
        raise ValueError(
            f"unknown contract {text!r} (one of frage, solo, heartsolo, bettel, rufer, heartrufer, ouvert, durch, heartdurch, ramsch)"
        )
    return c


def default_stakes(frage: bool) -> tuple[int, ...]:
    """The leaflet's stakes in cents by contract, or with Frage on the encyclopedia's scheme (§4.2)."""
    s = [0] * NUM_CONTRACTS
    if frage:
        s[FRAGE], s[SOLO], s[HEARTSOLO], s[BETTEL], s[RUFER] = 5, 10, 15, 20, 20
    else:
        s[SOLO], s[HEARTSOLO], s[BETTEL], s[RUFER] = 5, 10, 15, 15
    s[HEARTRUFER], s[OUVERT], s[DURCH], s[HEARTDURCH], s[RAMSCH] = 30, 30, 30, 60, 5
    return tuple(s)


_ZERO_STAKES = (0,) * NUM_CONTRACTS


def _on_off(key: str, v: str) -> bool:
    v = v.lower()
    if v in ("on", "true", "yes", "1"):
        return True
    if v in ("off", "false", "no", "0"):
        return False
    raise RuleSetError(f"{key}={v}: want on or off")


@dataclass(frozen=True)
class RuleSet:
    """A variant with its options (engine.RuleSet). Build with :meth:`parse` or :meth:`default`."""

    variant: int
    players: int = 3
    pack_size: int = 36
    frage: bool = False
    stakes: tuple[int, ...] = field(default=_ZERO_STAKES)
    tout_factor: int = 0
    pot: bool = False

    @staticmethod
    def default(variant: int) -> RuleSet:
        """The variant with every option at its default (engine.DefaultRules)."""
        if variant == MODERN:
            return RuleSet(MODERN, 3, 36, False, default_stakes(False), 0, False)
        if variant == CLASSIC:
            return RuleSet(CLASSIC, 3, 36, True, _ZERO_STAKES, 2, False)
        return RuleSet(WUERTTEMBERG, 3, 36, True, _ZERO_STAKES, 3, False)

    @staticmethod
    def parse(text: str) -> RuleSet:
        """Read a rule set in canonical form; only the variant is required (engine.ParseRuleSet)."""
        fields = text.split()
        if not fields:
            raise RuleSetError("empty rule set: want a variant (wuerttemberg, classic, modern) and options")
        name = fields[0].lower()
        if name not in VARIANT_NAMES:
            raise RuleSetError(f"unknown variant {fields[0]!r} (one of wuerttemberg, classic, modern)")
        v = VARIANT_NAMES.index(name)
        d = RuleSet.default(v)
        players, pack, frage, tout, pot = d.players, d.pack_size, d.frage, d.tout_factor, d.pot
        seen: set[str] = set()
        stakes_text = None
        for f in fields[1:]:
            key, eq, val = f.partition("=")
            if not eq or not val:
                raise RuleSetError(f"option {f!r}: want key=value")
            key = key.lower()
            if key in seen:
                raise RuleSetError(f"option {key} given twice")
            seen.add(key)
            if key in ("players", "pack", "tout"):
                try:
                    n = int(val)
                except ValueError:
                    raise RuleSetError(f"{key}={val}: want a number") from None
                if key == "players":
                    players = n
                elif key == "pack":
                    pack = n
                else:
                    if v == MODERN:
                        raise RuleSetError("tout: modern has no Tout announcement (classic and wuerttemberg only)")
                    tout = n
            elif key == "frage":
                frage = _on_off(key, val)
            elif key == "pot":
                pot = _on_off(key, val)
                if v == MODERN and pot:
                    raise RuleSetError("pot: modern has no pot (classic and wuerttemberg only)")
            elif key == "stakes":
                if v != MODERN:
                    raise RuleSetError(f"stakes: {VARIANT_NAMES[v]} scores by formula; stakes apply to modern only")
                stakes_text = val
            else:
                raise RuleSetError(f"unknown option {key!r} (players, pack, frage, stakes, tout, pot)")
        stakes = d.stakes
        if v == MODERN:
            s = list(default_stakes(frage))
            if stakes_text is not None:
                for item in stakes_text.split(","):
                    cname, colon, num = item.partition(":")
                    if not colon:
                        raise RuleSetError(f"stakes: {item!r}: want contract:cents")
                    try:
                        c = parse_contract(cname)
                    except ValueError as err:
                        raise RuleSetError(f"stakes: {err}") from None
                    try:
                        s[c] = int(num)
                    except ValueError:
                        raise RuleSetError(f"stakes: {cname}:{num}: want a number") from None
            stakes = tuple(s)
        r = RuleSet(v, players, pack, frage, stakes, tout, pot)
        r.validate()
        return r

    def validate(self) -> None:
        """Raise RuleSetError naming the first problem (engine RuleSet.Validate)."""
        vname = VARIANT_NAMES[self.variant] if 0 <= self.variant < 3 else f"variant({self.variant})"
        if self.variant == MODERN:
            if self.players not in (3, 4):
                raise RuleSetError(f"modern: players={self.players}, want 3 or 4")
            if self.pack_size not in (36, 32):
                raise RuleSetError(f"modern: pack={self.pack_size}, want 36 or 32 (R-CARD-4)")
            if self.tout_factor != 0:
                raise RuleSetError("modern: no Tout announcement (tout factor applies to classic and wuerttemberg only)")
            if self.pot:
                raise RuleSetError("modern: no pot (R-POT applies to classic and wuerttemberg only)")
            if len(self.stakes) != NUM_CONTRACTS or self.stakes[NO_CONTRACT] != 0:
                raise RuleSetError("modern: stakes: the entry for no contract must be 0")
            for c in range(FRAGE, RAMSCH + 1):
                val = self.stakes[c]
                if c == FRAGE and not self.frage:
                    if val != 0:
                        raise RuleSetError("modern: stakes: frage has a stake but frage=off")
                elif val <= 0:
                    raise RuleSetError(f"modern: stakes: {CONTRACT_NAMES[c]} must be positive, got {val}")
            return
        if self.variant not in (WUERTTEMBERG, CLASSIC):
            raise RuleSetError(f"unknown variant {self.variant}")
        if self.players != 3:
            raise RuleSetError(f"{vname}: players={self.players}, want 3 (R-CL-1)")
        if self.pack_size != 36:
            raise RuleSetError(f"{vname}: pack={self.pack_size}, want 36 (R-CL-1)")
        if not self.frage:
            raise RuleSetError(f"{vname}: frage is always played (frage=off is a modern option)")
        if any(self.stakes):
            raise RuleSetError(f"{vname}: no stake table (scores by R-CL-SCORE-2 / R-WT-SCORE-1); stakes apply to modern only")
        if not 1 <= self.tout_factor <= 100:
            raise RuleSetError(f"{vname}: tout={self.tout_factor}, want a factor from 1 to 100 (R-CL-SCORE-3, R-WT-TOUT)")

    def __str__(self) -> str:
        out = f"{VARIANT_NAMES[self.variant]} players={self.players} pack={self.pack_size}"
        if self.variant == MODERN:
            items = []
            for c in range(FRAGE, RAMSCH + 1):
                if c == FRAGE and not self.frage and self.stakes[c] == 0:
                    continue
                items.append(f"{CONTRACT_NAMES[c]}:{self.stakes[c]}")
            return out + f" frage={'on' if self.frage else 'off'} stakes=" + ",".join(items)
        return out + f" tout={self.tout_factor} pot={'on' if self.pot else 'off'}"

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player = tricks in a deal (R-DEAL-1)."""
        return _SIZES[(self.players, self.pack_size)][0]

    @property
    def tapp_size(self) -> int:
        """Cards in the tapp (R-DEAL-1)."""
        return _SIZES[(self.players, self.pack_size)][1]

    @property
    def pack(self) -> int:
        """The set of cards in play: 36, or 32 without the sixes (R-CARD-4)."""
        return FULL_PACK_32 if self.pack_size == 32 else FULL_PACK_36

    @property
    def unit(self) -> str:
        """The unit of payoffs: "cents" in modern, "game points" in classic and wuerttemberg."""
        return "cents" if self.variant == MODERN else "game points"

    def contracts(self) -> list[int]:
        """The biddable contracts, lowest first (engine RuleSet.Contracts)."""
        if self.variant == MODERN:
            out = [SOLO, HEARTSOLO, BETTEL, RUFER, HEARTRUFER, OUVERT, DURCH, HEARTDURCH]
            return [FRAGE, *out] if self.frage else out
        if self.variant == CLASSIC:
            return [FRAGE, SOLO, HEARTSOLO]
        return [FRAGE, SOLO]

    def biddable(self, c: int) -> bool:
        """Whether contract c can be bid under this rule set."""
        if self.variant == MODERN:
            return FRAGE <= c <= HEARTDURCH and (c != FRAGE or self.frage)
        if self.variant == CLASSIC:
            return c in (FRAGE, SOLO, HEARTSOLO)
        return c in (FRAGE, SOLO)


_SIZES = {(3, 36): (11, 3), (4, 36): (8, 4), (3, 32): (10, 2), (4, 32): (7, 4)}
