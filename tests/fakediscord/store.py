"""The emulator's state: every object, the clock, and the record of breaches.

One :class:`Store` per emulator.  It survives bot restarts and gateway
reconnects; only the emulator's own lifetime ends it.  All look-ups are dict
based so ~200 busy tables stay cheap.
"""

from __future__ import annotations

import itertools
import logging
import time
from typing import Any

from .errors import Violation
from .models import (
    EPHEMERAL,
    Attachment,
    Channel,
    Guild,
    Interaction,
    Message,
    Revision,
    User,
    utcnow,
)
from .rules import mentioned_users

log = logging.getLogger("fakediscord")
DISCORD_EPOCH_MS = 1420070400000


class Store:
    """Registries of users, guilds, channels, messages, interactions, commands."""

    def __init__(self) -> None:
        self.opened_commands: set[tuple[int, str]] = set()  # (guild, command) for all
        self._seq = itertools.count()
        self.time_offset = 0.0  # advance_time() moves the emulator clock forward
        self.http_base = ""  # "http://127.0.0.1:PORT", set when the server starts
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.attachments: dict[int, Attachment] = {}
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.violations: list[Violation] = []
        self.unknown_routes: list[str] = []
        self.rate_limited: list[str] = []  # "METHOD path" of every 429 answered
        self.requests: list[str] = []  # "METHOD path" of every REST request, in order
        self.inflight = 0
        self.busy_until = 0.0  # a 429'd bot is busy until it may retry
        self.last_activity = time.monotonic()

    # -- ids and time -----------------------------------------------------
    def next_id(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._seq) % (1 << 22))

    def next_id_on_shard(self, shard_id: int, count: int) -> int:
        """A new id whose timestamp puts it on shard ``shard_id`` of ``count`` (a guild's
        shard is ``(id >> 22) % count``): a few milliseconds later at most, still unique
        (the low bits count up)."""
        if not 0 <= shard_id < count:
            raise ValueError(f"shard {shard_id} of {count} does not exist")
        new = self.next_id()
        return new + (((shard_id - (new >> 22)) % count) << 22)

    def now(self) -> float:
        return time.monotonic() + self.time_offset

    def touch(self) -> None:
        self.last_activity = time.monotonic()

    # -- breaches ---------------------------------------------------------
    def violate(self, rule: str, detail: str, interaction: Interaction | None = None) -> None:
        v = Violation(rule, detail, interaction.id if interaction else None)
        log.warning("Discord rule broken: %s", v)
        self.violations.append(v)

    def unreported(self) -> list[Violation]:
        fresh = [v for v in self.violations if not v.reported]
        for v in fresh:
            v.reported = True
        return fresh

    # -- look-ups ---------------------------------------------------------
    def guild_of(self, channel: Channel) -> Guild:
        return self.guilds[channel.guild_id]

    def commands_for(self, guild_id: int | None) -> list[dict[str, Any]]:
        """Commands a user sees in a guild: the guild's own first, then global."""
        cmds = list(self.guild_commands.get(guild_id, [])) if guild_id else []
        return cmds + self.global_commands

    def find_command(self, guild_id: int | None, name: str, type_: int = 1,
                     locale: str | None = None) -> dict | None:
        """A command by its name, or by its name in ``locale`` as that user sees it."""
        for cmd in self.commands_for(guild_id):
            if cmd.get("type", 1) != type_:
                continue
            local = (cmd.get("name_localizations") or {}).get(locale or "")
            if name in (cmd["name"], local):
                return cmd
        return None

    def channel_messages(self, channel: Channel) -> list[Message]:
        return [self.messages[m] for m in channel.message_ids]

    # -- messages ---------------------------------------------------------
    def _attachment(self, channel_id: int, filename: str, data: bytes,
                    content_type: str | None, description: str | None) -> Attachment:
        aid = self.next_id()
        url = f"{self.http_base}/attachments/{channel_id}/{aid}/{filename}"
        att = Attachment(aid, filename, data, content_type, description, url)
        self.attachments[aid] = att
        return att

    def revision(self, channel_id: int, body: dict[str, Any], files: dict[int, tuple],
                 base: Revision | None = None) -> Revision:
        """Build the next version of a message from a create/edit body.

        ``files`` maps upload index n (``files[n]``) to (filename, bytes, type).
        Fields missing from an edit keep their old value; ``attachments`` in an
        edit lists the attachments to keep (existing ids) and the new uploads
        (by index), as on Discord: omitted ones are removed.
        """
        prev = base or Revision("", [], [], [], 0)
        attachments = list(prev.attachments)
        if body.get("attachments") is not None:
            kept = {a.id: a for a in prev.attachments}
            attachments = []
            for item in body["attachments"]:
                aid = int(item["id"])
                if aid in kept:
                    attachments.append(kept[aid])
                elif aid in files:
                    name, data, ctype = files.pop(aid)
                    attachments.append(self._attachment(
                        channel_id, item.get("filename") or name, data, ctype,
                        item.get("description")))
        for _idx, (name, data, ctype) in sorted(files.items()):
            attachments.append(self._attachment(channel_id, name, data, ctype, None))
        flags = prev.flags
        if body.get("flags") is not None:
            flags = (int(body["flags"]) & ~EPHEMERAL) | (prev.flags & EPHEMERAL)
        content = (body["content"] or "") if "content" in body else prev.content
        allowed = body.get("allowed_mentions")
        mentions = [self.users[u] for u in mentioned_users(
            content, allowed if isinstance(allowed, dict) else None) if u in self.users]
        return Revision(
            content=content,
            embeds=(body["embeds"] or []) if "embeds" in body else list(prev.embeds),
            components=((body["components"] or []) if "components" in body
                        else list(prev.components)),
            attachments=attachments,
            flags=flags,
            mentions=mentions,
            allowed_mentions=allowed if isinstance(allowed, dict) else None,
        )

    def add_message(self, channel: Channel, author: User, rev: Revision, *,
                    ephemeral_for: int | None = None, interaction: Interaction | None = None,
                    webhook_id: int | None = None, type_: int = 0) -> Message:
        if ephemeral_for is not None:
            rev.flags |= EPHEMERAL
        msg = Message(
            id=self.next_id(), channel_id=channel.id, guild_id=channel.guild_id, author=author,
            history=[rev], ephemeral_for=ephemeral_for,
            interaction_id=interaction.id if interaction else None, webhook_id=webhook_id,
            type=type_,
        )
        self.messages[msg.id] = msg
        channel.message_ids.append(msg.id)
        return msg

    def edit(self, msg: Message, rev: Revision) -> None:
        rev.at = utcnow()
        msg.history.append(rev)
