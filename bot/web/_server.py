"""The web server of the bot process: read-only pages of each guild that turned them on.

aiohttp, on an event loop of its own in a thread of the bot process: rendering a page
never delays a move, and a busy table loop never delays a page (the GIL is shared in
time slices; the reads go through the store's aiosqlite connection, whose own thread
serializes them). Every handler reads through :class:`PublicRecords` (queries
parameterized there), draws nothing on its loop (card pictures are drawn once in a
thread, hands are replayed in a thread), and answers a 404 page for anything it does not
show: a guild with its pages off, an unknown or malformed id, a match still in play. The
pages themselves are ``bot.web._pages``; this module listens, guards and answers.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import logging
import threading
from collections.abc import Awaitable, Callable
from importlib import resources

from aiohttp import web
from jinja2 import Environment, PackageLoader, select_autoescape

from bot.i18n import t
from bot.logs import Repeats
from bot.tables import NotShown, PublicRecords, RecordBook
from bot.web._format import inline_code, reader_language
from bot.web._guard import Connections, loop_errors
from bot.web._pages import Asset, GuildInfo, Pages
from bot.web._pictures import Pictures

log = logging.getLogger(__name__)

CSP = ("default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
_ID = r"[1-9][0-9]{0,18}"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _static(name: str) -> bytes:
    return resources.files("bot.web").joinpath("static", name).read_bytes()


class WebServer:
    """Serve the pages on ``host:port`` (port 0: any free port; see :attr:`port`)."""

    def __init__(self, records: RecordBook, *, host: str = "127.0.0.1", port: int = 0,
                 guild_info: GuildInfo | None = None, own_thread: bool = True,
                 max_connections: int = 256, head_timeout: float = 10.0) -> None:
        self.public = PublicRecords(records)
        self.host, self.port = host, port
        self.repeats = Repeats(log)
        self.conns = Connections(max_connections, head_timeout, self.repeats)
        self._server: asyncio.Server | None = None
        self.guild_info = guild_info or (lambda _gid: (None, None))
        self.pictures = Pictures()
        self.env = Environment(loader=PackageLoader("bot.web", "templates"),
                               autoescape=select_autoescape(default=True),
                               trim_blocks=True, lstrip_blocks=True)
        self.env.filters["code"] = inline_code
        self.assets: dict[str, Asset] = {}
        for name, kind in (("style.css", "text/css"), ("replay.js", "text/javascript")):
            data = _static(name)
            digest = hashlib.sha256(data).hexdigest()[:12]
            self.assets[name] = Asset(f"/s/{digest}/{name}", data, kind)
        self.pages = pages = Pages(self.public, self.pictures, self.env, self.assets,
                                   self.guild_info)
        self.app = web.Application(middlewares=[self._guard])
        g = f"/g/{{guild:{_ID}}}"
        m = f"{g}/m/{{match:{_ID}}}"
        self.app.router.add_get(g, pages.board)
        self.app.router.add_get(f"{g}/p/{{player:{_ID}}}", pages.player)
        d = f"{g}/daily/{{day:[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}}}"
        self.app.router.add_get(d, pages.daily)
        self.app.router.add_get(f"{d}/{{board:[1-9][0-9]?}}/{{who:par|[1-9][0-9]{{0,5}}}}",
                                pages.daily_hand)
        pages.add_tournament_routes(self.app, g, _ID)
        self.app.router.add_get(m, pages.match)
        self.app.router.add_get(f"{m}/scenario.json", pages.scenario)
        self.app.router.add_get(f"{m}/h/{{hand:[1-9][0-9]{{0,3}}}}", pages.hand)
        self.app.router.add_get("/img/{hash:[0-9a-f]{20}}.png", pages.image)
        self.app.router.add_get("/favicon.ico", pages.icon)
        self.app.router.add_get("/s/{digest:[0-9a-f]{12}}/{name:[a-z.]+}", pages.asset)
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
