"""Event-loop watchdog: reports each stall of the asyncio loop with the code that caused it.

A ticker coroutine on the loop notes a heartbeat every few milliseconds.  A daemon thread
watches the heartbeats: once the loop has not ticked for ``threshold`` seconds it samples
the loop thread's stack (``sys._current_frames``), which shows what holds the loop at that
moment, and logs it.  When the loop runs again the ticker logs the stall's total duration
(measured as the ticker's lateness, so up to one tick, 20 ms, short).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
import time
from pathlib import Path
from types import FrameType

log = logging.getLogger("tysiac.watchdog")
ROOT = Path(__file__).resolve().parents[1]
PROJECT_DIRS = tuple(str(ROOT / name) + os.sep for name in ("bot", "cogs", "render"))
PROJECT_FRAMES = 3  # innermost frames of our own code shown per stall
DEFAULT_THRESHOLD_MS = 250


def _short(filename: str) -> str:
    path = Path(filename)
    with contextlib.suppress(ValueError):
        return path.relative_to(ROOT).as_posix()
    return "/".join(path.parts[-2:])  # e.g. asyncio/base_events.py, PIL/Image.py


def describe(frame: FrameType | None) -> str:
    """The top frame, then the innermost frames of bot/, cogs/ and render/ under it."""
    parts: list[str] = []
    project = 0
    top = True
    while frame is not None and (top or project < PROJECT_FRAMES):
        code = frame.f_code
        mine = code.co_filename.startswith(PROJECT_DIRS)
        if top or mine:
            parts.append(f"{code.co_qualname} ({_short(code.co_filename)}:{frame.f_lineno})")
            project += mine
        top = False
        frame = frame.f_back
    return " <- ".join(parts) or "no Python frame"


class LoopWatchdog:
    """Logs every stall of the event loop longer than ``threshold`` seconds, and its cause."""

    def __init__(self, threshold: float = DEFAULT_THRESHOLD_MS / 1000) -> None:
        self.threshold = threshold
        self.longest = 0.0  # seconds, the longest the loop was late, over threshold or not
        self.count = 0  # stalls over threshold
        self._tick = min(0.02, threshold / 10)
        self._poll = min(0.05, threshold / 5)
        self._beat = time.monotonic()  # when the ticker last ran
        self._sample: tuple[float, str] = (0.0, "")  # (beat, where the loop was) while late
        self._reported = -1.0  # the beat whose stall the thread has logged
        self._loop_thread = 0
        self._task: asyncio.Task[None] | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    def start(self) -> None:
        """Watch the running event loop (call from a coroutine on it)."""
        if self._task is not None:
            return
        loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self._beat = time.monotonic()
        self._stopping.clear()
        self._task = loop.create_task(self._ticker(), name="loop-watchdog")
        self._thread = threading.Thread(target=self._watch, name="loop-watchdog", daemon=True)
        self._thread.start()

    async def stop(self) -> None:
        """Stop watching, leaving no task or thread behind, and log the summary."""
        task, thread = self._task, self._thread
        if task is None:
            return
        self._task = self._thread = None
        self._stopping.set()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        if thread is not None:
            thread.join(1.0)  # it wakes at once on the event
        log.info("%s", self.summary())

    def summary(self) -> str:
        """One line: the longest stall and how many went over the threshold."""
        return (f"event loop: longest stall {self.longest * 1000:.0f} ms, "
                f"{self.count} stalls over {self.threshold * 1000:.0f} ms")

    async def _ticker(self) -> None:
        while True:
            beat = self._beat = time.monotonic()
            await asyncio.sleep(self._tick)
            self._ended(time.monotonic() - beat - self._tick, beat)

    def _ended(self, late: float, beat: float) -> None:
        self.longest = max(self.longest, late)
        if late < self.threshold:
            return
        self.count += 1
        if self._reported == beat:
            log.warning("event loop stall over after %.0f ms", late * 1000)
            return
        # shorter than the thread's polling: it only sampled the stack on the way
        sampled, where = self._sample
        log.warning("event loop stalled %.0f ms in %s", late * 1000,
                    where if sampled == beat else "(not sampled)")

    def _watch(self) -> None:
        while not self._stopping.wait(self._poll):
            beat = self._beat
            late = time.monotonic() - beat - self._tick
            if late < self._poll or beat == self._reported:
                continue
            frame = sys._current_frames().get(self._loop_thread)
            where = describe(frame)
            del frame  # holds the loop's locals alive
            self._sample = (beat, where)
            if late >= self.threshold:
                self._reported = beat
                log.warning("event loop blocked for %.0f ms so far, in %s", late * 1000, where)
