"""Settings from the environment and ``.env`` (the process environment wins)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

ENV_HELP = """\
No Discord bot token found.

Put it in a file named .env in the repository root (copy .env.example):

    DISCORD_TOKEN=your-bot-token-here

How to get a token: open https://discord.com/developers/applications, create an
application (or pick yours), open "Bot", click "Reset Token" and copy it. Keep it secret.
Other settings (all optional): DATABASE_PATH (default ./tysiac.db), DEV_GUILD_ID,
LOG_LEVEL, and for the local emulator DISCORD_API_BASE / DISCORD_GATEWAY_URL.
"""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database_path: str = "./tysiac.db"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    api_base: str | None = None
    gateway_url: str | None = None


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


def load_settings(env: dict[str, str] | None = None, dotenv: Path | None = None) -> Settings:
    """Settings from ``.env`` overlaid by the environment; ValueError with help if no token."""
    merged = read_dotenv(dotenv or Path(".env"))
    merged.update(os.environ if env is None else env)
    token = merged.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ValueError(ENV_HELP)
    guild = merged.get("DEV_GUILD_ID", "").strip()
    return Settings(
        token=token,
        database_path=merged.get("DATABASE_PATH") or "./tysiac.db",
        dev_guild_id=int(guild) if guild.isdigit() else None,
        log_level=(merged.get("LOG_LEVEL") or "INFO").upper(),
        api_base=merged.get("DISCORD_API_BASE") or None,
        gateway_url=merged.get("DISCORD_GATEWAY_URL") or None,
    )


def run_bot() -> int:
    """Entry point of ``python -m bot run``."""
    import sys

    try:
        settings = load_settings()
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    from bot.store import DatabaseUnusable, check_database_path

    try:  # before Discord is contacted: a bad database is one line, not a hang
        check_database_path(settings.database_path)
    except DatabaseUnusable as exc:
        print(exc, file=sys.stderr)
        return 1
    # The Discord client lives in cogs/ (the only package that imports discord).
    from cogs._bot import main as discord_main

    result: int = discord_main(settings)
    return result
