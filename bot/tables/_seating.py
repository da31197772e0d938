"""Seating: opening a table, joining it, adding AI seats, leaving and kicking."""

from __future__ import annotations

from bot.i18n.values import Msg
from bot.store import ChannelTaken, TableStatus
from bot.tables._catalog import (
    ai_level,
    preset_for,
    preset_of_language,
    rules_for,
)
from bot.tables._core import (
    AI_NAMES,
    DEFAULT_TIMER,
    FINISHED,
    SEATING,
    SETTINGS_AGE,
    ServiceCore,
    need_host,
    need_seat,
    need_status,
)
from bot.tables._ledger import Saving
from bot.tables._model import Actor, Notice, Outcome, Seat, Table, TableError


class Seating(ServiceCore):
    """Opening tables and seating people and AI players at them."""

    async def create(self, actor: Actor, *, channel_id: int, guild_id: int | None,
                     preset: str | None = None, players: int | None = None,
                     timer: int | None = None, locale: str = "",
                     guild_locale: str | None = None) -> Outcome:
        """Open a table; ``locale`` is the language of its public messages. What is not
        given comes from the guild's settings (``/admin defaults``), the preset where it
        chose none from the server's language (``guild_locale``)."""
        self._need_owned(guild_id)
        settings = (await self.store.guild_settings(guild_id, max_age=SETTINGS_AGE)
                    if guild_id is not None else None)
        if preset is None:
            chosen = settings.default_preset if settings else ""
            preset = chosen or preset_of_language(guild_locale)
        if timer is None:
            timer = settings.turn_timer if settings else DEFAULT_TIMER
        if settings is not None and settings.language:
            locale = settings.language
        preset = preset_for(preset, players)
        rules = rules_for(preset, players)
        if timer and not 30 <= timer <= 3600:
            raise TableError("error.timer_range")
        old = self._by_channel.get(channel_id)
        if old is not None and old.live:
            if old.status is not FINISHED:
                raise TableError("error.channel_taken")
            async with old.lock:
                await self._close(old, TableStatus.ENDED)
        now = self.clock.now()
        seats = (Seat(actor.user_id, actor.name),)
        try:
            async with Saving(self.store) as tx:
                table_id = await tx.create_table(
                    guild_id=guild_id, channel_id=channel_id, host_id=actor.user_id,
                    preset=preset, rules=rules.to_json(), timer=timer, now=now, locale=locale)
                await tx.save_seats(table_id, [s.row(i) for i, s in enumerate(seats)])
                await tx.update_table(table_id, pause=self.pause)
        except ChannelTaken:
            raise TableError("error.channel_taken") from None
        table = Table(id=table_id, guild_id=guild_id, channel_id=channel_id,
                      host_id=actor.user_id, preset=preset, rules=rules, timer=timer,
                      status=SEATING, created_at=now, last_human_at=now, seats=seats,
                      locale=locale, pause=self.pause)
        self._register(table)
        return Outcome(table, "ok.created", {"title": table.title_word()}, seat=0)

    async def default_preset(self, guild_id: int | None, guild_locale: str | None) -> str:
        """The preset ``/table new`` opens without one: the server's choice, else its
        language's."""
        settings = (await self.store.guild_settings(guild_id, max_age=SETTINGS_AGE)
                    if guild_id is not None else None)
        return (settings.default_preset if settings else "") or preset_of_language(guild_locale)

    async def join(self, table_id: int, actor: Actor) -> Outcome:
        table = self.get(table_id, actor)
        async with table.lock:
            need_status(table, SEATING)
            if table.seat_of(actor.user_id) is not None:
                raise TableError("error.already_seated")
            if table.full:
                raise TableError("error.table_full")
            await self._seat(table, (*table.seats, Seat(actor.user_id, actor.name)))
            return Outcome(table, "ok.joined", {"name": actor.name}, seat=len(table.seats) - 1)

    async def add_ai(self, table_id: int, actor: Actor, level: str = "normal") -> Outcome:
        table = self.get(table_id, actor)
        level = ai_level(level)
        async with table.lock:
            need_status(table, SEATING)
            need_host(table, actor)
            if table.full:
                raise TableError("error.table_full")
            taken = {s.name for s in table.seats}
            name = next((n for n in AI_NAMES if n not in taken), f"AI {len(table.seats) + 1}")
            await self._seat(table, (*table.seats, Seat(None, name, ai=True, level=level)))
            return Outcome(table, "ok.ai_added",
                           {"name": name, "level": Msg.of(f"choice.level.{level}")})

    async def leave(self, table_id: int, actor: Actor) -> Outcome:
        table = self.get(table_id, actor)
        async with table.lock:
            return await self._unseat(table, need_seat(table, actor), "ok.left")

    async def kick(self, table_id: int, actor: Actor, user_id: int) -> Outcome:
        table = self.get(table_id, actor)
        async with table.lock:
            need_host(table, actor)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("error.user_not_seated")
            if user_id == actor.user_id:
                raise TableError("error.kick_self")
            return await self._unseat(table, seat, "ok.kicked")

    async def _unseat(self, table: Table, seat: int, key: str) -> Outcome:
        name = table.seats[seat].name
        if table.status is SEATING:
            seats = tuple(s for i, s in enumerate(table.seats) if i != seat)
            if not any(not s.ai for s in seats):
                await self._close(table, TableStatus.ENDED)
                return Outcome(table, key, {"name": name, "closed": True})
            host = None
            if table.seats[seat].user_id == table.host_id:
                host = next(s.user_id for s in seats if not s.ai) or 0
            await self._seat(table, seats, host_id=host)
            return Outcome(table, key, {"name": name})
        # Mid-match an AI plays the seat: a player who left is marked away (he may take
        # the seat back with "I'm back"); a kicked one is replaced for good.
        if key == "ok.left":
            seats = tuple(s.with_changes(away=True) if i == seat else s
                          for i, s in enumerate(table.seats))
        else:
            seats = tuple(Seat(None, name, ai=True, level="normal") if i == seat else s
                          for i, s in enumerate(table.seats))
        await self._seat(table, seats, notices=(Notice("notice.replaced_by_ai",
                                                       {"name": name}),))
        return Outcome(table, key, {"name": name})
