"""The replay viewer's marks: each decision's mark beside its step and the best move on
demand, computed once per hand (on its first view) and stored."""

from __future__ import annotations

import asyncio
import re

import aiohttp
import pytest

from bot.ai import pool
from tests.helpers.web import GUILD, close_site, open_site

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True, scope="module")
def _stop_the_pool():
    yield
    pool.shutdown()


async def _get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as r:
        return r.status, await r.text()


async def test_the_marks_are_computed_once_and_shown_beside_the_steps(tmp_path):
    site = await open_site(str(tmp_path / "web.db"))
    try:
        mid = site.matches[0]
        info = await site.store.match_info(mid)
        assert info is not None
        url = f"{site.url}/g/{GUILD}/m/{mid}/h/1"
        status, body = await _get(url)
        assert status == 200 and "being prepared" in body and "Best move" not in body
        for _ in range(600):
            if await site.store.hand_analysis(info.table_id, info.match_no, 1) is not None:
                break
            await asyncio.sleep(0.05)
        stored = await site.store.hand_analysis(info.table_id, info.match_no, 1)
        assert stored is not None and stored["steps"]
        status, body = await _get(url)
        assert status == 200 and "being prepared" not in body
        assert "Marks by the points a decision lost" in body
        # every decision offers its best move on demand, with the real deal's value
        decisions = len(stored["steps"])
        assert body.count('<details class="best">') == decisions
        assert "with the cards as they lay" in body
        marked = [s for s in stored["steps"].values() if s["mark"]]
        assert len(re.findall(r'<span class="mark (blunder|mistake|dubious)"', body)) == len(
            marked)
        # stored once: a second computation is not started
        rows = await site.store.fetch("SELECT created_at FROM hand_analyses")
        assert len(rows) == 1
    finally:
        await close_site(site)


async def test_a_match_in_play_is_not_analysed_for_the_pages(tmp_path):
    site = await open_site(str(tmp_path / "live.db"), live=True)
    try:
        table = site.service.get(site.live_table)
        await site.service.analyses._store(table.id, table.match_no, 1)
        assert await site.store.hand_analysis(table.id, table.match_no, 1) is None
    finally:
        await close_site(site)
