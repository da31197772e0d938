"""Channel output: the coalesced table-message edits, hand results, notices, hand refreshes.

The service reports changes as ``Update`` values (synchronously, under the table lock);
this queues them per channel. One worker per channel sends at most ``limit`` creates and
edits per ``per`` seconds (Discord's per-channel limit), so a fast table edits its message
once for many moves. Ephemeral hands refresh through their interaction token while it is
valid (webhook routes, not the channel's budget).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.game.events import HandScored
from bot.i18n import t
from bot.tables import Notice, Table, Update
from cogs._format import result_text
from cogs._views import MessageParts, hand_message, table_message

if TYPE_CHECKING:
    from cogs._bot import TysiacBot

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

    async def acquire(self) -> None:
        wait = self.delay()
        while wait > 0:
            await asyncio.sleep(wait)
            wait = self.delay()
        self.stamps.append(time.monotonic())


@dataclass
class _Channel:
    limiter: RateLimiter
    table: Table | None = None  # a table-message edit is due (latest state wins)
    sends: collections.deque[tuple[str, int | None]] = field(
        default_factory=collections.deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


@dataclass
class _HandRef:
    interaction: discord.Interaction[Any]
    created: float
    signature: object
    table_id: int
    seat: int
    pending: bool = False


class Publisher:
    def __init__(self, bot: TysiacBot, *, limit: int = 5, per: float = 5.0,
                 debounce: float = 0.25) -> None:
        self.bot = bot
        self.limit, self.per, self.debounce = limit, per, debounce
        self._channels: dict[int, _Channel] = {}
        self._hands: dict[tuple[int, int], _HandRef] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.sent = 0  # channel creates and edits made (for tests and the benchmark)
        self._inflight = 0

    # ---- from the service --------------------------------------------------------------
    def __call__(self, update: Update) -> None:
        table = update.table
        ch = self._channel(table.channel_id)
        if table.message_id is not None:
            ch.table = table
        for e in update.events:
            if isinstance(e, HandScored):
                ch.sends.append((result_text(table, e.result, update.hand_no), None))
        for n in update.notices:
            ch.sends.append((_notice_text(n), n.mention))
        ch.wake.set()
        self._refresh_hands(table)

    def _channel(self, channel_id: int) -> _Channel:
        ch = self._channels.get(channel_id)
        if ch is None:
            ch = self._channels[channel_id] = _Channel(RateLimiter(self.limit, self.per))
        if ch.task is None or ch.task.done():
            ch.task = asyncio.get_running_loop().create_task(self._worker(channel_id, ch))
        return ch

    def settled(self, table: Table, version: int) -> None:
        """The table message already shows ``version`` (edited by an interaction answer)."""
        ch = self._channels.get(table.channel_id)
        if ch is not None and ch.table is table and table.version == version:
            ch.table = None

    def note_sent(self, channel_id: int) -> None:
        """Count a message the cogs created through the channel route (e.g. /table show)."""
        self._channel(channel_id).limiter.stamps.append(time.monotonic())

    def busy(self) -> bool:
        channels = self._channels.values()
        return (self._inflight > 0 or any(ch.table is not None or ch.sends for ch in channels)
                or any(h.pending for h in self._hands.values()))

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
            await ch.limiter.acquire()
            self._inflight += 1
            try:
                # The table edit (latest state) goes first; messages keep their order.
                if ch.table is not None:
                    table, ch.table = ch.table, None
                    await self._edit_table(channel, table)
                else:
                    text, mention = ch.sends.popleft()
                    await self._send(channel, text, mention)
                self.sent += 1
            except asyncio.CancelledError:
                raise
            except discord.NotFound:
                log.info("table message in channel %s is gone", channel_id)
            except Exception:
                log.exception("publishing to channel %s failed", channel_id)
            finally:
                self._inflight -= 1

    async def _edit_table(self, channel: discord.PartialMessageable, table: Table) -> None:
        if table.message_id is None:
            return
        parts = table_message(table)
        await channel.get_partial_message(table.message_id).edit(
            content=parts.content, embed=parts.embed, view=parts.view)

    async def _send(self, channel: discord.PartialMessageable, text: str,
                    mention: int | None) -> None:
        if mention is not None:
            text = f"<@{mention}> {text}"
        allowed = discord.AllowedMentions(users=True, everyone=False, roles=False)
        await channel.send(text[:2000], allowed_mentions=allowed)

    # ---- ephemeral hands -----------------------------------------------------------------
    def forget_hand(self, table_id: int, user_id: int) -> None:
        self._hands.pop((table_id, user_id), None)

    def remember_hand(self, interaction: discord.Interaction[Any], table: Table,
                      seat: int) -> _HandRef:
        """This interaction's message becomes the user's current hand (call before answering,
        with the state the answer shows; then ``answered``)."""
        ref = _HandRef(interaction, time.monotonic(), hand_signature(table, seat), table.id,
                       seat, pending=True)
        self._hands[(table.id, interaction.user.id)] = ref
        return ref

    def answered(self, ref: _HandRef, table: Table) -> None:
        """The hand message exists now: refresh it if the table moved on meanwhile."""
        ref.pending = False
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
                continue
            sig = hand_signature(table, seat)
            if sig == ref.signature or ref.pending:
                continue
            ref.pending = True
            task = asyncio.get_running_loop().create_task(self._refresh(ref, table))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _refresh(self, ref: _HandRef, table: Table) -> None:
        try:
            while True:
                sig = hand_signature(table, ref.seat)
                if sig == ref.signature:
                    return
                ref.signature = sig
                parts: MessageParts = hand_message(table, ref.seat)
                await ref.interaction.edit_original_response(content=parts.content,
                                                             view=parts.view)
        except discord.HTTPException as exc:
            log.debug("hand refresh failed: %s", exc)
            self._hands.pop((ref.table_id, ref.interaction.user.id), None)
        except Exception:
            log.exception("hand refresh failed")
        finally:
            ref.pending = False


def hand_signature(table: Table, seat: int) -> object:
    obs = table.observation(seat)
    if obs is None:
        return None
    legal = tuple(a for a in obs.legal if a.seat == seat)
    return (obs.hand, legal, obs.trick_no, obs.phase, obs.to_act == seat, table.status)


def _notice_text(n: Notice) -> str:
    return t(n.key, None, **n.params)
