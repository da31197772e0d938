from __future__ import annotations

import pytest

from bot.game.presets import PRESETS, preset
from bot.game.simulate import simulate

# One rule set per house-rule option whose moves the fast sampler must mirror.
HOUSE = {
    "dealer_forced": {"dealer_forced_bid": True},
    "two_steps": {"bid_step_high": 10},
    "cap": {"bid_cap_before_talon": 120},
    "nines": {"dealt_four_nines": "mandatory", "dealt_three_nines": "optional"},
    "predeal": {"predeal_four_nines_redeal": True, "predeal_low_redeal_below": 13},
    "contra": {"contra": True},
    "misere": {"misere": True},
    "partners_sitting": {"seats": 4, "sitter": "dealer", "partnerships": True},
    "partners_four": {"seats": 4, "partnerships": True, "hand_size": 6, "talons": [],
                      "exchange": "none"},
}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_plays_random_hands(name: str) -> None:
    stats = simulate(preset(name), hands=150, seed=11)
    assert stats.hands == 150 and stats.actions > 150


@pytest.mark.parametrize("house", sorted(HOUSE))
@pytest.mark.slow
def test_house_options_play_random_hands_and_matches(house: str) -> None:
    from bot.game.presets import rules_for

    rules = rules_for("russian", HOUSE[house])
    assert simulate(rules, hands=150, seed=11).hands == 150
    stats = simulate(rules, matches=2, seed=5, policy="greedy")
    assert stats.matches == 2 and stats.unfinished == 0


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_plays_whole_matches_to_a_winner(name: str) -> None:
    stats = simulate(preset(name), matches=2, seed=5, policy="greedy")
    assert stats.matches == 2 and stats.unfinished == 0


def test_same_seed_same_games() -> None:
    a = simulate(preset("russian"), hands=50, seed=3)
    b = simulate(preset("russian"), hands=50, seed=3)
    assert a.actions == b.actions




@pytest.mark.parametrize("name", sorted(PRESETS) + [f"russian+{h}" for h in HOUSE])
@pytest.mark.slow
def test_random_move_is_random_policy_without_the_list(name: str) -> None:
    """The fast sampler picks exactly what random_policy picks from legal_actions."""
    import random

    from bot.game.dealing import new_match, random_deal
    from bot.game.engine import apply, legal_actions
    from bot.game.presets import rules_for
    from bot.game.simulate import random_move, random_policy
    from bot.game.state import Phase

    house = name.partition("+")[2]
    rules = rules_for("russian", HOUSE[house]) if house else preset(name)
    rng = random.Random(4)
    s = new_match(rules)
    checked = 0
    for _ in range(40):
        if s.phase is Phase.MATCH_OVER:
            s = new_match(rules)
        for move in random_deal(s, rng):
            s, _ = apply(s, move)
        while s.phase not in (Phase.DEALING, Phase.MATCH_OVER):
            seed = rng.random()
            fast = random_move(s, random.Random(seed))
            slow = random_policy(s, legal_actions(s), random.Random(seed))
            assert fast == slow, (s.phase, fast, slow)
            checked += 1
            s, _ = apply(s, slow)
    assert checked > 100


@pytest.mark.parametrize(("name", "actions", "matches"), [
    ("russian", 7821, 1), ("russian_online", 7423, 0), ("polish2_stock", 7200, 22),
    ("german_house4", 7215, 1),
])
def test_simulate_plays_the_same_hands_as_ever(name: str, actions: int, matches: int) -> None:
    """The speed work must not change a seed's hands: the counts of an older engine."""
    stats = simulate(preset(name), hands=300, seed=1)
    assert (stats.actions, stats.matches) == (actions, matches)
