"""A hand's analysis: a known blunder is marked ``??`` at its step, strong play is not."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.ai.analysis import ScenarioHand, Stage, analyse, mark_for, scenario_hands

HANDS = Path(__file__).parent / "hands"


def _hand(name: str) -> tuple[list[str], ScenarioHand]:
    names, hands = scenario_hands(json.loads((HANDS / name).read_text()))
    return names, hands[0]


def test_marks_by_points_lost() -> None:
    assert [mark_for(x) for x in (0, 4, 5, 14, 15, 39, 40, 300)] == [
        "", "", "?!", "?!", "?", "?", "??", "??"]


@pytest.mark.slow
def test_a_marriage_led_without_declaring_it_is_marked_at_its_step() -> None:
    names, hand = _hand("marriage_not_declared.json")
    result = analyse(hand.start, hand.actions, names.index("B"), real=True)
    blunder = next(d for d in result.decisions if d.step == 9)
    assert blunder.mark == "??"
    assert blunder.stage is Stage.PLAY
    assert blunder.loss >= 200 and blunder.real_loss == 250
    assert blunder.best.flag.value == "marriage" and blunder.best.card == blunder.action.card
    assert result.worst == blunder
    assert result.lost(Stage.PLAY) == blunder.loss
    assert [d.step for d in result.decisions if d.mark == "??"] == [9]


@pytest.mark.parametrize("name", ["strong_every_seat.json", "strong_every_seat_2.json"])
@pytest.mark.slow
def test_strong_in_every_seat_has_no_double_question_mark(name: str) -> None:
    names, hand = _hand(name)
    for seat in hand.start.active:
        result = analyse(hand.start, hand.actions, seat, real=True)
        assert result.decisions
        assert all(d.mark != "??" for d in result.decisions), names[seat]


@pytest.mark.slow
def test_the_analysis_is_the_same_every_time() -> None:
    _, hand = _hand("marriage_not_declared.json")
    assert analyse(hand.start, hand.actions, 1) == analyse(hand.start, hand.actions, 1)


@pytest.mark.slow
def test_without_real_values_cards_carry_none() -> None:
    _, hand = _hand("marriage_not_declared.json")
    result = analyse(hand.start, hand.actions, 1, real=False)
    assert all(d.real_loss is None for d in result.decisions)


@pytest.mark.slow
def test_the_command_prints_a_line_per_decision_and_a_summary(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(HANDS / "marriage_not_declared.json"), "--hand", "1",
                 "--seat", "B"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    *decisions, summary = lines
    for line in decisions:
        assert {"step", "action", "best", "loss", "mark"} <= set(line)
    at9 = next(x for x in decisions if x["step"] == 9)
    assert at9["action"] == ["B", "play", "QD"] and at9["mark"] == "??"
    assert summary["summary"] is True and summary["seat"] == "B"
    assert summary["play"] >= 200 and summary["worst"]["step"] == 9
    assert {"auction", "exchange", "play"} <= set(summary)


def test_an_illegal_scenario_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    bad = Path(__file__).parents[1] / "scenarios" / "illegal" / "err_bid_step.json"
    assert main(["analyze", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bids go up in steps" in err


def test_an_unknown_seat_or_hand_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(HANDS / "marriage_not_declared.json")
    assert main(["analyze", path, "--seat", "Zed"]) == 2
    assert "the players are A, B, C" in capsys.readouterr().err
    assert main(["analyze", path, "--hand", "5"]) == 2
    assert "the finished ones are 1" in capsys.readouterr().err


@pytest.mark.slow
def test_bench_analysis_ends_with_the_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "analysis", "--hands", "2"]) == 0
    last = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert last["hands"] == 2
    assert 0 < last["p50_s"] <= last["p95_s"]


@pytest.mark.slow
def test_the_python_solver_finds_the_same_blunder() -> None:
    """Where the compiled solver is not built: fewer worlds, a node allowance, same mark."""
    from bot.ai.solver import Kind, active, use

    before = active()
    use(Kind.PYTHON)
    try:
        names, hand = _hand("marriage_not_declared.json")
        result = analyse(hand.start, hand.actions, names.index("B"), real=True)
    finally:
        use(before)
    assert [d.step for d in result.decisions if d.mark == "??"] == [9]


@pytest.mark.slow
def test_analyses_have_their_own_process_below_the_ai_seats() -> None:
    from bot.ai import pool

    try:
        own = pool.analysis_executor()
        assert own is not pool.executor()
        assert own.submit(os.nice, 0).result(timeout=60) >= pool.ANALYSIS_NICENESS
    finally:
        pool.shutdown()
