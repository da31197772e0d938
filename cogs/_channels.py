"""Each channel's budget of creates and edits, kept while something of it is pending.

Discord allows about five messages created or edited per channel in five seconds; a
``RateLimiter`` per channel paces the table message's edits and the channel's posts alike,
serving its waiters in turn, so that a busy table's edits do not starve the posts. A channel
without pending work is forgotten once its budget's window has passed (a new limiter would
allow a burst). ``Outlet`` is what every sender of the publisher shares.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass

import discord

from cogs._images import Images
from cogs._lanes import Lanes

ChannelOf = Callable[[int], discord.PartialMessageable]


@dataclass(eq=False)
class Outlet:
    """What the publisher's senders share: a channel's partial messageable by id, the lanes
    that let interactions be answered first, the renderer, and the count of sends."""

    channel: ChannelOf
    lanes: Lanes
    images: Images
    sent: int = 0  # channel creates and edits made (for tests and the benchmark)


class RateLimiter:
    """A sliding log: at most ``limit`` calls in any ``per`` seconds (plus a margin).

    Waiters are served in turn (first come, first served)."""

    def __init__(self, limit: int = 5, per: float = 5.0, margin: float = 0.3) -> None:
        self.limit, self.window = limit, per + margin
        self.spacing = per / limit  # spread the budget: no burst that starves later sends
        self.stamps: collections.deque[float] = collections.deque()
        self._line: collections.deque[asyncio.Future[None]] = collections.deque()

    def delay(self) -> float:
        """Seconds until the next call may be made."""
        now = time.monotonic()
        while self.stamps and now - self.stamps[0] >= self.window:
            self.stamps.popleft()
        wait = 0.0
        if self.stamps:
            wait = self.spacing - (now - self.stamps[-1])
        if len(self.stamps) >= self.limit:
            wait = max(wait, self.window - (now - self.stamps[0]))
        return max(0.0, wait)

    def quiet_in(self) -> float:
        """Seconds until no call made so far counts any more (the limiter may be dropped)."""
        if not self.stamps:
            return 0.0
        return max(0.0, self.window - (time.monotonic() - self.stamps[-1]))

    def note(self) -> None:
        """Count a call made now without waiting (e.g. a message the cogs created)."""
        self.stamps.append(time.monotonic())

    async def acquire(self) -> float:
        """Take a place in the budget, in turn; returns its stamp (see ``restamp``)."""
        if not self._line and self.delay() <= 0:
            return self._take()
        me: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._line.append(me)
        try:
            if self._line[0] is not me:
                await me  # the waiter ahead hands the turn on when it takes its place
            wait = self.delay()
            while wait > 0:
                await asyncio.sleep(wait)
                wait = self.delay()
            return self._take()
        finally:
            if self._line and self._line[0] is me:
                self._line.popleft()
                if self._line and not self._line[0].done():
                    self._line[0].set_result(None)
            else:
                with contextlib.suppress(ValueError):
                    self._line.remove(me)

    def _take(self) -> float:
        stamp = time.monotonic()
        self.stamps.append(stamp)
        return stamp

    def release(self, stamp: float) -> None:
        """The call taken at ``stamp`` was not made after all."""
        with contextlib.suppress(ValueError):
            self.stamps.remove(stamp)

    def restamp(self, stamp: float) -> None:
        """The call taken at ``stamp`` goes out only now (it waited for an image)."""
        with contextlib.suppress(ValueError):
            self.stamps.remove(stamp)
        self.stamps.append(time.monotonic())


@dataclass(eq=False)
class Channel:
    """A channel while something of it is pending (and its budget's window after)."""

    id: int
    limiter: RateLimiter
    active: int = 0  # its keys with pending sends (table messages, the posts)
    prune: asyncio.TimerHandle | None = None


class Channels:
    """The channels with something pending, each with its budget."""

    def __init__(self, limit: int, per: float) -> None:
        self.limit, self.per = limit, per
        self._channels: dict[int, Channel] = {}

    def get(self, channel_id: int) -> Channel:
        """The channel's state, made when it has none."""
        ch = self._channels.get(channel_id)
        if ch is None:
            ch = self._channels[channel_id] = Channel(
                channel_id, RateLimiter(self.limit, self.per))
        return ch

    def __getitem__(self, channel_id: int) -> Channel:
        return self._channels[channel_id]

    def note_sent(self, channel_id: int) -> None:
        """Count a message the cogs created through the channel route (e.g. /table show)."""
        ch = self.get(channel_id)
        ch.limiter.note()
        if not ch.active:
            self._schedule_prune(ch)

    def release(self, ch: Channel) -> None:
        """One of the channel's keys has nothing pending any more."""
        ch.active -= 1
        if not ch.active:
            self._schedule_prune(ch)

    def close(self) -> None:
        """Forget every channel, with no timer left."""
        for ch in self._channels.values():
            if ch.prune is not None:
                ch.prune.cancel()
        self._channels.clear()

    def _schedule_prune(self, ch: Channel) -> None:
        # The limiter is kept while its calls still count: a new one would allow a burst.
        if ch.prune is not None:
            ch.prune.cancel()
        ch.prune = asyncio.get_running_loop().call_later(ch.limiter.quiet_in(), self._prune, ch)

    def _prune(self, ch: Channel) -> None:
        ch.prune = None
        if ch.active or self._channels.get(ch.id) is not ch:
            return
        if ch.limiter.quiet_in() > 0:  # a message was noted meanwhile
            self._schedule_prune(ch)
        else:
            del self._channels[ch.id]
