"""The Discord client: start-up, the central error handler, component routing, ``main``.

``main(settings)`` is what ``python -m bot run`` calls (through ``bot.config.run_bot``).
The emulator is reached exactly as production Discord, after pointing discord.py at it.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import secrets
import signal
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.game.rules import Rules
from bot.game.state import HandResult
from bot.i18n import t, translation
from bot.store import Store
from bot.tables import Actor, Clock, TableError, TableService, Update
from cogs._images import Images, MatchSnapshot
from cogs._lanes import Lanes
from cogs._publisher import Publisher
from cogs._views import DYNAMIC_ITEMS, MessageParts

log = logging.getLogger("tysiac")
T = TypeVar("T")
ACK_BUDGET = 2.0  # seconds of work before an interaction is deferred
EXTENSIONS = ("cogs.lobby", "cogs.play")

ComponentHandler = Callable[[discord.Interaction[Any], int, str, list[str]], Awaitable[None]]


@dataclass
class BotOptions:
    """Knobs for tests and benchmarks; production uses the defaults."""

    ai_delay: float = 1.5
    seed: int | str | None = None
    clock: Clock | None = None
    edit_limit: int = 5  # channel creates/edits per window (Discord: 5 per 5 s)
    edit_per: float = 5.0
    edit_debounce: float = 0.25  # wait this long after a change before editing
    guild_ready_timeout: float = 2.0
    sync_commands: bool = True
    sweep_every: float = 600.0
    # At most this many background jobs (automatic moves, edits, hand refreshes) at once,
    # fewer while the loop runs late, so that interactions are answered first (see
    # cogs._lanes); 0: no limit.
    lanes: int = 256

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> BotOptions:
        """Options a bot process takes from its environment (benchmarks, tests):
        ``TYSIAC_AI_DELAY`` (seconds an AI waits before moving; default 1.5) and
        ``TYSIAC_SEED`` (deterministic deals), ``TYSIAC_LANES`` (see the field)."""
        env = os.environ if env is None else env
        options = cls()
        delay = env.get("TYSIAC_AI_DELAY", "").strip()
        if delay:
            options.ai_delay = max(0.0, float(delay))
        lanes = env.get("TYSIAC_LANES", "").strip()
        if lanes:
            options.lanes = max(0, int(lanes))
        seed = env.get("TYSIAC_SEED", "").strip()
        if seed:
            options.seed = int(seed) if seed.isdigit() else seed
        return options


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


def locale_of(interaction: discord.Interaction[Any]) -> str:
    """The user's Discord locale ("en-US", "pl", ...): every reply is written in it."""
    return str(interaction.locale.value) if interaction.locale else "en-US"


def public_locale(interaction: discord.Interaction[Any]) -> str:
    """The language of a new table's public messages: the server's preferred language where
    it has set one other than the default (Community servers), else the opener's."""
    guild = interaction.guild_locale
    if guild is not None and guild.value != "en-US":
        return str(guild.value)
    return locale_of(interaction)


def ls(key: str) -> app_commands.locale_str:
    """A command description or choice by catalog key (English now, translated at sync)."""
    return app_commands.locale_str(t(key), key=key)


class CatalogTranslator(app_commands.Translator):
    """Command descriptions and choices in every language ``bot.i18n`` has."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        return translation(key, locale.value) if key else None


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    user = interaction.user
    perms = interaction.permissions
    return Actor(user.id, user.display_name, can_manage=bool(perms.manage_channels),
                 locale=locale_of(interaction))


async def send(interaction: discord.Interaction[Any], parts: MessageParts, *,
               ephemeral: bool = True, update: bool = False) -> None:
    """Answer (or, after a defer, complete) an interaction with ``parts``."""
    kwargs: dict[str, Any] = {"content": parts.content, "embed": parts.embed}
    if parts.view is not None:
        kwargs["view"] = parts.view
    if not interaction.response.is_done():
        if update:
            await interaction.response.edit_message(**kwargs)
        else:
            await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
    elif update:
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.followup.send(ephemeral=ephemeral, wait=False, **{
            k: v for k, v in kwargs.items() if v is not None})


async def within(interaction: discord.Interaction[Any], work: Awaitable[T], *,
                 update: bool = False, ephemeral: bool = True) -> T:
    """Run ``work``; if it takes longer than the budget, defer first (the 3 s rule).

    The work runs in the caller's task (no extra task or wait on the fast path, which
    matters when the loop is busy): a timer defers the interaction if the work is slow."""
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

    timer = loop.call_later(ACK_BUDGET, late)
    try:
        return await work
    finally:
        timer.cancel()
        if deferral is not None:
            with contextlib.suppress(discord.HTTPException):
                await deferral


async def report_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Refusals become polite ephemeral answers; anything else is logged with an id."""
    original: BaseException = error
    while isinstance(original, app_commands.AppCommandError | commands.CommandError):
        inner = getattr(original, "original", None)
        if not isinstance(inner, BaseException):
            break
        original = inner
    loc = locale_of(interaction)
    if isinstance(original, TableError):
        text = t(original.key, loc, **original.params)
    elif isinstance(original, app_commands.CheckFailure | app_commands.TransformerError):
        text = str(original)
    else:
        ref = secrets.token_hex(4)
        log.error("unexpected error %s in %s", ref, _describe(interaction),
                  exc_info=(type(original), original, original.__traceback__))
        text = t("error.unexpected", loc, id=ref)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell the user about an error in %s", _describe(interaction))


