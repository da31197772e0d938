"""The Discord client: start-up, closing, component routing, ``main``.

``main(settings)`` is what ``python -m bot run`` calls with the settings it read once. The
bot receives its parts (the table service, the publisher, the renderer, the lanes) built
from those settings; the cogs receive the bot. The emulator is reached exactly as
production Discord, after pointing discord.py at it. Errors end up in ``cogs._tree``; the
cogs read and answer interactions with ``cogs._interaction``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from bot import __version__
from bot.config import RenderIn, Settings
from bot.game.state import HandResult
from bot.logs import redact_handlers
from bot.tables import (
    Clock,
    DatabaseUnusable,
    Shards,
    TableError,
    TableService,
    Tournaments,
    Update,
    open_service,
)
from bot.watchdog import LoopWatchdog
from bot.web import WebServer, raise_open_files_limit
from cogs._ids import is_ours, known_verb
from cogs._images import Images
from cogs._lanes import Lanes
from cogs._publisher import Publisher
from cogs._tree import CatalogTranslator, TysiacTree, report_error
from cogs._views import ComponentPress, pressed_of
from cogs._webhooks import LeanWebhookAdapter, use_lean_webhooks

log = logging.getLogger("tysiac")
EXTENSIONS = ("cogs.lobby", "cogs.play", "cogs.help", "cogs.records", "cogs.admin",
              "cogs.analysis", "cogs.daily", "cogs.tournament")

ComponentHandler = Callable[[discord.Interaction[Any], ComponentPress], Awaitable[None]]


def point_discord_py_at(api_base: str, gateway_url: str | None) -> None:
    """Talk to another Discord (the emulator): REST base and gateway URL."""
    import discord.gateway
    import discord.http
    import yarl

    if not gateway_url:
        host = api_base.split("://", 1)[1].split("/", 1)[0]
        gateway_url = f"ws://{host}/gateway"
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


class TysiacBot(commands.AutoShardedBot):
    """The bot: its parts are built from ``settings`` (``clock``: a fake one in tests)."""

    def __init__(self, settings: Settings, *, clock: Clock | None = None,
                 owns_process: bool = False) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        # No message cache and no member cache: the bot reads no messages, and everything
        # it needs about a user comes with the interaction (less work per gateway event).
        shards: dict[str, Any] = {}  # unset: discord.py asks Discord how many, runs them all
        if settings.shard_count is not None:
            shards["shard_count"] = settings.shard_count
        if settings.shard_ids is not None:
            shards["shard_ids"] = list(settings.shard_ids)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         tree_cls=TysiacTree, help_command=None,
                         guild_ready_timeout=settings.guild_ready_timeout,
                         max_messages=None, member_cache_flags=discord.MemberCacheFlags.none(),
                         chunk_guilds_at_startup=False, **shards)
        self.settings = settings
        # The tables this process holds: those of its shards' guilds (all without sharding).
        self.ownership = Shards(settings.shard_count, settings.shard_ids)
        self.clock = clock
        self.owns_process = owns_process  # GC freeze, SIGTERM closes the bot
        self.lanes = Lanes(settings.lanes)
        self.components: dict[str, ComponentHandler] = {}
        self.command_ids: dict[str, int] = {}  # top-level command -> its id, once synced
        self._service: TableService | None = None
        self._tournaments: Tournaments | None = None
        images = Images(settings.render_workers, enabled=settings.images,
                        in_process=settings.render_in is RenderIn.THREAD)
        self.publisher = Publisher(self.get_partial_messageable, self.lanes, images,
                                   self._match_results, limit=settings.edit_limit,
                                   per=settings.edit_per, debounce=settings.edit_debounce,
                                   wants_ping=self._wants_ping)
        self._sweeper: asyncio.Task[None] | None = None
        self._closing: asyncio.Future[None] | None = None
        self.web: WebServer | None = None
        self.watchdog = LoopWatchdog(settings.stall_ms / 1000)
        self._webhooks: LeanWebhookAdapter | None = None

    @property
    def service(self) -> TableService:
        assert self._service is not None, "the bot is not set up yet"
        return self._service

    @property
    def tournaments(self) -> Tournaments:
        """The tournaments of this process's servers (cogs/tournament.py attaches its port)."""
        assert self._tournaments is not None, "the bot is not set up yet"
        return self._tournaments

    async def _wants_ping(self, user_id: int) -> bool:
        """The user asked to be told when his turn comes (``/optin ping``)."""
        return await self.service.wants_ping(user_id)

    async def _match_results(self, table_id: int, match_no: int) -> list[HandResult]:
        """A match's hand results (the score sheet after a restart), from the service."""
        return await self.service.match_results(table_id, match_no)

    async def setup_hook(self) -> None:
        s = self.settings
        if self.owns_process:  # in tests the loop is not the bot's alone
            self.watchdog.start()
            gc.collect()
            gc.freeze()  # start-up's objects live as long as the process: no more GC scans
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):  # systemd, docker, Ctrl+C
                with contextlib.suppress(NotImplementedError, RuntimeError):
                    loop.add_signal_handler(sig, self._on_stop_signal, sig.name)
        self.publisher.images.start()  # while nobody waits for an answer yet
        read_presses_lean(self)
        if s.lean_http:  # set in the task that goes on to run the gateway: all inherit it
            self._webhooks = use_lean_webhooks(self.http.user_agent)
        self._service = await open_service(
            s.database, clock=self.clock, ai_delay=s.ai_delay, seed=s.seed,
            pause=s.hand_pause, listener=self.publisher, gate=self.lanes.background,
            shards=self.ownership, checkpoint_after=s.checkpoint_after,
            allow_async_commit=s.allow_async_commit)
        # before the tables are restored: it gives the tables of events their boards
        self._tournaments = Tournaments(self._service.store, self._service,
                                        clock=self._service.clock,
                                        owned=self.ownership.owns)
        restored = await self._service.restore()
        log.info("restored %d live tables (%s)", restored, self.ownership.describe())
        await self.tree.set_translator(CatalogTranslator())
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        await self._tournaments.restore()  # after the cogs: its port is attached
        for table in self._service.tables:  # catch the messages up with the log
            self.publisher(Update(table))
        if s.sync_commands and self.ownership.owns(None):
            await self._sync()
        elif s.sync_commands:  # the commands are global: one process (shard 0's) syncs them
            self._synced = "by the process of shard 0"
        self._sweeper = asyncio.create_task(self._service.run_sweeper(s.sweep_every))
        if s.web_port is not None:
            web = WebServer(self._service.records, host=s.web_host, port=s.web_port,
                            guild_info=self._guild_info,
                            max_connections=s.web_max_connections,
                            head_timeout=s.web_head_timeout)
            try:
                await web.start()
                self.web = web
            except OSError as exc:  # the port taken: the tables matter more than the pages
                log.error("web pages: cannot listen on %s:%d (%s); the bot runs without them",
                          s.web_host, s.web_port, exc)

    def _guild_info(self, guild_id: int) -> tuple[str | None, str | None]:
        """A guild's name and preferred language, for its web pages."""
        guild = self.get_guild(guild_id)
        if guild is None:
            return None, None
        return guild.name, str(guild.preferred_locale.value)

    async def _sync(self) -> None:
        gid = self.settings.dev_guild_id
        if gid:
            guild = discord.Object(gid)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            self._synced = f"to the development guild {gid}"
        else:
            synced = await self.tree.sync()
            self._synced = "globally"
        self.command_ids = {c.name: c.id for c in synced}

    def command_mention(self, name: str) -> str:
        """A command as a link Discord makes clickable (``</table rules:id>``) where this
        process synced the commands and knows their ids, else as plain code."""
        top = name.split(" ", 1)[0]
        command_id = self.command_ids.get(top)
        return f"</{name}:{command_id}>" if command_id else f"`/{name}`"

    async def on_ready(self) -> None:
        """Say once (not on every reconnect) who logged in and where the commands went."""
        if getattr(self, "_ready_logged", False):
            return
        self._ready_logged = True
        synced = getattr(self, "_synced", None)
        log.info("logged in as %s (%s) in %d guilds; commands %s", self.user,
                 self.user.id if self.user else "?", len(self.guilds),
                 f"synced {synced}" if synced else "not synced (sync_commands is off)")

    async def close(self) -> None:
        """Stop everything once, in order, and wait until it is done: the web pages, the
        sweeper, timers and AI turns, the publisher and its image workers, Discord, the AI's
        worker processes, and last the database (everything before may still write it;
        closing it copies the WAL into the file and removes the ``-wal``). SIGTERM, SIGINT
        and an error out of ``start`` all end here (see ``__aexit__``)."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close_all())
        # Shielded: a caller cancelled meanwhile (a task of discord.py's, say) does not
        # cut the closing short.
        await asyncio.shield(self._closing)

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        # discord.py's own waits for its part of the closing only, and asyncio.run then
        # cancels the rest (the store's close among it): wait for the whole of it here.
        await self.close()

    async def _close_all(self) -> None:
        try:
            if self.web is not None:
                await self.web.close()
            if self._sweeper is not None:
                self._sweeper.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self._sweeper
            if self._tournaments is not None:
                await self._tournaments.close()
            if self._service is not None:
                await self._service.close()
            await self.publisher.close()
            self.lanes.close()
            await super().close()
            if self._webhooks is not None:
                self._webhooks.close()
            await self.watchdog.stop()  # logs: event loop: longest stall N ms, ...
            if self._service is not None:
                await self._service.close_pools()
        finally:
            if self._service is not None:
                try:
                    await self._service.close_store()
                except Exception:
                    log.exception("closing the database failed")

    def _on_stop_signal(self, name: str) -> None:
        """SIGTERM or SIGINT: close as on a clean stop (a second one changes nothing)."""
        if self._closing is None:
            log.info("%s: stopping", name)
            self._closing = asyncio.ensure_future(self._close_all())
        else:
            log.info("%s: already stopping", name)

    def on_component(self, *verbs: str) -> Callable[[ComponentHandler], ComponentHandler]:
        """Register a handler for components with these verbs (used by the cogs)."""
        def deco(fn: ComponentHandler) -> ComponentHandler:
            for verb in verbs:
                self.components[verb] = fn
            return fn
        return deco

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A press on a table's button or menu goes to its handler; a component whose id
        this bot never made (or no longer makes) still gets an answer (the listings' and
        the admins' presses go through discord.py's ``DynamicItem``)."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        pressed = pressed_of(data)
        if pressed is not None:
            if interaction.message is not None:  # as discord.py routes: from a message
                await self.route_component(interaction, pressed)
            return
        cid = str(data.get("custom_id", ""))
        if not is_ours(cid):
            await report_error(interaction, TableError("error.inactive_button"))

    async def route_component(self, interaction: discord.Interaction[Any],
                              pressed: ComponentPress) -> None:
        handler = self.components.get(pressed.verb)
        try:
            if handler is None or not known_verb(pressed.verb):
                raise TableError("error.inactive_button")
            await handler(interaction, pressed)
        except Exception as exc:
            await report_error(interaction, exc)


def main(settings: Settings) -> int:
    """Run the bot until it is stopped (Ctrl+C or SIGTERM); 1 with one line if it cannot
    log in."""
    logging.basicConfig(level=getattr(logging, settings.log_level, logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    log.info("tysiac-bot %s starting", __version__)
    redact_handlers()  # discord.py logs interaction URLs (their tokens) at DEBUG
    soft, _ = raise_open_files_limit()  # a socket, a file or a pipe each
    log.info("open files limit: %d", soft)
    if settings.solver is not None:  # as the entry point chose it (TYSIAC_SOLVER)
        log.info("the strong AI's double-dummy solver: %s", settings.solver.value)
    if settings.api_base:
        point_discord_py_at(settings.api_base, settings.gateway_url)
        log.info("using the Discord at %s", settings.api_base)
    # A busy bot allocates a lot of short-lived objects (gateway payloads, interactions,
    # components) over a large long-lived heap: collect the young generation less often and
    # the full heap rarely (measured, 200 tables: GC time 6.8 s -> about 1.5 s in 30 s). The
    # middle generation is collected every 5 young collections, not 50: at 400 tables 50 let
    # up to ~500k objects pile up there, one 200-220 ms pause of the loop per bot and run
    # (every ack in flight waited); now 30-70 ms every few seconds. Full collections stay as
    # rare (5 x 1000 young collections, as 50 x 100 before).
    gc.set_threshold(10_000, 5, 1000)
    bot = TysiacBot(settings, owns_process=True)
    where = settings.api_base or "https://discord.com"
    try:
        bot.run(settings.token, log_handler=None)
    except DatabaseUnusable as exc:  # damaged after the start-up check: still one line
        print(exc, file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print("error: Discord refused the bot token (DISCORD_TOKEN); copy it again from the "
              "Developer Portal (your application -> Bot -> Reset Token).", file=sys.stderr)
        return 1
    except discord.ConnectionClosed as exc:  # closed for good (the database is closed too)
        reason = f", {exc.reason}" if exc.reason else ""
        print(f"error: Discord closed the bot's connection for good (code {exc.code}{reason});"
              " start the bot again once the cause is fixed.", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:  # pragma: no cover - the bot asks for none
        print("error: Discord asks for privileged intents this bot does not use.",
              file=sys.stderr)
        return 1
    except (aiohttp.ClientError, OSError, discord.GatewayNotFound, TimeoutError) as exc:
        reason = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        print(f"error: could not reach Discord at {where} ({reason}); check the network "
              "connection (and DISCORD_API_BASE if set), then start the bot again.",
              file=sys.stderr)
        return 1
    return 0


def read_presses_lean(client: discord.Client) -> None:
    """Build the message of a press on a table's button without its components.

    discord.py builds the pressed message of every interaction, every row and button of it,
    which a table's press never reads (``pressed_of`` reads its id; measured: ~1.5% of the
    bot's CPU at 500 tables). Any other press keeps them: discord.py's ``DynamicItem``
    routing reads them."""
    parsers: dict[str, Callable[[dict[str, Any]], None]] = client._connection.parsers
    parse = parsers["INTERACTION_CREATE"]

    def lean(data: dict[str, Any]) -> None:
        msg = data.get("message")
        if msg and msg.get("components") and pressed_of(data.get("data") or {}) is not None:
            data = {**data, "message": {**msg, "components": []}}
        parse(data)

    parsers["INTERACTION_CREATE"] = lean
