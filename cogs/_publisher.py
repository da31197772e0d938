"""Channel output: the coalesced table-message edits, hand results, notices, hand refreshes.

The service reports changes as ``Update`` values (synchronously, under the table lock);
this queues them per channel. One worker per channel sends at most ``limit`` creates and
edits per ``per`` seconds (Discord's per-channel limit), so a fast table edits its message
once for many moves. Ephemeral hands refresh through their interaction token while it is
valid (webhook routes, not the channel's budget).

Images (``cogs._images``) are rendered here, never on an interaction's acknowledgement
path: the table image only when its coalesced edit is actually sent (from the state of that
moment, so a table that moved on while the edit waited is drawn once, as it is now); a
hand's image in its own edit after the interaction was answered with text and components
(neither the answer nor a later refresh of the hand's text and components waits for it;
an image of a hand that changed again while it was drawn is not sent); a hand result
carries the score sheet so far, the end of a match the final sheet and the match summary.
Each upload replaces the message's previous image.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot.game.events import HandScored, MatchWon
from bot.game.rules import Rules
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
    Images,
    MatchSnapshot,
    image_file,
)
from cogs._lanes import Lanes
from cogs._views import MessageParts, hand_message, table_message


class Host(Protocol):
    """What the publisher needs of the bot: channels to send to, and lanes to wait in."""

    lanes: Lanes

    def get_partial_messageable(self, id: int, /) -> discord.PartialMessageable: ...

log = logging.getLogger(__name__)
TOKEN_LIFETIME = 14 * 60.0  # interaction tokens last 15 minutes


class RateLimiter:
    """A sliding log: at most ``limit`` calls in any ``per`` seconds (plus a margin)."""

    def __init__(self, limit: int = 5, per: float = 5.0, margin: float = 0.3) -> None:
        self.limit, self.window = limit, per + margin
        self.spacing = per / limit  # spread the budget: no burst that starves later sends
        self.stamps: collections.deque[float] = collections.deque()

    def delay(self) -> float:
        now = time.monotonic()
        while self.stamps and now - self.stamps[0] >= self.window:
            self.stamps.popleft()
        wait = 0.0
        if self.stamps:
            wait = self.spacing - (now - self.stamps[-1])
        if len(self.stamps) >= self.limit:
            wait = max(wait, self.window - (now - self.stamps[0]))
        return max(0.0, wait)

    async def acquire(self) -> float:
        """Take a place in the budget; returns its stamp (see ``restamp``)."""
        wait = self.delay()
        while wait > 0:
            await asyncio.sleep(wait)
            wait = self.delay()
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


@dataclass
class _Out:
    """A message to post: text, a mention, and the images of the match to attach."""

    text: str
    mention: int | None = None
    match: MatchSnapshot | None = None
    sheet: bool = False
    summary: bool = False


@dataclass
class _Channel:
    limiter: RateLimiter
    table: Table | None = None  # a table-message edit is due (latest state wins)
    sends: collections.deque[_Out] = field(default_factory=collections.deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    edited_last: bool = False  # the last slot went to a table edit


@dataclass
class _HandRef:
    interaction: discord.Interaction[Any]
    created: float
    signature: object  # the hand state its text and components show
    table_id: int
    seat: int
    loc: str | None = None  # the owner's locale (from the interaction)
    pending: bool = False  # the answer, or a text refresh, is under way
    ready: bool = False  # the message exists (the interaction was answered)
    imaging: bool = False  # an image refresh is under way
    image_signature: object = None  # the hand state its image was drawn for (None: none yet)
    shown: object = None  # the HandView in the message's image: None = no image, or _UNKNOWN
    message_id: int | None = None


_UNKNOWN = object()
# The hand results of a match (table id, match number, rules, first dealer), after a
# restart: replayed from the log by the table service.
Results = Callable[[int, int, Rules, int], Awaitable[list[HandResult]]]


async def _no_results(table_id: int, match_no: int, rules: Rules,
                      dealer: int) -> list[HandResult]:
    return []


class Publisher:
    def __init__(self, bot: Host, *, limit: int = 5, per: float = 5.0,
                 debounce: float = 0.25, images: Images | None = None,
                 image_delay: float = 0.25, results: Results | None = None) -> None:
        self.bot = bot
        self.results: Results = results or _no_results
        self.image_delay = image_delay  # a hand's image waits this long for more moves
        self.images = images if images is not None else Images()
        self.limit, self.per, self.debounce = limit, per, debounce
        self._channels: dict[int, _Channel] = {}
        self._hands: dict[tuple[int, int], _HandRef] = {}
        # per (table, user): the hand message and the HandView its image shows
        self._shown: dict[tuple[int, int], tuple[int, object]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.sent = 0  # channel creates and edits made (for tests and the benchmark)
        self._inflight = 0

    # ---- from the service --------------------------------------------------------------
    def __call__(self, update: Update) -> None:
        table = update.table
        ch = self._channel(table.channel_id)
        if table.message_id is not None:
            ch.table = table
        snap = self.images.note_events(table, update.events)
        over = any(isinstance(e, MatchWon) for e in update.events)
        last: _Out | None = None
        for e in update.events:
            if isinstance(e, HandScored):
                last = _Out(result_text(table, e.result, update.hand_no, table.locale))
                ch.sends.append(last)
        if last is not None:  # the score sheet so far (the final one at the end)
            last.match, last.sheet = snap, True
        for n in update.notices:
            out = _Out(_notice_text(n, table.locale), n.mention)
            if over and n.key == "notice.match_won":
                out.match, out.summary, over = snap, True, False
            ch.sends.append(out)
        if over and last is not None:  # no "won" notice to carry the summary
            last.summary = True
        if update.closed:
            self.images.forget(table.id)
            for key in [k for k in self._shown if k[0] == table.id]:
                del self._shown[key]
        ch.wake.set()
        self._refresh_hands(table)

    def _channel(self, channel_id: int) -> _Channel:
        ch = self._channels.get(channel_id)
        if ch is None:
            ch = self._channels[channel_id] = _Channel(RateLimiter(self.limit, self.per))
        if ch.task is None or ch.task.done():
            ch.task = asyncio.get_running_loop().create_task(self._worker(channel_id, ch))
        return ch

    def refresh_table(self, table: Table) -> None:
        """Queue a (paced) edit of the table message: e.g. one just posted again by
        ``/table show`` gets its image this way (an interaction answer carries none)."""
        if table.message_id is not None:
            ch = self._channel(table.channel_id)
            ch.table = table
            ch.wake.set()

    def settled(self, table: Table, version: int) -> None:
        """The table message already shows ``version`` (edited by an interaction answer,
        which carries no image: a table with one still gets its paced edit with the image)."""
        ch = self._channels.get(table.channel_id)
        if (ch is not None and ch.table is table and table.version == version
                and not (self.images.enabled and table.state is not None)):
            ch.table = None

    def note_sent(self, channel_id: int) -> None:
        """Count a message the cogs created through the channel route (e.g. /table show)."""
        self._channel(channel_id).limiter.stamps.append(time.monotonic())

    def busy(self) -> bool:
        channels = self._channels.values()
        return (self._inflight > 0 or any(ch.table is not None or ch.sends for ch in channels)
                or any(h.pending or h.imaging for h in self._hands.values()))

    async def idle(self, timeout: float = 30.0) -> None:  # noqa: ASYNC109
        """Wait until every queued edit and message went out (tests, benchmarks)."""
        end = time.monotonic() + timeout
        while self.busy() or self._tasks:
            if time.monotonic() > end:
                raise TimeoutError("publisher still busy")
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        for ch in self._channels.values():
            if ch.task is not None:
                ch.task.cancel()
        for task in list(self._tasks):
            task.cancel()
        self.images.close()

    # ---- the channel worker --------------------------------------------------------------
    async def _worker(self, channel_id: int, ch: _Channel) -> None:
        channel = self.bot.get_partial_messageable(channel_id)
        while True:
            if ch.table is None and not ch.sends:
                ch.wake.clear()
                await ch.wake.wait()
                # Let a burst of moves (a trick, AI turns) land in one edit.
                await asyncio.sleep(self.debounce)
                continue
            stamp = await ch.limiter.acquire()
            if ch.table is None and not ch.sends:  # settled by an interaction meanwhile
                ch.limiter.release(stamp)
                continue
            self._inflight += 1
            try:
                # The table edit (latest state) goes first, but a busy table does not
                # hold queued messages back: after an edit, a waiting message goes next.
                if ch.table is not None and not (ch.sends and ch.edited_last):
                    table, ch.table = ch.table, None
                    ch.edited_last = True
                    await self._edit_table(channel, table, ch, stamp)
                else:
                    ch.edited_last = False
                    await self._send(channel, ch.sends.popleft(), ch, stamp)
                self.sent += 1
            except asyncio.CancelledError:
                raise
            except discord.NotFound:
                log.info("table message in channel %s is gone", channel_id)
            except Exception:
                log.exception("publishing to channel %s failed", channel_id)
            finally:
                self._inflight -= 1

    async def _edit_table(self, channel: discord.PartialMessageable, table: Table,
                          ch: _Channel, stamp: float) -> None:
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
        async with self.bot.lanes.background():
            if drawn and drawn[-1] != table.version:
                # The table moved on while this edit waited for a lane: its text and
                # buttons are taken again now (an older view must never overwrite a newer
                # answer) and the image, one move behind, is redrawn in the next paced edit.
                parts = table_message(table, table.locale)
                if files and parts.embed is not None:
                    parts.embed.set_image(url=TABLE_URL)
                if table.live:
                    ch.table = table
            ch.limiter.restamp(stamp)
            await channel.get_partial_message(table.message_id).edit(
                content=parts.content, embed=parts.embed, view=parts.view, attachments=files)

    async def _send(self, channel: discord.PartialMessageable, out: _Out, ch: _Channel,
                    stamp: float) -> None:
        text = out.text if out.mention is None else f"<@{out.mention}> {out.text}"
        files = await self._match_files(out)
        allowed = discord.AllowedMentions(users=True, everyone=False, roles=False)
        async with self.bot.lanes.background():
            ch.limiter.restamp(stamp)  # it goes out now, not when its place was taken
            await channel.send(text[:2000], allowed_mentions=allowed, files=files)

    async def _match_files(self, out: _Out) -> list[discord.File]:
        snap = out.match
        if snap is None or not (out.sheet or out.summary) or not self.images.enabled:
            return []
        try:
            results = (list(snap.results) if snap.results is not None
                       else await self.results(snap.table_id, snap.match_no, snap.rules,
                                               snap.dealer))
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
    def forget_hand(self, table_id: int, user_id: int) -> None:
        self._hands.pop((table_id, user_id), None)

    def remember_hand(self, interaction: discord.Interaction[Any], table: Table,
                      seat: int) -> _HandRef:
        """This interaction's message becomes the user's current hand (call before answering,
        with the state the answer shows; then ``answered``)."""
        loc = str(interaction.locale.value) if interaction.locale else None
        ref = _HandRef(interaction, time.monotonic(), hand_signature(table, seat), table.id,
                       seat, loc, pending=True)
        key = (table.id, interaction.user.id)
        msg = interaction.message
        if msg is not None and msg.flags.ephemeral:  # the answer edits this hand message
            ref.message_id = msg.id
            prev = self._shown.get(key)
            ref.shown = prev[1] if prev is not None and prev[0] == msg.id else _UNKNOWN
        self._hands[key] = ref
        return ref

    def answered(self, ref: _HandRef, table: Table) -> None:
        """The hand message exists now: refresh it if the table moved on meanwhile, and
        attach its image (the answer carried text and components only)."""
        ref.pending, ref.ready = False, True
        if self._hands.get((ref.table_id, ref.interaction.user.id)) is ref:
            self._refresh_hands(table)

    def _refresh_hands(self, table: Table) -> None:
        now = time.monotonic()
        for seat, s in enumerate(table.seats):
            if s.user_id is None or s.ai:
                continue
            ref = self._hands.get((table.id, s.user_id))
            if ref is None:
                continue
            if now - ref.created > TOKEN_LIFETIME or not table.live:
                del self._hands[(table.id, s.user_id)]
                self._shown.pop((table.id, s.user_id), None)
                continue
            if not ref.ready:
                continue  # the answer is on its way: ``answered`` looks again
            sig = hand_signature(table, seat)
            if not ref.pending and sig != ref.signature:
                ref.pending = True
                self._spawn(self._refresh_text(ref, table))
            if self.images.enabled and not ref.imaging and sig != ref.image_signature:
                ref.imaging = True
                self._spawn(self._refresh_image(ref, table))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _drop(self, ref: _HandRef) -> None:
        key = (ref.table_id, ref.interaction.user.id)
        if self._hands.get(key) is ref:
            del self._hands[key]

    async def _refresh_text(self, ref: _HandRef, table: Table) -> None:
        """Bring the hand message's text and components up to date at once (never waiting
        for an image: that is ``_refresh_image``'s own edit)."""
        key = (ref.table_id, ref.interaction.user.id)
        try:
            while self._hands.get(key) is ref:
                sig = hand_signature(table, ref.seat)
                if sig == ref.signature:
                    return
                async with self.bot.lanes.background():
                    if self._hands.get(key) is not ref:
                        return  # a newer answer owns the message now
                    sig = hand_signature(table, ref.seat)  # the latest, after the wait
                    if sig == ref.signature:
                        return
                    parts: MessageParts = hand_message(table, ref.seat, ref.loc)
                    msg = await ref.interaction.edit_original_response(
                        content=parts.content, view=parts.view)
                ref.message_id, ref.signature = msg.id, sig
        except Exception as exc:
            self._failed(ref, "hand refresh", exc)
        finally:
            ref.pending = False

    async def _refresh_image(self, ref: _HandRef, table: Table) -> None:
        """Attach (replace) the hand message's image: ``image_delay`` after a change, so that
        a burst of moves costs one image, drawn from the latest state when a render slot is
        free; an image of a hand that changed again while it was drawn is not sent (the
        latest one is drawn instead). The edit carries the attachment only."""
        key = (ref.table_id, ref.interaction.user.id)
        images = self.images
        try:
            while self._hands.get(key) is ref:
                await asyncio.sleep(self.image_delay)
                if self._hands.get(key) is not ref:
                    return  # a newer answer owns the message now
                if hand_signature(table, ref.seat) == ref.image_signature:
                    return
                got = await images.hand_png(
                    table, ref.seat, lambda: hand_signature(table, ref.seat))
                if self._hands.get(key) is not ref:
                    return
                if got.signature != hand_signature(table, ref.seat):
                    continue  # drawn for a hand that is gone already: draw the latest
                if got.view != ref.shown:  # an unchanged image is not uploaded again
                    async with self.bot.lanes.background():
                        if (self._hands.get(key) is not ref
                                or got.signature != hand_signature(table, ref.seat)):
                            continue  # changed while waiting for a lane: draw the latest
                        msg = await ref.interaction.edit_original_response(attachments=(
                            [image_file(got.data, HAND_FILE, "your hand")] if got.data
                            else []))
                    ref.message_id = msg.id
                ref.image_signature, ref.shown = got.signature, got.view
                if ref.message_id is not None:
                    self._shown[key] = (ref.message_id, got.view)
        except Exception as exc:
            self._failed(ref, "hand image", exc)
        finally:
            ref.imaging = False

    def _failed(self, ref: _HandRef, what: str, exc: Exception) -> None:
        """An edit of a hand message failed: Discord refused it (an expired token, a
        deleted message: that hand is no longer refreshed) or a bug (logged)."""
        if isinstance(exc, discord.HTTPException):
            log.debug("%s failed: %s", what, exc)
            self._drop(ref)
        else:
            log.error("%s failed", what, exc_info=exc)


def hand_signature(table: Table, seat: int) -> object:
    obs = table.observation(seat)
    if obs is None:
        return None
    legal = tuple(a for a in obs.legal if a.seat == seat)
    return (obs.hand, legal, obs.trick_no, obs.phase, obs.to_act == seat, table.status,
            obs.trump, obs.drawn, table.face_down(seat))


def _notice_text(n: Notice, loc: str) -> str:
    return t(n.key, loc, **n.params)
