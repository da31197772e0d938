"""Tournaments with duplicate deals (docs/tournaments.md): sign-up, check-in, rounds, standings.

``Tournaments`` is what the cogs call: it checks and stores what people ask (each refusal a
``TableError`` with a ``tournament.error.*`` key), and runs the events of this process's
servers with ``Rounds`` (``_tournament_rounds.py``): the scheduler's tick, a board's end and
a par computed each make it do what is due, so a restart resumes every event where it was.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import Any

from bot.ai import DEFAULT_BUDGET
from bot.store import (
    EntrantRow,
    StoreAPI,
    StoreUnavailable,
    TournamentRow,
    TournamentSettings,
)
from bot.tables._model import Actor, TableError
from bot.tables._results import preset_family
from bot.tables._service import TableService
from bot.tables._tournament_model import EventStatus, EventView, RoundReport, TournamentPort
from bot.tables._tournament_rounds import (
    AI_LEVEL,
    BOARD_GAP,
    EVENT_TIMER,
    PAR_LEVEL,
    Rounds,
)
from bot.tables._tournament_view import (
    Loaded,
    check_minutes,
    check_shape,
    check_timezone,
    clean_name,
    need_organiser,
    parse_start,
    view_of,
)
from bot.tables.clock import Clock, RealClock

log = logging.getLogger(__name__)
CHECKIN_DEFAULT = 15
ROUND_DEFAULT = 60
_EDITABLE = frozenset({"name", "preset", "boards", "rounds", "start", "timezone",
                       "checkin_minutes", "round_minutes"})


def _everything(guild_id: int) -> bool:
    return True


class Tournaments:
    """The tournaments of every server: sign-up, check-in, rounds, standings."""

    def __init__(self, store: StoreAPI, tables: TableService, *, clock: Clock | None = None,
                 owned: Callable[[int], bool] | None = None, par_level: str = PAR_LEVEL,
                 par_budget: float = DEFAULT_BUDGET, board_gap: float = BOARD_GAP,
                 timer: int = EVENT_TIMER, ai_level: str = AI_LEVEL) -> None:
        self.store = store
        self.tables = tables
        self.clock: Clock = clock or RealClock()
        self.owned = owned or _everything  # owned(guild_id): this process runs its events
        self.port: TournamentPort | None = None
        self.rounds = Rounds(store, tables, self.clock, owned=self.owned,
                             port=lambda: self.port, par_level=par_level,
                             par_budget=par_budget, board_gap=board_gap, timer=timer,
                             ai_level=ai_level)
        self._closing = False

    def attach(self, port: TournamentPort) -> None:
        """Where the service posts (the Discord side)."""
        self.port = port

    # ---- running ---------------------------------------------------------------------------
    async def restore(self) -> int:
        """Resume every unfinished event of this process's servers; how many. (The tables
        of a round are restored by the table service, which asks for their boards.)"""
        return await self.tick()

    async def tick(self) -> int:
        """One pass of the scheduler: check-in, starts, deadlines, rounds' ends; how many
        events of this process are open. (One event's failure is logged, not raised.)"""
        count = 0
        for row in await self.store.open_tournaments():
            if self.owned(row.guild_id):
                count += 1
                try:
                    await self.rounds.step(row.id)
                except StoreUnavailable:
                    raise
                except Exception:
                    log.exception("tournament %s: the scheduler's step failed", row.id)
        return count

    async def run_scheduler(self, every: float = 5.0) -> None:
        """Tick forever on the service's clock (a background task of the bot)."""
        while not self._closing:
            try:
                await self.tick()
            except StoreUnavailable as exc:
                log.warning("tournaments wait for the database: %s", exc)
            await self.clock.sleep(every)

    async def settle(self, timeout: float = 60.0) -> None:  # noqa: ASYNC109
        """Wait until no background work of events or tables runs (tests, benchmarks)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            await self.tables.settle(max(0.1, end - loop.time()))
            await asyncio.sleep(0.001)
            if not self.rounds.busy and not self.tables.autoplay.busy:
                return
            if loop.time() > end:
                raise TimeoutError("tournaments still busy")

    async def close(self) -> None:
        """Stop the scheduler's work (the store keeps everything)."""
        self._closing = True
        await self.rounds.close()

    # ---- organising ------------------------------------------------------------------------
    async def _organiser(self, actor: Actor) -> int:
        if actor.guild_id is None:
            raise TableError("error.guild_only")
        need_organiser(actor, await self.store.tournament_settings(actor.guild_id))
        return actor.guild_id

    async def _timezone(self, guild_id: int) -> str | None:
        """The server's time zone for start times (None: UTC)."""
        return (await self.store.tournament_settings(guild_id)).timezone or None

    async def _name_free(self, guild_id: int, name: str, but: int = 0) -> None:
        for row in await self.store.tournaments(guild_id):
            if row.id != but and EventStatus(row.status).open and (
                    row.name.casefold() == name.casefold()):
                raise TableError("tournament.error.name_taken", name=name)

    async def create(self, actor: Actor, *, name: str, preset: str, boards: int, rounds: int,
                     start: str, timezone: str | None = None,
                     checkin_minutes: int = CHECKIN_DEFAULT,
                     round_minutes: int = ROUND_DEFAULT) -> EventView:
        """A new event in the actor's server and channel; ``start`` is "now" (check-in opens
        at once) or "YYYY-MM-DD HH:MM" in ``timezone`` (an IANA name; None: the server's,
        set with /admin tournaments, else UTC)."""
        guild_id = await self._organiser(actor)
        timezone = timezone if timezone is not None else await self._timezone(guild_id)
        name = clean_name(name)
        check_shape(preset, boards, rounds)
        check_minutes(checkin_minutes, round_minutes)
        now = self.clock.now()
        start_at = parse_start(start, timezone, now, checkin_minutes)
        await self._name_free(guild_id, name)
        # chosen here, so that both databases store the event in one write (no id read back)
        event_id = 100_000_000 + secrets.randbelow(900_000_000)
        row = TournamentRow(event_id, guild_id, actor.channel_id or 0, 0, actor.user_id, name,
                            preset, boards, rounds, float(start_at), checkin_minutes,
                            round_minutes, EventStatus.SIGNUP.value, 0, 0.0, float(now))
        async with self.store.transaction() as tx:
            await tx.add_tournament(row)
        await self.rounds.step(event_id)  # "now": check-in opens at once
        return await self._view(event_id)

    async def _loaded(self, event_id: int) -> Loaded:
        ev = await self.rounds.load(event_id)
        if ev is None:
            raise TableError("tournament.error.no_event")
        return ev

    async def _view(self, event_id: int) -> EventView:
        ev = await self._loaded(event_id)
        return view_of(ev.row, ev.entrants, ev.tables)

    async def _may_change(self, ev: Loaded, actor: Actor) -> None:
        if actor.user_id != ev.row.organiser_id:
            await self._organiser(actor)
        if EventStatus(ev.row.status) not in (EventStatus.SIGNUP, EventStatus.CHECKIN):
            raise TableError("tournament.error.started_edit", name=ev.row.name)

    async def edit(self, event_id: int, actor: Actor, **changes: Any) -> EventView:
        """Change an event's settings before it starts (its organiser or an organiser of the
        server): name, preset, boards, rounds, start (with timezone), checkin_minutes,
        round_minutes."""
        bad = set(changes) - _EDITABLE
        if bad:
            raise TableError("tournament.error.setting", name=sorted(bad)[0][:20])
        async with self.rounds.locks.setdefault(event_id, asyncio.Lock()):
            ev = await self._loaded(event_id)
            await self._may_change(ev, actor)
            row = ev.row
            name = clean_name(changes.get("name", row.name))
            preset = changes.get("preset", row.preset)
            boards, rounds = changes.get("boards", row.boards), changes.get("rounds", row.rounds)
            checkin = changes.get("checkin_minutes", row.checkin_minutes)
            deadline = changes.get("round_minutes", row.round_minutes)
            check_shape(preset, boards, rounds)
            check_minutes(checkin, deadline)
            start_at = row.start_at
            if "start" in changes:
                zone = changes.get("timezone")
                zone = zone if zone is not None else await self._timezone(row.guild_id)
                start_at = parse_start(changes["start"], zone, self.clock.now(), checkin)
            await self._name_free(row.guild_id, name, but=row.id)
            async with self.store.transaction() as tx:
                await tx.update_tournament(row.id, name=name, preset=preset, boards=boards,
                                           rounds=rounds, start_at=float(start_at),
                                           checkin_minutes=checkin, round_minutes=deadline)
        await self.rounds.step(event_id)
        return await self._changed(event_id)

    async def _changed(self, event_id: int) -> EventView:
        view = await self._view(event_id)
        if self.port is not None:
            await self.port.entrants_changed(view)
        return view

    async def cancel(self, event_id: int, actor: Actor) -> EventView:
        """Cancel an event before it starts."""
        async with self.rounds.locks.setdefault(event_id, asyncio.Lock()):
            ev = await self._loaded(event_id)
            await self._may_change(ev, actor)
            async with self.store.transaction() as tx:
                await tx.update_tournament(event_id, status=EventStatus.CANCELLED.value)
            view = await self._view(event_id)
            if self.port is not None and await self.rounds.posting(event_id, "cancelled"):
                await self.port.cancelled(view)
        return await self._changed(event_id)

    # ---- entrants ----------------------------------------------------------------------------
    async def _rating(self, guild_id: int, user_id: int, preset: str) -> float:
        profile = await self.store.profile(guild_id, user_id)
        family = preset_family(preset)
        if profile is None:
            return 0.0
        return next((float(v) for f, v, _ in profile.ratings if f == family), 0.0)

    async def join(self, event_id: int, actor: Actor) -> EventView:
        """Enter an event: during sign-up, check-in (checked in at once), or round 1 (late
        entry: seated from round 2)."""
        async with self.rounds.locks.setdefault(event_id, asyncio.Lock()):
            ev = await self._loaded(event_id)
            status = EventStatus(ev.row.status)
            if any(e.user_id == actor.user_id for e in ev.entrants):
                raise TableError("tournament.error.joined", name=ev.row.name)
            late = status is EventStatus.RUNNING and ev.row.round_no <= 1
            if not (status in (EventStatus.SIGNUP, EventStatus.CHECKIN) or late):
                raise TableError("tournament.error.closed", name=ev.row.name)
            rating = await self._rating(ev.row.guild_id, actor.user_id, ev.row.preset)
            async with self.store.transaction() as tx:
                await tx.add_entrant(EntrantRow(
                    event_id, actor.user_id, actor.name[:40], rating,
                    checked_in=status is not EventStatus.SIGNUP, joined_at=self.clock.now()))
        return await self._changed(event_id)

    async def leave(self, event_id: int, actor: Actor) -> EventView:
        """Leave an event before it starts."""
        async with self.rounds.locks.setdefault(event_id, asyncio.Lock()):
            ev = await self._loaded(event_id)
            if not any(e.user_id == actor.user_id for e in ev.entrants):
                raise TableError("tournament.error.not_joined", name=ev.row.name)
            if EventStatus(ev.row.status) not in (EventStatus.SIGNUP, EventStatus.CHECKIN):
                raise TableError("tournament.error.started", name=ev.row.name)
            async with self.store.transaction() as tx:
                await tx.remove_entrant(event_id, actor.user_id)
        return await self._changed(event_id)

    async def check_in(self, event_id: int, actor: Actor) -> EventView:
        """Confirm one plays (check-in open)."""
        async with self.rounds.locks.setdefault(event_id, asyncio.Lock()):
            ev = await self._loaded(event_id)
            me = next((e for e in ev.entrants if e.user_id == actor.user_id), None)
            if me is None:
                raise TableError("tournament.error.not_joined", name=ev.row.name)
            if EventStatus(ev.row.status) is not EventStatus.CHECKIN:
                raise TableError("tournament.error.not_checkin", name=ev.row.name,
                                 minutes=ev.row.checkin_minutes)
            if not me.checked_in:
                async with self.store.transaction() as tx:
                    await tx.update_entrant(event_id, actor.user_id, checked_in=True)
        return await self._changed(event_id)

    async def set_message(self, event_id: int, message_id: int) -> None:
        """Remember the sign-up message."""
        async with self.store.transaction() as tx:
            await tx.update_tournament(event_id, message_id=message_id)

    # ---- reading -------------------------------------------------------------------------
    async def get(self, event_id: int) -> EventView | None:
        """An event by id (None: no such event)."""
        ev = await self.rounds.load(event_id)
        return None if ev is None else view_of(ev.row, ev.entrants, ev.tables)

    async def find(self, guild_id: int, name: str | None = None) -> EventView | None:
        """An event by name (case-insensitive; an open one first), or the server's latest."""
        rows = await self.store.tournaments(guild_id)
        if name is not None:
            wanted = " ".join(name.split()).casefold()
            rows = sorted((r for r in rows if r.name.casefold() == wanted),
                          key=lambda r: not EventStatus(r.status).open)
        return await self.get(rows[0].id) if rows else None

    async def names(self, guild_id: int, current: str = "") -> list[str]:
        """Event names for autocomplete: those containing ``current``, newest first."""
        seen = dict.fromkeys(r.name for r in await self.store.tournaments(guild_id))
        return [n for n in seen if current.casefold() in n.casefold()][:25]

    async def report(self, event_id: int, round_no: int | None = None) -> RoundReport | None:
        """An ended round's results (default: the last ended); None before any."""
        ev = await self.rounds.load(event_id)
        if ev is None:
            return None
        ended = [int(w.split(":")[1]) for w in ev.posted if w.startswith("round:")]
        if not ended:
            return None
        r = max(ended) if round_no is None else round_no
        if r not in ended:
            return None
        return await self.rounds.report(ev, r)

    async def history(self, guild_id: int, user_id: int) -> tuple[int, int | None]:
        """(tournaments played, best finish) of a player in a server, for /stats."""
        return await self.store.tournament_history(guild_id, user_id)

    async def set_settings(self, actor: Actor, *, role_id: int | None = None,
                           rated: bool | None = None,
                           timezone: str | None = None) -> TournamentSettings:
        """The server's organiser role (0: none), whether events change ratings, and the
        time zone start times are typed in (an IANA name, '' for UTC); Manage Server only.
        The settings as stored."""
        if actor.guild_id is None:
            raise TableError("error.guild_only")
        if not actor.can_manage_guild:
            raise TableError("error.not_admin")
        changes: dict[str, Any] = {}
        if role_id is not None:
            changes["role_id"] = role_id
        if rated is not None:
            changes["rated"] = rated
        if timezone is not None:
            changes["timezone"] = check_timezone(timezone)
        if changes:
            async with self.store.transaction() as tx:
                await tx.set_tournament_settings(actor.guild_id, **changes)
        return await self.store.tournament_settings(actor.guild_id)
