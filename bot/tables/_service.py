"""The table service: what the cogs call. Seating and the lobby live here; play in ``_play``."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from bot.game.presets import PRESETS
from bot.game.rules import OPTION_NAMES, Rules, RulesError
from bot.store import ChannelTaken, Store
from bot.tables._model import (
    ABANDONED,
    ENDED,
    FINISHED,
    PLAYING,
    SEATING,
    Actor,
    Notice,
    Outcome,
    Seat,
    Table,
    TableError,
    Update,
)
from bot.tables._play import PlayMixin
from bot.tables.clock import Clock, RealClock

log = logging.getLogger(__name__)

DEFAULT_TIMER = 300
ABANDON_AFTER = 24 * 3600.0
AI_NAMES = ("Ada", "Boris", "Celina", "Dmitri")

Listener = Callable[[Update], None]
# Entered around each automatic move: the caller may hold AI turns back so that people are
# answered first (the Discord bot runs its background work in a few lanes).
Gate = Callable[[], AbstractAsyncContextManager[None]]


class TableService(PlayMixin):
    """Tables by channel; every public method is safe to call concurrently."""

    def __init__(self, store: Store, *, clock: Clock | None = None, ai_delay: float = 1.5,
                 seed: int | str | None = None, listener: Listener | None = None,
                 abandon_after: float = ABANDON_AFTER, ai_in_thread: bool = False,
                 gate: Gate | None = None) -> None:
        self.store = store
        self.clock: Clock = clock or RealClock()
        self.ai_delay = ai_delay
        self.seed = seed
        self.listener = listener
        self.abandon_after = abandon_after
        self.ai_in_thread = ai_in_thread
        self.gate = gate
        self._by_channel: dict[int, Table] = {}
        self._by_id: dict[int, Table] = {}
        self._busy = 0
        self._closing = False
        PlayMixin.__init__(self)

    # ---- lookup ------------------------------------------------------------------------
    def in_channel(self, channel_id: int) -> Table:
        table = self._by_channel.get(channel_id)
        if table is None or not table.live:
            raise TableError("error.no_table")
        return table

    def find(self, channel_id: int) -> Table | None:
        table = self._by_channel.get(channel_id)
        return table if table is not None and table.live else None

    def get(self, table_id: int) -> Table:
        table = self._by_id.get(table_id)
        if table is None or not table.live:
            raise TableError("error.table_closed")
        return table

    @property
    def tables(self) -> list[Table]:
        return [t for t in self._by_id.values() if t.live]

    # ---- lifecycle ---------------------------------------------------------------------
    async def restore(self) -> int:
        """Rebuild every live table from the database (replaying its log); how many."""
        count = 0
        for row in await self.store.live_tables():
            table = Table(
                id=row.id, guild_id=row.guild_id, channel_id=row.channel_id,
                host_id=row.host_id, preset=row.preset, rules=Rules.from_json(row.rules),
                timer=row.timer, status=row.status, match_no=row.match_no, dealer=row.dealer,
                message_id=row.message_id, created_at=row.created_at,
                last_human_at=row.last_human_at, seats=[Seat.from_row(s) for s in row.seats],
                locale=row.locale)
            try:
                await self._replay(table)
            except Exception:
                log.exception("table %s could not be restored; closing it", table.id)
                async with self.store.transaction() as tx:
                    await tx.update_table(table.id, status=ENDED, updated_at=self.clock.now())
                continue
            self._register(table)
            count += 1
        for table in self.tables:
            async with table.lock:
                if table.status == PLAYING:
                    await self._deal_if_needed(table)
                self._schedule(table)
        return count

    async def close(self) -> None:
        """Stop timers and AI turns (the database keeps everything)."""
        self._closing = True
        for table in list(self._by_id.values()):
            self._cancel(table)

    def _register(self, table: Table) -> None:
        self._by_id[table.id] = table
        self._by_channel[table.channel_id] = table

    def _emit(self, table: Table, events: tuple[Any, ...] = (),
              notices: tuple[Notice, ...] = (), closed: bool = False,
              hand_no: int = 0) -> None:
        if self.listener is not None:
            try:
                self.listener(Update(table, events, notices, closed, hand_no))
            except Exception:
                log.exception("table listener failed")

    # ---- seating -----------------------------------------------------------------------
    async def create(self, actor: Actor, *, channel_id: int, guild_id: int | None,
                     preset: str = "russian", players: int | None = None,
                     timer: int | None = None, locale: str = "") -> Outcome:
        """Open a table; ``locale`` is the language of its public messages."""
        preset = preset_for(preset, players)
        rules = _rules_for(preset, players)
        timer = DEFAULT_TIMER if timer is None else timer
        if timer and not 30 <= timer <= 3600:
            raise TableError("error.timer_range")
        old = self._by_channel.get(channel_id)
        if old is not None and old.live:
            if old.status != FINISHED:
                raise TableError("error.channel_taken")
            await self._close(old, ENDED)
        now = self.clock.now()
        try:
            async with self.store.transaction() as tx:
                table_id = await tx.create_table(
                    guild_id=guild_id, channel_id=channel_id, host_id=actor.user_id,
                    preset=preset, rules=rules.to_json(), timer=timer, now=now, locale=locale)
                seats = [Seat(actor.user_id, actor.name)]
                await tx.save_seats(table_id, [s.row(i) for i, s in enumerate(seats)])
        except ChannelTaken:
            raise TableError("error.channel_taken") from None
        table = Table(id=table_id, guild_id=guild_id, channel_id=channel_id,
                      host_id=actor.user_id, preset=preset, rules=rules, timer=timer,
                      status=SEATING, created_at=now, last_human_at=now, seats=seats,
                      locale=locale)
        self._register(table)
        return Outcome(table, "ok.created", {"title": PRESETS[preset].title}, seat=0)

    async def join(self, table_id: int, actor: Actor) -> Outcome:
        table = self.get(table_id)
        async with table.lock:
            self._need(table, SEATING)
            if table.seat_of(actor.user_id) is not None:
                raise TableError("error.already_seated")
            if table.full:
                raise TableError("error.table_full")
            seats = [*table.seats, Seat(actor.user_id, actor.name)]
            await self._save_seats(table, seats, human=True)
            return Outcome(table, "ok.joined", {"name": actor.name}, seat=len(seats) - 1)

    async def add_ai(self, table_id: int, actor: Actor, level: str = "normal") -> Outcome:
        table = self.get(table_id)
        async with table.lock:
            self._need(table, SEATING)
            self._need_host(table, actor)
            if table.full:
                raise TableError("error.table_full")
            taken = {s.name for s in table.seats}
            name = next((n for n in AI_NAMES if n not in taken), f"AI {len(table.seats) + 1}")
            seats = [*table.seats, Seat(None, name, ai=True, level=level)]
            await self._save_seats(table, seats, human=True)
            return Outcome(table, "ok.ai_added", {"name": name, "level": level})

    async def leave(self, table_id: int, actor: Actor) -> Outcome:
        table = self.get(table_id)
        async with table.lock:
            seat = self._need_seat(table, actor)
            return await self._unseat(table, seat, "ok.left")

    async def kick(self, table_id: int, actor: Actor, user_id: int) -> Outcome:
        table = self.get(table_id)
        async with table.lock:
            self._need_host(table, actor)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("error.user_not_seated")
            if user_id == actor.user_id:
                raise TableError("error.kick_self")
            return await self._unseat(table, seat, "ok.kicked")

    async def _unseat(self, table: Table, seat: int, key: str) -> Outcome:
        name = table.seats[seat].name
        if table.status == SEATING:
            seats = [s for i, s in enumerate(table.seats) if i != seat]
            if not any(not s.ai for s in seats):
                await self._close(table, ENDED)
                return Outcome(table, key, {"name": name, "closed": True})
            if table.seats[seat].user_id == table.host_id:
                new_host = next(s for s in seats if not s.ai)
                table.host_id = new_host.user_id or 0
                async with self.store.transaction() as tx:
                    await tx.update_table(table.id, host_id=table.host_id)
            await self._save_seats(table, seats, human=True)
            return Outcome(table, key, {"name": name})
        # Mid-match an AI takes the seat over for good (the match can go on).
        seats = list(table.seats)
        seats[seat] = Seat(None, name, ai=True, level="normal")
        await self._save_seats(table, seats, human=True)
        self._emit(table, notices=(Notice("notice.replaced_by_ai", {"name": name}),))
        self._schedule(table)
        return Outcome(table, key, {"name": name})

    async def set_option(self, table_id: int, actor: Actor, name: str, raw: str) -> Outcome:
        table = self.get(table_id)
        async with table.lock:
            self._need(table, SEATING)
            self._need_host(table, actor)
            if name not in OPTION_NAMES:
                raise TableError("error.option", message=_rules_error(name, raw))
            try:
                rules = table.rules.with_options(**{name: _parse_raw(raw)})
            except RulesError as exc:
                raise TableError("error.option", message=str(exc)) from None
            if len(table.seats) > rules.seats:
                raise TableError("error.too_many_seated", seats=rules.seats)
            async with self.store.transaction() as tx:
                await tx.update_table(table.id, rules=rules.to_json(),
                                      updated_at=self.clock.now())
            table.rules = rules
            table.version += 1
            self._emit(table)
            return Outcome(table, "ok.option_set",
                           {"name": name, "value": json.dumps(rules.to_json()[name])})

    async def end(self, table_id: int, actor: Actor) -> Outcome:
        table = self.get(table_id)
        async with table.lock:
            if actor.user_id != table.host_id and not actor.can_manage:
                raise TableError("error.not_host_or_manager")
            await self._close(table, ENDED)
            return Outcome(table, "ok.ended")

    async def set_message(self, table: Table, message_id: int | None) -> None:
        """Remember the public table message (so that it survives a restart)."""
        table.message_id = message_id
        async with self.store.transaction() as tx:
            await tx.update_table(table.id, message_id=message_id)

    async def sweep(self) -> list[Table]:
        """Close tables without a human move for ``abandon_after`` seconds."""
        now = self.clock.now()
        closed = []
        for table in self.tables:
            if now - table.last_human_at >= self.abandon_after:
                async with table.lock:
                    if table.live and now - table.last_human_at >= self.abandon_after:
                        await self._close(table, ABANDONED)
                        closed.append(table)
        return closed

    async def run_sweeper(self, every: float = 600.0) -> None:
        """Sweep forever (a background task of the bot)."""
        while not self._closing:
            await self.clock.sleep(every)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweep failed")

    # ---- helpers -----------------------------------------------------------------------
    def _need(self, table: Table, *statuses: str) -> None:
        if table.status not in statuses:
            raise TableError(f"error.status.{table.status}")

    def _need_host(self, table: Table, actor: Actor) -> None:
        if actor.user_id != table.host_id:
            host = next((x.name for x in table.seats if x.user_id == table.host_id), "?")
            raise TableError("error.not_host", host=host)

    def _need_seat(self, table: Table, actor: Actor) -> int:
        seat = table.seat_of(actor.user_id)
        if seat is None:
            raise TableError("error.not_seated")
        return seat

    async def _save_seats(self, table: Table, seats: list[Seat], *, human: bool) -> None:
        now = self.clock.now()
        async with self.store.transaction() as tx:
            await tx.save_seats(table.id, [s.row(i) for i, s in enumerate(seats)])
            if human:
                await tx.update_table(table.id, last_human_at=now, updated_at=now)
        table.seats = seats
        if human:
            table.last_human_at = now
        table.version += 1
        self._emit(table)

    async def _close(self, table: Table, status: str) -> None:
        now = self.clock.now()
        async with self.store.transaction() as tx:
            await tx.update_table(table.id, status=status, updated_at=now)
            if table.match_no and table.status == PLAYING:
                st = table.state
                await tx.finish_match(table.id, table.match_no, status=status, winners=[],
                                      totals=list(st.match.totals) if st else [], now=now)
        table.status = status
        table.version += 1
        self._cancel(table)
        key = "notice.abandoned" if status == ABANDONED else "notice.ended"
        self._emit(table, notices=(Notice(key),), closed=True)


def preset_for(preset: str, players: int | None) -> str:
    """The preset to use for ``players``: russian + 4 players is russian4, and so on."""
    p = PRESETS.get(preset)
    if p is None or players is None or players == p.rules.seats:
        return preset
    stem = preset.rstrip("0123456789").removesuffix("_")
    for name in (f"{preset}{players}", f"{stem}{players}", f"{stem}_{players}", stem):
        q = PRESETS.get(name)
        if q is not None and q.rules.seats == players:
            return name
    return preset


def _rules_for(preset: str, players: int | None) -> Rules:
    p = PRESETS.get(preset)
    if p is None:
        raise TableError("error.unknown_preset", name=preset, presets=", ".join(PRESETS))
    if players is None or players == p.rules.seats:
        return p.rules
    try:
        return p.rules.with_options(seats=players)
    except RulesError:
        raise TableError("error.players", preset=preset, seats=p.rules.seats,
                         players=players) from None


def _parse_raw(raw: str) -> Any:
    """A typed option value: JSON where it parses (true, 110, null, [2, 2]), else the text."""
    text = raw.strip()
    try:
        return json.loads(text)
    except ValueError:
        low = text.lower()
        if low in ("yes", "on"):
            return True
        if low == "no":
            return False
        return text


def _rules_error(name: str, raw: str) -> str:
    try:
        Rules().with_options(**{name: _parse_raw(raw)})
    except (RulesError, TypeError) as exc:
        return str(exc)
    return f"unknown option {name!r}"  # pragma: no cover
