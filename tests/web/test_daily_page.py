"""/g/{server}/daily/{date}: a closed day's boards with every result side by side, par and
matchpoints; nothing of a day still being played."""

from __future__ import annotations

import datetime as dt
import json
import random

import aiohttp

from bot.ai.simple import SimplePlayer
from bot.game.scenario import run as replay
from bot.store import Store
from bot.tables import FakeClock, Playing, TableService
from bot.web import WebServer
from tests.helpers.web import ANN, BOB, GUILD

DAY = dt.date(2026, 11, 27)
NOON = dt.datetime(2026, 11, 27, 12, tzinfo=dt.UTC).timestamp()


async def _get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as r:
        return r.status, await r.text()


async def test_a_closed_day_shows_each_board_side_by_side(tmp_path) -> None:
    clock = FakeClock(NOON)
    store = await Store.open(str(tmp_path / "d.db"))
    service = TableService(store, clock=clock, seed=7, ai_delay=0.0)
    service.daily.par_level = "normal"
    await service.records.set_defaults(ANN, web=True)
    for actor, seed in ((ANN, 1), (BOB, 2)):
        got = await service.daily.play(actor.user_id, GUILD, actor.name, DAY, 0)
        rng = random.Random(seed)
        while isinstance(got, Playing):
            got = await service.daily.play(actor.user_id, GUILD, actor.name, DAY, 0,
                                           SimplePlayer().choose(got.observation, rng))
    web = WebServer(service.records, port=0, guild_info=lambda gid: ("Card Club", "en-US"))
    await web.start()
    try:
        status, _ = await _get(f"{web.url}/g/{GUILD}/daily/{DAY}")
        assert status == 404  # the day is still played: nobody sees its boards
        await clock.advance(24 * 3600)
        status, html = await _get(f"{web.url}/g/{GUILD}/daily/{DAY}")
        assert status == 200
        assert "Daily challenge · 2026-11-27" in html and "Board 1 · seat A" in html
        assert "Ann" in html and "Bob" in html and "Par" in html
        assert html.count("Nobody here played this board.") == 5
        assert str(ANN.user_id) not in html  # no Discord id on a page
        rows = await store.daily_results("2026-11-27", "2026-11-27", "russian")
        for r in rows:
            assert f"{r.result:+d}" in html
        start = html.index('<pre class="scenario">') + len('<pre class="scenario">')
        text = html[start:html.index("</pre>", start)].replace("&#34;", '"')
        assert replay(json.loads(text))["hands"][0]["complete"]  # the par's hand replays
        for who in ("par", "1", "2"):  # each result and the par in the replay viewer
            status, page = await _get(f"{web.url}/g/{GUILD}/daily/{DAY}/1/{who}")
            assert status == 200 and 'class="step"' in page and "Board 1 · seat A" in page
        status, _ = await _get(f"{web.url}/g/{GUILD}/daily/{DAY}/1/3")
        assert status == 404  # only two results on that board
        status, _ = await _get(f"{web.url}/g/{GUILD}/daily/2026-13-40")
        assert status == 404
        status, _ = await _get(f"{web.url}/g/{GUILD + 1}/daily/{DAY}")
        assert status == 404  # a server whose pages are off
    finally:
        await web.close()
        await service.close()
        await store.close()
