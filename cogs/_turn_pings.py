"""The "your turn" messages (``/optin ping``): one per table at most.

Whether the turn's user asked for one is read off the store after the change's other posts
are queued (by table, the newest turn wins); the message goes out as one of the channel's
posts, mentioning only its user, and is deleted when he acts or the turn passes (deletes
are keyed by message id: Discord counts them apart from the channel's creates and edits).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import discord

from bot.i18n import t
from bot.tables import Table, Update
from cogs._channels import Outlet
from cogs._latest import Latest
from cogs._posts import Ping, Post, Posts

log = logging.getLogger(__name__)

WantsPing = Callable[[int], Awaitable[bool]]


class TurnPings:
    """Each table's "your turn" message. ``wants_ping(user_id)``: whether a user asked to
    be told when his turn comes."""

    def __init__(self, outlet: Outlet, posts: Posts, wants_ping: WantsPing | None, *,
                 retries: int, backoff: float) -> None:
        self.outlet, self.posts, self.wants_ping = outlet, posts, wants_ping
        self._pings: dict[int, Ping] = {}  # table -> its "your turn" message
        self._checks: Latest[int, Ping] = Latest(
            self._check, failed=lambda tid, ping, exc: log.warning(
                "turn ping of table %s not checked: %s", tid, exc), retries=0)
        self._deletes: Latest[int, Ping] = Latest(
            self._delete, gone=lambda exc: isinstance(exc, discord.NotFound),
            failed=_delete_failed, retries=retries, backoff=backoff)

    def __len__(self) -> int:
        """Checks and deletes pending or on their way."""
        return len(self._checks) + len(self._deletes)

    def end(self, update: Update) -> None:
        """The table's "your turn" message goes once its user acted, or the turn is no
        longer his (a move made for him, the table closed)."""
        table = update.table
        ping = self._pings.get(table.id)
        if ping is None:
            return
        if not update.closed and update.by != ping.user_id and _to_act(table) == ping.user_id:
            return
        del self._pings[table.id]
        ping.over = True
        if ping.message_id is not None:
            self._deletes.put(ping.message_id, ping)

    def start(self, update: Update) -> None:
        """A turn that the change gave to someone: his message goes out if he wants it."""
        if update.turn is None or update.closed or self.wants_ping is None:
            return
        table = update.table
        ping = self._pings[table.id] = Ping(table.channel_id, update.turn, table.locale)
        self._checks.put(table.id, ping)

    def posted(self, ping: Ping, message_id: int) -> None:
        """The ping went out as ``message_id``."""
        ping.message_id = message_id
        if ping.over:  # the user acted while it was on its way
            self._deletes.put(message_id, ping)

    async def close(self, *, unping: float | None) -> None:
        """Stop; the messages standing are deleted first (within ``unping`` seconds; None:
        not at all): a restarted bot would not know them to delete them."""
        standing = [p for p in self._pings.values() if p.message_id is not None]
        self._pings.clear()
        if standing and unping is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*(
                    self._unping(p) for p in standing)), unping)

    async def aclose(self) -> None:
        """No check or delete is left running."""
        await asyncio.gather(self._checks.aclose(), self._deletes.aclose())

    async def _check(self, table_id: int, ping: Ping, going: Callable[[], None]) -> None:
        """Post the turn's message after the others of its change, if its user wants it."""
        if ping.over or self.wants_ping is None:
            return
        if not await self.wants_ping(ping.user_id):
            if self._pings.get(table_id) is ping:
                del self._pings[table_id]
            return
        if ping.over:
            return
        self.posts.add(ping.channel_id, [Post(t("notice.turn_ping", ping.locale),
                                              ping.user_id, ping=ping)])

    async def _unping(self, ping: Ping) -> None:
        assert ping.message_id is not None
        try:
            await self.outlet.channel(ping.channel_id).get_partial_message(
                ping.message_id).delete()
        except discord.HTTPException as exc:
            log.info("turn message %s not deleted at closing: %s", ping.message_id, exc)

    async def _delete(self, message_id: int, ping: Ping, going: Callable[[], None]) -> None:
        async with self.outlet.lanes.background():
            going()
            await self.outlet.channel(ping.channel_id).get_partial_message(message_id).delete()


def _to_act(table: Table) -> int | None:
    """The user who is to move himself now (None: nobody, or an AI)."""
    seat = table.to_act()
    if not table.live or seat < 0 or seat >= len(table.seats) or table.seats[seat].automatic:
        return None
    return table.seats[seat].user_id


def _delete_failed(message_id: int, ping: Ping, exc: Exception) -> None:
    if isinstance(exc, discord.NotFound):  # deleted by someone else already
        log.debug("turn message %s is gone already", message_id)
    else:
        log.warning("deleting turn message %s failed: %s", message_id, exc)
