"""Matchpoints and the difference from par, worked by hand."""

from __future__ import annotations

from bot.game.duplicate import BoardScore, matchpoints, score_board, score_day, streak


def test_matchpoints_count_two_per_result_beaten_and_one_per_tie() -> None:
    # 60 beats -20 and 0 (4), ties the other 60 (1): 5 of 6.
    assert matchpoints(60, [-20, 0, 60]) == (5, 6)
    assert matchpoints(-20, [60, 0, 60]) == (0, 6)


def test_a_board_with_three_players_and_par() -> None:
    # Par 40. Ann 120 beats Bob, Cid and par: 6/6. Bob 40 ties par, beats Cid: 3/6.
    # Cid -120 beats nobody: 0/6.
    scores = score_board({"ann": 120, "bob": 40, "cid": -120}, par=40)
    assert scores["ann"] == BoardScore(120, 6, 6, 80)
    assert scores["bob"] == BoardScore(40, 3, 6, 0)
    assert scores["cid"] == BoardScore(-120, 0, 6, -160)
    assert scores["ann"].percent == 100.0 and scores["bob"].percent == 50.0


def test_ties_share_the_points() -> None:
    # Everyone, par included, scored 10: each ties three others, 3 of 6.
    scores = score_board({"a": 10, "b": 10, "c": 10}, par=10)
    assert {k: (s.matchpoints, s.top) for k, s in scores.items()} == {
        "a": (3, 6), "b": (3, 6), "c": (3, 6)}


def test_a_single_player_is_compared_with_par_only() -> None:
    assert score_board({"a": 65}, par=60)["a"] == BoardScore(65, 2, 2, 5)
    assert score_board({"a": 60}, par=60)["a"].percent == 50.0
    assert score_board({"a": 0}, par=60)["a"].percent == 0.0


def test_a_rospisat_is_scored_like_any_result() -> None:
    # The declarer gave up a 120 (-120); par made 100; the other player failed 160 (-160).
    scores = score_board({"gave_up": -120, "failed": -160}, par=100)
    assert scores["gave_up"] == BoardScore(-120, 2, 4, -220)
    assert scores["failed"] == BoardScore(-160, 0, 4, -260)


def test_a_day_is_the_mean_percentage_and_the_sum_against_par() -> None:
    day = score_day([BoardScore(120, 6, 6, 80), BoardScore(0, 1, 2, -40),
                     BoardScore(-20, 0, 4, -30)])
    assert day.boards == 3
    assert day.percent == (100.0 + 50.0 + 0.0) / 3
    assert day.vs_par == 10
    assert score_day([]).boards == 0


def test_streak_counts_days_in_a_row_up_to_today_or_yesterday() -> None:
    assert streak([10, 11, 12], 12) == 3
    assert streak([10, 11, 12], 13) == 3  # today not played yet: the streak still stands
    assert streak([10, 11, 12], 14) == 0
    assert streak([8, 10, 11], 11) == 2
    assert streak([], 5) == 0
