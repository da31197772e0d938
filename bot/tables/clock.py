"""Time for the table service: the real clock, or a fake one tests move by hand."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch (wall clock: stored in the database)."""
        ...

    async def sleep(self, seconds: float) -> None: ...


class RealClock:
    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class FakeClock:
    """Time stands still until ``advance``; sleepers wake in deadline order."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._ids = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + max(0.0, seconds), next(self._ids), fut))
        await fut

    async def advance(self, seconds: float) -> None:
        """Move time forward, waking each sleeper due and letting it run before the next."""
        end = self._now + seconds
        while True:
            await _let_run()
            while self._sleepers and self._sleepers[0][2].done():
                heapq.heappop(self._sleepers)
            if not self._sleepers or self._sleepers[0][0] > end:
                break
            deadline, _, fut = heapq.heappop(self._sleepers)
            self._now = max(self._now, deadline)
            fut.set_result(None)
        self._now = end
        await _let_run()


async def _let_run(rounds: int = 20) -> None:
    """Give ready tasks (including thread hops of aiosqlite) a chance to finish."""
    for _ in range(rounds):
        await asyncio.sleep(0.001)
