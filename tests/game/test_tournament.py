"""Seating, event boards and standings of tournaments, worked by hand (docs/tournaments.md)."""

from __future__ import annotations

import itertools

import pytest

from bot.game.boards import shuffled_deck
from bot.game.dealing import canonical_deal
from bot.game.tournament import (
    SEED_PREFIX,
    EventBoard,
    Scored,
    SeatResult,
    capacities,
    event_board,
    first_round,
    later_round,
    meetings,
    round_boards,
    score_results,
    standings,
    with_fillers,
)


def test_capacities_leave_the_short_table_last() -> None:
    assert capacities(9, 3) == [3, 3, 3]
    assert capacities(7, 3) == [3, 3, 1]
    assert capacities(8, 4) == [4, 4]
    assert capacities(5, 4) == [4, 1]
    assert capacities(0, 3) == []


def test_round_one_is_a_snake_by_rating() -> None:
    # ids 1..9 rated 1900, 1800, ..., 1100: the order of rating is the order of ids.
    ratings = {u: 2000.0 - 100 * u for u in range(1, 10)}
    # forward 1, 2, 3 to tables 1, 2, 3; back 4, 5, 6 to tables 3, 2, 1; forward 7, 8, 9
    assert first_round(ratings, 3) == [(1, 6, 7), (2, 5, 8), (3, 4, 9)]


def test_round_one_snake_skips_the_full_short_table() -> None:
    ratings = {u: 2000.0 - 100 * u for u in range(1, 8)}
    # capacities 3, 3, 1: 1, 2, 3 forward (table 3 is now full); back: 4 to table 2,
    # 5 to table 1; forward: 6 to table 1, 7 to table 2.
    assert first_round(ratings, 3) == [(1, 5, 6), (2, 4, 7), (3,)]


def test_round_one_ties_of_rating_go_by_id() -> None:
    assert first_round({5: 1500.0, 2: 1500.0, 9: 1600.0}, 3) == [(9, 2, 5)]


def test_later_rounds_by_standing_without_repeats_nine_players() -> None:
    r1 = [(1, 6, 7), (2, 5, 8), (3, 4, 9)]
    order = list(range(1, 10))  # standings 1..9
    # Table 1: 1 with the first pair in standing order that met nobody: 2, 3.
    # Then 4 with 5, 6; then 7, 8, 9 (none of them met in round 1).
    r2 = later_round(order, meetings([r1]), 3)
    assert r2 == [(1, 2, 3), (4, 5, 6), (7, 8, 9)]
    # Round 3: 1 met 2, 3, 6, 7; pairs (2, x), (3, x), (4, 5), (4, 6) and (4, 7) are
    # out, (4, 8) is the first fit. 2 met 1, 3, 5, 8: (6, 7) met each other, (6, 9) fits.
    # 3, 5, 7 are left and never met.
    r3 = later_round(order, meetings([r1, r2]), 3)
    assert r3 == [(1, 4, 8), (2, 6, 9), (3, 5, 7)]
    pairs = [frozenset(p) for r in (r1, r2, r3) for t in r for p in itertools.combinations(t, 2)]
    assert len(pairs) == 27 and len(set(pairs)) == 27  # nobody met anybody twice


def test_later_rounds_without_repeats_whatever_the_standings() -> None:
    ratings = {u: 1500.0 + 7 * ((u * 5) % 9) for u in range(9)}
    rounds = [first_round(ratings, 3)]
    for shuffle in ((8, 0, 4, 2, 6, 1, 3, 7, 5), (3, 1, 4, 0, 5, 8, 2, 6, 7)):
        rounds.append(later_round(shuffle, meetings(rounds), 3))
    pairs = [frozenset(p) for r in rounds for t in r for p in itertools.combinations(t, 2)]
    assert len(pairs) == len(set(pairs)) == 27


def test_seven_players_meet_again_only_as_little_as_they_must() -> None:
    r1 = [(1, 5, 6), (2, 4, 7), (3,)]
    # Whoever sits alone, the two tables of three take six players from the groups
    # {1, 5, 6}, {2, 4, 7} and {3}: a table with no repeat needs one of each, so 3 at both;
    # at least one pair meets again. By standing: 1, 2, 3 (no repeat), then 4 with 5, 6
    # (5 and 6 met), 7 alone with the AI players.
    r2 = later_round(range(1, 8), meetings([r1]), 3)
    assert r2 == [(1, 2, 3), (4, 5, 6), (7,)]
    again = meetings([r1]) & meetings([r2])
    assert again == {frozenset({5, 6})}


def test_ai_fillers_have_negative_ids_unique_in_the_round() -> None:
    assert with_fillers((7,), 3, 3) == (7, -9, -10)
    assert with_fillers((1, 2, 3), 3, 1) == (1, 2, 3)
    assert meetings([[(7, -9, -10)]]) == set()


