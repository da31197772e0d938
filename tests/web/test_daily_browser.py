"""The daily challenge's pages in headless Chromium: a closed day's boards and a result's
replay fit a phone (390 × 844) and a desktop (1280) in every language, and speak the words of
the /daily messages."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from playwright.async_api import Browser

from bot.ai.simple import SimplePlayer
from bot.i18n import t
from bot.tables import FakeClock, Playing
from tests.helpers.browser import new_page, overflow
from tests.helpers.web import ANN, BOB, CID, GUILD, Site

LANGS = ("en", "ru", "uk", "pl", "de")
# what is tapped on these pages: the header's links, each result's link to its replay, the
# scenario's disclosure and the replay's controls
TAPPED = "button, header a, table.sheet tbody a, details summary, .viewer .controls button"


async def _closed_day(site: Site) -> dt.date:
    """Ann plays the first two boards of the day, Bob and Cid the first; the day closes."""
    clock = site.service.clock
    assert isinstance(clock, FakeClock)
    daily = site.service.daily
    daily.par_level = "normal"  # the strong AIs think half a second a move
    day = daily.today()
    for actor, number, seed in ((ANN, 0, 1), (BOB, 0, 2), (CID, 0, 3), (ANN, 1, 4)):
        got = await daily.play(actor.user_id, GUILD, actor.name, day, number)
        rng = random.Random(seed)
        while isinstance(got, Playing):
            got = await daily.play(actor.user_id, GUILD, actor.name, day, number,
                                   SimplePlayer().choose(got.observation, rng))
    await clock.advance(24 * 3600)
    return day


async def test_the_daily_pages_fit_a_phone_and_a_desktop_in_every_language(
        site: Site, browser: Browser, shots: Path) -> None:
    day = await _closed_day(site)
    page_url = f"{site.url}/g/{GUILD}/daily/{day}"
    bad: list[str] = []
    for lang in LANGS:
        await site.service.records.set_defaults(ANN, language=lang)
        for width in (390, 1280):
            page, problems = await new_page(browser, width)
            await page.set_viewport_size({"width": width, "height": 844 if width < 500 else 900})
            r = await page.goto(page_url)
            assert r is not None and r.status == 200
            body = await page.locator("body").inner_text()
            # the words of the /daily messages
            for key in ("daily.standings.value", "daily.standings.vs_par", "web.daily_par"):
                assert t(key, lang) in body, (lang, key)
            assert (await page.locator("h1").inner_text()).startswith(
                t("daily.title", lang, day=day.isoformat(), preset="").rstrip(" ·"))
            rows = page.locator("section.daily-board").first.locator("table.sheet tbody tr")
            assert await rows.count() == 4  # par and three players, side by side
            await page.screenshot(path=shots / f"daily-{lang}-{width}.png", full_page=True)
            bad += [f"{lang} {width} day: {p}" for p in await overflow(page, width, TAPPED)]
            # the first result's replay, stepped to its end
            await page.locator("table.sheet tbody a.hand").nth(1).click()
            await page.wait_for_selector(".viewer.stepping")
            steps = int(await page.locator("#viewer").get_attribute("data-steps") or 0)
            assert steps > 20
            await page.keyboard.press("End")
            # the AI seats as the /daily messages name them, the player by name
            viewer = await page.locator("#viewer").inner_text()
            for ai in (2, 3):  # the player sits at seat A of board 1
                assert t("daily.ai", lang, number=ai) in viewer, (lang, viewer[:200])
            assert "Ann" in viewer or "Bob" in viewer
            await page.screenshot(path=shots / f"daily-{lang}-{width}-replay.png",
                                  full_page=True)
            bad += [f"{lang} {width} replay: {p}" for p in await overflow(page, width, TAPPED)]
            assert not problems, problems
            await page.close()
    assert not bad, "\n".join(dict.fromkeys(bad))

