"""Images of the Discord messages: view models on the event loop, PNG bytes in a worker process.

The glue between the service's tables and ``render``: the public table image is built only
from the public observation (``observe(state, None)``), a hand image only from that seat's
own observation (and is sent only in that player's ephemeral messages), the score sheet and
the match summary from the match's ``HandResult`` values.

Rendering never runs on the event loop, and by default not even in its process: drawing
is mostly Python and Pillow calls that hold the GIL, so a render *thread* takes its time
from the event loop (measured at 200 tables: the bot process never got past one core). The
renderer is a worker process (``Settings.render_in`` = thread keeps it in a thread, as the
tests do); it caches every card face once, like the thread would. A job takes one of ``workers``
slots (an asyncio semaphore, so that waiting jobs wait on the loop, not in an executor
queue) and only *then* builds its view from the table's latest state: a job that waited
while the table moved on renders the newest state, never a stale one. The view is a frozen
dataclass, so an unchanged view reuses the bytes rendered last time for that table or seat.
A renderer touches only ``render``'s caches (filled under their own locks, so that render
threads may share them).

Every image is uploaded as a new attachment that replaces the previous one of the message
(``attachments=[file]`` on edit): no pile of old images.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TypeVar

import discord

from bot.game.events import Event, HandScored
from bot.game.rules import Rules
from bot.game.state import HandResult
from bot.i18n import CATALOGS, DEFAULT, language
from bot.tables import Table
from cogs._renderers import Renderers
from render.adapter import hand_view, sheet_view, summary_view, table_view
from render.analysis import AnalysisView, render_analysis
from render.hand import render_hand
from render.labels import Labels
from render.leaderboard import render_leaderboard
from render.model import HandView, LeaderboardView, SheetView, SummaryView, TableView
from render.sheet import render_sheet
from render.summary import render_summary
from render.table import render_table

log = logging.getLogger(__name__)
V = TypeVar("V")

TABLE_FILE = "1000-table.png"
HAND_FILE = "1000-hand.png"
SHEET_FILE = "1000-sheet.png"
SUMMARY_FILE = "1000-summary.png"
TABLE_URL = f"attachment://{TABLE_FILE}"
MAX_RENDERER_STARTS = 3  # render processes that may die before drawing moves to a thread
RENDER_NICENESS = 10  # the render processes yield the CPU to the bot and its database
HAND_COLOURS = 128  # the hand image is quantized: no gradient to band, 2.5x smaller


# lang -> (its catalog, the default catalog, their labels): some 60 look-ups a build, once
# for each image a hand shows; built again when a catalog is replaced
_LABELS: dict[str, tuple[dict[str, str], dict[str, str], Labels]] = {}


def labels_for(locale: str | None) -> Labels:
    """The images' words in the catalog for ``locale`` (English where it has none)."""
    lang = language(locale)
    catalog, default = CATALOGS[lang], CATALOGS[DEFAULT]
    got = _LABELS.get(lang)
    if got is not None and got[0] is catalog and got[1] is default:
        return got[2]
    labels = Labels.from_catalog(lang, lambda key: catalog.get(key) or default[key])
    _LABELS[lang] = (catalog, default, labels)
    return labels


def preset_title(table: Table) -> str:
    """The table's rule set as its players call it, in the table's language."""
    return table.title_word().localize(language(table.locale))


def public_table_view(table: Table) -> TableView | None:
    """The table image's view: built from the public observation only (None before a deal),
    in the table's language."""
    obs = table.observation(None)
    if obs is None:
        return None
    return table_view(obs, table.names(), title=preset_title(table), talon_label=table.talon_name,
                      labels=labels_for(table.locale))


def seat_hand_view(table: Table, seat: int, locale: str | None = None) -> HandView | None:
    """The hand image's view from ``seat``'s own observation (None without cards, or
    while they lie face down for a blind bid), in its owner's ``locale``."""
    if not 0 <= seat < len(table.seats) or table.face_down(seat):
        return None
    obs = table.observation(seat)
    if obs is None or not obs.hand:
        return None
    return hand_view(obs, table.seats[seat].name, labels_for(locale))


def image_file(data: bytes, filename: str, description: str | None = None) -> discord.File:
    return discord.File(io.BytesIO(data), filename=filename, description=description)


@dataclass(frozen=True, slots=True)
class HandImage:
    """A hand's image as drawn for the latest state, and what ``also()`` returned then."""

    view: HandView | None
    data: bytes | None  # None: no cards to show
    signature: object


@dataclass(frozen=True, slots=True)
class MatchSnapshot:
    """What the match's sheet and summary are drawn from, taken when a hand is scored."""

    table_id: int
    match_no: int
    results: tuple[HandResult, ...] | None  # None: not all seen here (a restart), read the log
    names: tuple[str, ...]
    rules: Rules
    dealer: int
    title: str
    locale: str = ""  # the table's language (its public messages and images)


