"""Running an event (docs/tournaments.md): check-in, the start, rounds, strikes, the end.

Everything here is a step that looks at what is stored and does the next thing that is due,
so the same step resumes an event after a restart at any moment: ``step(event_id)`` runs
under the event's lock, from the scheduler's tick, after a board ends and after a par is
computed. What is posted is marked in the store before it is posted, so a restart never
posts twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from bot.ai import DEFAULT_BUDGET
from bot.game.actions import Action, Deal
from bot.game.presets import preset
from bot.game.serialize import move_to_json
from bot.game.tournament import (
    EventBoard,
    event_seed,
    first_round,
    later_round,
    meetings,
    round_boards,
    with_fillers,
)
from bot.store import (
    BoardResultRow,
    EventTableRow,
    StoreAPI,
    TableStatus,
    TournamentRow,
    TxAPI,
)
from bot.tables._model import Seat, Table
from bot.tables._service import TableService
from bot.tables._thinking import played_out
from bot.tables._tournament_model import EventStatus, RoundReport, TournamentPort
from bot.tables._tournament_results import RoundEnds
from bot.tables._tournament_view import (
    Loaded,
    report_of,
    seat_results,
    standing_lines,
    table_of,
    view_of,
)
from bot.tables.clock import Clock

log = logging.getLogger(__name__)
AI_LEVEL = "normal"  # the AI fillers, and the AI standing in for a player
PAR_LEVEL = "strong"
EVENT_TIMER = 120  # seconds a player has for a move at an event's table
BOARD_GAP = 5.0  # seconds a finished board stays on show before the next is dealt
STRIKES_OUT = 2  # strikes that withdraw a player


class EventPlan:
    """A round's table of an event: its boards in order, its results into the store."""

    def __init__(self, rounds: Rounds, row: EventTableRow, boards: list[EventBoard]) -> None:
        self.rounds = rounds
        self.row = row
        self.boards = boards

    def board(self, match_no: int) -> tuple[int, Deal] | None:
        """Board ``match_no`` (1-based) of the round: its dealer and deal."""
        if not 1 <= match_no <= len(self.boards):
            return None
        b = self.boards[match_no - 1]
        return b.dealer, b.deal

    async def ended(self, tx: TxAPI, table: Table, delta: tuple[int, ...],
                    now: float) -> None:
        """The board's result, in the transaction of its last move."""
        r = self.row
        await tx.add_board_result(BoardResultRow(r.tournament_id, r.round_no, table.match_no,
                                                 r.table_no, delta, table.match_no), now)
        if table.match_no >= len(self.boards):
            await tx.update_tournament_table(r.tournament_id, r.round_no, r.table_no, done=True)

    def after(self, table: Table) -> None:
        """Deal the next board after a short look at this one (or end the round)."""
        self.rounds.spawn(self.rounds.next_board(self.row.tournament_id, table))

    def timed_out(self, table: Table, seat: int) -> None:
        """A strike for the player of ``seat``."""
        user = self.row.user_ids[seat] if seat < len(self.row.user_ids) else -1
        if user >= 0:
            self.rounds.spawn(self.rounds.strike(self.row.tournament_id, user))


