"""The pages: a guild's leaderboard, a player, a recorded match and its hands, a closed day
of the daily challenge and its boards, and the files they link to.

Every page reads through :class:`PublicRecords` (NotShown unless the guild's pages are on and
the thing is shown), draws nothing on its loop, and is rendered from the templates. A
finished match's pages are kept as rendered; a leaderboard or a player's page is served
again for a few seconds, so that a crowd reading one page costs one rendering.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from jinja2 import Environment
from markupsafe import Markup

from bot.i18n import language, t
from bot.tables import (
    LeaderboardQuery,
    Metric,
    NotShown,
    Period,
    PublicRecords,
    presets,
    whole_number,
)
from bot.tables._public import Lru
from bot.web._format import day_of, leader_row, match_row, preset_titles
from bot.web._pictures import Pictures
from bot.web._steps import marks_of, steps_of
from bot.web._tournament import TournamentPages
from render.pictures import rating_chart_svg

GuildInfo = Callable[[int], tuple[str | None, str | None]]
"""A guild's (name, preferred locale) as Discord shows them, where the bot knows them."""

FOREVER = "public, max-age=31536000, immutable"
SHORT = "public, max-age=30"  # leaderboards and profiles change as matches end
FRESH_S = 10.0  # seconds a rendered leaderboard or player's page is served again
FINISHED = "public, max-age=300"  # a recorded match does not change (unless removed)
ANALYSING = "public, max-age=5"  # a hand whose analysis is on its way: soon with its marks


@dataclass(frozen=True, slots=True)
class Asset:
    """A static file, served under an address that names its content."""

    url: str
    data: bytes
    kind: str


