"""Actions as small ints ("codes") and their text notation (engine/action.go).

Every action of the engine has one code; legal lists come in the engine's canonical order,
which is ascending code order within a decision. Codes:

===============  ========================================  =================
code             action                                    notation
===============  ========================================  =================
0..35            play card c                               ``HA``
36..71           lay away card c (Frage)                   ``discard:HA``
72..107          call card c (Rufer)                       ``call:HA``
108..143         give card c (Rufer)                       ``give:HA``
144, 145         pass, play (modern round one)             ``pass``, ``play``
146, 147         Tout, no Tout                             ``tout``, ``notout``
148..151         name the trump C, S, H, D                 ``trump:C``
152 + 5c + s     bid contract c with suit s (4 = none)     ``solo:C``, ``frage``
202, 203         a hidden lay-away / give (observations)   ``discard``, ``give``
===============  ========================================  =================
"""

from __future__ import annotations

from .cards import CARD_NAMES, NUM_CARDS, SUIT_LETTERS, parse_card, parse_suit
from .rules import CONTRACT_NAMES, FRAGE, HEARTDURCH, TAKES_SUIT, parse_contract

CARD_BASE = 0
DISCARD_BASE = 36
CALL_BASE = 72
GIVE_BASE = 108
PASS = 144
PLAY = 145
TOUT = 146
NOTOUT = 147
TRUMP_BASE = 148
BID_BASE = 152
#: Suit slot of a bid without a suit.
NO_SUIT_SLOT = 4
HIDDEN_DISCARD = 202
HIDDEN_GIVE = 203
NUM_CODES = 204

# Action kinds (engine ActionKind order).
K_PASS, K_PLAY, K_BID, K_TRUMP, K_DISCARD, K_CALL, K_GIVE, K_TOUT, K_NOTOUT, K_CARD = range(1, 11)


def bid_code(contract: int, suit: int = -1) -> int:
    """The code of a bid; the suit is kept only for Solo, Rufer and Durch (canonical form)."""
    slot = suit if (contract in TAKES_SUIT and 0 <= suit < 4) else NO_SUIT_SLOT
    return BID_BASE + 5 * contract + slot


def _build() -> tuple[list[str], list[int], list[int], list[int]]:
    names = [""] * NUM_CODES
    kinds = [0] * NUM_CODES
    arg = [-1] * NUM_CODES  # card, suit or contract
    bsuit = [-1] * NUM_CODES  # bid suit
    for c in range(NUM_CARDS):
        names[CARD_BASE + c], kinds[CARD_BASE + c], arg[CARD_BASE + c] = CARD_NAMES[c], K_CARD, c
        names[DISCARD_BASE + c], kinds[DISCARD_BASE + c], arg[DISCARD_BASE + c] = "discard:" + CARD_NAMES[c], K_DISCARD, c
        names[CALL_BASE + c], kinds[CALL_BASE + c], arg[CALL_BASE + c] = "call:" + CARD_NAMES[c], K_CALL, c
        names[GIVE_BASE + c], kinds[GIVE_BASE + c], arg[GIVE_BASE + c] = "give:" + CARD_NAMES[c], K_GIVE, c
    names[PASS], kinds[PASS] = "pass", K_PASS
    names[PLAY], kinds[PLAY] = "play", K_PLAY
    names[TOUT], kinds[TOUT] = "tout", K_TOUT
    names[NOTOUT], kinds[NOTOUT] = "notout", K_NOTOUT
    for s in range(4):
        names[TRUMP_BASE + s], kinds[TRUMP_BASE + s], arg[TRUMP_BASE + s] = "trump:" + SUIT_LETTERS[s], K_TRUMP, s
    for c in range(FRAGE, HEARTDURCH + 1):
        for slot in range(5):
            code = BID_BASE + 5 * c + slot
            kinds[code], arg[code] = K_BID, c
            if slot < 4:
                bsuit[code] = slot
                names[code] = CONTRACT_NAMES[c] + ":" + SUIT_LETTERS[slot]
            else:
                names[code] = CONTRACT_NAMES[c]
    names[HIDDEN_DISCARD], kinds[HIDDEN_DISCARD] = "discard", K_DISCARD
    names[HIDDEN_GIVE], kinds[HIDDEN_GIVE] = "give", K_GIVE
    return names, kinds, arg, bsuit


