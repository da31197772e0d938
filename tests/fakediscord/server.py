"""The emulator process: aiohttp app, configuration, and the world's set-up.

:class:`Emulator` owns the HTTP server (REST under ``/api/v10`` and the
gateway websocket on ``/gateway``) and the calls that build a world: users,
guilds, channels, threads, permissions.  The test API in ``api.py`` extends it.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from . import rest, webhooks
from .errors import DiscordHTTPError
from .gateway import Gateway
from .models import (
    ALL_PERMISSIONS,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    User,
    permission_value,
)
from .ratelimit import RateLimitConfig, RateLimiter
from .store import Store

log = logging.getLogger("fakediscord")


@dataclass
class Fault:
    """The next ``times`` requests matching ``method`` and ``path`` (a substring of the
    request path) wait ``delay`` seconds before they take effect, then fail with ``status``
    (None: they are served normally)."""

    method: str
    path: str
    times: int = 1
    status: int | None = 503
    delay: float = 0.0
    hits: int = 0  # requests it caught


class Emulator:
    """A local Discord: start it, point a bot at ``api_base``/``gateway_url``."""

    def __init__(self, *, host: str = "127.0.0.1", port: int = 0,
                 token: str = "fake-bot-token", bot_name: str = "TestBot",
                 response_deadline: float = 3.0, token_lifetime: float = 15 * 60,
                 rate_limit: RateLimitConfig | None = None, latency: float = 0.0,
                 recommended_shards: int = 1, max_concurrency: int = 1,
                 max_guilds_per_shard: int = 2500, schema_twice: bool = True) -> None:
        self.host, self.port, self.token = host, port, token
        # Each body judged by jsonschema as well as by its compiled check (accept.py), and
        # a difference recorded as a breach: on in tests, off in benchmarks, where the
        # emulator's CPU stands in for Discord's and should take little of the machine's.
        self.schema_twice = schema_twice
        # Sharding: what GET /gateway/bot recommends, how many shards may IDENTIFY at once,
        # and how many guilds one shard may hold before IDENTIFY is refused (4011).
        self.recommended_shards = recommended_shards
        self.max_concurrency = max_concurrency
        self.max_guilds_per_shard = max_guilds_per_shard
        # Seconds each REST response takes back to the bot (Discord is tens of ms away;
        # loopback is not): the request takes effect at once, its response comes later.
        self.latency = latency
        self.response_deadline = response_deadline  # first answer to an interaction
        self.token_lifetime = token_lifetime  # interaction token: followups and edits
        self.store = Store()
        self.bot_user = User(self.store.next_id(), bot_name, bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner = User(self.store.next_id(), "owner", "Owner")
        self.rate_config = rate_limit or RateLimitConfig()
        self.ratelimiter = RateLimiter(self.rate_config, clock=self.store.now)
        self.gateway = Gateway(self)
        self.commands_synced = 0  # bulk overwrites received
        self.faults: list[Fault] = []  # injected failures and delays (see ``inject``)
        self._runner: web.AppRunner | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- lifecycle ----------------------------------------------------------
    @property
    def http_base(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """The value for ``DISCORD_API_BASE`` (discord.py's ``Route.BASE``)."""
        return f"{self.http_base}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The value for ``DISCORD_GATEWAY_URL``."""
        return f"ws://{self.host}:{self.port}/gateway"

    @property
    def env(self) -> dict[str, str]:
        """Environment for a bot process started against this emulator."""
        return {"DISCORD_API_BASE": self.api_base, "DISCORD_GATEWAY_URL": self.gateway_url,
                "DISCORD_TOKEN": self.token}

    def make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        rest.add_routes(app, self)
        webhooks.add_routes(app, self)
        self.add_extra_routes(app)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        return app

    def add_extra_routes(self, app: web.Application) -> None:
        """Hook for subclasses: routes to add before the catch-all 404."""

    async def start(self) -> None:
        self._runner = web.AppRunner(self.make_app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:
            self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.store.http_base = self.http_base
        log.info("fake Discord on %s", self.api_base)

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Emulator:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def advance_time(self, seconds: float) -> None:
        """Move the emulator clock forward (token expiry, rate-limit windows)."""
        self.store.time_offset += seconds

    def inject(self, method: str, path: str, *, times: int = 1, status: int | None = 503,
               delay: float = 0.0) -> Fault:
        """Make the next ``times`` matching REST requests slow (``delay``) and/or fail
        (``status``; 503 is one discord.py does not retry by itself)."""
        fault = Fault(method.upper(), path, times, status, delay)
        self.faults.append(fault)
        return fault

    def _fault(self, request: web.Request) -> Fault | None:
        for fault in self.faults:
            if (fault.times > 0 and fault.method == request.method
                    and fault.path in request.path):
                fault.times -= 1
                fault.hits += 1
                return fault
        return None

    # -- http plumbing ------------------------------------------------------
    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if not request.path.startswith("/api/"):  # the websocket, control API: no activity
            return await handler(request)
        store = self.store
        store.inflight += 1
        store.touch()
        store.requests.append(f"{request.method} {request.path}")
        try:
            try:
                fault = self._fault(request) if self.faults else None
                if fault is not None:
                    if fault.delay > 0:
                        await asyncio.sleep(fault.delay)
                    if fault.status is not None:
                        raise DiscordHTTPError(fault.status, 0, f"{fault.status}: injected")
                resp = await handler(request)
            except DiscordHTTPError as exc:
                resp = rest.json_response(exc.body(), exc.headers, exc.status)
            resp.headers.setdefault("Via", "1.1 google")  # discord.py trusts 429s with Via only
            if self.latency > 0:
                await asyncio.sleep(self.latency)
            return resp
        finally:
            store.inflight -= 1
            store.touch()

    async def _unknown(self, request: web.Request) -> web.Response:
        route = f"{request.method} {request.path}"
        log.warning("unknown route %s", route)
        self.store.unknown_routes.append(route)
        return rest.json_response({"message": "404: Not Found", "code": 0}, status=404)

    def check_bot_auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise DiscordHTTPError(401, 0, "401: Unauthorized")

    # -- building the world ---------------------------------------------------
    def add_user(self, name: str, display_name: str | None = None, *, locale: str = "en-US",
                 bot: bool = False) -> User:
        user = User(self.store.next_id(), name, display_name or name, locale, bot)
        self.store.users[user.id] = user
        return user

    def add_guild(self, name: str = "Test Guild", *, locale: str = "en-US",
                  members: tuple[User, ...] | list[User] = (),
                  bot_permissions: int = ALL_PERMISSIONS,
                  shard: tuple[int, int] | None = None) -> Guild:
        """A guild the bot is in; ``shard=(id, count)``: one whose events go to that shard."""
        gid = self.store.next_id() if shard is None else self.store.next_id_on_shard(*shard)
        guild = Guild(gid, name, self.owner.id, locale, bot_permissions)
        guild.roles[gid] = Role(gid, "@everyone", permission_value(None))
        bot_role = Role(self.store.next_id(), self.bot_user.name, bot_permissions, 1)
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = Member(self.bot_user, gid, bot_permissions,
                                                 role_ids=[bot_role.id])
        self.store.guilds[gid] = guild
        for user in members:
            self._member(guild, user)
        self._later("GUILD_CREATE", guild.payload)
        return guild

    def guild_on_shard(self, shard_id: int, count: int, name: str | None = None,
                       **options: Any) -> Guild:
        """A new guild whose events Discord sends to shard ``shard_id`` of ``count``."""
        return self.add_guild(name or f"Shard {shard_id} of {count}", shard=(shard_id, count),
                              **options)

    def _member(self, guild: Guild, user: User, permissions: Any = None) -> Member:
        member = guild.members.get(user.id)
        if member is None:
            self.store.users.setdefault(user.id, user)
            member = guild.members[user.id] = Member(user, guild.id)
        if permissions is not None:
            member.permissions = permission_value(permissions)
            role = Role(self.store.next_id(), f"perms-{user.name}", member.permissions, 1)
            guild.roles[role.id] = role
            member.role_ids = [role.id]
        return member

    def add_member(self, guild: Guild, user: User, *, permissions: Any = None) -> Member:
        """Put a user into a guild; ``permissions`` like ``["manage_channels"]``."""
        member = self._member(guild, user, permissions)
        self._later("GUILD_MEMBER_ADD", lambda: member.payload() | {"guild_id": str(guild.id)})
        return member

    def set_permissions(self, guild: Guild, user: User, permissions: Any) -> Member:
        """Give a member guild-wide permissions (names, a name, or an int)."""
        return self._member(guild, user, permissions)

    def set_bot_permissions(self, guild: Guild, permissions: Any) -> None:
        """What the bot may do in ``guild`` (names, a name, or an int; names add to
        Discord's defaults)."""
        value = permission_value(permissions)
        guild.bot_permissions = value
        bot = guild.members[self.bot_user.id]
        bot.permissions = value
        for rid in bot.role_ids:
            guild.roles[rid].permissions = value

    def add_text_channel(self, guild: Guild, name: str) -> Channel:
        chan = Channel(self.store.next_id(), guild.id, name, 0, position=len(guild.channels))
        guild.channels[chan.id] = self.store.channels[chan.id] = chan
        self._later("CHANNEL_CREATE", chan.payload)
        return chan

    def add_thread(self, channel: Channel, name: str, *, private: bool = False,
                   owner: User | None = None, starter: Message | None = None,
                   members: tuple[User, ...] | list[User] = (), announce: bool = True) -> Channel:
        """A thread of ``channel`` (private: seen only by its members and Manage Threads),
        owned by ``owner`` (who is in it), started from ``starter`` if given."""
        thread = Channel(self.store.next_id(), channel.guild_id, name, 12 if private else 11,
                         parent_id=channel.id, owner_id=owner.id if owner else None,
                         starter_message_id=starter.id if starter else None)
        thread.members.update(u.id for u in (*members, *([owner] if owner else [])))
        self.store.guilds[channel.guild_id].channels[thread.id] = thread
        self.store.channels[thread.id] = thread
        if announce:
            self._later("THREAD_CREATE", lambda: thread.payload() | {"newly_created": True})
        return thread

    def _later(self, event: str, payload: Any) -> None:
        """Tell a connected bot about a change made by the test (fire and forget)."""
        if self.gateway.shards:
            task = asyncio.get_running_loop().create_task(self.gateway.dispatch(event, payload()))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
