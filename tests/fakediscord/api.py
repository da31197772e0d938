"""The test API: act as users would, and look at what each user can see.

:class:`FakeDiscord` is the emulator plus the actions of users — slash
commands, autocomplete, button clicks, selects, modal submits — and the views
of what a user sees.  Every action returns once the bot gave its initial
response (or missed the 3 s deadline) and raises :class:`RuleViolation` for
any breach of Discord's rules the bot has committed since the last check.
"""

from __future__ import annotations

import asyncio
import base64
import secrets
import time
from collections.abc import Callable
from typing import Any

from . import options as opts
from .errors import RuleViolation, SchemaError
from .limits import MAX_FILE
from .models import PERMISSIONS, Channel, Guild, Interaction, Message, Revision, User
from .server import Emulator


def interaction_token(iid: int) -> str:
    """A token of Discord's shape: "interaction:<id>:<secret>" in URL-safe base64, unpadded
    (so it needs no quoting in a URL, as Discord's do not)."""
    raw = f"interaction:{iid}:{secrets.token_urlsafe(48)}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


class InteractionResult:
    """What the bot did with one interaction (live: later edits show up)."""

    def __init__(self, fd: FakeDiscord, ix: Interaction) -> None:
        self.fd, self.interaction = fd, ix

    type = property(lambda self: self.interaction.response_type)
    message: Message | None = property(lambda self: self.interaction.original)  # type: ignore
    followups: list[Message] = property(lambda self: self.interaction.followups)  # type: ignore

    @property
    def deferred(self) -> bool:
        return self.type in (5, 6)

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete answer."""
        return list((self.interaction.response_data or {}).get("choices") or [])

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.interaction.response_data if self.type == 9 else None

    async def wait_final(self, timeout: float = 10.0) -> InteractionResult:  # noqa: ASYNC109
        """Wait until the bot is idle (deferred answers completed), then return self."""
        await self.fd.settle(timeout=timeout)
        return self

    def __repr__(self) -> str:
        return f"<InteractionResult type={self.type} content={self.content[:40]!r}>"


class FakeDiscord(Emulator):
    """The emulator with the test API.  ``async with FakeDiscord() as fd: ...``"""

    def __init__(self, **config: Any) -> None:
        super().__init__(**config)
        self._pending: list[Interaction] = []  # interactions settle() waits for
        self._prune_at = 64  # its length at which the answered ones are dropped

    # -- waiting ------------------------------------------------------------
    async def wait_ready(self, timeout: float = 10.0, *,  # noqa: ASYNC109
                         commands: bool = True) -> None:
        """Wait until a bot is connected (and, by default, has synced its commands)."""
        await asyncio.wait_for(self.gateway.ready.wait(), timeout)
        if commands:
            await self.wait_until(lambda: self.commands_synced, timeout)

    async def wait_shard(self, shard_id: int, count: int,
                         timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until shard ``shard_id`` of ``count`` has a connected session."""
        await self.wait_until(lambda: (shard_id, count) in self.gateway.connected_shards(),
                              timeout)

    async def wait_until(self, predicate: Callable[[], Any],
                         timeout: float = 5.0) -> None:  # noqa: ASYNC109
        """Poll ``predicate`` until true (raises TimeoutError)."""
        end = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > end:
                raise TimeoutError(f"condition not reached within {timeout:.1f}s")
            await asyncio.sleep(0.01)

    async def settle(self, quiet: float = 0.05, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until the bot is idle: no request for ``quiet`` s, nothing pending."""
        store, end = self.store, time.monotonic() + timeout
        while True:
            now = time.monotonic()
            pending, loading = self._prune_pending()
            idle_since = max(store.last_activity, store.busy_until)
            if not (store.inflight or pending or loading or now - idle_since < quiet):
                break
            if now > end:
                raise TimeoutError(f"bot not idle after {timeout}s: {len(pending)} unanswered,"
                                   f" {len(loading)} still thinking")
            await asyncio.sleep(quiet / 2)
        self.check()

    def _prune_pending(self) -> tuple[list[Interaction], list[Interaction]]:
        """Keep only the interactions still unanswered or still thinking."""
        pending = [ix for ix in self._pending if not ix.responded and not ix.late]
        loading = [ix for ix in self._pending if ix.original is not None
                   and ix.original.loading and not ix.original.deleted]
        self._pending = pending + loading
        self._prune_at = 2 * len(self._pending) + 64
        return pending, loading

    def check(self) -> None:
        """Raise :class:`RuleViolation` for breaches not reported yet."""
        fresh = self.store.unreported()
        if fresh:
            raise RuleViolation(fresh)

    @property
    def violations(self):  # -> list[Violation]
        return self.store.violations

    async def drop_gateway(self) -> None:
        """Close the bot's websocket from the server side; it should RESUME."""
        await self.gateway.drop()

    # -- what users see -------------------------------------------------------
    def visible(self, user: User, channel: Channel) -> list[Message]:
        """Messages of a channel as ``user`` sees them: public ones and their ephemerals
        (nothing of a private thread the user is not in, without Manage Threads)."""
        if channel.private and user.id not in channel.members:
            member = self.store.guild_of(channel).members.get(user.id)
            if member is None or not member.effective_permissions & PERMISSIONS["manage_threads"]:
                return []
        return [m for m in self.store.channel_messages(channel) if m.visible_to(user.id)]

    def last(self, user: User, channel: Channel) -> Message:
        msgs = self.visible(user, channel)
        if not msgs:
            raise AssertionError(f"{user.name} sees no message in #{channel.name}")
        return msgs[-1]

    # -- user actions ---------------------------------------------------------
    async def post(self, user: User, channel: Channel, content: str) -> Message:
        """A user writes an ordinary message (MESSAGE_CREATE reaches the bot)."""
        self._member(self.store.guild_of(channel), user)
        msg = self.store.add_message(channel, user, Revision(content, [], [], [], 0))
        await self.gateway.dispatch("MESSAGE_CREATE", msg.payload())
        return msg

    async def slash(self, user: User, channel: Channel, command: str, /,
                    **options: Any) -> InteractionResult:
        """Run ``/command`` (``"table new"`` = command, [group,] subcommand)."""
        cmd, words = self._command(user, channel, command)
        payload, resolved, _ = opts.build(cmd, words, options)
        return await self._interact(user, channel, 2, self._command_data(
            cmd, channel, payload, resolved))

    async def stale_slash(self, user: User, channel: Channel, command: str, /,
                          options: list[dict[str, Any]]) -> InteractionResult:
        """``/command`` as a client holding an older copy of the commands sends it: the
        options exactly as given (``[{"name", "type", "value"}]``, subcommands nested),
        unchecked; a command name never synced gets a made-up id."""
        name = command.split(maxsplit=1)[0]
        guild = self.store.guild_of(channel)
        cmd = self.store.find_command(guild.id, name, locale=user.locale) or {
            "id": str(self.store.next_id()), "name": name, "type": 1}
        return await self._interact(user, channel, 2, self._command_data(
            cmd, channel, options, {}))

    async def autocomplete(self, user: User, channel: Channel, command: str, option: str,
                           typed: str, /, **options: Any) -> list[dict[str, Any]]:
        """Type ``typed`` into ``option``; return the bot's choices."""
        cmd, words = self._command(user, channel, command)
        payload, resolved, ftype = opts.build(cmd, words, {**options, option: typed},
                                              focused=option)
        result = await self._interact(user, channel, 4, self._command_data(
            cmd, channel, payload, resolved), focused_type=ftype)
        return result.choices

    async def click(self, user: User, message: Message, custom_id: str) -> InteractionResult:
        """Press a button of a message the user sees."""
        comp = self._component(user, message, custom_id, (2,))
        return await self._interact(user, self.store.channels[message.channel_id], 3,
                                    {"custom_id": custom_id, "component_type": comp["type"]},
                                    source=message)

    async def select(self, user: User, message: Message, custom_id: str,
                     values: list[str]) -> InteractionResult:
        """Choose ``values`` in a select menu of a message the user sees."""
        comp = self._component(user, message, custom_id, (3, 5, 6, 7, 8))
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise SchemaError(f"select {custom_id!r} takes {lo}-{hi} values, not {len(values)}")
        if comp["type"] == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise SchemaError(f"select {custom_id!r} has no options {bad}; has {allowed}")
        data = {"custom_id": custom_id, "component_type": comp["type"], "values": list(values)}
        return await self._interact(user, self.store.channels[message.channel_id], 3, data,
                                    source=message)

    def open_command(self, guild: Guild, name: str) -> None:
        """The server's admins let everyone use ``/name`` (Server Settings → Integrations),
        whatever permission the bot declared for it."""
        self.store.opened_commands.add((guild.id, name))

    async def forge(self, user: User, channel: Channel, custom_id: str, source: Message, *,
                    values: list[str] | None = None,
                    component_type: int = 2) -> InteractionResult:
        """A component interaction crafted by a hostile client: any ``custom_id`` and values,
        sent from ``channel`` as if pressed on ``source`` (a message the bot made, whose
        components the client rewrote to carry the crafted one)."""
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        comp: dict[str, Any] = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
        if component_type != 2:
            shown = values or ["x"]
            comp = {"type": component_type, "custom_id": custom_id,
                    "options": [{"label": v or "x", "value": v} for v in shown]}
        if values is not None:
            data["values"] = list(values)
        message = {**source.payload(), "channel_id": str(channel.id),
                   "components": [{"type": 1, "components": [comp]}]}
        return await self._interact(user, channel, 3, data, source=source, message=message)

    async def submit_modal(self, user: User, opened: InteractionResult,
                           values: dict[str, Any]) -> InteractionResult:
        """Fill in and submit the modal the bot answered ``opened`` with."""
        modal, ix = opened.modal, opened.interaction
        if modal is None:
            raise SchemaError(f"the bot answered with response type {opened.type}, not a modal")
        if user is not ix.user:
            raise SchemaError("only the user who opened a modal can submit it")
        values = dict(values)
        components = [self._fill(c, values) for c in modal.get("components", [])]
        if values:
            raise SchemaError(f"the modal has no inputs {list(values)}")
        data = {"custom_id": modal["custom_id"], "components": components}
        return await self._interact(user, ix.channel, 5, data, source=ix.source_message)

    # -- helpers ----------------------------------------------------------------
    def _fill(self, comp: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
        ctype = comp.get("type")
        if ctype == 1:
            return {"type": 1, "components": [self._fill(c, values) for c in comp["components"]]}
        if ctype == 18:
            return {"type": 18, "id": comp.get("id"), "component": self._fill(
                comp["component"], values)}
        cid = comp.get("custom_id")
        if ctype == 4:
            value = values.pop(cid, "")
            if not isinstance(value, str):
                raise SchemaError(f"text input {cid!r} takes a string")
            lo, hi = comp.get("min_length", 0), comp.get("max_length", 4000)
            if comp.get("required", True) and not value:
                raise SchemaError(f"text input {cid!r} is required")
            if value and not lo <= len(value) <= hi:
                raise SchemaError(f"text input {cid!r} takes {lo}-{hi} characters")
            return {"type": 4, "custom_id": cid, "value": value, "id": comp.get("id")}
        if ctype in (3, 5, 6, 7, 8):
            return {"type": ctype, "custom_id": cid, "values": list(values.pop(cid, [])),
                    "id": comp.get("id")}
        return {"type": ctype, "id": comp.get("id")}

    def _command(self, user: User, channel: Channel, command: str) -> tuple[dict, list[str]]:
        name, *words = command.split()
        guild = self.store.guild_of(channel)
        cmd = self.store.find_command(guild.id, name, locale=user.locale)
        if cmd is None:
            known = [c["name"] for c in self.store.commands_for(guild.id)]
            raise SchemaError(f"no command /{name} synced for this guild; synced: {known}")
        needed = cmd.get("default_member_permissions")
        perms = self._member(guild, user).effective_permissions
        opened = (guild.id, cmd["name"]) in self.store.opened_commands
        if needed is not None and not opened and int(needed) & perms != int(needed):
            raise SchemaError(f"{user.name} lacks the permissions to see /{name}")
        return cmd, words

    def _command_data(self, cmd: dict, channel: Channel, options: list, resolved: dict) -> dict:
        guild = self.store.guild_of(channel)
        for uid in list(resolved.get("users", {})):
            member = guild.members.get(int(uid))
            if member is not None:
                resolved.setdefault("members", {})[uid] = member.payload(with_user=False)
        data = {"id": cmd["id"], "name": cmd["name"], "type": cmd.get("type", 1),
                "options": options}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _component(self, user: User, message: Message, custom_id: str,
                   types: tuple[int, ...]) -> dict[str, Any]:
        if not message.visible_to(user.id):
            raise SchemaError(f"{user.name} cannot see message {message.id}")
        comp = message.component_by_id(custom_id)
        if comp is None or comp.get("type") not in types:
            raise SchemaError(f"message {message.id} has no such component {custom_id!r}; "
                              f"it has {message.custom_ids}")
        if comp.get("disabled"):
            raise SchemaError(f"component {custom_id!r} is disabled")
        return comp

    async def _interact(self, user: User, channel: Channel, itype: int, data: dict, *,
                        source: Message | None = None, focused_type: int | None = None,
                        message: dict[str, Any] | None = None) -> InteractionResult:
        self.check()
        store = self.store
        guild = store.guild_of(channel)
        member = self._member(guild, user)
        iid = store.next_id()
        token = interaction_token(iid)
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.application_id), "type": itype,
            "data": data, "guild_id": str(guild.id), "channel_id": str(channel.id),
            "channel": channel.payload(), "member": member.payload(), "token": token,
            "version": 1, "app_permissions": str(guild.bot_permissions),
            "locale": user.locale, "guild_locale": guild.locale, "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)}, "context": 0,
            "attachment_size_limit": MAX_FILE,  # a server without boosts
            "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
        }
        if message is not None:
            payload["message"] = message
        elif source is not None:
            payload["message"] = source.payload()
        ix = Interaction(iid, token, itype, user, channel, payload, store.now(),
                         source_message=source, focused_type=focused_type)
        store.interactions[iid] = ix
        store.by_token[token] = ix
        if not await self.gateway.dispatch("INTERACTION_CREATE", payload):
            raise RuntimeError(f"no bot session holds the shard of guild {guild.id} in the "
                               f"fake Discord")
        self._pending.append(ix)
        if len(self._pending) > self._prune_at:  # a long run without settle(): stay small
            self._prune_pending()
        try:
            await asyncio.wait_for(ix.answered.wait(), self.response_deadline)
        except TimeoutError:
            if not ix.responded and not ix.late:
                ix.late = True
                store.violate("late_response", f"no response to interaction {ix.id} "
                              f"within {self.response_deadline:g}s", ix)
        self.check()
        return InteractionResult(self, ix)
