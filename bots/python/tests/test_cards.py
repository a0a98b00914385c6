"""Card notation helpers."""

from __future__ import annotations

import pytest

from tapp_bot import cards
from tapp_bot.cards import Card, parse_card

FULL_PACK = [s + r for s in cards.SUITS for r in cards.RANKS]


def test_parse_card_upper_and_lower_case():
    assert parse_card("HA") == Card("H", "A")
    assert parse_card("ct") == Card("C", "T")
    assert str(parse_card("d6")) == "D6"
    card = parse_card("SQ")
    assert (card.suit, card.rank, card.points, card.strength, card.name) == ("S", "Q", 3, 5, "queen of spades")


@pytest.mark.parametrize("text", ["", "H", "HAA", "XA", "H1", "10", "pass", "solo:C"])
def test_parse_card_rejects_non_cards(text):
    with pytest.raises(ValueError, match="R-CARD-5"):
        parse_card(text)
    assert not cards.is_card(text)


def test_points_follow_r_card_2():
    assert [cards.card_points("H" + r) for r in "ATKQJ9876"] == [11, 10, 4, 3, 2, 0, 0, 0, 0]
    assert cards.points(FULL_PACK) == 120
    assert cards.points([c for c in FULL_PACK if c[1] != "6"]) == 120  # the 32-card pack too
    assert cards.points(["HA", "", "CT"]) == 21  # a hidden card counts nothing


def test_rank_order_and_sorting():
    assert cards.sort_cards(["DA", "C6", "HT", "CA", "S7"]) == ["C6", "CA", "S7", "HT", "DA"]
    assert cards.highest(["H9", "CT", "DA", "SK"]) == "DA"
    assert cards.lowest(["H9", "CT", "DA", "S6"]) == "S6"
    assert cards.of_suit(["H9", "CT", "HA"], "h") == ["H9", "HA"]
    assert parse_card("HT").strength > parse_card("HK").strength  # ten beats king (R-CARD-1)


@pytest.mark.parametrize(
    "trick, trump, winner",
    [
        (["H7", "HA", "HK"], None, 1),  # highest of the suit led
        (["H7", "CA", "HK"], None, 2),  # another suit never wins without trump
        (["H7", "HA", "C6"], "C", 2),  # a trump beats the suit led
        (["H7", "C6", "CT"], "C", 2),  # the highest trump
        (["C6", "HA"], "C", 0),  # trump led and followed by a non-trump
        (["HA"], "-", 0),
    ],
)
def test_trick_winner_follows_r_play_4(trick, trump, winner):
    assert cards.trick_winner(trick, trump) == winner


def test_follow_cards_follows_r_play_2():
    hand = ["H7", "HA", "C6", "SK"]
    assert cards.follow_cards(hand, None) == hand
    assert cards.follow_cards(hand, "H") == ["H7", "HA"]
    assert cards.follow_cards(hand, "D", trump="C") == ["C6"]
    assert cards.follow_cards(hand, "D", trump="") == hand


def test_split_action():
    assert cards.split_action("solo:C") == ("solo", "C")
    assert cards.split_action("pass") == ("pass", "")
    assert cards.split_action("discard:DT") == ("discard", "DT")
    assert cards.split_action("HA") == ("card", "HA")
