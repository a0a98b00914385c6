"""Feature vectors of one seat's view, shared by the PettingZoo environment and the OpenSpiel game.

Pure Python: the encoders write 0/1 (and a few scaled counts) into any buffer that takes item
assignment (a list, or the numpy array of an OpenSpiel observer), which must be zero to start
with. Everything comes from a :class:`tapp_bot.game.Observation`, so a vector never holds a
card hidden from the seat (R-INFO-1..5).

* :func:`observation_size` / :func:`encode_observation` — what the seat knows now: its hand,
  the cards played and the trick in progress by seat, the contract, trump, declarer, the Frage
  tapp and lay-away (declarer only), the Rufer call, the give (where known), the open Ouvert
  hand, tricks taken, voids, every seat's bidding, the pot.
* :func:`information_state_size` / :func:`encode_information_state` — the same plus every move so
  far in order (a hidden card as its hidden code): perfect recall.
"""

from __future__ import annotations

from collections.abc import MutableSequence

from .game.actions import (
    ACTION_ARG,
    ACTION_KINDS,
    HIDDEN_DISCARD,
    K_BID,
    K_PASS,
    K_PLAY,
    NUM_CODES,
)
from .game.cards import NUM_CARDS, cards_of
from .game.observation import Observation
from .game.rules import MODERN, NUM_CONTRACTS, RuleSet

#: Decisions, in the protocol's order.
DECISIONS = ("none", "bid", "contract", "trump", "discard", "call", "give", "tout", "card")
#: The actions a player can take: every code but the two hidden ones.
NUM_ACTIONS = HIDDEN_DISCARD
_BID_SLOT = 2 + NUM_CONTRACTS  # pass, play, and a contract


def max_moves(rules: RuleSet) -> int:
    """An upper bound on the moves of one deal: bidding, declaration and every card."""
    n = rules.players
    bidding = 2 * n if rules.variant == MODERN else 4 * n  # an auction bid beats the standing one: at most 3 raises a seat
    return bidding + rules.tapp_size + 3 + n * rules.hand_size


def observation_size(rules: RuleSet) -> int:
    """The length of :func:`encode_observation`'s vector for a rule set."""
    n = rules.players
    return (n + len(DECISIONS) + n + 5 * NUM_CARDS + 2 * n * NUM_CARDS + NUM_CONTRACTS + (n + 1) + 5 + 1 + (n + 1)
            + NUM_CARDS + n + 4 * n + n * _BID_SLOT + 2)


def information_state_size(rules: RuleSet) -> int:
    """The length of :func:`encode_information_state`'s vector for a rule set."""
    return observation_size(rules) + max_moves(rules) * (rules.players + NUM_CODES)


def _cards(buf: MutableSequence[float], at: int, mask: int) -> None:
    for c in cards_of(mask):
        buf[at + c] = 1


def encode_observation(o: Observation, buf: MutableSequence[float], at: int = 0) -> int:
    """Write the seat's current view into ``buf`` from ``at``; returns the position after it."""
    n = o.rules.players
    buf[at + o.seat] = 1
    at += n
    buf[at + DECISIONS.index(o.decision)] = 1
    at += len(DECISIONS)
    if o.to_move >= 0:
        buf[at + o.to_move] = 1
    at += n
    for mask in (o.hand, o.dealt, o.tapp, o.discarded, o.exposed):
        _cards(buf, at, mask)
        at += NUM_CARDS
    for s in range(n):
        _cards(buf, at + s * NUM_CARDS, o.played[s])
    at += n * NUM_CARDS
    if o.current_leader >= 0:
        for i, c in enumerate(o.current):
            buf[at + ((o.current_leader + i) % n) * NUM_CARDS + c] = 1
    at += n * NUM_CARDS
    buf[at + o.contract] = 1
    at += NUM_CONTRACTS
    buf[at + (o.declarer if o.declarer >= 0 else n)] = 1
    at += n + 1
    buf[at + (o.trump if o.trump >= 0 else 4)] = 1
    at += 5
    buf[at] = 1 if o.tout else 0
    at += 1
    if o.called >= 0:
        buf[at + (o.called_holder if o.called_holder >= 0 else n)] = 1
    at += n + 1
    if o.called >= 0:
        buf[at + o.called] = 1
    at += NUM_CARDS
    hand_size = o.rules.hand_size
    for s in range(n):
        buf[at + s] = o.tricks_taken[s] / hand_size
    at += n
    for s in range(n):
        for su in range(4):
            if o.voids[s] >> su & 1:
                buf[at + 4 * s + su] = 1
    at += 4 * n
    for seat, code in o.history[: o.n_bids]:  # each seat's latest word in the bidding
        base = at + seat * _BID_SLOT
        for i in range(_BID_SLOT):
            buf[base + i] = 0
        k = ACTION_KINDS[code]
        if k == K_PASS:
            buf[base] = 1
        elif k == K_PLAY:
            buf[base + 1] = 1
        elif k == K_BID:
            buf[base + 2 + ACTION_ARG[code]] = 1
    at += n * _BID_SLOT
    buf[at] = min(o.pot, 100) / 100
    buf[at + 1] = 1 if o.forced_ramsch else 0
    return at + 2


def encode_information_state(o: Observation, buf: MutableSequence[float], at: int = 0) -> int:
    """Write the seat's view and every move so far (seat one-hot, action one-hot) into ``buf``."""
    at = encode_observation(o, buf, at)
    n = o.rules.players
    width = n + NUM_CODES
    for i, (seat, code) in enumerate(o.history):
        buf[at + i * width + seat] = 1
        buf[at + i * width + n + code] = 1
    return at + max_moves(o.rules) * width
