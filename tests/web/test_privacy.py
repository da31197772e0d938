"""What the pages never show: a guild with its pages off, a match still in play, made-up
or malformed addresses, Discord ids; and what every answer carries (CSP, caching)."""

from __future__ import annotations

import aiohttp
import pytest

from bot.game.cards import card_pretty, cards_of
from tests.helpers.web import ANN, BOB, CID, GUILD, Site, close_site, open_site

pytestmark = pytest.mark.slow

NOT_FOUND = "There is no page at this address"


async def _get(url: str) -> tuple[int, str, dict[str, str]]:
    async with aiohttp.ClientSession() as http, http.get(url, allow_redirects=False) as r:
        return r.status, await r.text(), dict(r.headers)


def _pages(site: Site) -> list[str]:
    m = site.matches[0]
    return [f"/g/{GUILD}", f"/g/{GUILD}?metric=wins&period=7d", f"/g/{GUILD}/p/1",
            f"/g/{GUILD}/m/{m}", f"/g/{GUILD}/m/{m}/h/1", f"/g/{GUILD}/m/{m}/scenario.json"]


async def test_a_guild_with_its_pages_off_shows_nothing(tmp_path):
    site = await open_site(str(tmp_path / "off.db"), web_on=False)
    try:
        for path in _pages(site):
            status, body, headers = await _get(site.url + path)
            assert status == 404 and NOT_FOUND in body, path
            assert "Ann" not in body and headers["Cache-Control"] == "no-store"
        # on, then off again: gone again
        await site.service.records.set_defaults(ANN, web=True)
        assert all([(await _get(site.url + p))[0] == 200 for p in _pages(site)])
        await site.service.records.set_defaults(ANN, web=False)
        assert all([(await _get(site.url + p))[0] == 404 for p in _pages(site)])
    finally:
        await close_site(site)


async def test_a_match_in_play_and_made_up_ids_reveal_nothing(site: Site):
    live = site.service.get(site.live_table or 0)
    assert live.status.value == "playing" and live.hand_no >= 2
    # the live match has no record: its would-be id, and its hands, answer 404
    next_id = max(site.matches) + 1
    for path in (f"/m/{next_id}", f"/m/{next_id}/h/1", f"/m/{next_id}/scenario.json"):
        status, body, _ = await _get(f"{site.url}/g/{GUILD}{path}")
        assert status == 404 and NOT_FOUND in body, path
    # no page shows a card still held in the live hand, nor lists the live match
    held = [card_pretty(c) for seat in range(3) for c in cards_of(live.state.held[seat])]
    for path in _pages(site)[:-1]:
        status, body, _ = await _get(site.url + path)
        assert status == 200
        if path == f"/g/{GUILD}":  # the recorded matches are listed the same way
            assert f">#{site.matches[0]}<" in body and f"/m/{site.matches[0]}\"" in body
        assert f">#{next_id}<" not in body and f"/m/{next_id}\"" not in body, path
        if "/h/" not in path:  # a finished hand's replay shows its own cards, of course
            assert not [c for c in held if f">{c}<" in body], path
    # made-up and malformed addresses: a 404 page, never a traceback
    made_up = [f"/g/{GUILD + 1}", "/g/1", f"/g/{GUILD}/p/999999", f"/g/{GUILD}/p/0",
               f"/g/{GUILD}/m/999999", f"/g/{GUILD}/m/0", f"/g/{GUILD}/m/1/h/0",
               f"/g/{GUILD}/m/1/h/9999", f"/g/{GUILD}/m/-1", "/g/abc", "/g/1e9",
               f"/g/{GUILD}/m/{'9' * 40}", f"/g/{'9' * 25}", "/g/%00", "/g/1/../../etc/passwd",
               f"/g/{GUILD}?metric=drop%20table", f"/g/{GUILD}?page=0",
               f"/g/{GUILD}?page=99999", f"/g/{GUILD}?page=١", f"/g/{GUILD}?page=²",
               f"/g/{GUILD}?preset=nope", "/", "/static/style.css",
               "/s/000000000000/style.css", "/img/0123456789abcdef0123.png"]
    for path in made_up:
        status, body, headers = await _get(site.url + path)
        assert status == 404, path
        assert NOT_FOUND in body and "Traceback" not in body, path
        assert "Content-Security-Policy" in headers, path
    # Discord ids appear on no page (players are the store's ids)
    for path in _pages(site):
        _, body, headers = await _get(site.url + path)
        assert "default-src 'none'" in headers["Content-Security-Policy"]
        assert headers["Cache-Control"].startswith("public, max-age=")
        for actor in (ANN, BOB, CID):
            assert str(actor.user_id) not in body, path


async def test_pages_speak_the_guilds_language(site: Site, monkeypatch):
    from bot import i18n

    monkeypatch.setitem(i18n.CATALOGS, "eo", {"web.board": "Ranglisto",
                                              "web.replay": "Reludi"})
    status, body, _ = await _get(f"{site.url}/g/{GUILD}")
    assert status == 200 and "<h1>Leaderboard</h1>" in body and 'lang="en"' in body
    await site.service.records.set_defaults(ANN, language="eo")
    status, body, _ = await _get(f"{site.url}/g/{GUILD}?metric=wins")
    assert "<h1>Ranglisto</h1>" in body and 'lang="eo"' in body
    assert "Recent matches" in body  # a key the catalog lacks: English
    _, body, _ = await _get(f"{site.url}/g/{GUILD}/m/{site.matches[0]}")
    assert 'title="Reludi"' in body


async def test_a_taken_port_is_a_clear_error(site: Site):
    from bot.web import WebServer

    other = WebServer(site.service.records, port=site.web.port)
    try:
        await other.start()
    except OSError as exc:
        assert "address already in use" in str(exc).lower()
    else:  # pragma: no cover - the port was free after all
        await other.close()
        raise AssertionError("two servers on one port")
