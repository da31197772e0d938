"""The tournament service's Discord side (``bot.tables.TournamentPort``): the sign-up message,
a private thread per table, the notices, the round's results and the podium.

Each table plays in a private thread of the event's channel that its players cannot widen
(not invitable: a mention of a player of another table does not pull him in, and the boards
are the same at every table); the bot adds the table's players, and once the round has
ended it archives and locks the thread. The sign-up message is edited one request at a time
per event, always to the latest state (a burst of joins costs one edit, not one each).
Public posts are written in the server's language; every request is background work
(``Lanes``), behind the answers to interactions.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Coroutine, Sequence
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.i18n import t
from bot.tables import EventTable, EventView, RoundReport
from bot.web import page_url
from cogs._images import image_file
from cogs._plain import plain
from cogs._tournament_posts import (
    boards_text,
    chunks,
    mentions,
    podium_image,
    podium_text,
    signup_text,
    signup_view,
    standings_image,
    standings_text,
)
from cogs._views import table_message
from render.standings import render_podium, render_standings

if TYPE_CHECKING:
    from cogs._bot import TysiacBot

log = logging.getLogger(__name__)
STANDINGS_FILE, PODIUM_FILE = "1000-standings.png", "1000-podium.png"
TABLE_WAIT = 60.0  # seconds a thread waits for the service to make its table
PUBLISHER_WAIT = 30.0  # seconds the last table messages may take before a thread is locked
NONE = discord.AllowedMentions.none()
MENTIONS = 1600  # characters of mentions a notice carries (its sentence takes the rest)


class Pace:
    """Discord's budget of a channel: 5 message creates or edits in any 5 s (with a margin),
    taken in turn. The tournament channel carries only this port's messages; in a thread
    the publisher is told of each (``note_sent``) so that its own edits keep to the same
    budget."""

    def __init__(self, limit: int = 5, per: float = 5.3) -> None:
        self.limit, self.per = limit, per
        self._stamps: dict[int, collections.deque[float]] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    @contextlib.asynccontextmanager
    async def turn(self, channel_id: int) -> AsyncIterator[None]:
        """Wait for the channel's budget, then hold it while the request is made."""
        stamps = self._stamps.setdefault(channel_id, collections.deque())
        async with self._locks.setdefault(channel_id, asyncio.Lock()):
            now = time.monotonic()
            while stamps and now - stamps[0] >= self.per:
                stamps.popleft()
            if len(stamps) >= self.limit:
                await asyncio.sleep(self.per - (now - stamps[0]))
                stamps.popleft()
            stamps.append(time.monotonic())
            yield


