"""A played match exported as a scenario replays to the same hands and totals."""

from __future__ import annotations

import random

import pytest

from bot.ai.simple import SimplePlayer
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply_into
from bot.game.export import distinct_names, scenario_of
from bot.game.observation import observe
from bot.game.presets import PRESETS
from bot.game.scenario import run
from bot.game.state import Phase


def play_match(preset: str, seed: int, limit: int = 12):
    rules = PRESETS[preset].rules
    rng = random.Random(seed)
    state = new_match(rules, 0)
    moves = []
    while state.phase is not Phase.MATCH_OVER and state.match.hand_no <= limit:
        if state.phase is Phase.DEALING:
            for m in random_deal(state, rng):
                state = apply_into(state, m, None)
                moves.append(m)
            continue
        seat = state.to_act
        a = SimplePlayer().choose(observe(state, seat), rng)
        state = apply_into(state, a, None)
        moves.append(a)
    return rules, state, moves


@pytest.mark.parametrize("preset", ["russian", "polish", "russian4", "elwood2", "polish2_stock"])
def test_export_replays_to_the_same_totals(preset):
    rules, state, moves = play_match(preset, 3)
    names = ["Ann", "Bob", "Ann", "Dot"][: rules.seats]
    data = scenario_of(preset, rules, names, 0, moves)
    assert data["players"][:3] == ["Ann", "Bob", "Ann (2)"][: rules.seats]
    result = run(data)
    assert result["ok"], result
    totals = result["totals"] if "totals" in result else result["match"]["totals"]
    assert list(totals.values()) == list(state.match.totals)


def test_distinct_names():
    assert distinct_names(["A", "A", "A", ""]) == ["A", "A (2)", "A (3)", "Player"]
