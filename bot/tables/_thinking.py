"""An AI seat's decision without blocking the event loop: searches run in bot.ai's pool."""

from __future__ import annotations

import asyncio
import random

from bot.ai import DEFAULT_BUDGET
from bot.ai.pool import decide, executor, shutdown, thinks_long
from bot.game.actions import Action
from bot.game.observation import Observation
from bot.tables._catalog import DEFAULT_LEVEL, ai_player


async def choose_off_loop(level: str, observation: Observation, rng: random.Random, *,
                          in_thread: bool = False, budget: float = DEFAULT_BUDGET) -> Action:
    """The action of an AI of ``level``: searches in the process pool, cheap levels here."""
    level = level or DEFAULT_LEVEL
    if thinks_long(level):
        loop = asyncio.get_running_loop()
        seed = rng.getrandbits(64)
        return await loop.run_in_executor(executor(), decide, level, observation, seed, budget)
    ai = ai_player(level)
    if in_thread:
        return await asyncio.to_thread(ai.choose, observation, rng)
    return ai.choose(observation, rng)


async def stop_thinking() -> None:
    """Stop the AI's process pool (if it was started), off the event loop: its workers
    would otherwise outlive the bot's stop."""
    await asyncio.to_thread(shutdown)
