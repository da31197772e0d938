"""Players that see only an observation and return an action.

``Player`` is the interface the table service calls (off the event loop). ``player(level)``
picks one by its level name: ``LEVELS`` are the ones offered to people; ``random`` and
``simple`` are baselines for tests and the arena.
"""

from __future__ import annotations

import random
from typing import Protocol

from bot.game.actions import Action
from bot.game.observation import Observation

LEVELS: tuple[str, ...] = ("easy", "normal", "strong")
BASELINES: tuple[str, ...] = ("random", "simple")
ALL_LEVELS: tuple[str, ...] = LEVELS + BASELINES
DEFAULT_BUDGET = 0.5  # seconds per decision for ``strong``


class Player(Protocol):
    """Chooses one of ``observation.legal``; must never see more than the observation."""

    def choose(self, observation: Observation, rng: random.Random) -> Action: ...


class RandomPlayer:
    """Any legal action (the weakest possible player)."""

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        if not observation.legal:
            raise ValueError("no legal action to choose from")
        return rng.choice(observation.legal)


def player(level: str = "normal", *, budget: float | None = None) -> Player:
    """The player of a level name; ValueError naming the levels for an unknown one.

    ``budget`` is the strong player's thinking time per decision in seconds.
    """
    if level == "easy":
        from bot.ai.club import EASY, ClubPlayer

        return ClubPlayer(EASY)
    if level == "normal":
        from bot.ai.club import NORMAL, ClubPlayer

        return ClubPlayer(NORMAL)
    if level == "strong":
        from bot.ai.search import SearchPlayer

        return SearchPlayer(DEFAULT_BUDGET if budget is None else budget)
    if level == "simple":
        from bot.ai.simple import SimplePlayer

        return SimplePlayer()
    if level == "random":
        return RandomPlayer()
    raise ValueError(f"unknown AI level {level!r}; the levels are {', '.join(ALL_LEVELS)}")


__all__ = ["ALL_LEVELS", "BASELINES", "DEFAULT_BUDGET", "LEVELS", "Player", "RandomPlayer",
           "player"]
