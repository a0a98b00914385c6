"""tapp_bot.game as a bot author uses it: rule sets, legal actions, errors with rule ids, copies,
tricks, early ends and settlement (the differential test checks the same against the engine
over many games; these pin the behaviour one case at a time)."""

from __future__ import annotations

import random

import pytest

from tapp_bot.game import (
    ActionSyntaxError,
    Deal,
    RuleError,
    RuleSet,
    RuleSetError,
    State,
    deal_from_seed,
    parse_action,
    random_deal,
)
from tapp_bot.game.cards import parse_card
from tapp_bot.game.state import trick_winner

MODERN3 = RuleSet.parse("modern players=3")


def test_rule_sets_read_and_print_the_canonical_form() -> None:
    r = RuleSet.parse("modern players=4 pack=32 frage=on")
    assert str(r) == ("modern players=4 pack=32 frage=on stakes=frage:5,solo:10,heartsolo:15,bettel:20,rufer:20,"
                      "heartrufer:30,ouvert:30,durch:30,heartdurch:60,ramsch:5")
    assert (r.hand_size, r.tapp_size) == (7, 4)
    assert str(RuleSet.parse("classic")) == "classic players=3 pack=36 tout=2 pot=off"
    assert RuleSet.parse(str(r)) == r
    assert RuleSet.parse("modern").unit == "cents" and RuleSet.parse("classic").unit == "game points"


@pytest.mark.parametrize("text, want", [
    ("classic players=4", "R-CL-1"),
    ("modern pack=30", "R-CARD-4"),
    ("modern tout=2", "modern has no Tout"),
    ("modern stakes=solo:0", "solo must be positive"),
    ("poker", "unknown variant"),
])
def test_a_bad_rule_set_is_refused_with_the_reason(text: str, want: str) -> None:
    with pytest.raises(RuleSetError, match=want):
        RuleSet.parse(text)


def test_seeded_deals_are_the_engines() -> None:
    # engine.DealFromSeed(modern, 1, 0), as the arena deals it (engine/testdata, R-DEAL-2).
    d = deal_from_seed(MODERN3, 1, 0)
    assert d.format() == ("C8 C9 CJ CT SQ SA H9 HK HA D9 DA | C6 C7 CQ CK SK H6 H7 H8 HT D6 DJ | "
                          "CA S7 S8 S9 ST HJ HQ D7 D8 DQ DK | S6 SJ DT")


def _ramsch(seed: int = 1) -> State:
    st = State(MODERN3, deal_from_seed(MODERN3, seed, 0))
    for _ in range(3):
        st.apply("pass")
    return st


def test_round_one_offers_play_or_pass_and_refuses_anything_else() -> None:
    st = State(MODERN3, deal_from_seed(MODERN3, 1, 0))
    assert (st.decision, st.to_move, st.legal_actions()) == ("bid", 1, ["pass", "play"])
    with pytest.raises(RuleError) as err:
        st.apply("solo:C")
    assert err.value.rule == "R-MOD-BID-1"
    assert st.history == []  # unchanged


def test_all_pass_is_a_ramsch_led_by_forehand() -> None:
    st = _ramsch()
    assert (st.contract, st.declarer, st.trump, st.decision, st.to_move) == (10, -1, -1, "card", 0)


def test_must_follow_suit_names_R_PLAY_2_and_leaves_the_state_unchanged() -> None:
    st = _ramsch()
    st.apply("C8")  # forehand leads clubs; seat 1 holds C6 C7 CQ CK
    assert st.legal_actions() == ["C6", "C7", "CQ", "CK"]
    before = st.copy()
    with pytest.raises(RuleError) as err:
        st.apply("SK")
    assert (err.value.rule, str(err.value)) == ("R-PLAY-2", "R-PLAY-2: must follow suit C")
    assert st == before
    with pytest.raises(RuleError, match="R-PLAY-2: cannot play HA: not in your hand"):
        st.apply("HA")


def test_text_that_is_no_action_is_a_syntax_error() -> None:
    with pytest.raises(ActionSyntaxError):
        parse_action("hello")
    with pytest.raises(ActionSyntaxError, match="takes no suit"):
        parse_action("heartsolo:C")
    assert parse_action("card:ha") == parse_card("HA")


def test_a_copy_is_independent() -> None:
    st = _ramsch()
    c = st.copy()
    c.apply("C8")
    assert st.trick == [] and st.hands[0] >> parse_card("C8") & 1
    assert c.trick == [parse_card("C8")]


def test_trick_winner_highest_of_the_suit_led_unless_trumped() -> None:
    h7, ha, c6, s9 = (parse_card(x) for x in ("H7", "HA", "C6", "S9"))
    assert trick_winner([h7, ha, c6], trump=-1) == 1
    assert trick_winner([h7, ha, c6], trump=0) == 2  # clubs trump
    assert trick_winner([h7, s9, c6], trump=-1) == 0  # off-suit cards never win without trump


def test_a_trick_is_scored_and_its_winner_leads() -> None:
    st = _ramsch()
    for card in ("CT", "CK", "CA"):  # seat 0, 1, 2
        st.apply(card)
    assert (st.tricks[0].winner, st.tricks[0].points, st.to_move, st.points) == (2, 25, 2, [0, 0, 25])


def _play_until(rules: RuleSet, want, seeds=range(2000)):
    for seed in seeds:
        rng = random.Random(seed)
        st = State(rules, random_deal(rules, rng))
        while not st.terminal:
            st.play_code(rng.choice(st.legal_codes()))
        if want(st):
            return st
    raise AssertionError("no such game found")


def test_bettel_ends_at_the_declarers_first_trick_R_PLAY_6() -> None:
    st = _play_until(MODERN3, lambda s: s.contract == 4 and s.n_tricks < s.hand_size)
    assert st.taken[st.declarer] == 1 and st.tricks[-1].winner == st.declarer
    assert st.outcome is not None and not st.outcome.declarer_won
    assert st.outcome.payoff[st.declarer] == -2 * MODERN3.stakes[4]
    with pytest.raises(RuleError) as err:
        st.apply("HA")
    assert err.value.rule == "R-PLAY-6"


def test_ramsch_settlement_most_points_pays_and_a_jungfer_gets_double() -> None:
    st = _play_until(MODERN3, lambda s: s.contract == 10 and 0 in s.taken and len(set(s.outcome.points)) == 3)
    o = st.outcome
    loser = o.points.index(max(o.points))
    for seat in range(3):
        if seat != loser:
            assert o.payoff[seat] == (10 if st.taken[seat] == 0 else 5)
    assert sum(o.payoff) == 0


def test_classic_pot_payoffs_and_pot_sum_to_zero() -> None:
    rules = RuleSet.parse("classic pot=on")
    st = State(rules, random_deal(rules, random.Random(4)), pot=10)
    st.playout(random.Random(4))
    o = st.outcome
    assert o is not None and sum(o.payoff) + o.pot_after - o.pot_before == 0 and o.pot_before == 10


def test_a_pot_without_pot_rules_is_refused() -> None:
    with pytest.raises(ValueError, match="has no pot"):
        State(MODERN3, deal_from_seed(MODERN3, 1, 0), pot=4)


def test_a_broken_deal_is_refused_naming_the_card() -> None:
    d = deal_from_seed(MODERN3, 1, 0)
    hands = list(d.hands)
    hands[1] |= hands[0] & -hands[0]  # C8 twice
    with pytest.raises(ValueError, match="C8 is dealt twice"):
        State(MODERN3, Deal(tuple(hands), d.tapp))
