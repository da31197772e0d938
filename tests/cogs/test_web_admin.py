"""/admin web on|off through the emulator: the pages appear, the listings link to them,
and off hides every address again."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from tests.helpers.cogs import short_match

BASE = "https://cards.example.org"


@pytest.fixture
def bot_options() -> dict[str, Any]:
    return {"edit_limit": 45, "web_port": 0, "web_base_url": BASE}


async def _status(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as r:
        return r.status, await r.text()


async def test_admin_turns_the_pages_on_and_off(world):
    w = world
    fd, alice, bob = w.fd, w.users[0], w.users[1]
    await short_match(w, humans=2)
    web = w.bot.web
    assert web is not None
    page = f"{web.url}/g/{w.guild.id}"
    assert (await _status(page))[0] == 404  # off until an admin turns it on
    r = await fd.slash(alice, w.channel, "leaderboard")
    assert BASE not in str(r.message.embeds[0])
    # only Manage Server may turn it on, even where the server shows /admin to everyone
    fd.open_command(w.guild, "admin")
    r = await fd.slash(bob, w.channel, "admin web", state="on")
    assert r.ephemeral and "Only someone with Manage Server" in r.content
    assert (await _status(page))[0] == 404
    fd.set_permissions(w.guild, alice, ["manage_guild", "manage_channels"])
    r = await fd.slash(alice, w.channel, "admin web", state="on")
    assert r.ephemeral and f"{BASE}/g/{w.guild.id}" in r.content
    r = await fd.slash(alice, w.channel, "admin show")
    assert f"{BASE}/g/{w.guild.id}" in r.content
    status, html = await _status(page)
    assert status == 200 and "Alice" in html and w.guild.name in html
    assert str(alice.id) not in html  # names, never Discord ids
    # /leaderboard and /sheet link to the pages now
    r = await fd.slash(alice, w.channel, "leaderboard")
    assert r.message.embeds[0]["url"] == f"{BASE}/g/{w.guild.id}"
    r = await fd.slash(alice, w.channel, "sheet", match=1)
    assert r.message.embeds[0]["url"] == f"{BASE}/g/{w.guild.id}/m/1"
    assert (await _status(f"{web.url}/g/{w.guild.id}/m/1"))[0] == 200
    # off: every address of the guild answers 404 again
    r = await fd.slash(alice, w.channel, "admin web", state="off")
    assert "off" in r.content
    for path in ("", "/m/1", "/m/1/h/1", "/m/1/scenario.json", "/p/1"):
        assert (await _status(page + path))[0] == 404, path
    r = await fd.slash(alice, w.channel, "sheet", match=1)
    assert "url" not in r.message.embeds[0] or BASE not in r.message.embeds[0]["url"]
