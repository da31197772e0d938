"""A leaderboard page with nobody on it says why and what would fill it."""

from __future__ import annotations

import random

import aiohttp

from bot.i18n import t
from bot.store import Store
from bot.tables import FakeClock, TableService, TableStatus
from bot.web import WebServer
from bot.web._format import inline_code
from tests.helpers.tables import play_human_turn
from tests.helpers.web import ANN, GUILD


async def _get(url: str) -> str:
    async with aiohttp.ClientSession() as http, http.get(url) as r:
        assert r.status == 200, url
        return await r.text()


async def _match_with_ais(service: TableService) -> None:
    """Ann and two AI players, a short match to its end (not rated in this guild)."""
    tid = (await service.create(ANN, channel_id=100, guild_id=GUILD)).table.id
    for _ in range(2):
        await service.add_ai(tid, ANN)
    for name, value in (("barrel", "none"), ("target", "100")):
        await service.set_option(tid, ANN, name, value)
    await service.start(tid, ANN)
    rng = random.Random(3)
    for _ in range(3000):
        await service.settle()
        if service.get(tid).status is TableStatus.FINISHED:
            return
        await play_human_turn(service, tid, {ANN.user_id: ANN}, rng)
    raise AssertionError("the match did not end")


async def test_an_empty_leaderboard_says_why_and_offers_wins(tmp_path):
    store = await Store.open(str(tmp_path / "web.db"))
    service = TableService(store, clock=FakeClock(), seed=7, ai_delay=0.0, ai_in_thread=False)
    await service.restore()
    await service.records.set_defaults(ANN, web=True)
    web = WebServer(service.records, port=0, guild_info=lambda gid: ("Card Club", "en-US"))
    await web.start()
    try:
        page = await _get(f"{web.url}/g/{GUILD}")
        assert inline_code(t("leaderboard.none_ended", "en")) in page
        assert "<code>/table new</code>" in page
        assert "metric=wins" not in page.split("</nav>", 1)[1]  # nothing to offer yet

        await _match_with_ais(service)
        page = await _get(f"{web.url}/g/{GUILD}?period=all")  # not the page kept 10 s
        assert "matches with AI players are not rated in this server" in page
        assert "<code>/admin ai_rated</code>" in page and "`" not in page
        by_wins = f'<a href="/g/{GUILD}?metric=wins">{t("button.by_wins", "en")}</a>'
        assert by_wins in page
        wins = await _get(f"{web.url}/g/{GUILD}?metric=wins")
        assert "Ann" in wins and "not rated" not in wins
    finally:
        await web.close()
        await service.close()
        await store.close()
