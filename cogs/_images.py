"""Images of the Discord messages: view models on the event loop, PNG bytes in a worker process.

The glue between the service's tables and ``render``: the public table image is built only
from the public observation (``observe(state, None)``), a hand image only from that seat's
own observation (and is sent only in that player's ephemeral messages), the score sheet and
the match summary from the match's ``HandResult`` values.

Rendering never runs on the event loop, and by default not even in its process: drawing
is mostly Python and Pillow calls that hold the GIL, so a render *thread* takes its time
from the event loop (measured at 200 tables: the bot process never got past one core). The
renderer is a worker process (``TYSIAC_RENDER_IN=thread`` keeps it in a thread, as the tests
do); it caches every card face once, like the thread would. A job takes one of ``workers``
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
import io
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.game.dealing import new_match
from bot.game.engine import apply_into
from bot.game.events import Event, HandScored
from bot.game.observation import observe
from bot.game.presets import PRESETS
from bot.game.rules import Rules
from bot.game.serialize import move_from_json
from bot.game.state import HandResult
from bot.tables import Table
from render.adapter import hand_view, sheet_view, summary_view, table_view
from render.hand import render_hand
from render.model import HandView, SheetView, SummaryView, TableView
from render.sheet import render_sheet
from render.summary import render_summary
from render.table import render_table

if TYPE_CHECKING:
    from bot.store import Store

log = logging.getLogger(__name__)
V = TypeVar("V")

TABLE_FILE = "1000-table.png"
HAND_FILE = "1000-hand.png"
SHEET_FILE = "1000-sheet.png"
SUMMARY_FILE = "1000-summary.png"
TABLE_URL = f"attachment://{TABLE_FILE}"
MAX_RENDERER_STARTS = 3  # render processes that may die before drawing moves to a thread
HAND_COLOURS = 128  # the hand image is quantized: no gradient to band, 2.5x smaller


def talon_label(preset: str) -> str:
    """What players of the preset call the talon (drawn next to the face-down cards)."""
    for stem, label in (("russian", "prikup"), ("polish", "musik"), ("elwood", "kitty")):
        if preset.startswith(stem):
            return label
    return "talon"


def preset_title(table: Table) -> str:
    p = PRESETS.get(table.preset)
    return p.title if p is not None else table.preset


def public_table_view(table: Table) -> TableView | None:
    """The table image's view: built from the public observation only (None before a deal)."""
    if table.state is None:
        return None
    obs = observe(table.state, None)
    return table_view(obs, table.names(), title=preset_title(table),
                      talon_label=talon_label(table.preset))


def seat_hand_view(table: Table, seat: int) -> HandView | None:
    """The hand image's view from ``seat``'s own observation (None without cards, or
    while they lie face down for a blind bid)."""
    if table.state is None or not 0 <= seat < len(table.seats) or table.face_down(seat):
        return None
    obs = observe(table.state, seat)
    if not obs.hand:
        return None
    return hand_view(obs, table.seats[seat].name)


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


