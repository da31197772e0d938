"""The pages in a real browser: headless Chromium (the system's) through Playwright.

Each page of a seeded guild is opened, its numbers checked against the store, a hand's
replay stepped to its end with the keyboard, and a screenshot saved (``WEB_SHOTS``: a
directory to keep them in; default the test's temp dir)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.async_api import Browser

from bot.game.scenario import run
from bot.i18n import t
from bot.store import Metric
from bot.web import metric_value
from tests.helpers.browser import new_page, overflow
from tests.helpers.web import ANN, GUILD, Site


async def test_every_page_of_a_guild_in_chromium(site: Site, browser: Browser, shots: Path):
    store = site.store
    page, problems = await new_page(browser)
    # the leaderboard: the store's order and values
    r = await page.goto(f"{site.url}/g/{GUILD}")
    assert r is not None and r.status == 200
    assert "Content-Security-Policy" in {k.title(): v for k, v in r.headers.items()} or \
        "content-security-policy" in r.headers
    rows, total = await store.leaderboard(GUILD, Metric.RATING)
    cells = await page.locator("table.board tbody tr").all_inner_texts()
    assert total == 3 and len(cells) == 3
    for row, text in zip(rows, cells, strict=True):
        assert row.name in text and metric_value(Metric.RATING, row.value) in text
    await page.screenshot(path=shots / "web-leaderboard.png", full_page=True)
    # sorted by wins through its tab
    await page.get_by_role("link", name="wins", exact=True).click()
    assert "metric=wins" in page.url
    rows, _ = await store.leaderboard(GUILD, Metric.WINS)
    values = await page.locator("table.board td.value").all_inner_texts()
    assert values == [metric_value(Metric.WINS, r.value) for r in rows]
    # the filter form: 7 days of one preset (the matches are from "now")
    await page.select_option("select[name=period]", "7d")
    await page.click("form.filters button")
    assert "period=7d" in page.url and await page.locator("table.board tbody tr").count() == 3

    # a player's page: the numbers of /stats and the rating chart
    await page.goto(f"{site.url}/g/{GUILD}")
    await page.locator("table.board tbody tr").first.get_by_role("link").click()
    name = (await page.locator("h1").inner_text()).strip()
    user = {"Ann": ANN.user_id}.get(name)
    profile = await store.profile(GUILD, user) if user else None
    if profile is None:  # the leader is Bob or Cid
        for uid in (ANN.user_id + 1, ANN.user_id + 2):
            got = await store.profile(GUILD, uid)
            if got is not None and got.name == name:
                profile = got
    assert profile is not None
    assert await page.locator("#matches").inner_text() == str(profile.matches)
    assert await page.locator("#wins").inner_text() == str(profile.wins)
    assert await page.locator("#hands").inner_text() == str(profile.hands)
    assert await page.locator("svg.chart circle").count() == len(profile.trend)
    await page.screenshot(path=shots / "web-player.png", full_page=True)

    # a match: the sheet's rows and totals are the replayed hands'
    mid = site.matches[-1]
    info = await store.match_info(mid)
    assert info is not None
    results = await site.service.match_results(info.table_id, info.match_no)
    await page.goto(f"{site.url}/g/{GUILD}/m/{mid}")
    sheet_rows = page.locator("table.sheet tbody tr")
    assert await sheet_rows.count() == len(results)
    last = await sheet_rows.last.locator("td.total").all_inner_texts()
    assert [int(x) for x in last] == list(info.totals) == list(results[-1].totals)
    await page.screenshot(path=shots / "web-match.png", full_page=True)
    # the scenario it links to replays to the same totals
    scenario_url = await page.get_by_role("link", name=t("web.scenario")).first.get_attribute(
        "href")
    r = await page.request.get(f"{site.url}{scenario_url}")
    assert r.headers["content-disposition"].startswith("attachment;")
    replayed = run(json.loads(await r.text()))
    assert replayed["ok"] and list(replayed["totals"].values()) == list(info.totals)

    # the replay of a played hand, stepped to its end with the arrow keys
    played = next(i for i, h in enumerate(results, 1) if h.end.value == "played")
    await sheet_rows.nth(played - 1).get_by_role("link", name=str(played), exact=True).click()
    await page.wait_for_selector(".viewer.stepping")
    steps = int(await page.locator("#viewer").get_attribute("data-steps") or 0)
    assert steps > 20  # the deal, the auction, the talon, 24 cards played
    assert await page.locator(".step:visible").count() == 1
    assert "deals hand" in await page.locator(".step:visible .caption").inner_text()
    await page.screenshot(path=shots / "web-replay-deal.png", full_page=True)
    for i in range(2, steps + 1):
        await page.keyboard.press("ArrowRight")
        assert await page.locator("#at").inner_text() == str(i)
        if i == steps // 2 + 4:
            await page.screenshot(path=shots / "web-replay.png", full_page=True)
    await page.keyboard.press("ArrowRight")  # past the end: stays on the last step
    assert await page.locator("#at").inner_text() == str(steps)
    visible = page.locator(".step:visible")
    assert "the contract of" in await visible.locator(".caption").inner_text()
    score = await visible.locator("table.score tbody tr").all_inner_texts()
    hand = results[played - 1]
    for seat, text in enumerate(score):
        assert f"{hand.delta[seat]:+d}" in text and str(hand.totals[seat]) in text
    await page.screenshot(path=shots / "web-replay-end.png", full_page=True)
    await page.keyboard.press("Home")
    assert await page.locator("#at").inner_text() == "1"
    # every card the viewer shows is a picture the server has (long-cached)
    srcs = set(await page.locator("img").evaluate_all("els => els.map(e => e.src)"))
    for src in srcs:
        r = await page.request.get(src)
        assert r.status == 200 and "immutable" in r.headers["cache-control"]
    assert not problems, problems

    # a phone's width: the leaderboard and the replay still read
    phone, problems = await new_page(browser, width=390)
    await phone.goto(f"{site.url}/g/{GUILD}/m/{mid}/h/{played}#step-10")
    assert await phone.locator("#at").inner_text() == "10"
    await phone.screenshot(path=shots / "web-replay-phone.png", full_page=True)
    assert not problems, problems


async def test_without_javascript_every_step_is_listed(site: Site, browser: Browser):
    context = await browser.new_context(java_script_enabled=False)
    page = await context.new_page()
    await page.goto(f"{site.url}/g/{GUILD}/m/{site.matches[0]}/h/1")
    steps = int(await page.locator("#viewer").get_attribute("data-steps") or 0)
    assert steps > 1 and await page.locator(".step:visible").count() == steps
    assert not await page.locator(".controls").is_visible()
    await context.close()


async def _page_kinds(site: Site, browser: Browser) -> list[tuple[str, str]]:
    """(name, address) of every kind of page the server serves (its other routes are the
    scenario file, pictures, the stylesheet and the script); the replay opens at a step
    of its play."""
    page = await browser.new_page()
    await page.goto(f"{site.url}/g/{GUILD}/m/{site.matches[-1]}")
    first_link = page.locator("table.sheet tbody a").first
    hand = await first_link.get_attribute("href")
    await page.goto(f"{site.url}/g/{GUILD}")
    player = await page.locator("table.board tbody a").first.get_attribute("href")
    await page.close()
    assert hand and player
    g = f"{site.url}/g/{GUILD}"
    return [("leaderboard", g), ("leaderboard-empty", f"{g}?period=7d&preset=polish"),
            ("player", f"{site.url}{player}"), ("match", f"{g}/m/{site.matches[-1]}"),
            ("replay", f"{site.url}{hand}#step-14"), ("missing", f"{g}/m/999999")]


@pytest.mark.parametrize(("width", "lang"), [(390, "en"), (1280, "en"), (390, "ru"),
                                           (390, "pl"), (390, "uk"), (390, "de")])
async def test_every_page_fits_a_phone_and_a_desktop(site: Site, browser: Browser,
                                                     shots: Path, width: int, lang: str):
    kinds = await _page_kinds(site, browser)
    if lang != "en":
        await site.service.records.set_defaults(ANN, language=lang)
        shots = shots / lang
        shots.mkdir(exist_ok=True)
    page, problems = await new_page(browser, width)
    await page.set_viewport_size({"width": width, "height": 844 if width < 500 else 900})
    bad: list[str] = []
    for name, url in kinds:
        await page.goto(url)
        if name == "missing":  # its 404 is the point
            problems[:] = [p for p in problems if "404" not in p]
        await page.screenshot(path=shots / f"{width}-{name}.png", full_page=True)
        bad += [f"{name}: {p}" for p in await overflow(page, width)]
        if name == "replay":  # the header and the title are seen, then every step fits
            assert await page.locator("#at").inner_text() == "14"
            assert await page.locator("header.top").is_visible()
            await page.screenshot(path=shots / f"{width}-replay-opened.png")
            for seen in ("header.top", "h1"):
                box = await page.locator(seen).bounding_box()
                if box is None or box["y"] < 0:
                    bad.append(f"replay: opens below its {seen}")
            steps = int(await page.locator("#viewer").get_attribute("data-steps") or 0)
            for i in range(steps - 14):
                await page.keyboard.press("ArrowRight")
                got = await overflow(page, width)
                bad += [f"replay step {15 + i}: {p}" for p in got]
            await page.screenshot(path=shots / f"{width}-replay-end.png", full_page=True)
        if name == "match":  # the hand numbers are the links to the replays
            first = (await page.locator("table.sheet tbody tr").first.inner_text()).split()
            link = await page.locator("table.sheet tbody tr a").first.inner_text()
            if link.strip() != first[0]:
                bad.append(f"match: the link of hand {first[0]} reads {link!r}")
    assert not bad, "\n".join(dict.fromkeys(bad))
    assert not problems, problems


async def test_the_pages_speak_the_words_of_the_table_messages(site: Site, browser: Browser):
    """The replay names the talon as the table's messages do for the match's preset, and no
    page shows a developer's words; a missing page answers in the browser's language."""
    context = await browser.new_context(java_script_enabled=False, locale="pl-PL")
    page = await context.new_page()
    mid = site.matches[-1]
    await page.goto(f"{site.url}/g/{GUILD}/m/{mid}")
    seen = await page.locator("body").inner_text()
    await page.goto(f"{site.url}/g/{GUILD}/m/{mid}/h/1")
    viewer = await page.locator("#viewer").inner_text()
    seen += await page.locator("body").inner_text()
    info = await site.store.match_info(mid)
    assert info is not None and info.preset == "russian"
    assert "Prikup" in viewer and "takes the prikup" in viewer  # "Prikup" on the table
    assert "talon" not in viewer.lower()
    assert f"{t('table.dealer')}" in viewer
    for developer in ("python -m", "JSON", "json"):
        assert developer not in seen
    assert await page.get_by_role("link", name=t("web.scenario")).count() == 1
    # Polish readers: the table's words in Polish, and a missing page in Polish too
    await site.service.records.set_defaults(ANN, language="pl")
    await context.close()  # its cache keeps the English page
    context = await browser.new_context(java_script_enabled=False, locale="pl-PL")
    page = await context.new_page()
    await page.goto(f"{site.url}/g/{GUILD}/m/{mid}/h/1")
    viewer = await page.locator("#viewer").inner_text()
    assert "Musik" in viewer and t("table.dealer", "pl") in viewer
    # the rule set's title in Polish, as /table new lists it
    title = t("choice.preset.russian", "pl")
    await page.goto(f"{site.url}/g/{GUILD}/m/{mid}")
    assert (await page.locator("h1").inner_text()).startswith(title)
    await page.goto(f"{site.url}/g/{GUILD}")
    assert title in await page.locator("select[name=preset]").inner_text()
    await page.goto(f"{site.url}/g/{GUILD}/m/999999")
    assert await page.locator("h1").inner_text() == t("web.missing", "pl")
    await context.close()
