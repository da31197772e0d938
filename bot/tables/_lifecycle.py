"""Tables from start-up to shutdown: restored from the database at start, ended by their
host, swept when abandoned, and the service's timers and pools stopped."""

from __future__ import annotations

import asyncio

from bot.game.rules import Rules
from bot.store import StoreUnavailable, TableStatus
from bot.tables._core import (
    PLAYING,
    SEATING,
    ServiceCore,
    log,
)
from bot.tables._log import replay_match
from bot.tables._model import Actor, Notice, Outcome, Seat, Table, TableError
from bot.tables._thinking import stop_thinking


class Lifecycle(ServiceCore):
    """Restoring, ending and sweeping tables, and stopping the service."""

    async def restore(self) -> int:
        """Rebuild every live table this process holds from the database (replaying its
        log); how many. Tables of other processes' shards are left to them.

        A log with an unreadable or illegal move keeps what replays before it; the rest is
        set aside for the operator (``python -m bot db check`` lists it) and the channel is
        told."""
        self.analyses.loop = asyncio.get_running_loop()  # stored analyses run here
        count = 0
        ended_at: dict[int, float] = {}  # when each table's last stored move was made
        for row in await self.store.live_tables():
            if not self.owns(row.guild_id):
                continue
            table = Table(
                id=row.id, guild_id=row.guild_id, channel_id=row.channel_id,
                host_id=row.host_id, preset=row.preset,
                rules=Rules.from_json(row.rules), timer=row.timer, status=row.status,
                match_no=row.match_no, dealer=row.dealer, message_id=row.message_id,
                created_at=row.created_at, last_human_at=row.last_human_at,
                seats=tuple(Seat.from_row(s) for s in row.seats), locale=row.locale,
                pause=row.pause)
            if self.planner is not None:  # a tournament's table: its boards (_planned.py)
                await self.planner(table)
            try:
                ended_at[table.id] = await self._replay(table)
            except StoreUnavailable:  # the log is fine, the server is not: start later
                raise
            except Exception:
                log.exception("table %s could not be restored; closing it", table.id)
                await self.ledger.close(table, TableStatus.ENDED)
                continue
            self._register(table)
            count += 1
        for table in self.tables:
            async with table.lock:
                if table.status is PLAYING and not (
                        table.paused and self.ledger.hold(table, ended_at.get(table.id, 0.0))):
                    await self.ledger.deal(table, self._deal_rng(table))
                self._turn_began(table, (), None)  # whose turn it is now began before
                self.autoplay.schedule(table)
        return count

    async def _replay(self, table: Table) -> float:
        """Rebuild the table's match from its log; when its last good move was made."""
        if table.status is SEATING or table.match_no == 0:
            return 0.0
        rows = await self.store.moves(table.id, table.match_no)
        moves = [r.move for r in rows]
        done = await asyncio.to_thread(replay_match, table.rules, table.dealer, moves)
        table.state, table.seq, table.results = done.state, done.good, done.results
        table.match_started = next((m.started_at for m in await self.store.matches(table.id)
                                    if m.match_no == table.match_no), table.created_at)
        table.looked = frozenset(await self.store.looks(table.id, table.match_no))
        ended_at = rows[done.good - 1].created_at if done.good else 0.0
        if done.bad is None:
            return ended_at
        bad = rows[done.bad]
        log.error("table %s: stored move %s of match %s does not replay (%s); keeping the "
                  "%s moves before it", table.id, bad.seq, table.match_no, done.reason,
                  done.good)
        aside = await self.ledger.set_aside(table, done.state, bad.seq, done.reason)
        self._notify(table, (Notice("notice.restored_partly", {
            "table": table.id, "count": aside, "hand": table.hand_no}),))
        return ended_at

    async def close(self) -> None:
        """Stop timers and AI turns (the database keeps everything)."""
        await self.autoplay.close()
        await self.analyses.close()
        await self.daily.close()

    async def close_pools(self) -> None:
        """Stop the AI's worker processes (a process that stops; after :meth:`close`)."""
        await stop_thinking()

    async def close_store(self) -> None:
        """Close the database (last, after everything that reads it stopped)."""
        await self.store.close()

    def may_end(self, table_id: int, actor: Actor) -> Table:
        """The table, if ``actor`` may end it (its host or a channel manager)."""
        table = self.get(table_id, actor)
        if actor.user_id != table.host_id and not actor.can_manage:
            raise TableError("error.not_host_or_manager")
        return table

    async def end(self, table_id: int, actor: Actor) -> Outcome:
        table = self.may_end(table_id, actor)
        async with table.lock:
            if not table.live:
                raise TableError("error.table_closed")
            await self._close(table, TableStatus.ENDED)
            return Outcome(table, "ok.ended")

    async def set_message(self, table: Table, message_id: int | None) -> None:
        """Remember the public table message (so that it survives a restart)."""
        await self.ledger.message(table, message_id)

    async def sweep(self) -> list[Table]:
        """Close tables without a human move for ``abandon_after`` seconds."""
        now = self.clock.now()
        closed = []
        for table in self.tables:
            if now - table.last_human_at >= self.abandon_after:
                async with table.lock:
                    if table.live and now - table.last_human_at >= self.abandon_after:
                        await self._close(table, TableStatus.ABANDONED)
                        closed.append(table)
        return closed

    async def run_sweeper(self, every: float = 600.0) -> None:
        """Sweep forever (a background task of the bot)."""
        while not self.autoplay.closing:
            await self.clock.sleep(every)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweep failed")
