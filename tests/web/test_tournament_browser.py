"""A tournament's page in headless Chromium: nothing of a round before it ends; then its
standings and every board at every table with par, a result's replay, in five languages, on
a phone (390) and a desktop (1280)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from pathlib import Path

from playwright.async_api import Browser

from bot.i18n import t
from bot.tables import EventTable, EventView, FakeClock, RoundReport, Tournaments
from tests.tables.conftest import play_human_turn

from .conftest import ACTORS, ANN, BOB, CID, GUILD, Site
from .test_browser import _overflow, _page, browser, shots  # noqa: F401 (fixtures)

LANGS = ("en", "ru", "uk", "pl", "de")
TAPPED = "button, header a, table.sheet tbody a, .viewer .controls button"
DAN = dataclasses.replace(BOB, user_id=BOB.user_id + 10, name="Dan", can_manage=False)


class Port:
    """The Discord side: threads numbered from 5000, the rest ignored."""

    def __init__(self) -> None:
        self.threads = 5000
        self.rounds: list[RoundReport] = []

    async def entrants_changed(self, event: EventView) -> None: ...
    async def checkin_opened(self, event: EventView) -> None: ...
    async def dropped(self, event: EventView, user_ids: Sequence[int]) -> None: ...
    async def struck(self, event: EventView, user_id: int, strikes: int,
                     withdrawn: bool) -> None: ...
    async def finished(self, report: RoundReport) -> None: ...
    async def cancelled(self, event: EventView) -> None: ...

    async def open_table(self, event: EventView, table: EventTable) -> int:
        self.threads += 1
        return self.threads

    async def round_ended(self, report: RoundReport) -> None:
        self.rounds.append(report)


async def _play(site: Site, cups: Tournaments, rng: random.Random, until: int) -> None:
    actors = {**ACTORS, DAN.user_id: DAN}
    for _ in range(until):
        await cups.settle()
        moved = False
        for table in list(site.service.tables):
            seat = table.to_act()
            if table.plan is None or seat < 0 or table.seats[seat].automatic:
                continue
            here = {u: dataclasses.replace(a, channel_id=table.channel_id)
                    for u, a in actors.items()}
            moved = await play_human_turn(site.service, table.id, here, rng) or moved
        if not moved:
            return


async def test_a_tournament_page_shows_ended_rounds_only(
        site: Site, browser: Browser, shots: Path) -> None:  # noqa: F811
    clock = site.service.clock
    assert isinstance(clock, FakeClock)
    cups = Tournaments(site.store, site.service, clock=clock, par_level="easy", board_gap=0)
    port = Port()
    cups.attach(port)
    org = dataclasses.replace(ANN, channel_id=900)
    view = await cups.create(org, name="Club night", preset="russian", boards=3, rounds=2,
                             start="now", checkin_minutes=1)
    for a in (ANN, BOB, CID, DAN):
        await cups.join(view.id, a)
    await clock.advance(61)
    await cups.tick()
    url = f"{site.url}/g/{GUILD}/t/{view.id}"
    page, problems = await _page(browser, 1280)
    await _play(site, cups, random.Random(5), until=8)  # round 1 in play
    r = await page.goto(url)
    assert r is not None and r.status == 200
    assert await page.locator("table.sheet").count() == 0  # nothing before the round ends
    assert t("web.tournament_none", "en") in await page.locator("body").inner_text()
    await page.close()
    await _play(site, cups, random.Random(6), until=2000)
    assert len(port.rounds) == 2
    bad: list[str] = []
    for lang in LANGS:
        await site.service.records.set_defaults(ANN, language=lang)
        for width in (390, 1280):
            page, problems = await _page(browser, width)
            await page.set_viewport_size({"width": width, "height": 844 if width < 500 else 900})
            r = await page.goto(url)
            assert r is not None and r.status == 200
            body = await page.locator("body").inner_text()
            for key in ("web.tournament_percent", "web.tournament_explanation"):
                assert t(key, lang) in body, (lang, key)
            assert t("web.tournament_standings", lang, round=2) in body
            assert "Dan" in body and "Cid" in body
            # board 1 of the last round first: par and the two tables side by side
            rows = page.locator("section.daily-board").first.locator("table.sheet tbody tr")
            assert await rows.count() == 3
            await page.screenshot(path=shots / f"tournament-{lang}-{width}.png",
                                  full_page=True)
            bad += [f"{lang} {width}: {p}" for p in await _overflow(page, width, TAPPED)]
            await page.locator("section.daily-board table.sheet tbody a.hand").nth(1).click()
            await page.wait_for_selector(".viewer.stepping")
            steps = int(await page.locator("#viewer").get_attribute("data-steps") or 0)
            assert steps > 10
            await page.keyboard.press("End")
            bad += [f"{lang} {width} replay: {p}" for p in await _overflow(page, width,
                                                                           TAPPED)]
            assert not problems, problems
            await page.close()
    assert not bad, "\n".join(dict.fromkeys(bad))
    await cups.close()
