"""The gateway websocket: hello, identify, heartbeat, ready, resume, dispatch.

Speaks what the unmodified discord.py client asks for: JSON encoding, with
``compress=zlib-stream`` (one shared zlib stream, each frame ending in a
Z_SYNC_FLUSH) or ``zstd-stream`` when the ``zstandard`` module is present.

A *session* outlives its websocket: dispatches sent while the bot is
disconnected are buffered and replayed on RESUME.  A new IDENTIFY (a restarted
bot process) starts a new session that receives every later dispatch of its shard.

Sharding as Discord does it: IDENTIFY carries ``shard: [id, count]`` (absent:
``[0, 1]``); each session receives the events of the guilds on its shard,
``(guild_id >> 22) % count == id``, and what belongs to no guild (DMs) goes to shard 0.
A shard id outside ``0..count-1`` is closed with 4010 "Invalid shard"; a shard holding
more than ``max_guilds_per_shard`` guilds with 4011 "Sharding required".

Intents as Discord applies them: a session receives an event only if IDENTIFY asked for
its intent (message events of a guild need GUILD_MESSAGES, of a DM DIRECT_MESSAGES;
guild, channel and thread events GUILDS). INTERACTION_CREATE needs none.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import secrets
import zlib
from collections import deque
from typing import TYPE_CHECKING, Any

import orjson
from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import Emulator

log = logging.getLogger("fakediscord.gateway")
DISPATCH, HEARTBEAT, IDENTIFY, RESUME = 0, 1, 2, 6
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
INVALID_SHARD, SHARDING_REQUIRED = 4010, 4011
GUILDS, GUILD_MESSAGES, DIRECT_MESSAGES = 1 << 0, 1 << 9, 1 << 12
ALL_INTENTS = (1 << 26) - 1  # an IDENTIFY without intents (an old client): everything


def intent_of(event: str, guild_id: int | None) -> int:
    """The intent bit a session needs to receive ``event``; 0: none needed."""
    if event.startswith("MESSAGE_"):
        return GUILD_MESSAGES if guild_id is not None else DIRECT_MESSAGES
    if event.startswith(("GUILD_", "CHANNEL_", "THREAD_")) and event != "GUILD_MEMBERS_CHUNK":
        return GUILDS
    return 0


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard Discord sends a guild's events to (None, no guild: shard 0)."""
    return 0 if guild_id is None or count <= 1 else (guild_id >> 22) % count


def guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to (None: a DM or no guild at all)."""
    raw = data.get("id") if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE") \
        else data.get("guild_id")
    return int(raw) if raw else None


class Connection:
    """One websocket, with its compression stream."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self._zstd: Any = None
        if compress == "zstd-stream":
            try:
                import zstandard

                self._zstd = (zstandard.ZstdCompressor().compressobj(), zstandard)
            except ImportError:  # the client then has no zstd either; send text
                pass

    async def send(self, payload: dict[str, Any]) -> None:
        raw = orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS)  # as fast as a busy bench needs
        if self._zlib is not None:
            await self.ws.send_bytes(self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH))
        elif self._zstd is not None:
            cobj, mod = self._zstd
            await self.ws.send_bytes(cobj.compress(raw) + cobj.flush(mod.COMPRESSOBJ_FLUSH_BLOCK))
        else:
            await self.ws.send_str(raw.decode())


class Session:
    """A gateway session: sequence numbers and the dispatches not yet acknowledged."""

    def __init__(self, shard: tuple[int, int] = (0, 1), intents: int = ALL_INTENTS) -> None:
        self.id = secrets.token_hex(16)
        self.shard = shard  # (id, count) as identified
        self.intents = intents  # the bits IDENTIFY asked for
        self.delivered: collections.Counter[tuple[str, int | None]] = collections.Counter()
        # (event, guild id) -> how many were sent to this session
        self.seq = 0
        self.buffer: deque[dict[str, Any]] = deque(maxlen=5000)
        self.conn: Connection | None = None
        self.lock = asyncio.Lock()

    def receives(self, guild_id: int | None) -> bool:
        """Whether events of ``guild_id`` are this session's (its shard's)."""
        return shard_of(guild_id, self.shard[1]) == self.shard[0]

    def wants(self, event: str, guild_id: int | None) -> bool:
        """Whether the session's intents cover ``event``."""
        need = intent_of(event, guild_id)
        return not need or bool(self.intents & need)


