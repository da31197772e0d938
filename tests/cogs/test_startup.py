"""`python -m bot run` when Discord cannot be used: one clear line and a non-zero exit."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from pathlib import Path

import pytest

from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


async def run_bot(env: dict[str, str], limit: float = 60.0) -> tuple[int, str]:
    full = {**os.environ, "LOG_LEVEL": "WARNING", **env}
    full.pop("DEV_GUILD_ID", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=str(ROOT), env=full,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), limit)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise AssertionError("the bot did not exit") from None
    return proc.returncode or 0, (out + err).decode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_a_wrong_token_is_one_clear_line(tmp_path):
    async with FakeDiscord() as fd:
        env = {**fd.env, "DISCORD_TOKEN": "not-the-token", "DATABASE_PATH": str(tmp_path / "a.db")}
        code, output = await run_bot(env)
    assert code == 1, output
    assert "Discord refused the bot token" in output
    assert "Traceback" not in output and len(output.strip().splitlines()) <= 3, output


async def test_discord_unreachable_is_one_clear_line(tmp_path):
    port = free_port()  # nothing listens there
    env = {"DISCORD_TOKEN": "x", "DATABASE_PATH": str(tmp_path / "b.db"),
           "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
           "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/gateway"}
    code, output = await run_bot(env)
    assert code == 1, output
    assert "could not reach Discord" in output and f"127.0.0.1:{port}" in output
    assert "Traceback" not in output and len(output.strip().splitlines()) <= 3, output


async def test_postgresql_without_synchronous_commit_is_one_clear_line(pg_server):
    """A server that acknowledges commits before they are on disk: the bot stops with one
    line, unless ALLOW_ASYNC_COMMIT=1 (then it starts, with a warning)."""
    import asyncpg

    url = await pg_server.new_database()
    conn = await asyncpg.connect(pg_server.url())
    try:
        await conn.execute(f'ALTER DATABASE "{url.rsplit("/", 1)[1]}" SET synchronous_commit = off')
    finally:
        await conn.close()
    async with FakeDiscord() as fd:
        env = {**fd.env, "DATABASE_URL": url}
        code, output = await run_bot(env)
        assert code == 1, output
        last = output.strip().splitlines()[-1]  # after discord.py's own warnings
        assert "synchronous_commit=off" in last and "ALLOW_ASYNC_COMMIT=1" in last, output
        assert "Traceback" not in output, output
        assert fd.gateway.identifies == 0  # never went on line
        full = {**os.environ, "LOG_LEVEL": "WARNING", **fd.env, "DATABASE_URL": url,
                "ALLOW_ASYNC_COMMIT": "1"}
        full.pop("DEV_GUILD_ID", None)
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", cwd=str(ROOT), env=full,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        try:
            await fd.wait_ready(timeout=30)
        finally:
            proc.terminate()
            _, err = await proc.communicate()
        assert proc.returncode == 0, err.decode()
        assert "synchronous_commit=off (ALLOW_ASYNC_COMMIT=1)" in err.decode()
