from __future__ import annotations

import pytest

from bot.game.cards import (
    BEATERS,
    DECKS,
    HEARTS,
    RQ,
    SPADES,
    beats,
    card_pretty,
    card_sort_key,
    card_str,
    has_marriage,
    is_red,
    marriage_cards,
    marriage_count,
    marriages_in,
    mask_points,
    parse_card,
    rank_of,
    sorted_for_display,
    suit_of,
    to_mask,
)


def _cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


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


def test_suit_and_rank_of_a_card() -> None:
    qh = parse_card("QH")
    assert (suit_of(qh), rank_of(qh)) == (HEARTS, RQ)
    assert suit_of(parse_card("AS")) == SPADES


def test_red_suits_are_diamonds_and_hearts() -> None:
    assert [is_red(c) for c in _cards("AC AD AH AS")] == [False, True, True, False]


def test_a_hand_shows_suit_by_suit_high_to_low() -> None:
    hand = _cards("9S AH QC 10H AC 7D")
    assert [card_str(c) for c in sorted(hand, key=card_sort_key)] == [
        "AC", "QC", "7D", "AH", "10H", "9S"]
    assert sorted_for_display(to_mask(hand)) == sorted(hand, key=card_sort_key)


@pytest.mark.parametrize(("played", "best", "trump", "expected"), [
    ("AH", "10H", -1, True),  # higher of the same suit
    ("KH", "10H", -1, False),  # lower of the same suit
    ("AS", "10H", -1, False),  # another suit, no trump
    ("9S", "AH", SPADES, True),  # any trump over a non-trump
    ("9S", "10S", SPADES, False),  # a lower trump
    ("AH", "9S", SPADES, False),  # nothing beats a trump but a higher one
])
def test_which_card_takes_the_lead(played: str, best: str, trump: int, expected: bool) -> None:
    assert beats(parse_card(played), parse_card(best), trump) is expected


def test_the_beaters_table_is_beats() -> None:
    for trump in (-1, 0, 1, 2, 3):
        for best in range(32):
            for c in range(32):
                assert (BEATERS[trump][best] >> c & 1 == 1) == beats(c, best, trump)


def test_has_marriage_is_marriages_in() -> None:
    for mask in (0, _mask("KH QH"), _mask("KH QS"), _mask("KS QS 9C"), _mask("QH KS QS KH")):
        assert has_marriage(mask) == bool(marriages_in(mask))
        assert marriage_count(mask) == len(marriages_in(mask))
    assert marriage_count(_mask("QH KS QS KH")) == 2


def test_marriage_cards_are_the_kings_and_queens_of_the_marriages() -> None:
    assert marriage_cards(_mask("KH QH KS 9S QC AD")) == set(_cards("KH QH"))
    assert marriage_cards(_mask("QH KS QS KH 10D")) == set(_cards("KH QH KS QS"))
    assert marriage_cards(_mask("KH QS")) == frozenset()


def _mask(text: str) -> int:
    return to_mask(_cards(text))