class Gateway:
    """Serves ``/gateway`` and delivers events to the bot's current session."""

    heartbeat_interval = 41250
    # Discord acks a heartbeat a network round trip after the client sent it.  discord.py
    # notes its send time only once its keep-alive thread wakes after the send; an
    # instant loopback ack beats that thread, and the client measures the ack against
    # the previous heartbeat ("Can't keep up ... 41.3s behind").
    ack_delay = 0.05

    def __init__(self, emulator: Emulator) -> None:
        self.emu = emulator
        self.sessions: dict[str, Session] = {}  # by id: those that may still RESUME
        self.shards: dict[tuple[int, int], Session] = {}  # the live session of each shard
        self.current: Session | None = None  # the session identified last
        self.refused: list[tuple[int, str]] = []  # (close code, reason) of refused IDENTIFYs
        # every shard of the last identified count has a session with its guilds
        self.ready = asyncio.Event()
        self.identifies = 0
        self.last_query: dict[str, str] = {}
        self.resumes = 0
        self.heartbeats = 0  # acknowledged

    @property
    def connected(self) -> bool:
        """Some bot session has its websocket open."""
        return any(s.conn is not None for s in self.shards.values())

    def connected_shards(self) -> list[tuple[int, int]]:
        """(id, count) of every shard whose session has its websocket open."""
        return sorted(k for k, s in self.shards.items() if s.conn is not None)

    def _update_ready(self) -> None:
        count = self.current.shard[1] if self.current is not None else 0
        if count and all(
                (i, count) in self.shards and self.shards[(i, count)].conn is not None
                for i in range(count)):
            self.ready.set()
        else:
            self.ready.clear()

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self.last_query = dict(request.query)  # e.g. {"v": "10", "compress": "zlib-stream"}
        conn = Connection(ws, request.query.get("compress"))
        session: Session | None = None
        acks: set[asyncio.Task[None]] = set()
        await conn.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval}})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == HEARTBEAT:  # acked later without holding up the frames after it
                    task = asyncio.create_task(self._ack(conn))
                    acks.add(task)
                    task.add_done_callback(acks.discard)
                elif op == IDENTIFY:
                    session = await self._identify(conn, data)
                elif op == RESUME:
                    session = await self._resume(conn, data)
                elif op == REQUEST_MEMBERS and session is not None:
                    await self._members_chunk(session, data)
        finally:
            for task in acks:
                task.cancel()
            if session is not None and session.conn is conn:
                session.conn = None
                self._update_ready()
                log.info("gateway connection of session %s closed", session.id)
        return ws

    async def _ack(self, conn: Connection) -> None:
        await asyncio.sleep(self.ack_delay)
        with contextlib.suppress(ConnectionError):  # the socket closed meanwhile
            await conn.send({"op": HEARTBEAT_ACK})
            self.heartbeats += 1

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> Session | None:
        if data.get("token") != self.emu.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = data.get("shard") or [0, 1]
        try:
            shard_id, count = int(shard[0]), int(shard[1])
        except (TypeError, ValueError, IndexError):
            shard_id, count = -1, 0
        store = self.emu.store
        if count < 1 or not 0 <= shard_id < count:
            return await self._refuse(conn, INVALID_SHARD, "Invalid shard.")
        mine = [g for g in store.guilds if shard_of(g, count) == shard_id]
        if len(mine) > self.emu.max_guilds_per_shard:
            return await self._refuse(conn, SHARDING_REQUIRED, "Sharding required.")
        intents = data.get("intents")
        session = Session((shard_id, count),
                          int(intents) if isinstance(intents, int) else ALL_INTENTS)
        session.conn = conn
        # The same shard identifying again is a restarted process: it takes the shard over.
        old = self.shards.get(session.shard)
        if old is not None:
            self.sessions.pop(old.id, None)
        for key, gone in list(self.shards.items()):  # a bot restarted with another count
            if key[1] != count and gone.conn is None:
                del self.shards[key]
                self.sessions.pop(gone.id, None)
        self.shards[session.shard] = self.current = session
        self.sessions[session.id] = session
        self.identifies += 1
        self.ready.clear()  # until this shard has its guilds
        if old is not None and old.conn is not None:
            await old.conn.ws.close(code=4000)
        user = self.emu.bot_user.payload() | {"verified": True, "mfa_enabled": False, "flags": 0}
        await self._send(session, "READY", {
            "v": 10, "user": user, "session_id": session.id, "session_type": "normal",
            "resume_gateway_url": self.emu.gateway_url, "shard": [shard_id, count],
            "guilds": [{"id": str(g), "unavailable": True} for g in mine],
            "application": {"id": str(self.emu.application_id), "flags": 0},
            "private_channels": [], "relationships": [], "presences": [],
            "user_settings": {}, "guild_join_requests": [], "geo_ordered_rtc_regions": [],
        })
        for gid in mine:
            guild = store.guilds.get(gid)
            if guild is not None:
                await self._send(session, "GUILD_CREATE", guild.payload())
        self._update_ready()
        log.info("bot identified, session %s, shard %s of %s", session.id, shard_id, count)
        return session

    async def _refuse(self, conn: Connection, code: int, reason: str) -> None:
        self.refused.append((code, reason))
        log.info("IDENTIFY refused: %s %s", code, reason)
        await conn.ws.close(code=code, message=reason.encode())

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(data.get("session_id") or "")
        if session is None or data.get("token") != self.emu.token:
            await conn.send({"op": INVALID_SESSION, "d": False})
            return None
        async with session.lock:
            session.conn = conn
            missed = [f for f in session.buffer if f["s"] > (data.get("seq") or 0)]
            for frame in missed:
                await conn.send(frame)
            session.seq += 1
            await conn.send({"op": DISPATCH, "t": "RESUMED", "s": session.seq, "d": {}})
        self.resumes += 1
        self._update_ready()
        log.info("session %s resumed, %d dispatches replayed", session.id, len(missed))
        return session

    async def _members_chunk(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.emu.store.guilds.get(int(data["guild_id"]))
        members = [m.payload() for m in guild.members.values()] if guild else []
        await self._send(session, "GUILD_MEMBERS_CHUNK", {
            "guild_id": data["guild_id"], "members": members, "chunk_index": 0,
            "chunk_count": 1, "not_found": [], "nonce": data.get("nonce")})

    async def _send(self, session: Session, event: str, data: dict[str, Any]) -> None:
        self.emu.store.touch()
        async with session.lock:
            session.seq += 1
            frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
            session.buffer.append(frame)
            if session.conn is not None:
                try:
                    await session.conn.send(frame)
                except ConnectionError:  # replayed on resume
                    session.conn = None

    def sessions_for(self, guild_id: int | None) -> list[Session]:
        """The sessions that receive the events of ``guild_id`` (its shard's)."""
        return [s for s in self.shards.values() if s.receives(guild_id)]

    async def dispatch(self, event: str, data: dict[str, Any]) -> bool:
        """Send an event to the session(s) of its guild's shard; False when the bot has no
        session for that shard at all."""
        guild = guild_of(event, data)
        sessions = self.sessions_for(guild)
        for session in sessions:
            if session.wants(event, guild):
                session.delivered[(event, guild)] += 1
                await self._send(session, event, data)
        return bool(sessions)

    async def drop(self, code: int = 4000, *, shard: int | None = None) -> None:
        """Close the bot's websocket(s) from the server side (the bot should RESUME); only
        shard ``shard``'s when given."""
        for session in list(self.shards.values()):
            if session.conn is not None and shard in (None, session.shard[0]):
                conn, session.conn = session.conn, None
                self._update_ready()
                await conn.ws.close(code=code)

    async def close(self) -> None:
        for session in self.shards.values():
            if session.conn is not None:
                await session.conn.ws.close(code=1001)
