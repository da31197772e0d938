"""Where slow players think: a process pool, so that a search never holds the caller's GIL.

Synchronous on purpose (the AI layer has no event loop); the table service awaits
``executor().submit`` through its own loop.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import threading
from concurrent.futures import ProcessPoolExecutor

from bot.ai import DEFAULT_BUDGET, player
from bot.ai.analysis import SeatAnalysis, analyse
from bot.ai.solver import Kind, active, use
from bot.game.actions import Action, Move
from bot.game.observation import Observation
from bot.game.state import State

SLOW_LEVELS = frozenset({"strong"})
# A search may use its whole budget; at a lower priority it takes only the CPU that the
# bots' event loops leave, so the answers to people never wait for an AI's thinking. On
# Linux the workers are also SCHED_IDLE: a waking bot takes the core from them at once,
# where at nice 10 alone it shares it for a while (docs/performance.md, 2026-12-03).
AI_NICENESS = 10

_lock = threading.Lock()
_pools: dict[str, ProcessPoolExecutor] = {}  # one shared pool, made on first use


def thinks_long(level: str) -> bool:
    """The level searches (its decisions belong in the pool, not on the caller's thread)."""
    return level in SLOW_LEVELS


def decide(level: str, observation: Observation, seed: int,
           budget: float = DEFAULT_BUDGET) -> Action:
    """One decision of a fresh player of ``level`` (the pool's task: picklable in and out)."""
    return player(level, budget=budget).choose(observation, random.Random(seed))


def _start(solver: Kind) -> None:
    """The pool worker's start: below the processes that answer people, with the caller's
    solver (a spawned process chooses afresh otherwise)."""
    os.nice(AI_NICENESS)
    if hasattr(os, "SCHED_IDLE"):  # Linux
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    use(solver)


def _cores() -> int:
    """The cores this process may run on (a container's affinity, not the host's count)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def executor(workers: int | None = None) -> ProcessPoolExecutor:
    """The shared pool, a worker per core by default (spawned processes at a lower priority:
    no copy of the caller's state or threads)."""
    with _lock:
        pool = _pools.get("pool")
        if pool is None:
            pool = _pools["pool"] = ProcessPoolExecutor(
                max_workers=workers or _cores(),
                mp_context=multiprocessing.get_context("spawn"), initializer=_start,
                initargs=(active(),))
        return pool


def shutdown() -> None:
    """Stop the pools' processes (tests, and the bot on exit)."""
    with _lock:
        pools = [_pools.pop(name) for name in list(_pools)]
    for pool in pools:
        pool.shutdown(wait=True, cancel_futures=True)


# Analyses get their own single process at the lowest priority: the AI seats at tables keep
# every worker of the shared pool, and the system runs an analysis only on CPU they leave.
ANALYSIS_NICENESS = 19


def _start_analysis(solver: Kind) -> None:
    os.nice(ANALYSIS_NICENESS)
    use(solver)


def analysis_executor() -> ProcessPoolExecutor:
    """The analyses' own pool: one process, below the AI seats' pool."""
    with _lock:
        pool = _pools.get("analysis")
        if pool is None:
            pool = _pools["analysis"] = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_analysis, initargs=(active(),))
        return pool


def analyse_hand(start: State, moves: tuple[Move, ...], seat: int, real: bool,
                 seed: int) -> SeatAnalysis:
    """One seat's analysis of one hand (the analysis pool's task)."""
    return analyse(start, moves, seat, real=real, seed=seed)
