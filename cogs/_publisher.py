"""Channel output: table-message edits, hand results, notices, hand refreshes.

The service reports changes as ``Update`` values (synchronously, under the table lock);
every message this module keeps up to date is a key of a ``cogs._latest.Latest``: the newest
version waits until it is sent, within its budget, at most one send in flight per key, a
failed send retried. Four of them:

* each table's public message (keyed by table id: a new table in the channel never takes
  the place of the old one's closing edit), paced by the channel's ``RateLimiter`` (Discord's
  per-channel limit), so a fast table edits its message once for many moves;
* each channel's posts (hand results and notices, in order), paced by the same limiter; the
  limiter serves its waiters in turn, so a busy table's edits do not starve them;
* each hand message's text and components, and its image in its own later edit, through
  the interaction token while it is valid (webhook routes, not the channel's budget); when
  both wait for a lane (under load), the first to get one carries the other, one edit.

Images (``cogs._images``) are rendered here, never on an interaction's acknowledgement
path: the table image only when its coalesced edit is actually sent (from the state of that
moment, so a table that moved on while the edit waited is drawn once, as it is now); a
hand's image after the interaction was answered with text and components (neither the
answer nor a later refresh of the text waits for it; an image of a hand that changed again
while it was drawn is not sent; an unchanged one is not uploaded again); a hand result
carries the score sheet so far, the end of a match the final sheet and the match summary.
Each upload replaces the message's previous image.

Background steps hold a lane of ``cogs._lanes.Lanes`` so that interactions are answered
first. A channel, a table or a hand without pending work has neither state nor task here.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.game.events import HandScored, MatchWon
from bot.game.state import HandResult
from bot.i18n import t
from bot.tables import Notice, Table, Update
from cogs._format import result_text
from cogs._images import (
    HAND_FILE,
    SHEET_FILE,
    SUMMARY_FILE,
    TABLE_FILE,
    TABLE_URL,
    HandImage,
    Images,
    MatchSnapshot,
    image_file,
    seat_hand_view,
)
from cogs._lanes import Lanes
from cogs._latest import Latest
from cogs._plain import plain_params
from cogs._views import MessageParts, hand_message, table_message

log = logging.getLogger(__name__)
TOKEN_LIFETIME = 14 * 60.0  # interaction tokens last 15 minutes

ChannelOf = Callable[[int], discord.PartialMessageable]
Results = Callable[[int, int], Awaitable[list[HandResult]]]
WantsPing = Callable[[int], Awaitable[bool]]


class RateLimiter:
    """A sliding log: at most ``limit`` calls in any ``per`` seconds (plus a margin).

    Waiters are served in turn (first come, first served)."""

    def __init__(self, limit: int = 5, per: float = 5.0, margin: float = 0.3) -> None:
        self.limit, self.window = limit, per + margin
        self.spacing = per / limit  # spread the budget: no burst that starves later sends
        self.stamps: collections.deque[float] = collections.deque()
        self._line: collections.deque[asyncio.Future[None]] = collections.deque()

    def delay(self) -> float:
        """Seconds until the next call may be made."""
        now = time.monotonic()
        while self.stamps and now - self.stamps[0] >= self.window:
            self.stamps.popleft()
        wait = 0.0
        if self.stamps:
            wait = self.spacing - (now - self.stamps[-1])
        if len(self.stamps) >= self.limit:
            wait = max(wait, self.window - (now - self.stamps[0]))
        return max(0.0, wait)

    def quiet_in(self) -> float:
        """Seconds until no call made so far counts any more (the limiter may be dropped)."""
        if not self.stamps:
            return 0.0
        return max(0.0, self.window - (time.monotonic() - self.stamps[-1]))

    def note(self) -> None:
        """Count a call made now without waiting (e.g. a message the cogs created)."""
        self.stamps.append(time.monotonic())

    async def acquire(self) -> float:
        """Take a place in the budget, in turn; returns its stamp (see ``restamp``)."""
        if not self._line and self.delay() <= 0:
            return self._take()
        me: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._line.append(me)
        try:
            if self._line[0] is not me:
                await me  # the waiter ahead hands the turn on when it takes its place
            wait = self.delay()
            while wait > 0:
                await asyncio.sleep(wait)
                wait = self.delay()
            return self._take()
        finally:
            if self._line and self._line[0] is me:
                self._line.popleft()
                if self._line and not self._line[0].done():
                    self._line[0].set_result(None)
            else:
                with contextlib.suppress(ValueError):
                    self._line.remove(me)

    def _take(self) -> float:
        stamp = time.monotonic()
        self.stamps.append(stamp)
        return stamp

    def release(self, stamp: float) -> None:
        """The call taken at ``stamp`` was not made after all."""
        with contextlib.suppress(ValueError):
            self.stamps.remove(stamp)

    def restamp(self, stamp: float) -> None:
        """The call taken at ``stamp`` goes out only now (it waited for an image)."""
        with contextlib.suppress(ValueError):
            self.stamps.remove(stamp)
        self.stamps.append(time.monotonic())


@dataclass(eq=False)
class _Ping:
    """A "your turn" message (``/optin ping``): posted once if its user asked for it,
    deleted when he acts or the turn passes; one per table at most."""

    channel_id: int
    user_id: int
    locale: str  # the table's
    message_id: int | None = None  # once posted
    over: bool = False  # its turn was taken: not to be posted, or to be deleted


@dataclass
class _Out:
    """A message to post: text, a mention, and the images of the match to attach."""

    text: str
    mention: int | None = None
    match: MatchSnapshot | None = None
    sheet: bool = False
    summary: bool = False
    ping: _Ping | None = None


@dataclass(eq=False)
class _Channel:
    """A channel while something of it is pending (and its budget's window after)."""

    id: int
    limiter: RateLimiter
    posts: collections.deque[_Out] = field(default_factory=collections.deque)
    active: int = 0  # its keys with pending sends (table messages, the posts)
    prune: asyncio.TimerHandle | None = None


@dataclass(eq=False)
class _Picture:
    """What one hand message's image shows; shared by the answers that edit that message."""

    message_id: int | None
    view: object = None  # the HandView in the image: None = no image, or _UNKNOWN
    uploads: int = 0  # uploads started: only the latest one records what the image shows

    def upload(self, image: HandImage) -> tuple[int, list[discord.File]]:
        """Start uploading ``image``: its number and the edit's attachments (none: the old
        image is removed); what the message shows is unknown until it lands."""
        self.uploads += 1
        self.view = _UNKNOWN
        return self.uploads, ([image_file(image.data, HAND_FILE, "your hand")]
                              if image.data else [])

    def uploaded(self, upload: int, image: HandImage) -> None:
        """Upload number ``upload`` landed: the message shows ``image`` unless a later
        upload started meanwhile."""
        if self.uploads == upload:
            self.view = image.view


@dataclass(eq=False)
class _Hand:
    """A user's current hand message: refreshed through its interaction's token."""

    interaction: discord.Interaction[Any]
    created: float
    table_id: int
    user_id: int
    seat: int
    loc: str | None  # the owner's locale (from the interaction)
    signature: object  # the hand state its text and components show
    picture: _Picture
    drawn: object = None  # the hand state its image was last drawn for
    ready: bool = False  # the message exists (the interaction was answered)
    rendered: HandImage | None = None  # drawn and waiting for a lane: a text edit takes it


@dataclass(eq=False)
class _TableEdit:
    """A paced edit of a table message on its way: an in-place answer to a click may reach
    Discord before it, and that answer's token puts the newer view back when it lands."""

    shown: int  # the table version the edit shows
    answer: discord.Interaction[Any] | None = None  # a newer answer it may overwrite


_UNKNOWN = object()
_NONE: dict[int, _Hand] = {}


class Publisher:
    """The bot's channel output. ``channel(id)`` gives a channel's partial messageable;
    ``results(table_id, match_no)`` a match's hand results (the sheet after a restart);
    ``wants_ping(user_id)`` whether a user asked to be told when his turn comes."""

    def __init__(self, channel: ChannelOf, lanes: Lanes, images: Images, results: Results, *,
                 limit: int = 5, per: float = 5.0, debounce: float = 0.25,
                 image_delay: float = 0.25, retries: int = 3, backoff: float = 0.5,
                 wants_ping: WantsPing | None = None) -> None:
        self.channel, self.lanes, self.images, self.results = channel, lanes, images, results
        self.wants_ping = wants_ping
        self.limit, self.per = limit, per
        self.sent = 0  # channel creates and edits made (for tests and the benchmark)
        self._channels: dict[int, _Channel] = {}
        self._hands: dict[int, dict[int, _Hand]] = {}  # table -> user -> hand message
        self._pictures: dict[int, dict[int, _Picture]] = {}  # table -> user -> latest one
        self._editing: dict[int, _TableEdit] = {}  # table -> its paced edit on its way
        self._pings: dict[int, _Ping] = {}  # table -> its "your turn" message
        self._tables: Latest[int, Table] = Latest(
            self._send_table, delay=debounce, budget=self._table_budget,
            gone=lambda exc: isinstance(exc, discord.NotFound), failed=self._table_failed,
            ended=self._table_ended, retries=retries, backoff=backoff)
        self._posts: Latest[int, _Channel] = Latest(
            self._send_post, delay=debounce, budget=lambda cid, ch: ch.limiter,
            gone=lambda exc: isinstance(exc, discord.NotFound), failed=self._post_failed,
            ended=lambda cid, ch: self._release(ch), retries=retries, backoff=backoff)
        self._texts: Latest[_Hand, Table] = Latest(
            self._send_text, gone=_hand_gone, failed=self._hand_failed, retries=retries,
            backoff=backoff)
        self._images: Latest[_Hand, Table] = Latest(
            self._send_image, delay=image_delay, gone=_hand_gone, failed=self._hand_failed,
            retries=retries, backoff=backoff)
        # Whether a turn's user wants his "your turn" message (by table: read off the
        # moves' answers), and its deletes (by message id: Discord counts them apart from
        # the channel's creates and edits).
        self._checks: Latest[int, _Ping] = Latest(
            self._check_ping, failed=lambda tid, ping, exc: log.warning(
                "turn ping of table %s not checked: %s", tid, exc), retries=0)
        self._deletes: Latest[int, _Ping] = Latest(
            self._delete_ping, gone=lambda exc: isinstance(exc, discord.NotFound),
            failed=_delete_failed, retries=retries, backoff=backoff)
        self._closed = False

    # ---- from the service --------------------------------------------------------------
    def __call__(self, update: Update) -> None:
        if self._closed:
            return
        table = update.table
        if table.message_id is not None:
            self._put_table(table)
        self._end_ping(update)
        snap = self.images.note_events(table, update.events)
        over = any(isinstance(e, MatchWon) for e in update.events)
        posts: list[_Out] = []
        last: _Out | None = None
        for e in update.events:
            if isinstance(e, HandScored):
                last = _Out(result_text(table, e.result, update.hand_no, table.locale))
                posts.append(last)
        if last is not None:  # the score sheet so far (the final one at the end)
            last.match, last.sheet = snap, True
        # a closing notice names its table: a new table may be posted before it goes out
        extra = {"table": table.id} if update.closed else {}
        for n in update.notices:
            out = _Out(_notice_text(n, table.locale, extra), n.mention)
            if over and n.key == "notice.match_won":
                out.match, out.summary, over = snap, True, False
            posts.append(out)
        if over and last is not None:  # no "won" notice to carry the summary
            last.summary = True
        if update.turn is not None and not update.closed and self.wants_ping is not None:
            ping = self._pings[table.id] = _Ping(table.channel_id, update.turn, table.locale)
            self._checks.put(table.id, ping)
        if posts:
            ch = self._channel(table.channel_id)
            ch.posts.extend(posts)
            if self._posts.put(ch.id, ch):
                ch.active += 1
        if update.closed:
            self.images.forget(table.id)
            self._close_hands(table.id)
        else:
            self._refresh_hands(table)

    def refresh_table(self, table: Table) -> None:
        """Queue a (paced) edit of the table message: e.g. one just posted again by
        ``/table show`` gets its image this way (an interaction answer carries none)."""
        if table.message_id is not None:
            self._put_table(table)

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
                and not (self.images.enabled and table.state is not None)):
            self._tables.drop(table.id)

    def note_sent(self, channel_id: int) -> None:
        """Count a message the cogs created through the channel route (e.g. /table show)."""
        ch = self._channel(channel_id)
        ch.limiter.note()
        if not ch.active:
            self._schedule_prune(ch)

    def busy(self) -> bool:
        """Something is still to be sent."""
        return bool(len(self._tables) or len(self._posts) or len(self._texts)
                    or len(self._images) or len(self._checks) or len(self._deletes))

    async def idle(self, timeout: float = 30.0) -> None:  # noqa: ASYNC109
        """Wait until every queued edit and message went out (tests, benchmarks)."""
        end = time.monotonic() + timeout
        while self.busy():
            if time.monotonic() > end:
                raise TimeoutError("publisher still busy")
            await asyncio.sleep(0.01)

    async def close(self, *, unping: float = 2.0) -> None:
        """Stop: nothing more is sent, and no task of the publisher is left. The "your
        turn" messages standing are deleted first (within ``unping`` seconds): a restarted
        bot would not know them to delete them."""
        standing = [p for p in self._pings.values() if p.message_id is not None]
        self._pings.clear()
        first, self._closed = not self._closed, True
        if standing and first:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*(
                    self._unping(p) for p in standing)), unping)
        await asyncio.gather(self._tables.aclose(), self._posts.aclose(),
                             self._texts.aclose(), self._images.aclose(),
                             self._checks.aclose(), self._deletes.aclose())
        for ch in self._channels.values():
            if ch.prune is not None:
                ch.prune.cancel()
        self._channels.clear()
        self._hands.clear()
        self._pictures.clear()
        self.images.close()

    # ---- channels ----------------------------------------------------------------------
    def _channel(self, channel_id: int) -> _Channel:
        ch = self._channels.get(channel_id)
        if ch is None:
            ch = self._channels[channel_id] = _Channel(
                channel_id, RateLimiter(self.limit, self.per))
        return ch

    def _release(self, ch: _Channel) -> None:
        """One of the channel's keys has nothing pending any more."""
        ch.active -= 1
        if not ch.active:
            self._schedule_prune(ch)

    def _schedule_prune(self, ch: _Channel) -> None:
        # The limiter is kept while its calls still count: a new one would allow a burst.
        if ch.prune is not None:
            ch.prune.cancel()
        ch.prune = asyncio.get_running_loop().call_later(ch.limiter.quiet_in(), self._prune, ch)

    def _prune(self, ch: _Channel) -> None:
        ch.prune = None
        if ch.active or self._channels.get(ch.id) is not ch:
            return
        if ch.limiter.quiet_in() > 0:  # a message was noted meanwhile
            self._schedule_prune(ch)
        else:
            del self._channels[ch.id]

    # ---- table messages ----------------------------------------------------------------
    def _put_table(self, table: Table) -> None:
        ch = self._channel(table.channel_id)
        if self._tables.put(table.id, table):
            ch.active += 1

    def _table_budget(self, table_id: int, table: Table) -> RateLimiter:
        return self._channels[table.channel_id].limiter

    def _table_ended(self, table_id: int, table: Table) -> None:
        self._release(self._channels[table.channel_id])

    async def _send_table(self, table_id: int, table: Table, going: Callable[[], None]) -> None:
        if table.message_id is None:
            return
        # Text and image of one moment: the latest state when a render slot is free.
        drawn: list[int] = []

        def parts_now() -> MessageParts:
            drawn.append(table.version)
            return table_message(table, table.locale)

        data, parts = await self.images.table_png(table, parts_now)
        if not table.live:  # its last image: nothing more to cache for this table
            self.images.forget(table.id)
        files: list[discord.File] = []
        if data is not None and parts.embed is not None:
            parts.embed.set_image(url=TABLE_URL)
            files.append(image_file(data, TABLE_FILE, "the table"))
        async with self.lanes.background():
            if drawn and drawn[-1] != table.version:
                # The table moved on while this edit waited: its text and buttons are taken
                # again now (an older view must never overwrite a newer answer) and the
                # image, one move behind, is redrawn in the next paced edit.
                parts = table_message(table, table.locale)
                if files and parts.embed is not None:
                    parts.embed.set_image(url=TABLE_URL)
                if table.live:
                    self._tables.put(table.id, table)
            message_id = table.message_id
            if message_id is None:
                return
            going()
            edit = self._editing[table.id] = _TableEdit(table.version)
            try:
                await self.channel(table.channel_id).get_partial_message(message_id).edit(
                    content=parts.content, embed=parts.embed, view=parts.view,
                    attachments=files)
            except discord.NotFound:
                if table.message_id == message_id:
                    raise
                self._tables.put(table.id, table)  # posted again meanwhile: edit that one
                return
            finally:
                if self._editing.get(table.id) is edit:
                    del self._editing[table.id]
        self.sent += 1
        if edit.answer is not None:
            await self._put_back(table, edit.answer)

    async def _put_back(self, table: Table, answer: discord.Interaction[Any]) -> None:
        """A paced edit may have overwritten ``answer``'s newer view: show the latest view
        again at once through the answer's token (the paced edit that follows brings the
        image back)."""
        parts = table_message(table, table.locale)
        try:
            await answer.edit_original_response(content=parts.content, embed=parts.embed,
                                                view=parts.view)
        except discord.HTTPException as exc:
            log.info("putting back the view of table %s failed: %s", table.id, exc)
            if table.live:
                self._tables.put(table.id, table)

    def _table_failed(self, table_id: int, table: Table, exc: Exception) -> None:
        if isinstance(exc, discord.NotFound):
            log.info("the message of table %s is gone", table_id)
        else:
            log.error("editing the message of table %s failed", table_id, exc_info=exc)

    # ---- posts (hand results, notices) -------------------------------------------------
    async def _send_post(self, channel_id: int, ch: _Channel,
                         going: Callable[[], None]) -> None:
        if not ch.posts:
            return
        out = ch.posts[0]  # taken off the queue once sent (a failed one is retried)
        if out.ping is not None and out.ping.over:  # the turn was taken before it went out
            ch.posts.popleft()
            if ch.posts:
                self._posts.put(channel_id, ch)
            return
        text = out.text if out.mention is None else f"<@{out.mention}> {out.text}"
        files = await self._match_files(out)
        allowed = discord.AllowedMentions(users=True, everyone=False, roles=False)
        if out.ping is not None:  # it notifies its user and nobody else
            allowed = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                              users=[discord.Object(out.ping.user_id)])
        async with self.lanes.background():
            going()
            msg = await self.channel(channel_id).send(text[:2000], allowed_mentions=allowed,
                                                      files=files)
        ch.posts.popleft()
        self.sent += 1
        if out.ping is not None:
            out.ping.message_id = msg.id
            if out.ping.over:  # the user acted while it was on its way
                self._deletes.put(msg.id, out.ping)
        if ch.posts:
            self._posts.put(channel_id, ch)

    # ---- "your turn" messages ----------------------------------------------------------
    def _end_ping(self, update: Update) -> None:
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

    async def _check_ping(self, table_id: int, ping: _Ping,
                          going: Callable[[], None]) -> None:
        """Post the turn's message after the others of its change, if its user wants it."""
        if ping.over or self.wants_ping is None:
            return
        if not await self.wants_ping(ping.user_id):
            if self._pings.get(table_id) is ping:
                del self._pings[table_id]
            return
        if ping.over:
            return
        ch = self._channel(ping.channel_id)
        ch.posts.append(_Out(t("notice.turn_ping", ping.locale), ping.user_id, ping=ping))
        if self._posts.put(ch.id, ch):
            ch.active += 1

    async def _unping(self, ping: _Ping) -> None:
        assert ping.message_id is not None
        try:
            await self.channel(ping.channel_id).get_partial_message(ping.message_id).delete()
        except discord.HTTPException as exc:
            log.info("turn message %s not deleted at closing: %s", ping.message_id, exc)

    async def _delete_ping(self, message_id: int, ping: _Ping,
                           going: Callable[[], None]) -> None:
        async with self.lanes.background():
            going()
            await self.channel(ping.channel_id).get_partial_message(message_id).delete()

    def _post_failed(self, channel_id: int, ch: _Channel, exc: Exception) -> None:
        if isinstance(exc, discord.NotFound):  # the channel is gone: so are its posts
            log.info("channel %s is gone", channel_id)
            ch.posts.clear()
            return
        log.error("posting to channel %s failed", channel_id, exc_info=exc)
        if ch.posts:
            ch.posts.popleft()
        if ch.posts:
            self._posts.put(channel_id, ch)

    async def _match_files(self, out: _Out) -> list[discord.File]:
        snap = out.match
        if snap is None or not (out.sheet or out.summary) or not self.images.enabled:
            return []
        try:
            results = (list(snap.results) if snap.results is not None
                       else await self.results(snap.table_id, snap.match_no))
            files = []
            if out.sheet:
                data = await self.images.sheet_png(snap, results, final=out.summary or any(
                    r.winners for r in results[-1:]))
                if data is not None:
                    files.append(image_file(data, SHEET_FILE, "the score sheet"))
            if out.summary:
                data = await self.images.summary_png(snap, results)
                if data is not None:
                    files.append(image_file(data, SUMMARY_FILE, "the match summary"))
            return files
        except Exception:  # the text goes out anyway
            log.exception("match images of table %s failed", snap.table_id)
            return []

    # ---- ephemeral hands -----------------------------------------------------------------
    def remember_hand(self, interaction: discord.Interaction[Any], table: Table,
                      seat: int) -> _Hand:
        """This interaction's message becomes the user's current hand (call before answering,
        with the state the answer shows; then ``answered``)."""
        loc = str(interaction.locale.value) if interaction.locale else None
        uid = interaction.user.id
        self.forget_hand(table.id, uid)
        pictures = self._pictures.setdefault(table.id, {})
        msg = interaction.message
        if msg is not None and msg.flags.ephemeral:  # the answer edits this hand message
            picture = pictures.get(uid)
            if picture is None or picture.message_id != msg.id:
                picture = pictures[uid] = _Picture(msg.id, _UNKNOWN)
        else:  # a new message, without an image
            picture = pictures[uid] = _Picture(None)
        ref = _Hand(interaction, time.monotonic(), table.id, uid, seat, loc,
                    hand_signature(table, seat), picture)
        self._hands.setdefault(table.id, {})[uid] = ref
        return ref

    def answered(self, ref: _Hand, table: Table) -> None:
        """The hand message exists now: refresh it if the table moved on meanwhile, and
        attach its image (the answer carried text and components only)."""
        ref.ready = True
        if self._owns(ref):
            self._refresh_hand(ref, table, time.monotonic())

    def forget_hand(self, table_id: int, user_id: int) -> None:
        """Refresh the user's hand message no more (what its image shows is remembered)."""
        hands = self._hands.get(table_id)
        ref = hands.pop(user_id, None) if hands is not None else None
        if ref is not None:
            self._texts.drop(ref)
            self._images.drop(ref)
            if not hands:
                del self._hands[table_id]

    def _owns(self, ref: _Hand) -> bool:
        return self._hands.get(ref.table_id, _NONE).get(ref.user_id) is ref

    def _close_hands(self, table_id: int) -> None:
        for ref in self._hands.pop(table_id, _NONE).values():
            self._texts.drop(ref)
            self._images.drop(ref)
        self._pictures.pop(table_id, None)

    def _refresh_hands(self, table: Table) -> None:
        hands = self._hands.get(table.id)
        if not hands:
            return
        now = time.monotonic()
        for s in table.seats:
            if s.user_id is not None and not s.ai:
                ref = hands.get(s.user_id)
                if ref is not None and ref.ready:
                    self._refresh_hand(ref, table, now)

    def _refresh_hand(self, ref: _Hand, table: Table, now: float) -> None:
        if not table.live:
            self._close_hands(table.id)
            return
        if now - ref.created > TOKEN_LIFETIME:
            self.forget_hand(ref.table_id, ref.user_id)
            return
        sig = hand_signature(table, ref.seat)
        if sig != ref.signature:
            self._texts.put(ref, table)
        if self.images.enabled and sig != ref.drawn:
            self._images.put(ref, table)

    async def _send_text(self, ref: _Hand, table: Table, going: Callable[[], None]) -> None:
        """Bring the hand message's text and components up to date at once (never waiting
        for an image: that is ``_send_image``'s own edit)."""
        if not self._owns(ref) or hand_signature(table, ref.seat) == ref.signature:
            return
        async with self.lanes.background():
            sig = hand_signature(table, ref.seat)  # the latest, after the wait
            if not self._owns(ref) or sig == ref.signature:
                return  # a newer answer owns the message now, or nothing changed
            parts: MessageParts = hand_message(table, ref.seat, ref.loc)
            # An image already drawn of what the hand shows now goes along: one edit
            # instead of two when both waited for a lane (under load, most hand changes).
            image, picture = ref.rendered, ref.picture
            if image is not None and (image.view == picture.view
                                      or image.view != seat_hand_view(table, ref.seat, ref.loc)):
                image = None
            extra: dict[str, Any] = {}
            if image is not None:
                upload, extra["attachments"] = picture.upload(image)
            going()
            msg = await ref.interaction.edit_original_response(
                content=parts.content, view=parts.view, **extra)
        ref.signature = sig
        if image is not None:
            picture.uploaded(upload, image)
            ref.drawn = sig
        if ref.picture.message_id is None:
            ref.picture.message_id = msg.id

    async def _send_image(self, ref: _Hand, table: Table, going: Callable[[], None]) -> None:
        """Attach (replace) the hand message's image, drawn from the latest state when a
        render slot is free; an image of a hand that changed again while it was drawn is
        not sent (the latest one is drawn instead). A text refresh that is due as well
        goes in the same edit, and one that gets a lane first takes this image along."""
        if not self._owns(ref) or hand_signature(table, ref.seat) == ref.drawn:
            return
        got = await self.images.hand_png(
            table, ref.seat, lambda: hand_signature(table, ref.seat), ref.loc)
        if not self._owns(ref):
            return
        if got.signature != hand_signature(table, ref.seat):
            self._images.put(ref, table)  # drawn for a hand that is gone already
            return
        picture = ref.picture
        drawn = got.signature
        if got.view != picture.view:  # an unchanged image is not uploaded again
            ref.rendered = got
            try:
                async with self.lanes.background():
                    if not self._owns(ref):
                        return
                    sig = hand_signature(table, ref.seat)
                    if got.signature != sig and got.view != seat_hand_view(
                            table, ref.seat, ref.loc):
                        self._images.put(ref, table)  # changed while waiting for a lane
                        return
                    drawn = sig  # what the image shows is still what the hand shows
                    if got.view == picture.view:  # a text edit took it along meanwhile
                        ref.drawn = drawn
                        return
                    extra: dict[str, Any] = {}
                    if sig != ref.signature:  # the text is due too: both in one edit
                        parts = hand_message(table, ref.seat, ref.loc)
                        extra = {"content": parts.content, "view": parts.view}
                    upload, files = picture.upload(got)
                    going()
                    msg = await ref.interaction.edit_original_response(attachments=files,
                                                                       **extra)
                    if extra:
                        ref.signature = sig
            finally:
                if ref.rendered is got:
                    ref.rendered = None
            picture.uploaded(upload, got)
            if picture.message_id is None:
                picture.message_id = msg.id
        ref.drawn = drawn

    def _hand_failed(self, ref: _Hand, table: Table, exc: Exception) -> None:
        """An edit of a hand message failed: Discord refused it (an expired token, a
        deleted message: that hand is no longer refreshed) or it kept failing."""
        if _hand_gone(exc):
            log.debug("hand refresh failed: %s", exc)
            if self._owns(ref):
                self.forget_hand(ref.table_id, ref.user_id)
        else:
            log.error("hand refresh failed", exc_info=exc)