def _describe(interaction: discord.Interaction[Any]) -> str:
    data: dict[str, Any] = dict(interaction.data or {})
    what = data.get("name") or data.get("custom_id") or "?"
    return f"interaction {interaction.id} ({what}) by {interaction.user.id}"


class TysiacTree(app_commands.CommandTree[Any]):
    """The one place errors of slash commands end up."""

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)


class TysiacBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, options: BotOptions | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        options = options or BotOptions()
        # No message cache and no member cache: the bot reads no messages, and everything
        # it needs about a user comes with the interaction (less work per gateway event).
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         tree_cls=TysiacTree, help_command=None,
                         guild_ready_timeout=options.guild_ready_timeout,
                         max_messages=None, member_cache_flags=discord.MemberCacheFlags.none(),
                         chunk_guilds_at_startup=False)
        self.settings = settings
        self.options = options
        self.lanes = Lanes(options.lanes)
        self.owns_process = False  # set by main(): GC freeze, SIGTERM closes the bot
        self.components: dict[str, ComponentHandler] = {}
        self.store: Store | None = None
        self._service: TableService | None = None
        self.publisher = Publisher(self.get_partial_messageable, self.lanes, Images(),
                                   self._match_results, limit=options.edit_limit,
                                   per=options.edit_per, debounce=options.edit_debounce)
        self._sweeper: asyncio.Task[None] | None = None

    @property
    def service(self) -> TableService:
        assert self._service is not None, "the bot is not set up yet"
        return self._service

    async def setup_hook(self) -> None:
        o = self.options
        if self.owns_process:
            gc.collect()
            gc.freeze()  # start-up's objects live as long as the process: no more GC scans
            with contextlib.suppress(NotImplementedError, RuntimeError):  # systemd, docker
                asyncio.get_running_loop().add_signal_handler(  # stop: close as on Ctrl+C
                    signal.SIGTERM, lambda: asyncio.ensure_future(self.close()))
        self.store = await Store.open(self.settings.database_path)
        self._service = TableService(self.store, clock=o.clock, ai_delay=o.ai_delay,
                                     seed=o.seed, listener=self.publisher,
                                     gate=self.lanes.background)
        restored = await self._service.restore()
        log.info("restored %d live tables", restored)
        await self.tree.set_translator(CatalogTranslator())
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        for table in self._service.tables:  # catch the messages up with the log
            self.publisher(Update(table))
        if o.sync_commands:
            await self._sync()
        self._sweeper = asyncio.create_task(self._service.run_sweeper(o.sweep_every))

    async def _match_results(self, table_id: int, match_no: int) -> list[HandResult]:
        """A match's hand results replayed from the log (the score sheet after a restart)."""
        # TODO: the table service's own ``match_results`` replaces this adapter.
        store = self.store
        if store is None:
            return []
        row = next((m for m in await store.matches(table_id) if m.match_no == match_no), None)
        if row is None:
            return []
        snap = MatchSnapshot(table_id, match_no, None, (), Rules.from_json(row.rules),
                             row.dealer, "")
        return await self.publisher.images.match_results(snap, store)

    async def _sync(self) -> None:
        gid = self.settings.dev_guild_id
        if gid:
            guild = discord.Object(gid)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._service is not None:
            await self._service.close()
        await self.publisher.close()
        self.lanes.close()
        await super().close()
        if self.store is not None:
            with contextlib.suppress(Exception):
                await self.store.close()

    def on_component(self, *verbs: str) -> Callable[[ComponentHandler], ComponentHandler]:
        """Register a handler for components with these verbs (used by the cogs)."""
        def deco(fn: ComponentHandler) -> ComponentHandler:
            for verb in verbs:
                self.components[verb] = fn
            return fn
        return deco

    async def route_component(self, interaction: discord.Interaction[Any], table_id: int,
                              verb: str, arg: str, values: list[str]) -> None:
        handler = self.components.get(verb)
        try:
            if handler is None:
                raise TableError("error.no_such_action")
            await handler(interaction, table_id, arg, values)
        except Exception as exc:
            await report_error(interaction, exc)


def main(settings: Settings, options: BotOptions | None = None) -> int:
    """Run the bot until it is stopped (Ctrl+C or SIGTERM)."""
    logging.basicConfig(level=getattr(logging, settings.log_level, logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if settings.api_base:
        point_discord_py_at(settings.api_base, settings.gateway_url)
        log.info("using the Discord at %s", settings.api_base)
    # A busy bot allocates a lot of short-lived objects (gateway payloads, interactions,
    # components) over a large long-lived heap: collect the young generation less often and
    # the full heap rarely (measured, 200 tables: GC time 6.8 s -> about 1.5 s in 30 s, and
    # no more 200 ms pauses).
    gc.set_threshold(10_000, 50, 100)
    bot = TysiacBot(settings, options if options is not None else BotOptions.from_env())
    bot.owns_process = True
    bot.run(settings.token, log_handler=None)
    return 0
