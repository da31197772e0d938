from __future__ import annotations

import pytest

from bot.game.cards import (
    DECKS,
    card_pretty,
    card_str,
    marriages_in,
    mask_points,
    parse_card,
    to_mask,
)


def test_notation_round_trips_every_card() -> None:
    for c in range(32):
        assert parse_card(card_str(c)) == c
    assert card_str(parse_card("10h")) == "10H"
    assert card_pretty(parse_card("AS")) == "A♠"


@pytest.mark.parametrize("bad", ["", "1H", "TX", "11S", "QZ", "H"])
def test_bad_cards_are_refused_readably(bad: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card(bad)


def test_every_deck_holds_120_points() -> None:
    assert {name: mask_points(m) for name, m in DECKS.items()} == {
        "9-A": 120, "10-A": 120, "7-A": 120}
    assert [m.bit_count() for m in DECKS.values()] == [24, 20, 32]


def test_ten_ranks_between_king_and_ace() -> None:
    assert parse_card("10H") > parse_card("KH") and parse_card("AH") > parse_card("10H")


def test_marriages_found_by_suit() -> None:
    hand = to_mask(parse_card(c) for c in ["KH", "QH", "KS", "QC", "AD"])
    assert marriages_in(hand) == [2]
