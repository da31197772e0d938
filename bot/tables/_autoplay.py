"""Moves nobody clicks: AI seats, absent players, the turn timer, the end of a pause.

After every change the service calls ``schedule(table)``: if an AI (or the AI standing in
for an absent player) is to act, it moves after ``ai_delay``; if a person is to act and the
table has a timer, he is reminded at half time and, at the end, an AI moves for him (twice
in a row and he is marked away until "I'm back"). A task belongs to the table version it
was scheduled for and does nothing once the table has moved on. A move the database could
not save (its server away) is tried again after a growing wait, so that a table nobody
clicks goes on by itself once the database is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from bot.store import TableStatus, background_work
from bot.tables._model import Notice, Seat, Table, TableError
from bot.tables.clock import Clock

log = logging.getLogger(__name__)
MISSES_BEFORE_AWAY = 2
RETRY_FIRST, RETRY_LONGEST = 1.0, 30.0  # seconds before trying an unsaved move again

# Entered around each automatic move: the caller may hold AI turns back so that people are
# answered first (the Discord bot runs its background work in a few lanes).
Gate = Callable[[], AbstractAsyncContextManager[None]]
# Makes an automatic move for a seat: (table, seat, notices, new seats or None); called with
# the table's lock held.
AutoMove = Callable[[Table, int, list[Notice], Sequence[Seat] | None], Awaitable[None]]
Emit = Callable[[Table, tuple[Notice, ...]], None]
# Deals the next hand of a table whose pause is over; called with the table's lock held.
Deal = Callable[[Table], Awaitable[None]]


class Autoplay:
    """One task per table at most: its next automatic move or its turn timer."""

    def __init__(self, clock: Clock, *, ai_delay: float, gate: Gate | None,
                 move: AutoMove, emit: Emit, deal: Deal) -> None:
        self.clock = clock
        self.ai_delay = ai_delay
        self.gate = gate
        self._move = move
        self._emit = emit
        self._deal = deal
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._busy = 0
        self.closing = False

    def schedule(self, table: Table) -> None:
        """Start what the table's state calls for (replacing what was scheduled)."""
        self.cancel(table)
        if self.closing or table.status is not TableStatus.PLAYING or table.state is None:
            return
        if table.paused:
            self._spawn(table, self._pause(table, table.version))
            return
        seat = table.state.to_act
        if seat < 0:
            return
        if table.seats[seat].automatic:
            self._spawn(table, self._ai_turn(table, table.version, seat))
        elif table.timer > 0:
            self._spawn(table, self._turn_timer(table, table.version, seat))

    def cancel(self, table: Table) -> None:
        task = self._tasks.pop(table.id, None)
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    async def close(self) -> None:
        """Stop every task and wait until they are gone."""
        self.closing = True
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            if task is not asyncio.current_task():
                task.cancel()
        for task in tasks:
            if task is not asyncio.current_task():
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    @property
    def busy(self) -> bool:
        """A move is being made or is due now (not merely waiting on the clock)."""
        return self._busy > 0

    def _spawn(self, table: Table, work: Coroutine[Any, Any, None]) -> None:
        self._busy += 1
        task = asyncio.get_running_loop().create_task(work)
        self._tasks[table.id] = task

        def done(t: asyncio.Task[None]) -> None:
            self._busy -= 1
            if self._tasks.get(table.id) is t:
                del self._tasks[table.id]

        task.add_done_callback(done)

    async def _sleep(self, seconds: float) -> None:
        """Sleep on the clock; the task counts as idle meanwhile (see ``busy``)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        self._busy -= 1
        try:
            await self.clock.sleep(seconds)
        finally:
            self._busy += 1

    async def _until_saved(self, table: Table, attempt: Callable[[], Awaitable[None]]) -> None:
        """Run ``attempt`` as background work (answers to people get a database connection
        first); while the database cannot save it, again after a growing wait."""
        wait = 0.0
        while True:
            try:
                with background_work():
                    await attempt()
                return
            except TableError as exc:
                if exc.key != "error.not_saved":
                    raise
            wait = min(max(2 * wait, RETRY_FIRST), RETRY_LONGEST)
            log.warning("automatic move at table %s not saved; trying again in %g s",
                        table.id, wait)
            await self._sleep(wait)

    async def _ai_turn(self, table: Table, version: int, seat: int) -> None:
        async def attempt() -> None:
            gate = self.gate() if self.gate is not None else contextlib.nullcontext()
            async with gate, table.lock:
                if table.version == version and table.status is TableStatus.PLAYING:
                    await self._move(table, seat, [], None)

        try:
            await self._sleep(self.ai_delay)
            await self._until_saved(table, attempt)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("automatic move failed at table %s", table.id)

    async def _pause(self, table: Table, version: int) -> None:
        async def attempt() -> None:
            async with table.lock:
                if table.version == version and table.paused:
                    await self._deal(table)

        try:
            await self._sleep(table.pause_until - self.clock.now())
            await self._until_saved(table, attempt)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("dealing after the pause failed at table %s", table.id)

    async def _turn_timer(self, table: Table, version: int, seat: int) -> None:
        try:
            await self._sleep(table.timer / 2)
            async with table.lock:
                if table.version != version:
                    return
                s = table.seats[seat]
                self._emit(table, (Notice("notice.reminder", {
                    "name": s.name, "seconds": table.timer // 2}, mention=s.user_id),))
            await self._sleep(table.timer - table.timer / 2)

            async def attempt() -> None:
                async with table.lock:
                    if table.version != version or table.status is not TableStatus.PLAYING:
                        return
                    s = table.seats[seat]
                    missed = s.but(missed=s.missed + 1)
                    notices = [Notice("notice.timed_out", {"name": s.name})]
                    if missed.missed >= MISSES_BEFORE_AWAY:
                        missed = missed.but(away=True)
                        notices.append(Notice("notice.away", {"name": s.name},
                                              mention=s.user_id))
                    seats = list(table.seats)
                    seats[seat] = missed  # stored with the move the AI makes for him
                    await self._move(table, seat, notices, seats)
                    if table.plan is not None:  # a tournament's: a strike (_planned.py)
                        table.plan.timed_out(table, seat)

            await self._until_saved(table, attempt)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("turn timer failed at table %s", table.id)

