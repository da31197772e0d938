"""Each player's ephemeral hand message, kept up to date through its interaction's token.

The text and components, and the image in its own later edit, go through the token while
it is valid (webhook routes, not the channel's budget); when both wait for a lane (under
load), the first to get one carries the other, one edit. The image is drawn after the
interaction was answered with text and components (neither the answer nor a later refresh
of the text waits for it); an image of a hand that changed again while it was drawn is not
sent, an unchanged one is not uploaded again, and each upload replaces the message's
previous image. A hand without pending work has neither state nor task here.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.tables import Table
from cogs._channels import Outlet
from cogs._images import HAND_FILE, HandImage, image_file, seat_hand_view
from cogs._interaction import edit_original
from cogs._latest import Latest
from cogs._views import MessageParts, hand_message

log = logging.getLogger(__name__)
TOKEN_LIFETIME = 14 * 60.0  # interaction tokens last 15 minutes

_UNKNOWN = object()


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
class HandRef:
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
    sending: object = None  # the hand state of a text edit on its way (None: none)


_NONE: dict[int, HandRef] = {}


class HandMessages:
    """The users' current hand messages, by table."""

    def __init__(self, outlet: Outlet, *, image_delay: float, retries: int,
                 backoff: float) -> None:
        self.outlet = outlet
        self._hands: dict[int, dict[int, HandRef]] = {}  # table -> user -> hand message
        self._pictures: dict[int, dict[int, _Picture]] = {}  # table -> user -> latest one
        self._texts: Latest[HandRef, Table] = Latest(
            self._send_text, gone=_hand_gone, failed=self._failed, retries=retries,
            backoff=backoff)
        self._images: Latest[HandRef, Table] = Latest(
            self._send_image, delay=image_delay, gone=_hand_gone, failed=self._failed,
            retries=retries, backoff=backoff)

    def __len__(self) -> int:
        """Text and image edits pending or on their way."""
        return len(self._texts) + len(self._images)

    def remember(self, interaction: discord.Interaction[Any], table: Table,
                 seat: int) -> HandRef:
        """This interaction's message becomes the user's current hand (call before answering,
        with the state the answer shows; then ``answered``)."""
        loc = str(interaction.locale.value) if interaction.locale else None
        uid = interaction.user.id
        self.forget(table.id, uid)
        pictures = self._pictures.setdefault(table.id, {})
        msg = interaction.message
        if msg is not None and msg.flags.ephemeral:  # the answer edits this hand message
            picture = pictures.get(uid)
            if picture is None or picture.message_id != msg.id:
                picture = pictures[uid] = _Picture(msg.id, _UNKNOWN)
        else:  # a new message, without an image
            picture = pictures[uid] = _Picture(None)
        ref = HandRef(interaction, time.monotonic(), table.id, uid, seat, loc,
                      hand_signature(table, seat), picture)
        self._hands.setdefault(table.id, {})[uid] = ref
        return ref

    def answered(self, ref: HandRef, table: Table) -> None:
        """The hand message exists now: refresh it if the table moved on meanwhile, and
        attach its image (the answer carried text and components only)."""
        ref.ready = True
        if self._owns(ref):
            self._refresh(ref, table, time.monotonic())

    def forget(self, table_id: int, user_id: int) -> None:
        """Refresh the user's hand message no more (what its image shows is remembered)."""
        hands = self._hands.get(table_id)
        ref = hands.pop(user_id, None) if hands is not None else None
        if ref is not None:
            self._texts.drop(ref)
            self._images.drop(ref)
            if not hands:
                del self._hands[table_id]

    def close_table(self, table_id: int) -> None:
        """The table closed: none of its hand messages is refreshed any more."""
        for ref in self._hands.pop(table_id, _NONE).values():
            self._texts.drop(ref)
            self._images.drop(ref)
        self._pictures.pop(table_id, None)

    def refresh(self, table: Table) -> None:
        """Bring the table's seated users' hand messages up to date."""
        hands = self._hands.get(table.id)
        if not hands:
            return
        now = time.monotonic()
        for s in table.seats:
            if s.user_id is not None and not s.ai:
                ref = hands.get(s.user_id)
                if ref is not None and ref.ready:
                    self._refresh(ref, table, now)

    async def aclose(self) -> None:
        """Stop: no edit is left running, and no hand is remembered."""
        await asyncio.gather(self._texts.aclose(), self._images.aclose())
        self._hands.clear()
        self._pictures.clear()

    def _owns(self, ref: HandRef) -> bool:
        return self._hands.get(ref.table_id, _NONE).get(ref.user_id) is ref

    def _refresh(self, ref: HandRef, table: Table, now: float) -> None:
        if not table.live:
            self.close_table(table.id)
            return
        if now - ref.created > TOKEN_LIFETIME:
            self.forget(ref.table_id, ref.user_id)
            return
        sig = hand_signature(table, ref.seat)
        if sig != ref.signature:
            self._texts.put(ref, table)
        if self.outlet.images.enabled and sig != ref.drawn:
            self._images.put(ref, table)

    async def _send_text(self, ref: HandRef, table: Table, going: Callable[[], None]) -> None:
        """Bring the hand message's text and components up to date at once (never waiting
        for an image: that is ``_send_image``'s own edit)."""
        if not self._owns(ref) or hand_signature(table, ref.seat) == ref.signature:
            return
        async with self.outlet.lanes.background():
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
            ref.sending = sig
            try:
                message_id = await edit_original(ref.interaction, content=parts.content,
                                                 view=parts.view, **extra)
            finally:
                ref.sending = None
        ref.signature = sig
        if image is not None:
            picture.uploaded(upload, image)
            ref.drawn = sig
        if ref.picture.message_id is None:
            ref.picture.message_id = message_id

    async def _send_image(self, ref: HandRef, table: Table, going: Callable[[], None]) -> None:
        """Attach (replace) the hand message's image, drawn from the latest state when a
        render slot is free; an image of a hand that changed again while it was drawn is
        not sent (the latest one is drawn instead). A text refresh that is due as well
        goes in the same edit, and one that gets a lane first takes this image along."""
        if not self._owns(ref) or hand_signature(table, ref.seat) == ref.drawn:
            return
        got = await self.outlet.images.hand_png(
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
                async with self.outlet.lanes.background():
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
                    # The text is due too: both in one edit; not when a text edit of it is
                    # on its way (this one, sent after it, could land after the answer to a
                    # press on the message and show the old state again).
                    if sig not in (ref.signature, ref.sending):
                        parts = hand_message(table, ref.seat, ref.loc)
                        extra = {"content": parts.content, "view": parts.view}
                    upload, files = picture.upload(got)
                    going()
                    message_id = await edit_original(ref.interaction, attachments=files,
                                                     **extra)
                    if extra:
                        ref.signature = sig
            finally:
                if ref.rendered is got:
                    ref.rendered = None
            picture.uploaded(upload, got)
            if picture.message_id is None:
                picture.message_id = message_id
        ref.drawn = drawn

    def _failed(self, ref: HandRef, table: Table, exc: Exception) -> None:
        """An edit of a hand message failed: Discord refused it (an expired token, a
        deleted message: that hand is no longer refreshed) or it kept failing."""
        if _hand_gone(exc):
            log.debug("hand refresh failed: %s", exc)
            if self._owns(ref):
                self.forget(ref.table_id, ref.user_id)
        else:
            log.error("hand refresh failed", exc_info=exc)


def _hand_gone(exc: Exception) -> bool:
    """The hand message cannot be edited any more (deleted, or its token expired)."""
    return isinstance(exc, discord.NotFound | discord.Forbidden) or (
        isinstance(exc, discord.HTTPException) and exc.status == 401)


def hand_signature(table: Table, seat: int) -> object:
    """What a seat's hand message shows: it is edited only when this changes."""
    obs = table.observation(seat)
    if obs is None:
        return None
    # a seat's observation offers only that seat's actions (the engine's legal_actions)
    return (obs.hand, obs.legal, obs.trick_no, obs.phase, obs.to_act == seat, table.status,
            obs.trump, obs.drawn, table.face_down(seat),
            table.paused and seat in table.waiting)
