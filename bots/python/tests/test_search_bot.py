"""The example search bot (bots/python/examples/search_bot.py) answers legally and searches sensibly."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

import search_bot

from tapp_bot.game import Deal, RuleSet, State, random_deal

MODERN3 = RuleSet.parse("modern players=3")


def test_every_card_decision_of_a_deal_is_legal() -> None:
    bot = search_bot.SearchBot(budget=0.01, seed=1)
    rng = random.Random(3)
    st = State(MODERN3, random_deal(MODERN3, rng))
    for _ in range(3):
        st.apply("pass")
    while not st.terminal:
        legal = st.legal_actions()
        a = bot.search(st.observe(st.to_move), legal, 0.01) if len(legal) > 1 else legal[0]
        assert a in legal
        st.apply(a)


def test_a_search_with_a_fixed_number_of_samples_is_reproducible() -> None:
    rng = random.Random(5)
    st = State(MODERN3, random_deal(MODERN3, rng), forced_ramsch=True)
    for _ in range(4):
        st.play_code(rng.choice(st.legal_codes()))
    obs, legal = st.observe(st.to_move), st.legal_actions()
    picks = {search_bot.SearchBot(seed=9).search(obs, legal, 10.0, max_samples=20) for _ in range(3)}
    assert len(picks) == 1 and picks <= set(legal)


def test_bidding_plays_only_a_strong_hand() -> None:
    st = State(MODERN3, Deal.parse(MODERN3, "C6 C7 C8 CJ CQ S6 S7 H6 H7 D6 D7 | CA CT CK SA ST SK HA HT HK DA DT | "
                                            "C9 S8 S9 SJ SQ H8 H9 HJ HQ D8 D9 | DJ DQ DK"))
    assert search_bot.choose_bid(st.observe(0), ["pass", "play"]) == "pass"
    assert search_bot.choose_bid(st.observe(1), ["pass", "play"]) == "play"  # aces and tens everywhere
