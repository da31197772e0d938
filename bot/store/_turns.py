"""Answers first at the database too: who gets the next pooled connection.

A bot process shares one connection pool between the moves people wait for (their
interaction is answered only after the commit) and its own background work (AI moves, timed
moves), which outnumbers them two to one at a table with two AI players. asyncpg's pool
serves waiters in arrival order, so at 400 busy tables an answer queued behind background
transactions for a connection: measured waits of 0.2-1 s at p95. A :class:`Turns` lets the
waiting answers in first; background work marks itself with :func:`background_work`.
Background work also leaves a quarter of the connections to answers: when every connection
is taken by a background transaction on a saturated machine, the next answer waits for one
of them to finish (p99 220 ms in one process of the 400-table bench); with the reserve the
bench's ack p99 was 353-408 ms against 379-505 ms in four alternate pairs.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

_background: ContextVar[bool] = ContextVar("tysiac_background_work", default=False)


@contextlib.contextmanager
def background_work() -> Iterator[None]:
    """Database work started in this block (and the tasks it awaits) waits behind answers."""
    token = _background.set(True)
    try:
        yield
    finally:
        _background.reset(token)


def is_background() -> bool:
    """Is the current task doing background work (see :func:`background_work`)?"""
    return _background.get()


class Turns:
    """At most ``size`` holders at once; waiting answers are let in before background work,
    which never takes the last ``reserve`` turns."""

    def __init__(self, size: int, reserve: int = 0) -> None:
        self.free = size
        self.reserve = reserve  # turns background work leaves to answers
        self._answers: collections.deque[asyncio.Future[None]] = collections.deque()
        self._background: collections.deque[asyncio.Future[None]] = collections.deque()

    @property
    def waiting(self) -> int:
        return len(self._answers) + len(self._background)

    async def enter(self, background: bool) -> None:
        """Wait for a turn (give it back with :meth:`leave`)."""
        if not self._answers and (self.free > self.reserve and not self._background
                                  if background else self.free > 0):
            self.free -= 1
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue = self._background if background else self._answers
        queue.append(fut)
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():  # handed a turn just now: pass it on
                self.leave()
            else:
                with contextlib.suppress(ValueError):
                    queue.remove(fut)
            raise

    def leave(self) -> None:
        """Give a turn back: to the first waiting answer, else to background work."""
        self.free += 1
        while self.free > 0 and (self._answers or (
                self._background and self.free > self.reserve)):
            fut = (self._answers or self._background).popleft()
            if not fut.done():
                self.free -= 1
                fut.set_result(None)
