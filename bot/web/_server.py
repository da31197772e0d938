"""The web server of the bot process: read-only pages of each guild that turned them on.

aiohttp, on an event loop of its own in a thread of the bot process: rendering a page
never delays a move, and a busy table loop never delays a page (the GIL is shared in
time slices; the reads go through the store's aiosqlite connection, whose own thread
serializes them). Every handler reads through :class:`PublicRecords` (queries
parameterized there), draws nothing on its loop (card pictures are drawn once in a
thread, hands are replayed in a thread), and answers a 404 page for anything it does not
show: a guild with its pages off, an unknown or malformed id, a match still in play.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import datetime as dt
import hashlib
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from aiohttp import web
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup, escape

from bot.i18n import language, t
from bot.i18n.values import PresetTitle
from bot.logs import Repeats
from bot.tables import (
    LeaderRow,
    MatchInfo,
    Metric,
    NotShown,
    Period,
    PublicRecords,
    Records,
    presets,
    whole_number,
)
from bot.tables._public import Lru
from bot.web._guard import Connections, loop_errors
from bot.web._pictures import Pictures
from bot.web._steps import marks_of, steps_of
from bot.web._tournament import TournamentPages
from render.pictures import rating_chart_svg

log = logging.getLogger(__name__)

GuildInfo = Callable[[int], tuple[str | None, str | None]]
"""A guild's (name, preferred locale) as Discord shows them, where the bot knows them."""

CSP = ("default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
FOREVER = "public, max-age=31536000, immutable"
SHORT = "public, max-age=30"  # leaderboards and profiles change as matches end
FRESH_S = 10.0  # seconds a rendered leaderboard or player's page is served again
FINISHED = "public, max-age=300"  # a recorded match does not change (unless removed)
ANALYSING = "public, max-age=5"  # a hand whose analysis is on its way: soon with its marks
_ID = r"[1-9][0-9]{0,18}"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _static(name: str) -> bytes:
    return resources.files("bot.web").joinpath("static", name).read_bytes()


def page_url(base: str, guild_id: int, match_id: int | None = None) -> str:
    """The address of a guild's page (or of one of its matches) under ``base``."""
    url = f"{base.rstrip('/')}/g/{guild_id}"
    return url if match_id is None else f"{url}/m/{match_id}"


def inline_code(text: str) -> Markup:
    """Catalog text as HTML: escaped, its Discord `code` spans as ``<code>``."""
    parts = str(escape(text)).split("`")
    return Markup("".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts)))


def _date(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.UTC).strftime("%Y-%m-%d")


def metric_value(metric: Metric, value: float) -> str:
    """A leaderboard value as /leaderboard writes it."""
    if metric in (Metric.WIN_RATE, Metric.CONTRACTS_MADE):
        return f"{value:.0f}%"
    if metric in (Metric.RATING, Metric.POINTS_PER_HAND):
        return f"{value:.1f}"
    return f"{value:.0f}"


