"""Gateway: compression, resume after a dropped connection, bot restarts."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
from pathlib import Path

from .client_setup import point_discord_py_at

ROOT = Path(__file__).resolve().parents[2]


async def test_speaks_what_the_client_asks(fake_discord, world, bot):
    query = fake_discord.gateway.last_query
    assert query["v"] == "10" and query["encoding"] == "json"
    assert query.get("compress") in ("zlib-stream", "zstd-stream")
    assert "GET /api/v10/oauth2/applications/@me" in fake_discord.store.requests


async def test_resume_after_dropped_connection(fake_discord, world, bot):
    fd = fake_discord
    session = fd.gateway.current
    await fd.drop_gateway()
    # dispatched while the bot is disconnected: buffered, replayed on RESUME
    r = await fd.slash(world.alice, world.channel, "ping")
    assert r.content == "pong"
    assert fd.gateway.resumes == 1 and fd.gateway.identifies == 1
    assert fd.gateway.current is session and fd.gateway.connected


async def test_restart_in_process_routes_old_components(fake_discord, world, bot):
    from .testbot import build_bot

    fd = fake_discord
    board = (await fd.slash(world.alice, world.channel, "board")).message
    await bot.close()
    await fd.wait_until(lambda: not fd.gateway.connected)
    second = build_bot([world.guild.id])
    task = asyncio.create_task(second.start(fd.token))
    try:
        await fd.wait_ready()
        assert fd.gateway.identifies == 2
        r = await fd.click(world.bob, board, "board:inc")
        assert r.content.startswith("counted by pid") and r.ephemeral
    finally:
        await second.close()
        with contextlib.suppress(Exception):
            await task


def start_bot_process(fd, log: Path) -> subprocess.Popen:
    env = {**os.environ, **fd.env, "PYTHONPATH": str(ROOT)}
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "tests.fakediscord.testbot"], cwd=ROOT,
                                env=env, stdout=out, stderr=subprocess.STDOUT)


async def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    await asyncio.to_thread(proc.wait)


async def test_bot_as_separate_process_and_restart(fake_discord, world, tmp_path):
    fd = fake_discord
    log = tmp_path / "bot.log"
    first = start_bot_process(fd, log)
    try:
        await fd.wait_ready(timeout=20)
        assert (await fd.slash(world.alice, world.channel, "ping")).content == "pong"
        board = (await fd.slash(world.alice, world.channel, "board")).message
        choices = await fd.autocomplete(world.alice, world.channel, "bid", "amount", "2")
        assert choices[0] == {"name": "200", "value": 200}
    finally:
        await stop(first)
    await fd.wait_until(lambda: not fd.gateway.connected)
    second = start_bot_process(fd, log)
    try:
        await fd.wait_ready(timeout=20)
        r = await fd.click(world.bob, board, "board:inc")
        assert r.content == f"counted by pid {second.pid}", log.read_text()
    finally:
        await stop(second)


async def test_point_discord_py_at(fake_discord):
    import discord

    point_discord_py_at(fake_discord.api_base, fake_discord.gateway_url)
    assert discord.http.Route("GET", "/x").url == fake_discord.api_base + "/x"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == fake_discord.gateway_url
