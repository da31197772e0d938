"""Players that see only an observation and return an action.

``Player`` is the interface the table service calls (off the event loop); the AI issue
fills in stronger players behind it. ``player(level)`` picks one by its level name.
"""

from __future__ import annotations

import random
from typing import Protocol

from bot.game.actions import Action
from bot.game.observation import Observation

LEVELS: tuple[str, ...] = ("easy", "normal")


class Player(Protocol):
    """Chooses one of ``observation.legal``; must never see more than the observation."""

    def choose(self, observation: Observation, rng: random.Random) -> Action: ...


class RandomPlayer:
    """Any legal action (the weakest possible player)."""

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        if not observation.legal:
            raise ValueError("no legal action to choose from")
        return rng.choice(observation.legal)


def player(level: str = "normal") -> Player:
    """The player of a level name (unknown names get the default player)."""
    from bot.ai.simple import SimplePlayer

    if level == "easy":
        return RandomPlayer()
    return SimplePlayer()


__all__ = ["LEVELS", "Player", "RandomPlayer", "player"]