class Pages(TournamentPages):
    """The handlers of the pages; ``guild_info(id)`` gives a guild's name and preferred
    locale as Discord shows them."""

    def __init__(self, public: PublicRecords, pictures: Pictures, env: Environment,
                 assets: dict[str, Asset], guild_info: GuildInfo) -> None:
        self.public, self.pictures, self.env, self.assets = public, pictures, env, assets
        self.guild_info = guild_info
        # finished matches do not change: their pages are kept as rendered (the guild and
        # the match are checked again on every request)
        self._rendered: Lru[tuple[str, str], str] = Lru(256)
        # leaderboards and players' pages change as matches end: kept a few seconds (their
        # Cache-Control allows 30), so that a crowd reading one page costs one rendering
        self._fresh: Lru[tuple[str, str], tuple[float, str]] = Lru(512)

    # ---- helpers -------------------------------------------------------------------------
    async def _context(self, request: web.Request) -> dict[str, Any]:
        """The guild (NotShown unless its pages are on) and what every page shows."""
        gid = int(request.match_info["guild"])
        settings = await self.public.guild(gid)
        name, preferred = self.guild_info(gid)
        loc = settings.language or preferred or "en"
        return {"gid": gid, "loc": loc, "lang": language(loc),
                "tr": lambda key, **kw: t(key, loc, **kw),
                "guild_name": name or t("web.server", loc),
                "style": self.assets["style.css"].url, "script": "", "date": day_of,
                "preset_title": preset_titles(loc)}

    def _page(self, name: str, ctx: dict[str, Any], cache: str = SHORT) -> web.Response:
        return self._html(self.env.get_template(name).render(**ctx), cache)

    def _fresh_page(self, request: web.Request, loc: str) -> web.Response | None:
        got = self._fresh.get((request.path_qs, loc))
        if got is None or got[0] < time.monotonic():
            return None
        return self._html(got[1], SHORT)

    def _keep_fresh(self, request: web.Request, loc: str, response: web.Response) -> None:
        if response.text is not None:
            self._fresh.put((request.path_qs, loc), (time.monotonic() + FRESH_S,
                                                     response.text))

    @staticmethod
    def _html(html: str, cache: str) -> web.Response:
        return web.Response(text=html, content_type="text/html",
                            headers={"Cache-Control": cache})

    @staticmethod
    def _query(request: web.Request, key: str, allowed: set[str], default: str) -> str:
        value = request.query.get(key, default) or default
        if value not in allowed:
            raise NotShown(key)
        return value

    # ---- pages ---------------------------------------------------------------------------
    async def board(self, request: web.Request) -> web.Response:
        """The leaderboard (the metrics, presets and periods of /leaderboard)."""
        ctx = await self._context(request)
        kept = self._fresh_page(request, ctx["loc"])
        if kept is not None:
            return kept
        metric = Metric(self._query(request, "metric", {m.value for m in Metric},
                                    Metric.RATING.value))
        period = self._query(request, "period", {p.value for p in Period}, Period.ALL.value)
        preset = self._query(request, "preset", {"", *dict(presets())}, "")
        raw_page = request.query.get("page", "1")
        page = whole_number(raw_page, 6)
        if page is None or not 1 <= page <= 100_000:
            raise NotShown(raw_page)
        query = LeaderboardQuery(metric, preset or None, Period(period))
        got = await self.public.leaderboard(ctx["gid"], query, page)
        recent = await self.public.history(ctx["gid"]) if got.page == 1 else None
        empty = None if got.items else await self.public.why_empty(ctx["gid"], query)

        def link(**change: Any) -> str:
            q = {"metric": metric.value, "preset": preset, "period": period, "page": 1,
                 **change}
            parts = [f"{k}={v}" for k, v in q.items()
                     if v and not (k == "page" and v == 1)
                     and not (k == "metric" and v == Metric.RATING.value)
                     and not (k == "period" and v == Period.ALL.value)]
            return f"/g/{ctx['gid']}" + ("?" + "&".join(parts) if parts else "")

        ctx.update(
            title=t("web.board", ctx["loc"]), metric=metric, metrics=list(Metric),
            period=period, periods=list(Period), preset=preset, presets=presets(),
            page=got, rows=[leader_row(r, metric) for r in got.items], link=link, empty=empty,
            recent=[match_row(m) for m in recent.items] if recent else [])
        response = self._page("board.html", ctx)
        self._keep_fresh(request, ctx["loc"], response)
        return response

    async def player(self, request: web.Request) -> web.Response:
        """A player's numbers, rating chart and recent matches."""
        ctx = await self._context(request)
        kept = self._fresh_page(request, ctx["loc"])
        if kept is not None:
            return kept
        got = await self.public.player(ctx["gid"], int(request.match_info["player"]))
        p = got.profile
        chart = None
        if len(p.trend) >= 2:
            chart = Markup(rating_chart_svg(
                [pt.value for pt in p.trend],
                [f"#{pt.match_id} {day_of(pt.at)}" for pt in p.trend],
                title=t("web.chart", ctx["loc"])))
        ctx.update(title=p.name, p=got.profile, chart=chart,
                   recent=[match_row(m) for m in got.recent],
                   rate=f"{100 * p.wins / p.matches:.0f}%" if p.matches else "—",
                   best=match_row(p.best_match) if p.best_match else None)
        response = self._page("player.html", ctx)
        self._keep_fresh(request, ctx["loc"], response)
        return response

    async def daily(self, request: web.Request) -> web.Response:
        """A closed day of the daily challenge: each board's results side by side."""
        ctx = await self._context(request)
        got = await self.public.daily(ctx["gid"], request.match_info["day"])
        ctx.update(title=t("web.daily", ctx["loc"], day=got.day.isoformat()), daily=got,
                   seat_names=("A", "B", "C", "D"))
        return self._page("daily.html", ctx, FINISHED)

    async def daily_hand(self, request: web.Request) -> web.Response:
        """The replay viewer of one result (or the par) of a closed day's board."""
        ctx = await self._context(request)
        day, number = request.match_info["day"], int(request.match_info["board"])
        got = await self.public.daily_hand(ctx["gid"], day, number, request.match_info["who"],
                                           ctx["loc"])
        await self.pictures.ready()
        steps = steps_of(got, self.pictures.url, ctx["loc"])
        ctx.update(title=t("web.daily", ctx["loc"], day=day), day=day, number=number,
                   seat="ABCD"[(number - 1) % got.rules.seats], steps=steps,
                   script=self.assets["replay.js"].url)
        return self._page("daily_hand.html", ctx, FINISHED)

    async def match(self, request: web.Request) -> web.Response:
        """A recorded match's score sheet and its hands."""
        ctx = await self._context(request)
        got = await self.public.match(ctx["gid"], int(request.match_info["match"]))
        key = (request.path, ctx["loc"])
        done = self._rendered.get(key)
        if done is not None:
            return self._html(done, FINISHED)
        sheet, info = got.sheet, got.info
        rows = []
        for i, r in enumerate(sheet.results, 1):
            no = r.hand_no or i
            rows.append({
                "no": no, "link": no <= got.hands,
                "declarer": sheet.names[r.declarer] if 0 <= r.declarer < len(sheet.names)
                else "", "contract": r.contract or "", "made": r.made,
                "cells": list(zip(r.delta, r.totals, strict=False)), "end": r.end.value})
        ctx.update(title=t("web.match", ctx["loc"], id=info.match_id), info=info,
                   sheet=sheet, rows=rows, hands=got.hands,
                   seats=list(zip(sheet.names, got.player_ids, info.totals, strict=False)))
        html = self.env.get_template("match.html").render(**ctx)
        self._rendered.put(key, html)
        return self._html(html, FINISHED)

    async def hand(self, request: web.Request) -> web.Response:
        """The replay viewer of one hand."""
        ctx = await self._context(request)
        mid, no = int(request.match_info["match"]), int(request.match_info["hand"])
        got = await self.public.hand(ctx["gid"], mid, no)
        key = (request.path, ctx["loc"])
        done = self._rendered.get(key)
        if done is not None:
            return self._html(done, FINISHED)
        marks = await self.public.hand_marks(ctx["gid"], mid, no)
        await self.pictures.ready()
        steps = steps_of(got, self.pictures.url, ctx["loc"])
        ctx.update(title=t("web.hand", ctx["loc"], no=no, id=mid), info=got.info,
                   hand=got.replay, steps=steps, mid=mid, no=no,
                   marks=marks_of(got, marks, ctx["loc"]), analysed=marks is not None,
                   script=self.assets["replay.js"].url)
        html = self.env.get_template("hand.html").render(**ctx)
        if marks is None:  # the analysis is on its way: the next view shows it
            return self._html(html, ANALYSING)
        self._rendered.put(key, html)
        return self._html(html, FINISHED)

    async def scenario(self, request: web.Request) -> web.Response:
        """The match as the scenario JSON that ``python -m bot replay`` reproduces."""
        gid, mid = int(request.match_info["guild"]), int(request.match_info["match"])
        got = await self.public.scenario(gid, mid)
        return web.Response(text=got.scenario, content_type="application/json", headers={
            "Cache-Control": FINISHED,
            "Content-Disposition": f'attachment; filename="{got.name}.json"'})

    async def image(self, request: web.Request) -> web.Response:
        data = self.pictures.by_hash.get(request.match_info["hash"])
        if data is None:
            raise NotShown("image")
        return web.Response(body=data, content_type="image/png",
                            headers={"Cache-Control": FOREVER})

    async def icon(self, request: web.Request) -> web.Response:
        """The browser's tab icon: the card back."""
        await self.pictures.ready()
        data = self.pictures.by_hash[self.pictures.url(None).split("/")[-1][:-4]]
        return web.Response(body=data, content_type="image/png",
                            headers={"Cache-Control": "public, max-age=86400"})

    async def asset(self, request: web.Request) -> web.Response:
        got = self.assets.get(request.match_info["name"])
        if got is None or not got.url.startswith(f"/s/{request.match_info['digest']}/"):
            raise NotShown("asset")
        return web.Response(body=got.data, content_type=got.kind,
                            headers={"Cache-Control": FOREVER})