class Images:
    """Renders in ``workers`` worker processes (default 1, ``TYSIAC_RENDER_WORKERS``) or,
    with ``in_process`` (``TYSIAC_RENDER_IN=thread``), threads; counts what it rendered
    (tests, benchmarks)."""

    def __init__(self, workers: int | None = None, *, enabled: bool | None = None,
                 in_process: bool | None = None) -> None:
        env = os.environ
        if enabled is None:  # TYSIAC_IMAGES=0: text only (e.g. without Attach Files)
            enabled = env.get("TYSIAC_IMAGES", "1").strip() not in ("0", "off", "no")
        if workers is None:
            workers = max(1, int(env.get("TYSIAC_RENDER_WORKERS", "1") or 1))
        if in_process is None:
            in_process = env.get("TYSIAC_RENDER_IN", "process").strip() == "thread"
        self.enabled = enabled
        self.workers = workers
        self.in_process = in_process
        self._pool: Executor | None = None
        self._slots: asyncio.Semaphore | None = None
        self._tables: dict[int, tuple[TableView, bytes]] = {}
        self._hands: dict[tuple[int, int], tuple[HandView, bytes]] = {}
        self._results: dict[int, tuple[int, list[HandResult]]] = {}
        self._closed = False
        self.broken = 0  # render processes that died
        self.rendered = 0
        self.render_seconds = 0.0
        self.reused = 0
        self.failed = 0

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
            pool = self._pool
            try:
                if pool is None:
                    pool = self._pool = self._executor()
                got = build()
                if got is None:
                    return None
                view, data = got
                if data is not None:
                    self.reused += 1
                    return view, data
                loop = asyncio.get_running_loop()
                t0 = time.perf_counter()
                data = await loop.run_in_executor(pool, draw, view)
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
            self.render_seconds += time.perf_counter() - t0
            self.rendered += 1
            return view, data

    def _executor(self) -> Executor:
        if self.in_process:
            return ThreadPoolExecutor(self.workers, thread_name_prefix="render")
        # "spawn": a fresh interpreter, not a fork of a process with an event loop and threads
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_warm_up)

    def close(self) -> None:
        self._closed = True
        if self._pool is not None:
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
                       also: Callable[[], object] = lambda: None) -> HandImage:
        """``seat``'s own hand image (for its ephemeral message only) of the latest state,
        with ``also()`` computed at the same moment (the hand's signature)."""
        key = (table.id, seat)
        extra: list[object] = []
        if not self.enabled:
            return HandImage(None, None, also())

        def build() -> tuple[HandView, bytes | None] | None:
            extra.append(also())
            view = seat_hand_view(table, seat)
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
                             tuple(table.names()), table.rules, table.dealer,
                             preset_title(table))

    async def match_results(self, snap: MatchSnapshot, store: Store | None) -> list[HandResult]:
        """The match's results: as seen, or replayed from the log (after a restart)."""
        if snap.results is not None:
            return list(snap.results)
        if store is None:
            return []
        rows = await store.moves(snap.table_id, snap.match_no)
        moves = [r.move for r in rows if r.move is not None]
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            None, _replay_results, snap.rules, snap.dealer, moves)

    async def sheet_png(self, snap: MatchSnapshot, results: Sequence[HandResult],
                        *, final: bool) -> bytes | None:
        if not self.enabled or not results:
            return None
        title = "Final score sheet" if final else "Score sheet"

        def build() -> tuple[SheetView, None]:
            return sheet_view(results, snap.names, snap.rules, title=title), None

        out = await self._render(build, render_sheet)
        return out[1] if out is not None else None

    async def summary_png(self, snap: MatchSnapshot, results: Sequence[HandResult],
                          duration_minutes: int | None = None) -> bytes | None:
        if not self.enabled or not results:
            return None

        def build() -> tuple[SummaryView, None]:
            return summary_view(results, snap.names, snap.rules,
                                title=f"{snap.title} · match over",
                                duration_minutes=duration_minutes), None

        out = await self._render(build, render_summary)
        return out[1] if out is not None else None


def _warm_up() -> None:
    """A new render process: exit with the bot (even a killed one), and load the fonts and
    draw a hand and a table once (card faces and text sprites are cached from then on)."""
    import threading

    parent = os.getppid()

    def watch() -> None:  # a worker blocks on its job queue, which never sees EOF
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    # The bot shuts its renderer down; a SIGTERM to the whole service must not break the
    # pool while the bot is still closing (nor Ctrl+C in a terminal).
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(Exception):
        from render import samples

        _hand_png(next(iter(samples.hands().values())))
        render_table(next(iter(samples.tables().values())))


def _hand_png(view: HandView) -> bytes:
    return render_hand(view, palette=HAND_COLOURS)


def _replay_results(rules: Rules, dealer: int, moves: list[dict[str, Any]]) -> list[HandResult]:
    """Every hand result of a match, replayed from its stored moves (pure; any thread)."""
    state = new_match(rules, dealer)
    events: list[Event] = []
    for m in moves:
        state = apply_into(state, move_from_json(m), events, inplace=True)
    return [e.result for e in events if isinstance(e, HandScored)]
