"""Discord objects as the emulator keeps them, and their JSON payloads.

Everything here is plain data: users, guilds, channels, messages (with their
edit history and ephemeral owner) and interactions (with their token and
deadlines).  ``payload()`` methods render the JSON Discord would send.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from dataclasses import dataclass, field
from typing import Any

EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

# The permission bits the tests usually need (see Discord's permission docs).
PERMISSIONS: dict[str, int] = {
    "create_instant_invite": 1 << 0, "kick_members": 1 << 1, "ban_members": 1 << 2,
    "administrator": 1 << 3, "manage_channels": 1 << 4, "manage_guild": 1 << 5,
    "add_reactions": 1 << 6, "view_channel": 1 << 10, "send_messages": 1 << 11,
    "manage_messages": 1 << 13, "embed_links": 1 << 14, "attach_files": 1 << 15,
    "read_message_history": 1 << 16, "mention_everyone": 1 << 17,
    "use_external_emojis": 1 << 18, "manage_roles": 1 << 28, "manage_webhooks": 1 << 29,
    "use_application_commands": 1 << 31, "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35, "create_private_threads": 1 << 36,
    "send_messages_in_threads": 1 << 38,
}
ALL_PERMISSIONS = (1 << 51) - 1
DEFAULT_PERMISSIONS = sum(PERMISSIONS[p] for p in (
    "create_instant_invite", "add_reactions", "view_channel", "send_messages", "embed_links",
    "attach_files", "read_message_history", "use_external_emojis", "use_application_commands",
    "create_public_threads", "send_messages_in_threads"))


def permission_value(perms: int | str | list[str] | tuple[str, ...] | None) -> int:
    """Turn ``"manage_channels"`` / a list of names / an int into permission bits."""
    if perms is None:
        return DEFAULT_PERMISSIONS
    if isinstance(perms, int):
        return perms
    names = [perms] if isinstance(perms, str) else list(perms)
    return DEFAULT_PERMISSIONS | sum(PERMISSIONS[n] for n in names)


def iso(ts: dt.datetime | None) -> str | None:
    return ts.isoformat() if ts else None


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(eq=False)
class User:
    id: int
    name: str
    display_name: str | None = None
    locale: str = "en-US"
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "global_name": self.display_name,
                "discriminator": "0", "avatar": None, "bot": self.bot, "public_flags": 0}


@dataclass(eq=False)
class Member:
    user: User
    guild_id: int
    permissions: int = DEFAULT_PERMISSIONS
    nick: str | None = None
    role_ids: list[int] = field(default_factory=list)
    joined_at: dt.datetime = field(default_factory=utcnow)

    @property
    def effective_permissions(self) -> int:
        if self.permissions & PERMISSIONS["administrator"]:
            return ALL_PERMISSIONS
        return self.permissions

    def payload(self, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "nick": self.nick, "roles": [str(r) for r in self.role_ids], "avatar": None,
            "joined_at": iso(self.joined_at), "deaf": False, "mute": False, "flags": 0,
            "pending": False, "permissions": str(self.effective_permissions),
        }
        if with_user:
            data["user"] = self.user.payload()
        return data


@dataclass(eq=False)
class Channel:
    id: int
    guild_id: int
    name: str
    type: int = 0  # 0 text, 11 public thread, 12 private thread
    parent_id: int | None = None
    position: int = 0
    archived: bool = False
    message_ids: list[int] = field(default_factory=list)
    # threads: locked (only Manage Threads unarchives), invitable (a private thread's
    # members may add others), its owner, its members, the message it was started from
    locked: bool = False
    invitable: bool = True
    owner_id: int | None = None
    members: set[int] = field(default_factory=set)
    auto_archive_duration: int = 1440
    starter_message_id: int | None = None

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    @property
    def private(self) -> bool:
        return self.type == 12

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id), "type": self.type, "name": self.name,
            "guild_id": str(self.guild_id),
            "position": self.position, "permission_overwrites": [], "nsfw": False,
            "parent_id": str(self.parent_id) if self.parent_id else None, "topic": None,
            "last_message_id": str(self.message_ids[-1]) if self.message_ids else None,
            "rate_limit_per_user": 0, "flags": 0,
        }
        if self.is_thread:
            data["owner_id"] = str(self.owner_id or self.parent_id)
            data["thread_metadata"] = {
                "archived": self.archived, "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": iso(utcnow()), "locked": self.locked}
            if self.private:
                data["thread_metadata"]["invitable"] = self.invitable
            data["message_count"] = len(self.message_ids)
            data["member_count"] = len(self.members)
        return data


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "name": self.name, "permissions": str(self.permissions),
                "position": self.position, "color": 0, "hoist": False, "managed": False,
                "mentionable": False, "flags": 0}


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    bot_permissions: int = ALL_PERMISSIONS
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    roles: dict[int, Role] = field(default_factory=dict)

    def payload(self) -> dict[str, Any]:
        text = [c.payload() for c in self.channels.values() if not c.is_thread]
        threads = [c.payload() for c in self.channels.values() if c.is_thread]
        return {
            "id": str(self.id), "name": self.name, "owner_id": str(self.owner_id),
            "unavailable": False, "large": False, "member_count": len(self.members),
            "preferred_locale": self.locale, "features": [], "emojis": [], "stickers": [],
            "roles": [r.payload() for r in self.roles.values()], "icon": None,
            "channels": text, "threads": threads, "voice_states": [], "presences": [],
            "members": [m.payload() for m in self.members.values()],
            "joined_at": iso(utcnow()), "verification_level": 0, "mfa_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0,
            "premium_tier": 0, "nsfw_level": 0, "system_channel_flags": 0,
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
        }


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "filename": self.filename, "size": len(self.data),
                "url": self.url, "proxy_url": self.url, "content_type": self.content_type,
                "description": self.description}


@dataclass
class Revision:
    """One version of a message's visible content."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    flags: int
    at: dt.datetime = field(default_factory=utcnow)
    mentions: list[User] = field(default_factory=list)  # mentioned, as allowed_mentions lets
    allowed_mentions: dict[str, Any] | None = None  # as the request gave it


