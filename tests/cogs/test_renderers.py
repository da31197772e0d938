"""The render processes: a drawing comes back as its bytes, a drawing's error as that error
(the worker goes on), and stopping ends a job still waiting for a worker while the one being
drawn is read to its end."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from cogs._renderers import Renderers


def _slept(seconds: float) -> bytes:
    time.sleep(seconds)
    return b"slept %g" % seconds


def _refuse(why: str) -> bytes:
    raise ValueError(why)


def _big(size: int) -> bytes:
    return bytes(range(256)) * (size // 256)


@pytest.mark.slow
async def test_a_drawing_and_its_error_come_back_and_the_worker_goes_on():
    pool = Renderers(1, os.getpid)
    try:
        assert await pool.run(_slept, 0) == b"slept 0"
        with pytest.raises(ValueError, match="no such card"):
            await pool.run(_refuse, "no such card")
        big = await pool.run(_big, 3 << 20)  # many times a pipe's buffer
        assert big == _big(3 << 20)
        assert len(pool.pids) == 1
    finally:
        pool.shutdown()


@pytest.mark.slow
async def test_stopping_ends_a_waiting_job_and_reads_the_one_being_drawn():
    pool = Renderers(1, os.getpid)
    try:
        await pool.run(_slept, 0)  # started and warm
        busy = asyncio.create_task(pool.run(_slept, 0.5))
        await asyncio.sleep(0.05)
        waiting = asyncio.create_task(pool.run(_slept, 0))
        await asyncio.sleep(0.05)
        pool.shutdown()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(waiting, 5)
        assert await asyncio.wait_for(busy, 5) == b"slept 0.5"
    finally:
        pool.shutdown()
