"""Each table's public message, edited at the pace of its channel's budget.

Keyed by table id (a new table in the channel never takes the place of the old one's
closing edit), so a fast table edits its message once for many moves. The table image is
drawn only when the coalesced edit is actually sent, from the state of that moment: a table
that moved on while the edit waited is drawn once, as it is now. A click answered in place
may reach Discord before a paced edit of an older version: that answer's view is put back
through its token when the edit lands.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.tables import Table
from cogs._channels import Channels, Outlet, RateLimiter
from cogs._images import TABLE_FILE, TABLE_URL, image_file
from cogs._interaction import edit_original
from cogs._latest import Latest
from cogs._views import MessageParts, table_message

log = logging.getLogger(__name__)


@dataclass(eq=False)
class _TableEdit:
    """A paced edit of a table message on its way: an in-place answer to a click may reach
    Discord before it, and that answer's token puts the newer view back when it lands."""

    shown: int  # the table version the edit shows
    answer: discord.Interaction[Any] | None = None  # a newer answer it may overwrite


class TableMessages:
    """The paced edits of the tables' public messages."""

    def __init__(self, outlet: Outlet, channels: Channels, *, debounce: float, retries: int,
                 backoff: float) -> None:
        self.outlet, self.channels = outlet, channels
        self._editing: dict[int, _TableEdit] = {}  # table -> its paced edit on its way
        self._latest: Latest[int, Table] = Latest(
            self._send, delay=debounce, budget=self._budget,
            gone=lambda exc: isinstance(exc, discord.NotFound), failed=self._failed,
            ended=self._ended, retries=retries, backoff=backoff)

    def __len__(self) -> int:
        """Tables with an edit pending or on its way."""
        return len(self._latest)

    def refresh(self, table: Table) -> None:
        """Queue a (paced) edit of the table's message, if it has one: e.g. one just posted
        again by ``/table show`` gets its image this way (an interaction answer carries
        none)."""
        if table.message_id is None:
            return
        ch = self.channels.get(table.channel_id)
        if self._latest.put(table.id, table):
            ch.active += 1

    def settled(self, table: Table, version: int,
                answer: discord.Interaction[Any] | None = None) -> None:
        """The table message already shows ``version``, edited in place by ``answer``
        (which carries no image: a table with one still gets its paced edit with the image;
        a closed table's last edit is never dropped). A paced edit of an older version
        already on its way may land after the answer: the answer's view is then put back
        through its token as soon as that edit returns, not after the channel's budget."""
        edit = self._editing.get(table.id)
        if edit is not None and edit.shown < version:
            edit.answer = answer or edit.answer
            return
        if (table.version == version and table.live
                and not (self.outlet.images.enabled and table.state is not None)):
            self._latest.drop(table.id)

    async def aclose(self) -> None:
        """Stop: no edit is left running."""
        await self._latest.aclose()

    def _budget(self, table_id: int, table: Table) -> RateLimiter:
        return self.channels[table.channel_id].limiter

    def _ended(self, table_id: int, table: Table) -> None:
        self.channels.release(self.channels[table.channel_id])

    async def _send(self, table_id: int, table: Table, going: Callable[[], None]) -> None:
        if table.message_id is None:
            return
        images = self.outlet.images
        # Text and image of one moment: the latest state when a render slot is free.
        drawn: list[int] = []

        def parts_now() -> MessageParts:
            drawn.append(table.version)
            return table_message(table, table.locale)

        data, parts = await images.table_png(table, parts_now)
        if not table.live:  # its last image: nothing more to cache for this table
            images.forget(table.id)
        files: list[discord.File] = []
        if data is not None and parts.embed is not None:
            parts.embed.set_image(url=TABLE_URL)
            files.append(image_file(data, TABLE_FILE, "the table"))
        async with self.outlet.lanes.background():
            if drawn and drawn[-1] != table.version:
                # The table moved on while this edit waited: its text and buttons are taken
                # again now (an older view must never overwrite a newer answer) and the
                # image, one move behind, is redrawn in the next paced edit.
                parts = table_message(table, table.locale)
                if files and parts.embed is not None:
                    parts.embed.set_image(url=TABLE_URL)
                if table.live:
                    self._latest.put(table.id, table)
            message_id = table.message_id
            if message_id is None:
                return
            going()
            edit = self._editing[table.id] = _TableEdit(table.version)
            try:
                await self.outlet.channel(table.channel_id).get_partial_message(
                    message_id).edit(content=parts.content, embed=parts.embed,
                                     view=parts.view, attachments=files)
            except discord.NotFound:
                if table.message_id == message_id:
                    raise
                self._latest.put(table.id, table)  # posted again meanwhile: edit that one
                return
            finally:
                if self._editing.get(table.id) is edit:
                    del self._editing[table.id]
        self.outlet.sent += 1
        if edit.answer is not None:
            await self._put_back(table, edit.answer)

    async def _put_back(self, table: Table, answer: discord.Interaction[Any]) -> None:
        """A paced edit may have overwritten ``answer``'s newer view: show the latest view
        again at once through the answer's token (the paced edit that follows brings the
        image back)."""
        parts = table_message(table, table.locale)
        try:
            await edit_original(answer, content=parts.content, embed=parts.embed,
                                view=parts.view)
        except discord.HTTPException as exc:
            log.info("putting back the view of table %s failed: %s", table.id, exc)
            if table.live:
                self._latest.put(table.id, table)

    def _failed(self, table_id: int, table: Table, exc: Exception) -> None:
        if isinstance(exc, discord.NotFound):
            log.info("the message of table %s is gone", table_id)
        else:
            log.error("editing the message of table %s failed", table_id, exc_info=exc)