def _to_act(table: Table) -> int | None:
    """The user who is to move himself now (None: nobody, or an AI)."""
    seat = table.to_act()
    if not table.live or seat < 0 or seat >= len(table.seats) or table.seats[seat].automatic:
        return None
    return table.seats[seat].user_id


def _delete_failed(message_id: int, ping: _Ping, exc: Exception) -> None:
    if isinstance(exc, discord.NotFound):  # deleted by someone else already
        log.debug("turn message %s is gone already", message_id)
    else:
        log.warning("deleting turn message %s failed: %s", message_id, exc)


def _hand_gone(exc: Exception) -> bool:
    """The hand message cannot be edited any more (deleted, or its token expired)."""
    return isinstance(exc, discord.NotFound | discord.Forbidden) or (
        isinstance(exc, discord.HTTPException) and exc.status == 401)


def hand_signature(table: Table, seat: int) -> object:
    obs = table.observation(seat)
    if obs is None:
        return None
    legal = tuple(a for a in obs.legal if a.seat == seat)
    return (obs.hand, legal, obs.trick_no, obs.phase, obs.to_act == seat, table.status,
            obs.trump, obs.drawn, table.face_down(seat),
            table.paused and seat in table.waiting)


def _notice_text(n: Notice, loc: str, extra: dict[str, Any]) -> str:
    return t(n.key, loc, **{**extra, **plain_params(n.key, n.params)})