def test_event_boards_are_fixed_by_seed_round_and_number() -> None:
    a = round_boards("12:Friday cup", "russian", 1, 6)
    assert a == round_boards("12:Friday cup", "russian", 1, 6)
    assert [b.dealer for b in a] == [0, 1, 2, 0, 1, 2]  # each seat deals twice
    assert a[0].key == "t/12:Friday cup/1/1"
    assert len({b.deal for b in a}) == 6
    other = event_board("12:Friday cup", "russian", 2, 0)
    assert other.deal != a[0].deal
    assert event_board("13:Friday cup", "russian", 1, 0).deal != a[0].deal
    s = a[3].start()
    assert s.match.dealer == 0 and s.match.totals == (0, 0, 0)
    assert isinstance(a[3], EventBoard)


def test_event_boards_have_their_own_seed_prefix() -> None:
    b = event_board("1:x", "russian", 1, 0)
    parts = ("1:x", "russian", 1, 0, 0)
    assert shuffled_deck(b.rules, *parts, prefix=SEED_PREFIX) != shuffled_deck(b.rules, *parts)
    assert b.deal == canonical_deal(b.rules, 0, shuffled_deck(b.rules, *parts,
                                                             prefix=SEED_PREFIX))


def _r(table: int, seat: int, user: int, result: int, board: int = 1) -> SeatResult:
    return SeatResult(1, board, table, seat, user, result)


def test_matchpoints_against_the_same_seat_and_par() -> None:
    # Two tables and par on one board. Seat 0: 120 (u1), 60 (u4), par 60.
    #   u1 beats both: 4 of 4 = 100 %; the field's mean (120 + 60 + 60) / 3 = 80: +40.
    #   u4 loses to 120, ties par: 1 of 4 = 25 %; 60 - 80 = -20.
    # Seat 1: -60 (u2), -60 (u5), par -120. Each ties the other and beats par: 3 of 4 =
    #   75 %; mean -240 / 3 = -80: +20 each.
    # Seat 2: 0 (u3), 40 (u6), par 0. u3 ties par, loses to 40: 1 of 4 = 25 %;
    #   mean 40 / 3 = 13.33: -13.33. u6: 4 of 4 = 100 %; +26.67.
    results = [_r(1, 0, 1, 120), _r(1, 1, 2, -60), _r(1, 2, 3, 0),
               _r(2, 0, 4, 60), _r(2, 1, 5, -60), _r(2, 2, 6, 40)]
    scored = {s.result.user_id: s for s in score_results(results, {(1, 1): (60, -120, 0)})}
    assert scored[1].percent == 100.0 and scored[1].butler == 40.0
    assert scored[4].percent == 25.0 and scored[4].butler == -20.0
    assert scored[2].percent == scored[5].percent == 75.0
    assert scored[2].butler == scored[5].butler == 20.0
    assert scored[3].percent == 25.0 and scored[3].butler == pytest.approx(-40 / 3)
    assert scored[6].percent == 100.0 and scored[6].butler == pytest.approx(80 / 3)
    lines = standings(list(scored.values()), ranked={1, 2, 3, 4, 5, 6})
    # 100 % +40, 100 % +27, then 75 % +20 twice (never at one table: no head-to-head,
    # they share third), then 25 %: -13 before -20.
    assert [(x.user_id, x.rank, x.butler) for x in lines] == [
        (1, 1, 40), (6, 2, 27), (2, 3, 20), (5, 3, 20), (3, 5, -13), (4, 6, -20)]
    assert all(x.tie_note == "" for x in lines)


def test_a_board_without_par_is_not_scored_yet() -> None:
    assert score_results([_r(1, 0, 1, 120)], {}) == []


def test_ai_fillers_count_in_the_field_but_are_not_ranked() -> None:
    # Seat 0: u1 100, the AI filler at table 2 120, par 0: u1 beats par, loses to the
    # AI: 2 of 4 = 50 %; mean 220 / 3 = 73.33: +26.67, shown as +27.
    results = [_r(1, 0, 1, 100), _r(2, 0, -4, 120)]
    lines = standings(score_results(results, {(1, 1): (0, 0, 0)}), ranked={1})
    assert [(x.user_id, x.rank, x.percent, x.butler) for x in lines] == [(1, 1, 50.0, 27)]


def _s(board: int, table: int, user: int, result: int) -> Scored:
    return Scored(SeatResult(1, board, table, 0 if user == 1 else 1, user, result), 50.0, 0.0)


def test_head_to_head_breaks_a_tie_and_withdrawn_players_follow() -> None:
    # u1 and u2 are equal on percentage (50) and Butler (0). At their table u1 beat u2 on
    # boards 1 and 3 (100 > 50, 10 > 0) and lost board 2 (-30 < 20): 2 - 1 = +1 for u1,
    # -1 for u2. u3 (withdrawn) has the same numbers and is not ranked.
    scored = [_s(1, 1, 1, 100), _s(1, 1, 2, 50), _s(2, 1, 1, -30), _s(2, 1, 2, 20),
              _s(3, 1, 1, 10), _s(3, 1, 2, 0), _s(1, 2, 3, 0)]
    lines = standings(scored, ranked={1, 2})
    assert [(x.user_id, x.rank, x.head_to_head, x.tie_note) for x in lines] == [
        (1, 1, 1, "h2h"), (2, 2, -1, "h2h"), (3, None, 0, "")]
    assert lines[0].boards == 3 and lines[2].boards == 1