class Rounds(RoundEnds):
    """The engine of the events of this process's servers."""

    def __init__(self, store: StoreAPI, tables: TableService, clock: Clock, *,
                 owned: Callable[[int], bool], port: Callable[[], TournamentPort | None],
                 par_level: str = PAR_LEVEL, par_budget: float = DEFAULT_BUDGET,
                 board_gap: float = BOARD_GAP, timer: int = EVENT_TIMER,
                 ai_level: str = AI_LEVEL) -> None:
        self.store = store
        self.tables = tables
        self.clock = clock
        self.owned = owned
        self.port = port
        self.par_level = par_level
        self.par_budget = par_budget
        self.board_gap = board_gap
        self.timer = timer
        self.ai_level = ai_level
        self.locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._pars: set[tuple[int, int, int]] = set()  # being computed
        self._pending: set[int] = set()  # tables waiting to deal their next board
        tables.planner = self.plan_for

    # ---- background work -----------------------------------------------------------------
    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background (errors logged)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("tournament work failed", exc_info=task.exception())

    @property
    def busy(self) -> bool:
        """Background work is running (tests wait for it)."""
        return bool(self._tasks)

    async def close(self) -> None:
        """Stop the background work (the store keeps everything)."""
        tasks = list(self._tasks)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ---- reading --------------------------------------------------------------------------
    async def load(self, event_id: int) -> Loaded | None:
        """An event's rows (None: no such event)."""
        row = await self.store.tournament(event_id)
        if row is None:
            return None
        return Loaded(row, await self.store.tournament_entrants(event_id),
                      await self.store.tournament_tables(event_id),
                      await self.store.tournament_posted(event_id))

    def boards(self, row: TournamentRow, round_no: int) -> list[EventBoard]:
        """A round's boards."""
        return round_boards(event_seed(row.id, row.name), row.preset, round_no, row.boards)

    async def plan_for(self, table: Table) -> None:
        """Attach its plan to a table of an event being restored."""
        row = await self.store.tournament_table_of(table.id)
        if row is None:
            return
        event = await self.store.tournament(row.tournament_id)
        if event is not None:
            table.plan = EventPlan(self, row, self.boards(event, row.round_no))

    # ---- the step -------------------------------------------------------------------------
    async def step(self, event_id: int) -> None:
        """Do what is due for an event (nothing for another process's server)."""
        lock = self.locks.setdefault(event_id, asyncio.Lock())
        async with lock:
            ev = await self.load(event_id)
            if ev is None or not self.owned(ev.row.guild_id):
                return
            port = self.port()
            status = EventStatus(ev.row.status)
            now = self.clock.now()
            if port is None or not status.open:
                return
            if status is EventStatus.SIGNUP and now >= ev.row.start_at - (
                    60 * ev.row.checkin_minutes):
                await self._open_checkin(ev, port)
            elif status is EventStatus.CHECKIN and now >= ev.row.start_at:
                await self._start(ev, port)
            elif status is EventStatus.RUNNING:
                await self.run_round(ev, port)

    async def posting(self, event_id: int, what: str) -> bool:
        """Mark ``what`` posted; False if it was already (then it is not posted again)."""
        if what in await self.store.tournament_posted(event_id):
            return False
        async with self.store.transaction() as tx:
            await tx.mark_posted(event_id, what, self.clock.now())
        return True

    async def _open_checkin(self, ev: Loaded, port: TournamentPort) -> None:
        async with self.store.transaction() as tx:
            await tx.update_tournament(ev.row.id, status=EventStatus.CHECKIN.value)
        ev = await self.load(ev.row.id) or ev
        if await self.posting(ev.row.id, "checkin"):
            await port.checkin_opened(view_of(ev.row, ev.entrants, ev.tables))

    async def _start(self, ev: Loaded, port: TournamentPort) -> None:
        """The start: no-shows dropped and told, then round 1 (too few: cancelled)."""
        no_shows = [e.user_id for e in ev.entrants if not e.checked_in and not e.dropped]
        players = {e.user_id: e.rating for e in ev.entrants if e.checked_in and not e.dropped}
        async with self.store.transaction() as tx:
            for u in no_shows:
                await tx.update_entrant(ev.row.id, u, dropped=True)
            if len(players) < 2:
                await tx.update_tournament(ev.row.id, status=EventStatus.CANCELLED.value)
        ev = await self.load(ev.row.id) or ev
        view = view_of(ev.row, ev.entrants, ev.tables)
        if no_shows and await self.posting(ev.row.id, "dropped"):
            await port.dropped(view, no_shows)
        if len(players) < 2:
            if await self.posting(ev.row.id, "cancelled"):
                await port.cancelled(view)
            return
        seats = preset(ev.row.preset).seats
        await self.begin_round(ev, 1, first_round(players, seats))
        ev = await self.load(ev.row.id) or ev
        await port.entrants_changed(view_of(ev.row, ev.entrants, ev.tables))
        await self.run_round(ev, port)

    async def begin_round(self, ev: Loaded, round_no: int,
                          groups: list[tuple[int, ...]]) -> None:
        """Store a round's seating and start its clock (its tables are made next)."""
        seats = preset(ev.row.preset).seats
        names = {e.user_id: e.name for e in ev.entrants}
        async with self.store.transaction() as tx:
            for no, group in enumerate(groups, 1):
                users = with_fillers(group, seats, no)
                shown = tuple(names.get(u, "?") if u >= 0 else f"AI {-u}" for u in users)
                await tx.add_tournament_table(EventTableRow(ev.row.id, round_no, no, 0, 0,
                                                            users, shown))
            await tx.update_tournament(ev.row.id, status=EventStatus.RUNNING.value,
                                       round_no=round_no, round_started_at=self.clock.now())

    async def seating(self, ev: Loaded, round_no: int) -> list[tuple[int, ...]]:
        """A later round's seating: by the standings, avoiding repeat meetings; players
        without a board yet (late entrants) last, by rating."""
        pars = await self.store.tournament_pars(ev.row.id)
        results = await self.store.tournament_results(ev.row.id)
        lines = standing_lines(seat_results(results, ev.tables), pars, ev.entrants)
        playing = [e for e in ev.entrants if e.checked_in and not e.dropped
                   and not e.withdrawn]
        ranked = [x.user_id for x in lines if x.rank is not None]
        late = sorted((e for e in playing if e.user_id not in ranked),
                      key=lambda e: (-e.rating, e.user_id))
        order = [u for u in ranked if u in {e.user_id for e in playing}]
        order += [e.user_id for e in late]
        met = meetings([t.user_ids for t in ev.tables if t.round_no == r]
                       for r in range(1, round_no))
        # a search of up to half a second with many players: off the event loop
        return await asyncio.to_thread(later_round, order, met, preset(ev.row.preset).seats)

    # ---- a round ---------------------------------------------------------------------------
    async def run_round(self, ev: Loaded, port: TournamentPort) -> None:
        """Open the round's threads and tables, start them together, watch the deadline,
        compute the pars, and end the round once every board and par is in."""
        row = ev.row
        for t in ev.round_tables():
            if t.channel_id == 0:
                channel = await port.open_table(view_of(row, ev.entrants, ev.tables),
                                                table_of(t))
                async with self.store.transaction() as tx:
                    await tx.update_tournament_table(row.id, t.round_no, t.table_no,
                                                     channel_id=channel)
        ev = await self.load(row.id) or ev
        for t in ev.round_tables():
            if t.table_id == 0:
                await self._make_table(ev, t)
        ev = await self.load(row.id) or ev
        pars = await self.store.tournament_pars(row.id)
        self._want_pars(ev, pars)
        overdue = self.clock.now() >= row.round_started_at + 60 * row.round_minutes
        for t in ev.round_tables():
            table = self.live_table(t)
            if table is None and overdue and not t.done:
                await self.play_out_table(ev, t)
            if table is None or t.done:
                continue
            if overdue:
                await self._stand_in(table)
            if table.match_no == 0:  # every table of the round starts together
                await self.tables.start_board(table)
            elif table.status is TableStatus.FINISHED:
                self.spawn(self.next_board(row.id, table))
        complete = all(t.done for t in ev.round_tables()) and all(
            (row.round_no, b) in pars for b in range(1, row.boards + 1))
        if complete:
            await self.round_over(ev, port)

    def live_table(self, t: EventTableRow) -> Table | None:
        if t.table_id == 0:
            return None
        return next((x for x in self.tables.tables if x.id == t.table_id), None)

    async def _make_table(self, ev: Loaded, t: EventTableRow) -> None:
        """The round's table in its thread: seats filled, stored with the event's row."""
        row = ev.row
        rules = preset(row.preset)
        out = {e.user_id for e in ev.entrants if e.withdrawn}
        seats = tuple(Seat(u, n) if u >= 0 and u not in out else
                      Seat(None, n, ai=True, level=self.ai_level)
                      for u, n in zip(t.user_ids, t.names, strict=True))
        now = self.clock.now()
        async with self.store.transaction() as tx:
            table_id = await tx.create_table(
                guild_id=row.guild_id, channel_id=t.channel_id, host_id=row.organiser_id,
                preset=row.preset, rules=rules.to_json(), timer=self.timer, now=now)
            await tx.save_seats(table_id, [s.row(i) for i, s in enumerate(seats)])
            await tx.update_tournament_table(row.id, t.round_no, t.table_no,
                                             table_id=table_id)
        table = Table(id=table_id, guild_id=row.guild_id, channel_id=t.channel_id,
                      host_id=row.organiser_id, preset=row.preset, rules=rules,
                      timer=self.timer, status=TableStatus.SEATING, created_at=now,
                      last_human_at=now, seats=seats)
        stored = EventTableRow(t.tournament_id, t.round_no, t.table_no, t.channel_id,
                               table_id, t.user_ids, t.names, t.done)
        table.plan = EventPlan(self, stored, self.boards(row, t.round_no))
        self.tables.adopt(table)

    async def _stand_in(self, table: Table) -> None:
        """The round's deadline: the AI plays every seat of the table to the end."""
        if all(s.ai for s in table.seats):
            return
        seats = [s if s.ai else Seat(None, s.name, ai=True, level=self.ai_level)
                 for s in table.seats]
        await self.tables.set_seats(table, seats)

    async def next_board(self, event_id: int, table: Table) -> None:
        """After a board: the next one after the gap; after the last, the table closes (and
        the round ends if it was the last table)."""
        if table.id in self._pending:
            return
        self._pending.add(table.id)
        try:
            # Asked twice (a board's end and a scheduler tick), the later call may come after
            # the next board was dealt: only a table between boards has one to deal or is done.
            if not table.live or table.status is not TableStatus.FINISHED:
                return
            if table.plan is not None and table.plan.board(table.match_no + 1) is None:
                await self.tables.end_planned(table)
                await self.step(event_id)
                return
            if self.board_gap > 0:
                await self.clock.sleep(self.board_gap)
            await self.tables.start_board(table)
        finally:
            self._pending.discard(table.id)

    # ---- pars ------------------------------------------------------------------------------
    def _want_pars(self, ev: Loaded, pars: dict[tuple[int, int], list[int]]) -> None:
        """Compute the round's missing pars in the background (each once at a time)."""
        for b in self.boards(ev.row, ev.row.round_no):
            key = (ev.row.id, b.round_no, b.number + 1)
            if key[1:] not in pars and key not in self._pars:
                self._pars.add(key)
                self.spawn(self._par(ev.row.id, b))

    async def _par(self, event_id: int, b: EventBoard) -> None:
        """A board's par (strong AIs in every seat), computed once and stored; then what
        is due (the round may be complete)."""
        try:
            moves, delta = await self.play_out(b, self.par_level, "par")
            async with self.store.transaction() as tx:
                await tx.put_tournament_par(event_id, b.round_no, b.number + 1,
                                            [move_to_json(m) for m in moves],
                                            list(delta), self.clock.now())
        finally:  # a failure is tried again by the next step
            self._pars.discard((event_id, b.round_no, b.number + 1))
        await self.step(event_id)

    async def play_out(self, b: EventBoard, level: str,
                       what: str) -> tuple[list[Action], tuple[int, ...]]:
        """A board played by AIs of ``level`` in every seat (seeded by the board)."""
        return await played_out(b.start(), level, f"1000-tournament-{what}|{b.key}",
                                budget=self.par_budget)

    # ---- strikes ---------------------------------------------------------------------------
    async def strike(self, event_id: int, user_id: int) -> None:
        """The turn timer ran out on a player: a strike; the second withdraws him (the AI
        plays his seat to the end of the round, his results stand, he is not ranked)."""
        lock = self.locks.setdefault(event_id, asyncio.Lock())
        async with lock:
            ev = await self.load(event_id)
            entrant = next((e for e in ev.entrants if e.user_id == user_id), None) if ev else None
            if ev is None or entrant is None or entrant.withdrawn:
                return
            strikes = entrant.strikes + 1
            out = strikes >= STRIKES_OUT
            async with self.store.transaction() as tx:
                await tx.update_entrant(event_id, user_id, strikes=strikes, withdrawn=out)
                await tx.mark_posted(event_id, f"strike:{user_id}:{strikes}", self.clock.now())
            ev = await self.load(event_id) or ev
            if out:
                for t in ev.round_tables():
                    table = self.live_table(t)
                    if table is not None and user_id in t.user_ids:
                        seat = t.user_ids.index(user_id)
                        seats = list(table.seats)
                        seats[seat] = Seat(None, seats[seat].name, ai=True, level=self.ai_level)
                        await self.tables.set_seats(table, seats)
            port = self.port()
            if port is not None:
                view = view_of(ev.row, ev.entrants, ev.tables)
                await port.struck(view, user_id, strikes, out)
                await port.entrants_changed(view)

    async def report(self, ev: Loaded, round_no: int) -> RoundReport:
        """A round's report from the event's rows."""
        return report_of(ev.row, ev.entrants, ev.tables,
                         await self.store.tournament_results(ev.row.id),
                         await self.store.tournament_pars(ev.row.id), round_no)