_TABLES = _build()
#: Per code: its notation, its kind, its card/suit/contract argument, a bid's suit (-1 none).
ACTION_NAMES: tuple[str, ...] = tuple(_TABLES[0])
ACTION_KINDS: tuple[int, ...] = tuple(_TABLES[1])
ACTION_ARG: tuple[int, ...] = tuple(_TABLES[2])
BID_SUIT: tuple[int, ...] = tuple(_TABLES[3])

_BY_NAME: dict[str, int] = {}
for _code, _name in enumerate(ACTION_NAMES):
    # Only canonical forms: "heartsolo:C" is no action (engine ParseAction: takes no suit).
    if _name and _code < HIDDEN_DISCARD and (ACTION_KINDS[_code] != K_BID or BID_SUIT[_code] < 0 or ACTION_ARG[_code] in TAKES_SUIT):
        _BY_NAME.setdefault(_name, _code)


class ActionSyntaxError(ValueError):
    """Text that is not an action at all (engine ParseAction's errors)."""


def action_name(code: int) -> str:
    """The action's notation, e.g. ``"solo:C"``, ``"HA"``, ``"discard:DT"``."""
    return ACTION_NAMES[code]


def parse_action(text: str) -> int:
    """Read an action in the engine's notation (case-insensitive, "card:HA" too) as its code.

    Only the form is checked, as engine.ParseAction does; whether it is legal is for
    :meth:`State.check`. Raises :class:`ActionSyntaxError`.
    """
    code = _BY_NAME.get(text)
    if code is not None:
        return code
    t = text.strip()
    if len(t) == 2:
        try:
            return parse_card(t)
        except ValueError:
            pass
    head, colon, arg = t.partition(":")
    head = head.lower()
    if not colon:
        if head in ("pass", "play", "tout", "notout"):
            return _BY_NAME[head]
        try:
            c = parse_contract(head)
        except ValueError:
            c = 0
        if FRAGE <= c <= HEARTDURCH:
            return bid_code(c)
        raise ActionSyntaxError(
            f"unknown action {text!r} (pass, play, a contract such as solo:C, tout, notout, trump:C, discard:DT, call:HA, give:C7, or a card such as HA)"
        )
    try:
        if head == "trump":
            return TRUMP_BASE + parse_suit(arg)
        if head in ("discard", "call", "give", "card"):
            card = parse_card(arg)
            return {"discard": DISCARD_BASE, "call": CALL_BASE, "give": GIVE_BASE, "card": CARD_BASE}[head] + card
    except ValueError as err:
        raise ActionSyntaxError(f"action {text!r}: {err}") from None
    try:
        c = parse_contract(head)
    except ValueError:
        c = 0
    if not FRAGE <= c <= HEARTDURCH:
        raise ActionSyntaxError(f"unknown action {text!r}")
    if c not in TAKES_SUIT:
        raise ActionSyntaxError(f"action {text!r}: {CONTRACT_NAMES[c]} takes no suit")
    try:
        s = parse_suit(arg)
    except ValueError as err:
        raise ActionSyntaxError(f"action {text!r}: {err}") from None
    return BID_BASE + 5 * c + s


def parse_move(text: str) -> tuple[int, int]:
    """Read a move ``"seat:action"`` (``"1:solo:C"``, ``"0:HA"``; ``"2:discard"`` hidden) as (seat, code)."""
    seat, colon, act = text.partition(":")
    if not colon or not seat.isdigit():
        raise ActionSyntaxError(f"{text!r}: want seat:action, e.g. 1:HA")
    if act == "discard":
        return int(seat), HIDDEN_DISCARD
    if act == "give":
        return int(seat), HIDDEN_GIVE
    return int(seat), parse_action(act)


def move_name(seat: int, code: int) -> str:
    """A move in the export's notation, ``"seat:action"``."""
    return f"{seat}:{ACTION_NAMES[code]}"
