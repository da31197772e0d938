"""An AI seat's decision without blocking the event loop: searches run in bot.ai's pool."""

from __future__ import annotations

import asyncio
import random

from bot.ai import DEFAULT_BUDGET
from bot.ai.pool import decide, executor, shutdown, thinks_long
from bot.game.actions import Action
from bot.game.boards import board_over, result_of
from bot.game.engine import apply_into
from bot.game.observation import Observation, observe
from bot.game.state import State
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


async def played_out(start: State, level: str, seed: str, *,
                     budget: float = DEFAULT_BUDGET) -> tuple[list[Action], tuple[int, ...]]:
    """A board's one hand played to its end by AIs of ``level`` in every seat, move ``k``
    drawn with a generator seeded by ``seed|k`` (the same moves every time): the moves and
    each seat's change of total."""
    state = start
    moves: list[Action] = []
    while not board_over(state):
        rng = random.Random(f"{seed}|{len(moves)}")
        action = await choose_off_loop(level, observe(state, state.to_act), rng,
                                       in_thread=True, budget=budget)
        state = apply_into(state, action, None)
        moves.append(action)
    return moves, result_of(state)


async def stop_thinking() -> None:
    """Stop the AI's process pool (if it was started), off the event loop: its workers
    would otherwise outlive the bot's stop."""
    await asyncio.to_thread(shutdown)
