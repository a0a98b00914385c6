"""Random self-play: uniformly random legal games written as ``tapp replay export`` records.

Deal *k* is the engine's seeded deal *k* of ``seed`` (:func:`~tapp_bot.game.deal_from_seed`);
the choices come from ``random.Random(seed)``. The deals are grouped into matches of
``match_deals`` deals (ids ``py-selfplay-SEED-NNNN``, deal numbers from 0 in each); with a pot
(classic or wuerttemberg ``pot=on``) a match carries the pot from one deal to the next, as the
arena does, and each match starts with an empty pot. (A lost Solo doubles the pot, R-POT, up to
the cap of R-POT-CAP: under random play a long match keeps it at the cap.)
``forced_ramsch`` (modern) makes that share of the deals a forced Ramsch (R-SESSION-3).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from .deal import deal_from_seed
from .export import deal_record
from .rules import MODERN, RuleSet
from .state import State


def random_game(rules: RuleSet, seed: int, number: int, rng: random.Random, pot: int = 0, forced_ramsch: bool = False) -> State:
    """Play deal ``number`` of ``seed`` to the end with uniformly random legal actions."""
    st = State(rules, deal_from_seed(rules, seed, number), pot, forced_ramsch)
    st.playout(rng)
    return st


def selfplay(rules: RuleSet, deals: int, seed: int, forced_ramsch: float = 0.0, match_deals: int = 100) -> Iterator[dict[str, object]]:
    """Yield ``deals`` export records of random games (see the module doc)."""
    if forced_ramsch and rules.variant != MODERN:
        raise ValueError("forced Ramsch (R-SESSION-3) exists only in modern")
    if match_deals < 1:
        raise ValueError("match_deals: want 1 or more")
    rng = random.Random(seed)
    bots = [f"py-random-{i}" for i in range(rules.players)]
    pot = 0
    for k in range(deals):
        number = k % match_deals
        if number == 0:
            pot = 0
        forced = forced_ramsch > 0 and rng.random() < forced_ramsch
        st = random_game(rules, seed, k, rng, pot, forced)
        yield deal_record(st, match=f"py-selfplay-{seed}-{k // match_deals:04d}", deal=number, bots=bots)
        assert st.outcome is not None
        pot = st.outcome.pot_after
