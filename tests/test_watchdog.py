"""The event-loop watchdog: stalls are logged with their cause, a quiet loop is not."""

from __future__ import annotations

import asyncio
import logging
import re
import sys
import threading
import time

import pytest

from bot.watchdog import ROOT, LoopWatchdog, describe

LOGGER = "tysiac.watchdog"


async def hog_the_loop() -> None:
    time.sleep(0.4)  # noqa: ASYNC251 -- the mistake the watchdog exists for: blocking inside a coroutine


@pytest.mark.slow
async def test_blocking_call_is_reported_with_its_function(caplog):
    caplog.set_level(logging.INFO, logger=LOGGER)
    dog = LoopWatchdog(threshold=0.25)
    dog.start()
    await asyncio.sleep(0.1)
    await hog_the_loop()
    await asyncio.sleep(0.1)
    await dog.stop()
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("hog_the_loop" in w and "test_watchdog.py" in w for w in warnings), warnings
    assert dog.count == 1 and 0.35 < dog.longest < 1.0
    ended = [int(m[1]) for w in warnings if (m := re.search(r"(?:after|stalled) (\d+) ms", w))]
    assert len(ended) == 1 and ended[0] >= 350, warnings
    assert caplog.records[-1].getMessage() == (
        f"event loop: longest stall {dog.longest * 1000:.0f} ms, 1 stalls over 250 ms")


async def test_quiet_loop_logs_nothing(caplog):
    caplog.set_level(logging.WARNING, logger=LOGGER)
    dog = LoopWatchdog(threshold=0.25)
    dog.start()
    for _ in range(10):
        await asyncio.sleep(0.05)
        sum(range(10_000))  # short work between awaits is no stall
    await dog.stop()
    assert caplog.records == [] and dog.count == 0 and dog.longest < 0.25


async def test_stop_leaves_no_thread_or_task():
    before = set(threading.enumerate())
    dog = LoopWatchdog(threshold=0.1)
    dog.start()
    await asyncio.sleep(0.05)
    assert {t.name for t in set(threading.enumerate()) - before} == {"loop-watchdog"}
    await dog.stop()
    assert set(threading.enumerate()) == before
    assert asyncio.all_tasks() == {asyncio.current_task()}


def test_stack_shows_top_frame_and_our_innermost_code():
    # code "from" cogs/ calling a library that calls back: the library frame in between
    # is left out, the top frame and our own frames are shown
    source = "def handler(lib):\n    return lib()\n"
    scope: dict[str, object] = {}
    exec(compile(source, str(ROOT / "cogs" / "fake_cog.py"), "exec"), scope)

    def library() -> str:
        return inner_library()

    def inner_library() -> str:
        return describe(sys._getframe())

    where = scope["handler"](library)
    assert where.startswith("test_stack_shows_top_frame_and_our_innermost_code.<locals>."
                            "inner_library (tests/test_watchdog.py:")
    assert " <- handler (cogs/fake_cog.py:2)" in where and ".library " not in where
