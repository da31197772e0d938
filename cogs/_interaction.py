"""Reading an interaction and answering it: who asks and in which language, the answer
sent (or completed after a defer), and slow work deferred before Discord's 3 s run out."""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, TypeVar

import discord
from discord.http import Route, handle_message_parameters
from discord.webhook.async_ import async_context, interaction_message_response_params

from bot.tables import Actor
from cogs._views import MessageParts

T = TypeVar("T")
ACK_BUDGET = 2.0  # seconds of work before an interaction is deferred
SWEEP = 0.25  # seconds between looks at the work in progress (a deferral is that late at most)


def locale_of(interaction: discord.Interaction[Any]) -> str:
    """The user's Discord locale ("en-US", "pl", ...): every reply is written in it."""
    return str(interaction.locale.value) if interaction.locale else "en-US"


def guild_locale_of(interaction: discord.Interaction[Any]) -> str | None:
    """The server's preferred language as Discord sends it (None outside a server)."""
    guild = interaction.guild_locale
    return str(guild.value) if guild is not None else None


def public_locale(interaction: discord.Interaction[Any]) -> str:
    """The language of a new table's public messages: the server's preferred language where
    it has set one other than the default (Community servers), else the opener's."""
    guild = interaction.guild_locale
    if guild is not None and guild.value != "en-US":
        return str(guild.value)
    return locale_of(interaction)


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    """Who asks, from where, with the rights he has in that channel."""
    user = interaction.user
    perms = interaction.permissions
    return Actor(user.id, user.display_name, can_manage=bool(perms.manage_channels),
                 locale=locale_of(interaction), channel_id=interaction.channel_id,
                 guild_id=interaction.guild_id, can_manage_guild=bool(perms.manage_guild))


async def send(interaction: discord.Interaction[Any], parts: MessageParts, *,
               ephemeral: bool = True, update: bool = False) -> None:
    """Answer (or, after a defer, complete) an interaction with ``parts``."""
    content = parts.content[:2000] if parts.content is not None else None
    kwargs: dict[str, Any] = {"content": content, "embed": parts.embed}
    if parts.view is not None:
        kwargs["view"] = parts.view
    if not interaction.response.is_done():
        if update:
            await _update(interaction, **kwargs)
        else:
            await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
    elif update:
        await edit_original(interaction, **kwargs)
    else:
        await interaction.followup.send(ephemeral=ephemeral, wait=False, **{
            k: v for k, v in kwargs.items() if v is not None})


async def _update(interaction: discord.Interaction[Any], **fields: Any) -> None:
    """Answer a press by editing the pressed message.

    ``InteractionResponse.edit_message`` asks Discord for the edited message back and
    builds a whole ``Message`` of it, which a hand answered (about one per press) never
    reads; this sends the same callback without asking for it back. A view that still
    waits for presses goes the library's way, which stores it."""
    view = fields.get("view")
    response = interaction.response
    if (view is not None and not view.is_finished()) or interaction.type not in (
            discord.InteractionType.component, discord.InteractionType.modal_submit):
        await response.edit_message(**fields)
        return
    state: Any = interaction._state  # the library's own request, minus the parsing
    if view is not None and interaction.message is not None:
        state.prevent_view_updates_for(interaction.message.id)
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        previous_allowed_mentions=state.allowed_mentions, **fields)
    http = state.http
    await async_context.get().request(
        Route("POST", "/interactions/{webhook_id}/{webhook_token}/callback",
              webhook_id=interaction.id, webhook_token=interaction.token),
        session=interaction._session, proxy=http.proxy, proxy_auth=http.proxy_auth,
        payload=params.payload)
    response._response_type = discord.InteractionResponseType.message_update


async def edit_original(interaction: discord.Interaction[Any], **fields: Any) -> int:
    """Edit the interaction's original response (``content``, ``view``, ``attachments``,
    ...) and return its message id.

    ``Interaction.edit_original_response`` builds a whole ``InteractionMessage`` of
    Discord's answer, which a hand refresh (about one per move) never reads; this sends the
    same request through the same adapter and reads only the id. A view that still waits
    for presses must be stored by discord.py, so it goes the library's own way."""
    view = fields.get("view")
    if view is not None and not view.is_finished():
        return (await interaction.edit_original_response(**fields)).id
    state: Any = interaction._state  # the library's own request, minus the parsing
    with handle_message_parameters(previous_allowed_mentions=state.allowed_mentions,
                                   **fields) as params:
        http = state.http
        data = await async_context.get().edit_original_interaction_response(
            interaction.application_id, interaction.token,
            session=interaction._session,
            proxy=http.proxy, proxy_auth=http.proxy_auth, payload=params.payload,
            multipart=params.multipart, files=params.files)
    return int(data["id"])


async def within(interaction: discord.Interaction[Any], work: Awaitable[T], *,
                 update: bool = False, ephemeral: bool = True) -> T:
    """Run ``work``; if it takes longer than the budget, defer first (the 3 s rule).

    The work runs in the caller's task (no extra task or wait on the fast path, which
    matters when the loop is busy): the loop's ``Deadlines`` defer it if the work is slow."""
    loop = asyncio.get_running_loop()
    deferral: asyncio.Task[Any] | None = None

    def late() -> None:
        nonlocal deferral
        if interaction.response.is_done():
            return
        if update:
            deferral = loop.create_task(interaction.response.defer())
        else:
            deferral = loop.create_task(
                interaction.response.defer(ephemeral=ephemeral, thinking=True))

    deadlines = Deadlines.of(loop)
    token = deadlines.add(late)
    try:
        return await work
    finally:
        deadlines.discard(token)
        if deferral is not None:
            with contextlib.suppress(discord.HTTPException):
                await deferral


class Deadlines:
    """The interactions being worked on, each with its moment to be deferred, looked at by one
    timer every ``SWEEP`` seconds: a timer of its own for every press (made, then cancelled
    nearly always) cost more than the look."""

    _of: ClassVar[weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Deadlines]] = (
        weakref.WeakKeyDictionary())

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._due: dict[int, tuple[float, Callable[[], None]]] = {}
        self._next = 0
        self._timer: asyncio.TimerHandle | None = None

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop) -> Deadlines:
        got = cls._of.get(loop)
        if got is None:
            got = cls._of[loop] = cls(loop)
        return got

    def add(self, late: Callable[[], None]) -> int:
        """Call ``late`` once ``ACK_BUDGET`` has passed (unless discarded first)."""
        self._next += 1
        self._due[self._next] = (self._loop.time() + ACK_BUDGET, late)
        if self._timer is None:
            self._timer = self._loop.call_later(SWEEP, self._sweep)
        return self._next

    def discard(self, token: int) -> None:
        self._due.pop(token, None)

    def _sweep(self) -> None:
        now = self._loop.time()
        for token, (due, late) in list(self._due.items()):
            if due > now:
                break  # added in the order they fall due
            del self._due[token]
            late()
        self._timer = self._loop.call_later(SWEEP, self._sweep) if self._due else None
