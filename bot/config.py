"""Settings: read once from ``.env`` and the environment (the process environment wins).

One frozen ``Settings`` value carries every knob of the bot process: what the operator sets
(token, database, guild for development, log level, the emulator's address) and the tuning
variables (``TYSIAC_*``), which tests and benchmarks set. The entry point reads it once and
hands it to the parts it builds; nothing else reads the environment.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TypeVar

from bot.ai.solver import Kind as SolverKind

E = TypeVar("E", bound=StrEnum)
F = TypeVar("F")

ENV_HELP = """\
No Discord bot token found.

Put it in a file named .env in the repository root (copy .env.example):

    DISCORD_TOKEN=your-bot-token-here

How to get a token: open https://discord.com/developers/applications, create an
application (or pick yours), open "Bot", click "Reset Token" and copy it. Keep it secret.
Other settings (all optional): DATABASE_PATH (default ./tysiac.db) or DATABASE_URL
(postgresql://user:password@host:5432/database, instead of the SQLite file), DEV_GUILD_ID,
LOG_LEVEL, SHARD_COUNT / SHARD_IDS (several processes), WEB_PORT / WEB_HOST / WEB_BASE_URL
(the web pages), and for the local emulator
DISCORD_API_BASE / DISCORD_GATEWAY_URL.
"""


class RenderIn(StrEnum):
    """Where images are drawn."""

    PROCESS = "process"  # a worker process: drawing holds the GIL, the loop keeps its core
    THREAD = "thread"  # a thread of the bot process (tests: they can slow or break it)


class SettingsError(ValueError):
    """A setting is missing or malformed; the message says which and what is allowed."""


class NoToken(SettingsError):
    """No bot token at all: the bot is not set up yet (the message says how)."""


NOT_SET_UP = 78  # the exit code of ``run`` without a token (EX_CONFIG): ``make run`` says so


@dataclass(frozen=True, slots=True)
class Settings:
    """Every knob of a bot process; production uses the defaults of the tuning fields."""

    token: str
    database_path: str = "./tysiac.db"
    database_url: str = ""  # postgresql://...: PostgreSQL instead of the SQLite file
    # PostgreSQL with synchronous_commit=off may lose acknowledged moves: refused unless set
    allow_async_commit: bool = False
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    api_base: str | None = None  # another Discord (the emulator): its REST base
    gateway_url: str | None = None
    # ---- tuning (TYSIAC_*) ----
    ai_delay: float = 1.5  # seconds an AI seat waits before it moves
    # seconds a new table keeps a finished hand's last trick and result on show (tables
    # change theirs with /table option name:pause; 0: deal at once)
    hand_pause: int = 8
    seed: int | str | None = None  # deterministic deals (tests, benchmarks)
    # At most this many background jobs at once (automatic moves, edits, hand refreshes),
    # fewer while the loop runs late, so that interactions are answered first
    # (cogs/_lanes.py); 0: no limit.
    lanes: int = 256
    images: bool = True  # False: text only (e.g. where the bot may not attach files)
    render_in: RenderIn = RenderIn.PROCESS
    render_workers: int = 1
    stall_ms: int = 250  # event-loop stalls longer than this are logged with their cause
    # The strong AI's double-dummy solver: None, the compiled one where it loads, else the
    # Python one; after the entry point's start, the one that runs.
    solver: SolverKind | None = None
    checkpoint_after: float = 2.0  # SQLite: seconds from a commit to its WAL checkpoint
    # Answers to interactions and their edits over the bot's own keep-alive HTTP client
    # (cogs/_webhooks.py); False: every request through discord.py's aiohttp session.
    lean_http: bool = True
    # ---- Discord's limits and pacing (tests shorten them) ----
    edit_limit: int = 5  # channel creates/edits per window (Discord: 5 per 5 s)
    edit_per: float = 5.0
    edit_debounce: float = 0.25  # wait this long after a change before editing
    guild_ready_timeout: float = 2.0
    sync_commands: bool = True
    sweep_every: float = 600.0  # seconds between sweeps for abandoned tables
    # ---- the web pages (off unless WEB_PORT is set) ----
    web_port: int | None = None  # 0: any free port (tests)
    web_host: str = "127.0.0.1"
    web_base_url: str = ""  # the address people reach the pages at, for the links posted
    web_max_connections: int = 256  # more at once are answered 503
    web_head_timeout: float = 10.0  # seconds a connection has to send its request

    # ---- several processes (SHARD_COUNT, SHARD_IDS) ----
    # None: discord.py asks Discord how many shards and runs them all in this process.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None  # of ``shard_count``; None: all of them

    @property
    def database(self) -> str:
        """Where the store lives: the PostgreSQL URL if one is set, else the SQLite file."""
        return self.database_url or self.database_path


def read_dotenv(path: Path) -> dict[str, str]:
    """KEY=VALUE lines of a .env file; comments and blank lines skipped, quotes stripped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def merged_env(env: Mapping[str, str] | None = None, dotenv: Path | None = None) -> dict[str, str]:
    """``.env`` overlaid by the environment (``env``, default ``os.environ``)."""
    merged = read_dotenv(dotenv or Path(".env"))
    merged.update(os.environ if env is None else env)
    return merged


def load_settings(env: Mapping[str, str] | None = None, dotenv: Path | None = None, *,
                  need_token: bool = True) -> Settings:
    """Settings from ``.env`` and the environment; ``SettingsError`` says what is wrong."""
    merged = merged_env(env, dotenv)
    token = merged.get("DISCORD_TOKEN", "").strip()
    if not token and need_token:
        raise NoToken(ENV_HELP)
    guild = merged.get("DEV_GUILD_ID", "").strip()
    get = _Reader(merged)
    shard_count, shard_ids = read_shards(merged.get("SHARD_COUNT", ""),
                                         merged.get("SHARD_IDS", ""))
    return Settings(
        token=token,
        database_path=merged.get("DATABASE_PATH") or "./tysiac.db",
        database_url=(merged.get("DATABASE_URL") or "").strip(),
        allow_async_commit=get.flag("ALLOW_ASYNC_COMMIT", False),
        dev_guild_id=int(guild) if guild.isdigit() else None,
        log_level=(merged.get("LOG_LEVEL") or "INFO").upper(),
        api_base=merged.get("DISCORD_API_BASE") or None,
        gateway_url=merged.get("DISCORD_GATEWAY_URL") or None,
        ai_delay=max(0.0, get.number("TYSIAC_AI_DELAY", 1.5)),
        hand_pause=min(60, max(0, int(get.number("TYSIAC_HAND_PAUSE", 8)))),
        seed=get.seed("TYSIAC_SEED"),
        lanes=max(0, int(get.number("TYSIAC_LANES", 256))),
        images=get.flag("TYSIAC_IMAGES", True),
        render_in=get.choice("TYSIAC_RENDER_IN", RenderIn, RenderIn.PROCESS),
        render_workers=max(1, int(get.number("TYSIAC_RENDER_WORKERS", 1))),
        stall_ms=max(1, int(get.number("TYSIAC_STALL_MS", 250))),
        solver=get.choice("TYSIAC_SOLVER", SolverKind, None),
        checkpoint_after=max(0.0, get.number("TYSIAC_CHECKPOINT_AFTER", 2.0)),
        lean_http=get.flag("TYSIAC_LEAN_HTTP", True),
        shard_count=shard_count,
        shard_ids=shard_ids,
        web_port=get.port("WEB_PORT"),
        web_host=merged.get("WEB_HOST", "").strip() or "127.0.0.1",
        web_base_url=merged.get("WEB_BASE_URL", "").strip().rstrip("/"),
        web_max_connections=max(1, int(get.number("WEB_MAX_CONNECTIONS", 256))),
        web_head_timeout=max(0.1, get.number("WEB_HEAD_TIMEOUT", 10.0)),
    )


def read_shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS ("0,1") checked together; ``SettingsError`` names the fault."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    count: int | None = None
    if count_text:
        try:
            count = int(count_text)
        except ValueError:
            raise SettingsError(f"SHARD_COUNT (--shard-count) must be a whole number, not "
                                f"{count_text[:40]!r}") from None
        if count < 1:
            raise SettingsError(f"SHARD_COUNT (--shard-count) must be 1 or more, not {count}")
    if not ids_text:
        return count, None
    if count is None:
        raise SettingsError("SHARD_IDS (--shard-ids) needs SHARD_COUNT (--shard-count): the "
                            "shards of this process are numbered out of the total")
    ids: list[int] = []
    for part in ids_text.split(","):
        part = part.strip()
        try:
            ids.append(int(part))
        except ValueError:
            raise SettingsError(f"SHARD_IDS (--shard-ids) must be shard numbers separated by "
                                f"commas, like 0,1; {part[:40]!r} is not a number") from None
    bad = [i for i in ids if not 0 <= i < count]
    if bad:
        raise SettingsError(f"SHARD_IDS (--shard-ids): shard {bad[0]} does not exist; with "
                            f"SHARD_COUNT={count} the shards are 0 to {count - 1}")
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise SettingsError(f"SHARD_IDS (--shard-ids) names shard {twice[0]} twice; name each "
                            f"shard once")
    return count, tuple(sorted(ids))


class _Reader:
    """Typed values of the tuning variables, with a clear error for a malformed one."""

    def __init__(self, values: Mapping[str, str]) -> None:
        self.values = values

    def _raw(self, key: str) -> str:
        return self.values.get(key, "").strip()

    def number(self, key: str, default: float) -> float:
        raw = self._raw(key)
        if not raw:
            return default
        try:
            return float(raw)
        except ValueError:
            raise SettingsError(f"{key} must be a number, not {raw[:40]!r}") from None

    def flag(self, key: str, default: bool) -> bool:
        raw = self._raw(key).lower()
        if not raw:
            return default
        if raw in ("1", "on", "yes", "true"):
            return True
        if raw in ("0", "off", "no", "false"):
            return False
        raise SettingsError(f"{key} must be 1 or 0 (on/off), not {raw[:40]!r}")

    def choice(self, key: str, kind: type[E], default: F) -> E | F:
        raw = self._raw(key).lower()
        if not raw:
            return default
        try:
            return kind(raw)
        except ValueError:
            allowed = ", ".join(e.value for e in kind)
            raise SettingsError(f"{key} must be one of {allowed}, not {raw[:40]!r}") from None

    def port(self, key: str) -> int | None:
        raw = self._raw(key)
        if not raw:
            return None
        if not raw.isdigit() or int(raw) > 65535:
            raise SettingsError(f"{key} must be a port number (0-65535), not {raw[:40]!r}")
        return int(raw)

    def seed(self, key: str) -> int | str | None:
        raw = self._raw(key)
        if not raw:
            return None
        return int(raw) if raw.isdigit() else raw
