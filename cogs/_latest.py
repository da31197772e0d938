"""Keep the newest version of a message until it is sent, within its budget.

The one primitive of the bot's output (``cogs._publisher``): the table message, a hand's text
and a hand's image, a channel's queue of posts. ``put(key, value)`` says "the message of
``key`` should now show ``value``" (the latest state); a task per key sends it, calling the
sender with the value of *that moment*, so that a burst of changes costs one send. For each
key: at most one send in flight; a ``put`` while sending means one more send afterwards; a
send that fails is retried a few times with back-off, unless the failure says the message is
gone (then its pending version is dropped); ``drop(key)`` discards the pending version. A key
without pending work has neither state nor task.

The budget (the channel's rate limiter for channel messages, none for interaction-token
edits) is taken before the sender runs; the sender calls ``going()`` just before its request
leaves (the budget counts the request then, not when its place was taken), and a round that
sent nothing gives its place back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

log = logging.getLogger(__name__)
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Budget(Protocol):
    """A place in a rate budget: taken, spent when the request leaves, or given back."""

    async def acquire(self) -> float: ...

    def restamp(self, stamp: float) -> None: ...

    def release(self, stamp: float) -> None: ...


# sender(key, value, going): sends ``value`` (or finds nothing to send); calls ``going()``
# right before its request leaves
Sender = Callable[[K, V, Callable[[], None]], Awaitable[None]]


@dataclass(eq=False)
class _Slot(Generic[V]):
    value: V
    task: asyncio.Task[None] | None = None
    dirty: bool = True  # a version not sent yet


class Latest(Generic[K, V]):
    """Pending sends by key: the newest value wins, one send in flight per key.

    ``delay``: seconds to wait before each send (a burst of changes lands in one);
    ``budget(key)``: the budget of the key's sends (None: unlimited); ``gone(exc)``: the
    failure means the message is gone (no retry); ``failed(key, value, exc)``: called when a
    send is given up (gone, or still failing after ``retries`` retries); ``ended(key,
    value)``: called when the key has nothing pending any more (its task ends)."""

    def __init__(self, send: Sender[K, V], *, delay: float = 0.0,
                 budget: Callable[[K, V], Budget | None] | None = None,
                 gone: Callable[[Exception], bool] = lambda exc: False,
                 failed: Callable[[K, V, Exception], None] | None = None,
                 ended: Callable[[K, V], None] | None = None,
                 retries: int = 3, backoff: float = 0.5) -> None:
        self._send, self.delay, self._budget = send, delay, budget
        self._gone, self._failed, self._ended = gone, failed, ended
        self.retries, self.backoff = retries, backoff
        self._slots: dict[K, _Slot[V]] = {}
        self._closed = False
        self.sends = 0  # requests made (for tests and benchmarks)

    def __len__(self) -> int:
        """Keys with a pending version or a send in flight."""
        return len(self._slots)

    def active(self, key: K) -> bool:
        return key in self._slots

    def put(self, key: K, value: V) -> bool:
        """The message of ``key`` should show ``value`` now; True if the key was idle."""
        if self._closed:
            return False
        slot = self._slots.get(key)
        if slot is not None:
            slot.value, slot.dirty = value, True
            return False
        slot = self._slots[key] = _Slot(value)
        slot.task = asyncio.get_running_loop().create_task(self._run(key, slot))
        return True

    def drop(self, key: K) -> None:
        """Discard the pending version of ``key`` (a send in flight still completes)."""
        slot = self._slots.get(key)
        if slot is not None:
            slot.dirty = False

    async def aclose(self) -> None:
        """Stop: pending versions are dropped, sends in flight cancelled and awaited."""
        self._closed = True
        tasks = [s.task for s in self._slots.values() if s.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._slots.clear()

    async def _run(self, key: K, slot: _Slot[V]) -> None:
        failures = 0
        try:
            while slot.dirty:
                wait = self.delay if not failures else self.backoff * 2 ** (failures - 1)
                if wait > 0:
                    await asyncio.sleep(wait)
                    if not slot.dirty:
                        break
                budget = self._budget(key, slot.value) if self._budget is not None else None
                stamp = await budget.acquire() if budget is not None else 0.0
                if not slot.dirty:  # dropped while waiting for the budget
                    if budget is not None:
                        budget.release(stamp)
                    break
                failures = await self._attempt(key, slot, budget, stamp, failures)
        finally:
            self._finish(key, slot)

    async def _attempt(self, key: K, slot: _Slot[V], budget: Budget | None, stamp: float,
                       failures: int) -> int:
        """Send the slot's latest value once, within the place taken in ``budget``; returns
        the failures in a row so far (0 after a success or a failure given up)."""
        slot.dirty = False
        value = slot.value
        went = False

        def going(budget: Budget | None = budget, stamp: float = stamp) -> None:
            nonlocal went
            if not went and budget is not None:
                budget.restamp(stamp)
            went = True

        try:
            await self._send(key, value, going)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not went and budget is not None:
                budget.release(stamp)
            return self._failed_attempt(key, slot, value, exc, failures)
        if went:
            self.sends += 1
        elif budget is not None:
            budget.release(stamp)
        return 0

    def _failed_attempt(self, key: K, slot: _Slot[V], value: V, exc: Exception,
                        failures: int) -> int:
        """A send failed: retried (the latest version, after a back-off) unless the message
        is gone or it failed too often; returns the failures in a row."""
        if self._gone(exc):
            slot.dirty = False
            self._give_up(key, value, exc)
            return 0
        failures += 1
        if failures <= self.retries:
            log.debug("send of %r failed (%s): retrying", key, exc)
            slot.dirty = True  # the latest version, after a back-off
            return failures
        self._give_up(key, value, exc)
        return 0  # a newer version put meanwhile starts afresh

    def _finish(self, key: K, slot: _Slot[V]) -> None:
        """The key's task ends: it has nothing pending any more."""
        if self._slots.get(key) is slot:
            del self._slots[key]
        if self._ended is not None and not self._closed:
            try:
                self._ended(key, slot.value)
            except Exception:
                log.exception("end handler of %r failed", key)

    def _give_up(self, key: K, value: V, exc: Exception) -> None:
        if self._failed is not None:
            try:
                self._failed(key, value, exc)
            except Exception:
                log.exception("failure handler of %r failed", key)
        else:
            log.warning("send of %r given up: %s", key, exc)

