"""A channel's posts: hand results and notices, in order, paced by the channel's budget.

A hand result carries the score sheet so far, the end of a match the final sheet and the
match summary (drawn when the post goes out; the text goes out even if they fail). A
channel's posts are one key of a ``cogs._latest.Latest``: one send in flight, a failed
post retried, then given up so that the ones after it still go.
"""

from __future__ import annotations

import collections
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

import discord

from bot.game.events import HandScored, MatchWon
from bot.game.state import HandResult
from bot.i18n import t
from bot.tables import Notice, Update
from cogs._channels import Channel, Channels, Outlet
from cogs._format import result_text
from cogs._images import SHEET_FILE, SUMMARY_FILE, MatchSnapshot, image_file
from cogs._latest import Latest
from cogs._plain import plain_params

log = logging.getLogger(__name__)

Results = Callable[[int, int], Awaitable[list[HandResult]]]


@dataclass(eq=False)
class Ping:
    """A "your turn" message (``cogs._turn_pings``): posted once if its user asked for it,
    not posted or deleted once he acts or the turn passes."""

    channel_id: int
    user_id: int
    locale: str  # the table's
    message_id: int | None = None  # once posted
    over: bool = False  # its turn was taken: not to be posted, or to be deleted


@dataclass
class Post:
    """A message to post: text, a mention, and the images of the match to attach."""

    text: str
    mention: int | None = None
    match: MatchSnapshot | None = None
    sheet: bool = False
    summary: bool = False
    ping: Ping | None = None


def update_posts(update: Update, snap: MatchSnapshot | None) -> list[Post]:
    """The posts a change of a table makes: its hand results, then its notices; the last
    result carries the score sheet, the match's end its summary."""
    table = update.table
    over = any(isinstance(e, MatchWon) for e in update.events)
    posts: list[Post] = []
    last: Post | None = None
    for e in update.events:
        if isinstance(e, HandScored):
            last = Post(result_text(table, e.result, update.hand_no, table.locale))
            posts.append(last)
    if last is not None:  # the score sheet so far (the final one at the end)
        last.match, last.sheet = snap, True
    # a closing notice names its table: a new table may be posted before it goes out
    extra = {"table": table.id} if update.closed else {}
    for n in update.notices:
        out = Post(_notice_text(n, table.locale, extra), n.mention)
        if over and n.key == "notice.match_won":
            out.match, out.summary, over = snap, True, False
        posts.append(out)
    if over and last is not None:  # no "won" notice to carry the summary
        last.summary = True
    return posts


class Posts:
    """Each channel's queue of posts (kept while it is not empty). ``results(table_id,
    match_no)`` gives a match's hand results (the sheet after a restart); ``posted(ping,
    message_id)`` is told where a turn ping went."""

    def __init__(self, outlet: Outlet, channels: Channels, results: Results, *,
                 posted: Callable[[Ping, int], None], debounce: float, retries: int,
                 backoff: float) -> None:
        self.outlet, self.channels, self.results, self.posted = outlet, channels, results, posted
        self._queues: dict[int, collections.deque[Post]] = {}  # channel -> its posts, in order
        self._latest: Latest[int, Channel] = Latest(
            self._send, delay=debounce, budget=lambda cid, ch: ch.limiter,
            gone=lambda exc: isinstance(exc, discord.NotFound), failed=self._failed,
            ended=self._ended, retries=retries, backoff=backoff)

    def __len__(self) -> int:
        """Channels with posts pending or on their way."""
        return len(self._latest)

    def add(self, channel_id: int, posts: Iterable[Post]) -> None:
        """Queue ``posts`` after the channel's others."""
        ch = self.channels.get(channel_id)
        self._queues.setdefault(channel_id, collections.deque()).extend(posts)
        if self._latest.put(ch.id, ch):
            ch.active += 1

    async def aclose(self) -> None:
        """Stop: nothing more is posted."""
        await self._latest.aclose()
        self._queues.clear()

    def _ended(self, channel_id: int, ch: Channel) -> None:
        if not self._queues.get(channel_id):
            self._queues.pop(channel_id, None)
        self.channels.release(ch)

    async def _send(self, channel_id: int, ch: Channel, going: Callable[[], None]) -> None:
        posts = self._queues.get(channel_id)
        if not posts:
            return
        out = posts[0]  # taken off the queue once sent (a failed one is retried)
        if out.ping is not None and out.ping.over:  # the turn was taken before it went out
            posts.popleft()
            if posts:
                self._latest.put(channel_id, ch)
            return
        text = out.text if out.mention is None else f"<@{out.mention}> {out.text}"
        files = await self._match_files(out)
        allowed = discord.AllowedMentions(users=True, everyone=False, roles=False)
        if out.ping is not None:  # it notifies its user and nobody else
            allowed = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                              users=[discord.Object(out.ping.user_id)])
        async with self.outlet.lanes.background():
            going()
            msg = await self.outlet.channel(channel_id).send(
                text[:2000], allowed_mentions=allowed, files=files)
        posts.popleft()
        self.outlet.sent += 1
        if out.ping is not None:
            self.posted(out.ping, msg.id)
        if posts:
            self._latest.put(channel_id, ch)

    def _failed(self, channel_id: int, ch: Channel, exc: Exception) -> None:
        posts = self._queues.get(channel_id, collections.deque())
        if isinstance(exc, discord.NotFound):  # the channel is gone: so are its posts
            log.info("channel %s is gone", channel_id)
            posts.clear()
            return
        log.error("posting to channel %s failed", channel_id, exc_info=exc)
        if posts:
            posts.popleft()
        if posts:
            self._latest.put(channel_id, ch)

    async def _match_files(self, out: Post) -> list[discord.File]:
        snap = out.match
        images = self.outlet.images
        if snap is None or not (out.sheet or out.summary) or not images.enabled:
            return []
        try:
            results = (list(snap.results) if snap.results is not None
                       else await self.results(snap.table_id, snap.match_no))
            files = []
            if out.sheet:
                data = await images.sheet_png(snap, results, final=out.summary or any(
                    r.winners for r in results[-1:]))
                if data is not None:
                    files.append(image_file(data, SHEET_FILE, "the score sheet"))
            if out.summary:
                data = await images.summary_png(snap, results)
                if data is not None:
                    files.append(image_file(data, SUMMARY_FILE, "the match summary"))
            return files
        except Exception:  # the text goes out anyway
            log.exception("match images of table %s failed", snap.table_id)
            return []


def _notice_text(n: Notice, loc: str, extra: dict[str, Any]) -> str:
    return t(n.key, loc, **{**extra, **plain_params(n.key, n.params)})
