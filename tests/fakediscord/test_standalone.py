"""The standalone emulator's default world and control API."""

from __future__ import annotations

import asyncio
import contextlib

import aiohttp
import pytest

from .__main__ import Standalone
from .client_setup import point_discord_py_at
from .testbot import build_bot

pytestmark = pytest.mark.e2e


async def test_control_api_drives_a_bot():
    async with Standalone() as fd:
        fd.setup_world()
        point_discord_py_at(fd.api_base, fd.gateway_url)
        bot = build_bot()
        task = asyncio.create_task(bot.start(fd.token))
        try:
            await fd.wait_ready()
            async with aiohttp.ClientSession(fd.http_base) as http:
                body = {"user": "alice", "command": "table new", "options": {"preset": "polish"}}
                async with http.post("/_fake/slash", json=body) as resp:
                    table = (await resp.json())["message"]
                assert table["content"] == "table polish for 3"
                click = {"user": "bob", "message": table["id"], "custom_id": "table:join"}
                async with http.post("/_fake/click", json=click) as resp:
                    assert (await resp.json())["message"]["content"] == "Bob joined"
                async with http.get("/_fake/channel/general?user=bob") as resp:
                    assert [m["edits"] for m in await resp.json()] == [1]
                async with http.get("/_fake/violations") as resp:
                    assert await resp.json() == []
        finally:
            await bot.close()
            with contextlib.suppress(Exception):
                await task