def _users(user_ids: Sequence[int]) -> discord.AllowedMentions:
    """Mentions that notify exactly these users."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in user_ids if u > 0])


class DiscordPort:
    """What the tournament service asks of Discord, done with the bot's client."""

    def __init__(self, bot: TysiacBot) -> None:
        self.bot = bot
        self._latest: dict[int, EventView] = {}
        self._editors: dict[int, asyncio.Task[None]] = {}
        self._messages: dict[int, int] = {}  # event -> its sign-up message, once known
        self._work: set[asyncio.Task[None]] = set()  # table messages posted, threads closed
        self.pace = Pace()
        self._posting: set[int] = set()  # threads whose table message is on its way

    # ---- where and in which language ---------------------------------------------------
    def locale(self, guild_id: int) -> str:
        """The server's language: public posts are read by all its members."""
        guild = self.bot.get_guild(guild_id)
        return str(guild.preferred_locale.value) if guild is not None else "en-US"

    async def _send(self, channel_id: int, content: str, *,
                    allowed: discord.AllowedMentions = NONE,
                    file: discord.File | None = None,
                    view: discord.ui.View | None = None) -> discord.Message:
        kwargs: dict[str, Any] = {"allowed_mentions": allowed}
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        async with self.pace.turn(channel_id), self.bot.lanes.background():
            self.bot.publisher.channels.note_sent(channel_id)
            return await self.bot.get_partial_messageable(channel_id).send(content[:2000],
                                                                           **kwargs)

    # ---- the sign-up message ----------------------------------------------------------------
    async def entrants_changed(self, event: EventView) -> None:
        """Show ``event`` on its sign-up message (posted the first time)."""
        self._latest[event.id] = event
        if event.id not in self._editors:
            self._editors[event.id] = asyncio.create_task(self._edit_loop(event.id))

    async def _edit_loop(self, event_id: int) -> None:
        try:
            while event_id in self._latest:
                event = self._latest.pop(event_id)
                try:
                    await self._show(event)
                except discord.HTTPException:
                    log.warning("the sign-up message of event %d could not be shown", event_id,
                                exc_info=True)
        finally:
            self._editors.pop(event_id, None)

    async def _show(self, event: EventView) -> None:
        loc = self.locale(event.guild_id)
        text, view = signup_text(event, loc), signup_view(event, loc)
        message_id = self._messages.get(event.id) or event.message_id
        if message_id:
            channel = self.bot.get_partial_messageable(event.channel_id)
            try:
                async with self.pace.turn(event.channel_id), self.bot.lanes.background():
                    self.bot.publisher.channels.note_sent(event.channel_id)
                    await channel.get_partial_message(message_id).edit(
                        content=text, view=view, allowed_mentions=NONE)
                return
            except discord.NotFound:  # deleted by someone: a new one
                pass
        msg = await self._send(event.channel_id, text, view=view)
        self._messages[event.id] = msg.id
        await self.bot.tournaments.set_message(event.id, msg.id)

    async def idle(self) -> None:
        """Until every sign-up message shows its event's latest state and the ended
        rounds' threads are closed (tests)."""
        while self._editors or self._work:
            await asyncio.gather(*self._editors.values(), *self._work,
                                 return_exceptions=True)

    async def web_link(self, event: EventView, loc: str) -> list[str]:
        """The event's web page as a line, where the server has its pages on."""
        base = self.bot.settings.web_base_url
        if not base or self.bot.web is None:
            return []
        if not (await self.bot.service.records.settings(event.guild_id)).web:
            return []
        return [t("web.link", loc, url=f"{page_url(base, event.guild_id)}/t/{event.id}")]

    # ---- check-in and the start ---------------------------------------------------------------
    async def checkin_opened(self, event: EventView) -> None:
        await self.entrants_changed(event)
        people = [e.user_id for e in event.entrants if e.user_id > 0 and not e.dropped]
        if not people:
            return
        loc = self.locale(event.guild_id)
        for part in chunks((mentions([u]) for u in people), MENTIONS):
            text = t("tournament.checkin_opened", loc, name=plain(event.name),
                     mentions=part.replace("\n", ", "), relative=f"<t:{int(event.start_at)}:R>")
            await self._send(event.channel_id, text, allowed=_users(people))

    async def dropped(self, event: EventView, user_ids: Sequence[int]) -> None:
        loc = self.locale(event.guild_id)
        for part in chunks((mentions([u]) for u in user_ids if u > 0), MENTIONS):
            await self._send(event.channel_id, t(
                "tournament.dropped", loc, mentions=part.replace("\n", ", "),
                name=plain(event.name)), allowed=_users(user_ids))

    # ---- the tables' threads ------------------------------------------------------------------
    async def open_table(self, event: EventView, table: EventTable) -> int:
        """The table's private thread (the one made before a crash, if any), its players in
        it, and a welcome line that names them."""
        loc = self.locale(event.guild_id)
        name = t("tournament.thread", loc, name=event.name, round=table.round_no,
                 table=table.table_no)[:100]
        humans = [u for u in table.user_ids if u > 0]
        try:
            thread, new = await self._thread(event, name)
            async with self.bot.lanes.background():
                for user_id in humans:
                    await thread.add_user(discord.Object(user_id))
        except discord.Forbidden:
            await self._send(event.channel_id, t("tournament.no_threads", loc,
                                                 channel=event.channel_id))
            raise
        if new:
            names = {e.user_id: e.name for e in event.entrants}
            ai = 0
            seats = []
            for u in table.user_ids:
                if u > 0:
                    seats.append(f"<@{u}>")
                else:
                    ai += 1
                    seats.append(names.get(u) or t("tournament.ai_seat", loc, number=ai))
            await self._send(thread.id, t(
                "tournament.welcome", loc, name=plain(event.name), round=table.round_no,
                table=table.table_no, players=", ".join(seats), boards=event.boards),
                allowed=_users(humans))
        self._background(self._post_table(thread.id))
        return thread.id

    async def _post_table(self, thread_id: int) -> None:
        """The table message in the thread, once the service has made the table there (it
        does so right after opening the round's threads); its image follows in a paced
        edit. A table left without one by a crash gets it again with ``/table show``."""
        if thread_id in self._posting:
            return
        self._posting.add(thread_id)
        try:
            await self._post_table_once(thread_id)
        finally:
            self._posting.discard(thread_id)

    async def _post_table_once(self, thread_id: int) -> None:
        service = self.bot.service
        for _ in range(round(TABLE_WAIT / 0.05)):
            table = next((x for x in service.tables if x.channel_id == thread_id), None)
            if table is not None:
                break
            await asyncio.sleep(0.05)
        else:
            log.warning("no table appeared in the thread %d", thread_id)
            return
        if table.message_id is not None:
            return
        parts = table_message(table, table.locale)
        kwargs: dict[str, Any] = {"embed": parts.embed}
        if parts.view is not None:
            kwargs["view"] = parts.view
        async with self.pace.turn(thread_id), self.bot.lanes.background():
            self.bot.publisher.channels.note_sent(thread_id)
            msg = await self.bot.get_partial_messageable(thread_id).send(**kwargs)
        await service.set_message(table, msg.id)
        self.bot.publisher.tables.refresh(table)

    def post_missing(self) -> None:
        """After a restart: a table message for each table in a thread that has none (the
        bot stopped between making the table and posting its message)."""
        for table in self.bot.service.tables:
            if table.message_id is None and isinstance(self.bot.get_channel(table.channel_id),
                                                       discord.Thread):
                self._background(self._post_table(table.channel_id))

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._work.add(task)
        task.add_done_callback(self._work.discard)

    async def _thread(self, event: EventView, name: str) -> tuple[discord.Thread, bool]:
        """The thread called ``name`` in the event's channel, made if there is none."""
        guild = self.bot.get_guild(event.guild_id)
        parent = guild.get_channel(event.channel_id) if guild is not None else None
        if not isinstance(parent, discord.TextChannel):
            fetched = await self.bot.fetch_channel(event.channel_id)
            if not isinstance(fetched, discord.TextChannel):
                raise LookupError(f"channel {event.channel_id} is not a text channel")
            parent = fetched
        me = self.bot.user.id if self.bot.user is not None else 0
        for thread in parent.threads:
            if thread.name == name and thread.owner_id == me:
                return thread, False
        async with self.bot.lanes.background():
            thread = await parent.create_thread(
                name=name, type=discord.ChannelType.private_thread, invitable=False,
                auto_archive_duration=1440)
        return thread, True

    async def _close_threads(self, tables: Sequence[EventTable]) -> None:
        """Archive and lock the round's threads once their last messages went out."""
        with contextlib.suppress(TimeoutError):
            await self.bot.publisher.idle(PUBLISHER_WAIT)
        for table in tables:
            if not table.channel_id:
                continue
            try:
                async with self.bot.lanes.background():
                    await self.bot.http.edit_channel(table.channel_id, archived=True,
                                                     locked=True)
            except (discord.HTTPException, aiohttp.ClientError, OSError):
                log.warning("the thread %d could not be closed", table.channel_id,
                            exc_info=True)

    # ---- notices and results ------------------------------------------------------------------
    async def struck(self, event: EventView, user_id: int, strikes: int,
                     withdrawn: bool) -> None:
        """Told at the player's table; a withdrawal also in the event's channel."""
        loc = self.locale(event.guild_id)
        where = next((tb.channel_id for tb in event.tables
                      if user_id in tb.user_ids and tb.channel_id), event.channel_id)
        player = f"<@{user_id}>"
        text = (t("tournament.withdrawn", loc, player=player, name=plain(event.name))
                if withdrawn else t("tournament.struck", loc, player=player, strikes=strikes))
        await self._send(where, text, allowed=_users([user_id]))
        if withdrawn and where != event.channel_id:
            await self._send(event.channel_id, text)

    async def round_ended(self, report: RoundReport) -> None:
        """The standings (image and text) and every board, then the threads are closed."""
        event = report.event
        loc = self.locale(event.guild_id)
        png = await self.bot.publisher.images.any_png(standings_image(report, loc),
                                                      render_standings)
        parts = chunks([*standings_text(report, loc), *await self.web_link(event, loc)])
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            await self._send(event.channel_id, part, file=image_file(
                png, STANDINGS_FILE, "the standings") if last and png is not None else None)
        for part in chunks(boards_text(report, loc)):
            await self._send(event.channel_id, part)
        # in the background: the next round need not wait for the last table messages
        self._background(self._close_threads(event.tables))

    async def finished(self, report: RoundReport) -> None:
        """The podium, and the sign-up message without its buttons."""
        event = report.event
        loc = self.locale(event.guild_id)
        png = await self.bot.publisher.images.any_png(podium_image(report, loc), render_podium)
        text = "\n".join([podium_text(report, loc), *await self.web_link(event, loc)])
        await self._send(event.channel_id, text, file=image_file(
            png, PODIUM_FILE, "the podium") if png is not None else None)
        await self.entrants_changed(event)

    async def cancelled(self, event: EventView) -> None:
        await self.entrants_changed(event)
        await self._send(event.channel_id, t("tournament.cancelled", self.locale(
            event.guild_id), name=plain(event.name)))
