from __future__ import annotations

import pytest

from bot.game.presets import PRESETS, preset
from bot.game.simulate import simulate


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_plays_random_hands(name: str) -> None:
    stats = simulate(preset(name), hands=150, seed=11)
    assert stats.hands == 150 and stats.actions > 150


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_plays_whole_matches_to_a_winner(name: str) -> None:
    stats = simulate(preset(name), matches=2, seed=5, policy="greedy")
    assert stats.matches == 2 and stats.unfinished == 0


def test_same_seed_same_games() -> None:
    a = simulate(preset("russian"), hands=50, seed=3)
    b = simulate(preset("russian"), hands=50, seed=3)
    assert a.actions == b.actions