@dataclass(eq=False)
class Message:
    id: int
    channel_id: int
    guild_id: int | None
    author: User
    history: list[Revision]  # every version, oldest first; the last is current
    ephemeral_for: int | None = None  # user id owning an ephemeral message
    interaction_id: int | None = None
    webhook_id: int | None = None
    type: int = 0
    deleted: bool = False
    created_at: dt.datetime = field(default_factory=utcnow)

    # -- the current version ------------------------------------------------
    @property
    def current(self) -> Revision:
        return self.history[-1]

    content = property(lambda self: self.current.content)
    embeds = property(lambda self: self.current.embeds)
    components = property(lambda self: self.current.components)
    attachments = property(lambda self: self.current.attachments)
    flags = property(lambda self: self.current.flags)

    @property
    def edits(self) -> list[Revision]:
        """The versions produced by edits (``history`` minus the first)."""
        return self.history[1:]

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_for is not None

    @property
    def notified(self) -> list[int]:
        """The users this message notified: those its first version mentions (an edit
        notifies nobody; an ephemeral message neither)."""
        return [] if self.ephemeral else [u.id for u in self.history[0].mentions]

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def visible_to(self, user_id: int) -> bool:
        return not self.deleted and self.ephemeral_for in (None, user_id)

    def component_by_id(self, custom_id: str) -> dict[str, Any] | None:
        for comp in walk_components(self.components):
            if comp.get("custom_id") == custom_id:
                return comp
        return None

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    def payload(self) -> dict[str, Any]:
        cur = self.current
        edited = cur.at if len(self.history) > 1 else None
        data: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(self.channel_id), "author": self.author.payload(),
            "content": cur.content, "timestamp": iso(self.created_at),
            "edited_timestamp": iso(edited),
            "tts": False, "mention_everyone": False, "mention_roles": [],
            "mentions": [u.payload() for u in cur.mentions],
            "attachments": [a.payload() for a in cur.attachments], "embeds": cur.embeds,
            "components": cur.components, "pinned": False, "type": self.type, "flags": cur.flags,
        }
        if self.guild_id:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        return data


def walk_components(components: list[dict[str, Any]]):
    """Yield every component, depth first, including nested ones."""
    for comp in components:
        yield comp
        if "components" in comp:
            yield from walk_components(comp["components"])
        for key in ("component", "accessory"):
            if isinstance(comp.get(key), dict):
                yield from walk_components([comp[key]])


@dataclass(eq=False)
class Interaction:
    """An interaction the emulator sent to the bot, and what the bot did with it."""

    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    user: User
    channel: Channel
    payload: dict[str, Any]
    created: float  # emulator clock
    source_message: Message | None = None  # for components (and modals opened by them)
    response_type: int | None = None
    response_data: dict[str, Any] | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    late: bool = False
    focused_type: int | None = None  # autocomplete: type of the focused option
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    answered_at: float | None = None  # time.monotonic() when the initial response came

    @property
    def responded(self) -> bool:
        return self.response_type is not None