def reader_language(accept: str) -> str:
    """The catalog of the first language a browser asks for (``Accept-Language``) that the
    catalogs have; English where none."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept.split(",")[:16]):
        code, _, param = part.partition(";")
        q = 1.0
        if param.strip().startswith("q="):
            try:
                q = float(param.strip()[2:])
            except ValueError:
                continue
        ranked.append((-q, i, code.strip()))
    english = language(None)
    for _, _, code in sorted(ranked):
        lang = language(code) if code and code != "*" else english
        if lang != english or code.split("-")[0].lower() == english:
            return lang
    return english


@dataclass(frozen=True, slots=True)
class Asset:
    url: str
    data: bytes
    kind: str


class WebServer(TournamentPages):
    """Serve the pages on ``host:port`` (port 0: any free port; see :attr:`port`)."""

    def __init__(self, records: Records, *, host: str = "127.0.0.1", port: int = 0,
                 guild_info: GuildInfo | None = None, own_thread: bool = True,
                 max_connections: int = 256, head_timeout: float = 10.0) -> None:
        self.public = PublicRecords(records)
        self.host, self.port = host, port
        self.repeats = Repeats(log)
        self.conns = Connections(max_connections, head_timeout, self.repeats)
        self._server: asyncio.Server | None = None
        self.guild_info = guild_info or (lambda _gid: (None, None))
        self.pictures = Pictures()
        # finished matches do not change: their pages are kept as rendered (the guild and
        # the match are checked again on every request)
        self._rendered: Lru[tuple[str, str], str] = Lru(256)
        # leaderboards and players' pages change as matches end: kept a few seconds (their
        # Cache-Control allows 30), so that a crowd reading one page costs one rendering
        self._fresh: Lru[tuple[str, str], tuple[float, str]] = Lru(512)
        self.env = Environment(loader=PackageLoader("bot.web", "templates"),
                               autoescape=select_autoescape(default=True),
                               trim_blocks=True, lstrip_blocks=True)
        self.env.filters["code"] = inline_code
        self.assets: dict[str, Asset] = {}
        for name, kind in (("style.css", "text/css"), ("replay.js", "text/javascript")):
            data = _static(name)
            digest = hashlib.sha256(data).hexdigest()[:12]
            self.assets[name] = Asset(f"/s/{digest}/{name}", data, kind)
        self.app = web.Application(middlewares=[self._guard])
        g = f"/g/{{guild:{_ID}}}"
        m = f"{g}/m/{{match:{_ID}}}"
        self.app.router.add_get(g, self.board)
        self.app.router.add_get(f"{g}/p/{{player:{_ID}}}", self.player)
        d = f"{g}/daily/{{day:[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}}}"
        self.app.router.add_get(d, self.daily)
        self.app.router.add_get(f"{d}/{{board:[1-9][0-9]?}}/{{who:par|[1-9][0-9]{{0,5}}}}",
                                self.daily_hand)
        self.add_tournament_routes(self.app, g, _ID)
        self.app.router.add_get(m, self.match)
        self.app.router.add_get(f"{m}/scenario.json", self.scenario)
        self.app.router.add_get(f"{m}/h/{{hand:[1-9][0-9]{{0,3}}}}", self.hand)
        self.app.router.add_get("/img/{hash:[0-9a-f]{20}}.png", self.image)
        self.app.router.add_get("/favicon.ico", self.icon)
        self.app.router.add_get("/s/{digest:[0-9a-f]{12}}/{name:[a-z.]+}", self.asset)
        self._runner: web.AppRunner | None = None
        self._drawing: asyncio.Task[None] | None = None
        self._flushing: asyncio.Task[None] | None = None
        self.own_thread = own_thread
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    # ---- lifecycle ---------------------------------------------------------------------
    async def start(self) -> None:
        """Listen (the bot's setup calls this when WEB_PORT is set); an error to bind
        (the port taken) is raised here."""
        if not self.own_thread:
            await self._listen()
            return
        ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._thread = threading.Thread(target=self._main, args=(ready,), name="web",
                                        daemon=True)
        self._thread.start()
        await asyncio.wrap_future(ready)

    def _main(self, ready: concurrent.futures.Future[None]) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        loop.set_exception_handler(loop_errors(self.repeats))
        try:
            loop.run_until_complete(self._listen())
        except BaseException as exc:
            ready.set_exception(exc)
            loop.close()
            return
        self._loop = loop
        ready.set_result(None)
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(self._cleanup())
            loop.run_until_complete(loop.shutdown_default_executor())
            loop.close()

    async def _listen(self) -> None:
        for name in self.env.list_templates():  # compiled now, not on a first visit
            self.env.get_template(name)
        # aiohttp closes an idle keep-alive connection politely before the guard's deadline
        # (which aborts: a slow client gets no goodbye that could block too)
        runner = web.AppRunner(self.app, access_log=None, handle_signals=False,
                               keepalive_timeout=self.conns.head_timeout / 2,
                               lingering_time=min(5.0, self.conns.head_timeout))
        await runner.setup()
        server = runner.server
        assert server is not None
        self._server = await asyncio.get_running_loop().create_server(
            self.conns.factory(server), self.host, self.port, reuse_address=True)
        self._runner = runner
        self._drawing = asyncio.create_task(self.pictures.ready())  # before the first replay
        self._flushing = asyncio.create_task(self._flush_repeats())
        sockets = self._server.sockets
        if sockets:
            self.port = int(sockets[0].getsockname()[1])
        log.info("web pages on http://%s:%d", self.host, self.port)

    async def close(self) -> None:
        """Stop serving (and end the server's thread)."""
        thread, loop = self._thread, self._loop
        if thread is None:
            await self._cleanup()
            return
        if loop is not None:
            loop.call_soon_threadsafe(loop.stop)
        await asyncio.to_thread(thread.join, 10)
        self._thread = self._loop = None

    async def _flush_repeats(self) -> None:
        """Say how often a repeated error came, once a minute while it comes."""
        while True:
            await asyncio.sleep(self.repeats.every)
            self.repeats.flush()

    async def _cleanup(self) -> None:
        if self._flushing is not None:
            self._flushing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._flushing
        self.repeats.flush()
        if self._server is not None:
            self._server.close()
            for guard in list(self.conns.open):
                if guard.transport is not None:
                    guard.transport.abort()
            await self._server.wait_closed()
            self._server = None
        if self._drawing is not None:
            with contextlib.suppress(Exception):
                await self._drawing
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    # ---- every response ----------------------------------------------------------------
    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        guarded = self.conns.answering(request.protocol)
        try:
            return await self._answer(request, handler)
        finally:
            if guarded is not None:  # the answer is written; then the next head's deadline
                guarded.start_deadline()

    async def _answer(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            response = await handler(request)
        except NotShown:
            response = self._missing(request, 404)
        except web.HTTPException as exc:
            if exc.status >= 400:
                response = self._missing(request, exc.status)
            else:
                raise
        except Exception as exc:  # once with its traceback, then counted
            self.repeats(f"web pages: {type(exc).__name__} in {request.path[:80]}",
                         logging.ERROR, exc_info=exc)
            response = self._missing(request, 500)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers.setdefault("Cache-Control", "no-store")
        return response

    def _missing(self, request: web.Request, status: int) -> web.Response:
        key = "web.missing" if status in (404, 405) else "web.failed"
        # the reader's language, not the guild's: whether a guild shows pages stays unsaid
        loc = reader_language(request.headers.get("Accept-Language", ""))
        html = self.env.get_template("missing.html").render(
            tr=lambda k, **kw: t(k, loc, **kw), lang=loc, title=t(key, loc),
            style=self.assets["style.css"].url, status=status)
        return web.Response(text=html, status=status, content_type="text/html",
                            headers={"Cache-Control": "no-store"})

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
                "style": self.assets["style.css"].url, "script": "", "date": _date,
                "preset_title": _preset_titles(loc)}

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
        got = await self.public.leaderboard(ctx["gid"], metric=metric.value,
                                            preset=preset or None, period=period,
                                            page=page)
        recent = await self.public.history(ctx["gid"]) if got.page == 1 else None
        empty = (None if got.items else await self.public.why_empty(
            ctx["gid"], metric=metric.value, preset=preset or None, period=period))

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
            page=got, rows=[_row(r, metric) for r in got.items], link=link, empty=empty,
            recent=[_match_row(m) for m in recent.items] if recent else [])
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
                [f"#{pt.match_id} {_date(pt.at)}" for pt in p.trend],
                title=t("web.chart", ctx["loc"])))
        ctx.update(title=p.name, p=got.profile, chart=chart,
                   recent=[_match_row(m) for m in got.recent],
                   rate=f"{100 * p.wins / p.matches:.0f}%" if p.matches else "—",
                   best=_match_row(p.best_match) if p.best_match else None)
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


def _row(r: LeaderRow, metric: Metric) -> dict[str, Any]:
    return {"rank": r.rank, "player": r.player_id, "name": r.name,
            "value": metric_value(metric, r.value), "matches": r.matches}


def _match_row(m: MatchInfo) -> dict[str, Any]:
    return {"id": m.match_id, "date": _date(m.finished_at), "preset": m.preset,
            "seats": [(n, total, i in m.winners)
                      for i, (n, total) in enumerate(zip(m.names, m.totals, strict=False))]}


def _preset_titles(loc: str) -> Callable[[str, str], str]:
    """A preset's title in ``loc`` (its English title, else ``default``, where the catalog
    has none)."""
    english = dict(presets())

    def title(name: str, default: str) -> str:
        return PresetTitle(name, english.get(name, default)).localize(language(loc))

    return title
