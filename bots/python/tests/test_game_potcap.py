"""R-POT-CAP in the Python game model: the pot holds at most MAX_POT, as in the engine.

(The differential tests check the model against the engine on the same games, pots at and near
the cap included.)
"""

from __future__ import annotations

import random

import pytest

from tapp_bot.game import MAX_POT, RuleSet, State, deal_from_seed


@pytest.mark.parametrize("text", ["classic pot=on", "wuerttemberg pot=on"])
def test_the_pot_stays_within_the_cap_over_a_long_session(text: str) -> None:
    # R-POT, R-POT-CAP: lost Solos double the pot; carried from deal to deal under random
    # play it reaches the cap within a few dozen deals and never passes it.
    rules = RuleSet.parse(text)
    rng = random.Random(23)
    pot, full = 0, 0
    for n in range(400):
        st = State(rules, deal_from_seed(rules, 23, n), pot)
        st.playout(rng)
        o = st.outcome
        assert o is not None
        assert sum(o.payoff) + o.pot_after - o.pot_before == 0, f"deal {n}"
        assert 0 <= o.pot_after <= MAX_POT, f"deal {n}: pot {o.pot_before}->{o.pot_after} (R-POT-CAP)"
        assert all(-(2**31) <= p < 2**31 for p in o.payoff), f"deal {n}: payoff {o.payoff}"
        full += o.pot_after == MAX_POT
        pot = o.pot_after
    assert full > 0, "the pot never reached the cap: the test shows nothing"


def test_a_pot_above_the_cap_is_refused() -> None:
    rules = RuleSet.parse("classic pot=on")
    State(rules, deal_from_seed(rules, 1, 0), MAX_POT)  # a full pot is fine
    with pytest.raises(ValueError, match="R-POT-CAP"):
        State(rules, deal_from_seed(rules, 1, 0), MAX_POT + 1)


def test_the_ante_fills_the_pot_only_to_the_cap() -> None:
    # R-POT-CAP: the dealer's ante of R-POT goes in only up to the cap. Everybody passes
    # (R-CL-PASS): only the ante moves.
    rules = RuleSet.parse("classic pot=on")
    for pot_in, ante in ((MAX_POT - 10, 2), (MAX_POT - 1, 1), (MAX_POT, 0)):
        st = State(rules, deal_from_seed(rules, 5, 0), pot_in)
        for _ in range(rules.players):
            st.apply("pass")
        o = st.outcome
        assert o is not None and o.thrown_in
        assert (o.payoff[rules.players - 1], o.pot_after) == (-ante, pot_in + ante), f"pot {pot_in} carried in"
