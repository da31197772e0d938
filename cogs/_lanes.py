"""Answers first: interactions are answered ahead of the bot's background work.

asyncio runs whatever is ready in arrival order, one loop iteration after another. When
hundreds of tables are busy, background work (automatic moves, table-message edits, hand
refreshes and their images) fills every iteration, and an interaction, which needs a
handful of iterations from the gateway to its answer, waits behind all of it: measured at
200 tables clicking flat out, iterations of 200 ms with 600 callbacks each, acks at p99 0.5 s.

So background work runs in *lanes*: each job holds a lane for one short step (a move, an
edit request) and the others wait outside the loop's ready queue, where they cost nothing.
Interactions never take a lane. How many lanes is adaptive (additive increase,
multiplicative decrease, as in TCP): a ticker measures how late the loop runs it; while the
loop is late by more than ``target`` seconds the number of lanes shrinks, and while jobs wait
and the loop has time to spare (a tick on time within ``slack``) it grows. So a bot whose
background work mostly waits on Discord (tens of ms per request) gets many lanes, and a bot
short of CPU few.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import AsyncIterator

# A late tick takes a tenth of the lanes away: gentler than TCP's half, because a tick is
# also late for reasons fewer lanes do not cure (a GC pass, the render thread's GIL turns);
# measured at 200 tables: a quarter per tick left the bot with too few lanes to keep up.
CUT = 0.9


class Lanes:
    """Background jobs at once: between ``least`` and ``most``, adapted to the loop's lag.

    ``most`` = 0 turns the limit off (every job runs at once)."""

    def __init__(self, most: int = 256, *, least: int = 1, target: float = 0.010,
                 slack: float = 0.002, tick: float = 0.020) -> None:
        # A floor of one: when the CPU is short, one background step at a time, so that
        # people wait for their turn (AI moves, edits) rather than for their answers. Measured
        # at 400 tables in two processes flat out, ten alternating runs: ack p99 median
        # 276 ms against 340 ms with a floor of four, as many interactions a second; the
        # lanes grow again on the first ticks with time to spare. Shrinking at 10 ms late
        # rather than 15 gave p50 42-44 ms against 47-49 (four pairs; docs/performance.md).
        self.most, self.least = most, max(1, min(least, most or least))
        # Grow only on a tick that came on time: a loop a few ms late has no time to spare.
        # Growing on every tick not over ``target`` (fifty a second) outpaced the cuts where
        # the CPU is the limit: at 400 tables in two processes the lanes swung between 8 and
        # 23 and acks waited behind them (p99 0.55-0.79 s; 0.44-0.47 s with the slack, and at
        # 200 tables with Discord 60 ms away 67-70 ms against 46-56 ms, as many moves).
        self.target, self.slack, self.tick = target, slack, tick
        self.limit = float(self.least if most else 0)
        self.busy = 0  # lanes in use
        self._waiters: collections.deque[asyncio.Future[None]] = collections.deque()
        self._ticker: asyncio.Task[None] | None = None

    @property
    def waiting(self) -> int:
        return len(self._waiters)

    @contextlib.asynccontextmanager
    async def background(self) -> AsyncIterator[None]:
        """Hold a lane around one step of background work."""
        if not self.most:
            yield
            return
        await self._acquire()
        try:
            yield
        finally:
            self._release()

    async def _acquire(self) -> None:
        if self._ticker is None or self._ticker.done():
            self._ticker = asyncio.get_running_loop().create_task(self._watch())
        if self.busy < int(self.limit) and not self._waiters:
            self.busy += 1
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(fut)
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():  # handed a lane just now: pass it on
                self.busy -= 1
                self._wake()
            else:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(fut)
            raise

    def _release(self) -> None:
        self.busy -= 1
        self._wake()

    def _wake(self) -> None:
        while self._waiters and self.busy < int(self.limit):
            fut = self._waiters.popleft()
            if not fut.done():
                self.busy += 1
                fut.set_result(None)

    async def _watch(self) -> None:
        """Adapt the number of lanes to the loop's lateness; stop when all is quiet."""
        loop = asyncio.get_running_loop()
        idle = 0
        while idle < 50:
            start = loop.time()
            await asyncio.sleep(self.tick)
            late = loop.time() - start - self.tick
            if late > self.target:
                self.limit = max(float(self.least), self.limit * CUT)
            elif late < self.slack and self._waiters and self.busy >= int(self.limit):
                self.limit = min(float(self.most), self.limit + 1.0)
                self._wake()
            idle = idle + 1 if not (self.busy or self._waiters) else 0

    def close(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