class Images:
    """Renders in ``workers`` worker processes or, with ``in_process``, threads; counts what
    it rendered (tests, benchmarks). ``enabled`` False: text only (e.g. without Attach
    Files)."""

    def __init__(self, workers: int = 1, *, enabled: bool = True,
                 in_process: bool = False) -> None:
        self.enabled = enabled
        self.workers = workers
        self.in_process = in_process
        self._pool: Renderers | ThreadPoolExecutor | None = None
        self._slots: asyncio.Semaphore | None = None
        self._tables: dict[int, tuple[TableView, bytes]] = {}
        self._hands: dict[tuple[int, int], tuple[HandView, bytes]] = {}
        self._results: dict[int, tuple[int, list[HandResult]]] = {}
        self._closed = False
        self.broken = 0  # render processes that died
        self.rendered = 0
        self.failed = 0

    def start(self) -> None:
        """Start the renderer now rather than at the first image.

        A render process costs an interpreter and the drawing code, at normal priority
        until it has niced itself: started at the first image, that lands in the middle of
        a busy start (400 tables opening at once: the first 2.5 s answered 232-261 clicks a
        second instead of 288-336, setup p99 257 ms instead of 137, medians)."""
        if not self.enabled or self._closed or self._pool is not None:
            return
        self._pool = self._executor()
        if isinstance(self._pool, Renderers):
            self._pool.start()

    # ---- the worker thread ---------------------------------------------------------------
    async def _render(self, build: Callable[[], tuple[V, bytes | None] | None],
                      draw: Callable[[V], bytes]) -> tuple[V, bytes] | None:
        """Wait for a slot, then build the view (latest state) and draw it in the renderer;
        ``build`` returns the view and the bytes already drawn for it, if any."""
        if self._closed:
            return None
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        async with self._slots:
            if self._closed:  # closed while this job waited: start no new renderer
                return None
            pool = self._pool
            try:
                if pool is None:
                    pool = self._pool = self._executor()
                got = build()
                if got is None:
                    return None
                view, data = got
                if data is not None:
                    return view, data
                if isinstance(pool, Renderers):
                    data = await pool.run(draw, view)
                else:
                    data = await asyncio.get_running_loop().run_in_executor(pool, draw, view)
            except Exception as exc:  # the message goes out without its image
                log.exception("rendering %s failed", getattr(draw, "__name__", draw))
                self.failed += 1
                if isinstance(exc, BrokenProcessPool) and self._pool is pool:
                    self._pool = None  # the renderer died: the next job starts a new one
                    self.broken += 1
                    if self.broken >= MAX_RENDERER_STARTS and not self.in_process:
                        log.error("the render process keeps dying: drawing in a thread")
                        self.in_process = True
                return None
            self.rendered += 1
            return view, data

    def _executor(self) -> Renderers | ThreadPoolExecutor:
        if self.in_process:
            return ThreadPoolExecutor(self.workers, thread_name_prefix="render")
        return Renderers(self.workers, _warm_up)

    def close(self) -> None:
        self._closed = True
        if isinstance(self._pool, Renderers):
            self._pool.shutdown()
        elif self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = None
        self._slots = None

    def forget(self, table_id: int) -> None:
        self._tables.pop(table_id, None)
        self._results.pop(table_id, None)
        for key in [k for k in self._hands if k[0] == table_id]:
            del self._hands[key]

    # ---- the table message -----------------------------------------------------------------
    async def table_png(self, table: Table, also: Callable[[], V]) -> tuple[bytes | None, V]:
        """The public table image of the table's latest state, and ``also()`` computed at the
        same moment (the message text, so that text and image agree)."""
        extra: list[V] = []
        if not self.enabled or table.state is None:
            return None, also()

        def build() -> tuple[TableView, bytes | None] | None:
            extra.append(also())
            view = public_table_view(table)
            if view is None:
                return None
            hit = self._tables.get(table.id)
            return view, hit[1] if hit is not None and hit[0] == view else None

        out = await self._render(build, render_table)
        if out is None:
            return None, extra[0] if extra else also()
        self._tables[table.id] = out
        return out[1], extra[0]

    # ---- hands -------------------------------------------------------------------------------
    async def hand_png(self, table: Table, seat: int,
                       also: Callable[[], object] = lambda: None,
                       locale: str | None = None) -> HandImage:
        """``seat``'s own hand image (for its ephemeral message only) of the latest state in
        its owner's ``locale``, with ``also()`` computed at the same moment (the hand's
        signature)."""
        key = (table.id, seat)
        extra: list[object] = []
        if not self.enabled:
            return HandImage(None, None, also())

        def build() -> tuple[HandView, bytes | None] | None:
            extra.append(also())
            view = seat_hand_view(table, seat, locale)
            if view is None:
                return None
            hit = self._hands.get(key)
            return view, hit[1] if hit is not None and hit[0] == view else None

        out = await self._render(build, _hand_png)
        sig = extra[0] if extra else also()
        if out is None:
            return HandImage(None, None, sig)
        self._hands[key] = out
        return HandImage(out[0], out[1], sig)

    # ---- hand results, score sheet and summary ------------------------------------------
    def note_events(self, table: Table, events: Sequence[Event]) -> MatchSnapshot | None:
        """Record the hands scored in ``events``; a snapshot of the match if any was."""
        scored = [e.result for e in events if isinstance(e, HandScored)]
        if not scored:
            return None
        match_no, results = self._results.get(table.id, (table.match_no, []))
        if match_no != table.match_no:
            results = []
        results = results + scored
        self._results[table.id] = (table.match_no, results)
        complete = [r.hand_no for r in results] == list(range(1, len(results) + 1))
        return MatchSnapshot(table.id, table.match_no, tuple(results) if complete else None,
                             tuple(table.names()), table.rules, table.dealer, preset_title(table),
                             table.locale)

    async def sheet_png(self, snap: MatchSnapshot, results: Sequence[HandResult],
                        *, final: bool) -> bytes | None:
        if not self.enabled or not results:
            return None
        lab = labels_for(snap.locale)
        title = lab.sheet_final if final else lab.sheet

        def build() -> tuple[SheetView, None]:
            return sheet_view(results, snap.names, snap.rules, title=title, labels=lab), None

        out = await self._render(build, render_sheet)
        return out[1] if out is not None else None

    async def any_sheet_png(self, names: Sequence[str], rules: Rules,
                            results: Sequence[HandResult], title: str, *,
                            first: int | None = None,
                            locale: str | None = None) -> bytes | None:
        """A score sheet of any match (``/sheet``; ``first``: the page's first hand),
        drawn in the renderer in ``locale``'s words."""
        if not self.enabled or not results:
            return None
        lab = labels_for(locale)

        def build() -> tuple[SheetView, None]:
            return sheet_view(results, names, rules, title=title, labels=lab), None

        out = await self._render(build, functools.partial(render_sheet, first=first))
        return out[1] if out is not None else None

    async def analysis_png(self, view: AnalysisView) -> bytes | None:
        """A hand's analysis picture, drawn in the renderer."""
        if not self.enabled:
            return None
        out = await self._render(lambda: (view, None), render_analysis)
        return out[1] if out is not None else None

    async def leaderboard_png(self, view: LeaderboardView) -> bytes | None:
        """A leaderboard image, drawn in the renderer."""
        if not self.enabled:
            return None
        out = await self._render(lambda: (view, None), render_leaderboard)
        return out[1] if out is not None else None

    async def any_png(self, view: V, draw: Callable[[V], bytes]) -> bytes | None:
        """Any view drawn in the renderer by ``draw`` (a function of ``render``, as the
        renderer may be another process)."""
        if not self.enabled:
            return None
        out = await self._render(lambda: (view, None), draw)
        return out[1] if out is not None else None

    async def view_pngs(self, table: TableView, hand: HandView) -> tuple[bytes | None,
                                                                          bytes | None]:
        """A table and a hand image of views built elsewhere (a daily board's), drawn in the
        renderer."""
        if not self.enabled:
            return None, None
        t_out, h_out = await asyncio.gather(self._render(lambda: (table, None), render_table),
                                            self._render(lambda: (hand, None), _hand_png))
        return (t_out[1] if t_out is not None else None,
                h_out[1] if h_out is not None else None)

    async def summary_png(self, snap: MatchSnapshot, results: Sequence[HandResult],
                          duration_minutes: int | None = None) -> bytes | None:
        if not self.enabled or not results:
            return None

        lab = labels_for(snap.locale)

        def build() -> tuple[SummaryView, None]:
            return summary_view(results, snap.names, snap.rules,
                                title=lab.say(lab.match_over, title=snap.title),
                                duration_minutes=duration_minutes, labels=lab), None

        out = await self._render(build, render_summary)
        return out[1] if out is not None else None


def _warm_up() -> None:
    """A new render process: exit with the bot (even a killed one), and load the fonts and
    draw a hand and a table once (card faces and text sprites are cached from then on)."""
    import threading

    # The bot as multiprocessing knows it, not os.getppid(): a bot that died while this
    # process was still starting (a failed start, kill -9) has already handed it to init.
    parent = multiprocessing.parent_process()
    assert parent is not None, "a render process is started by the bot's pool"
    bot_ended = parent.join  # returns once the bot's end of a pipe is closed

    def watch() -> None:  # a worker blocks on its job queue, which never sees EOF
        bot_ended()
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    # The bot shuts its renderer down; a SIGTERM to the whole service must not break the
    # pool while the bot is still closing (nor Ctrl+C in a terminal).
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Images are background work: on a busy machine the answers to clicks (the bot, the
    # database) get the CPU first; a picture arriving a little later is not an error.
    with contextlib.suppress(OSError):
        os.nice(RENDER_NICENESS)
    with contextlib.suppress(Exception):
        from render import sample_views

        _hand_png(next(iter(sample_views.hands().values())))
        render_table(next(iter(sample_views.tables().values())))


def _hand_png(view: HandView) -> bytes:
    return render_hand(view, palette=HAND_COLOURS)
