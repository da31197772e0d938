"""Positions met while club players play whole matches (for the AI tests)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

from bot.ai.club import ClubPlayer
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply_into
from bot.game.observation import observe
from bot.game.rules import Rules
from bot.game.state import Phase, State

T = TypeVar("T")


def self_play(rules: Rules, seed: int, want: int, pick: Callable[[State], T | None]) -> list[T]:
    """Club players play matches until ``pick`` has chosen ``want`` things (observations,
    copies of states) from the positions they meet."""
    club = ClubPlayer()
    rng = random.Random(seed)
    found: list[T] = []
    s = new_match(rules, 0)
    while len(found) < want:
        if s.phase is Phase.MATCH_OVER:
            s = new_match(rules, 0)
        for move in random_deal(s, rng):
            s = apply_into(s, move, None)
        while s.phase not in (Phase.DEALING, Phase.MATCH_OVER):
            o = pick(s)
            if o is not None:
                found.append(o)
            s = apply_into(s, club.choose(observe(s, s.to_act), rng), None)
    return found
