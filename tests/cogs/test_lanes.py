"""Lanes: background jobs wait their turn, fewer at once while the event loop runs late."""

from __future__ import annotations

import asyncio
import time

import pytest

from cogs._lanes import Lanes


async def _hold(lanes: Lanes, release: asyncio.Event, running: list[int]) -> None:
    async with lanes.background():
        running.append(1)
        await release.wait()
        running.pop()


async def _started(lanes: Lanes, n: int) -> tuple[asyncio.Event, list[int],
                                                  list[asyncio.Task[None]]]:
    """``n`` jobs that hold their lane until the event is set, once they had their chance."""
    release, running = asyncio.Event(), []
    jobs = [asyncio.create_task(_hold(lanes, release, running)) for _ in range(n)]
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    return release, running, jobs


async def test_at_most_the_limit_runs_and_the_rest_waits():
    lanes = Lanes(64, least=3)
    release, running, jobs = await _started(lanes, 10)
    assert len(running) == 3 and lanes.waiting == 7
    release.set()
    await asyncio.gather(*jobs)
    assert lanes.busy == 0 and lanes.waiting == 0
    lanes.close()


async def test_lanes_grow_while_jobs_wait_and_the_loop_keeps_time():
    lanes = Lanes(64, least=2, tick=0.005, target=0.05)
    done = 0

    async def job() -> None:
        nonlocal done
        async with lanes.background():
            await asyncio.sleep(0.02)  # waiting on Discord, not using the loop
        done += 1

    await asyncio.gather(*[job() for _ in range(60)])
    assert lanes.limit > 2
    assert done == 60
    lanes.close()


async def test_lanes_shrink_while_the_loop_runs_late():
    lanes = Lanes(64, least=2, tick=0.005, target=0.01)
    lanes.limit = 40.0
    release, running = asyncio.Event(), []
    jobs = [asyncio.create_task(_hold(lanes, release, running)) for _ in range(5)]
    for _ in range(20):  # a loop busy with work that does not yield
        time.sleep(0.02)  # noqa: ASYNC251 (the point: the loop is blocked)
        await asyncio.sleep(0.006)
    assert lanes.limit < 10
    release.set()
    await asyncio.gather(*jobs)
    lanes.close()


@pytest.mark.slow
async def test_a_loop_short_of_cpu_leaves_one_background_job_running():
    """By default, while the loop runs late, background work goes one job at a time, so
    that the answers to people get the CPU (the floor is one lane)."""
    lanes = Lanes(64, tick=0.005)
    lanes.limit = 8.0
    release, running = asyncio.Event(), []
    holders = [asyncio.create_task(_hold(lanes, release, running)) for _ in range(8)]
    for _ in range(150):  # every tick comes 15 ms late or more
        if lanes.limit == 1.0:
            break
        time.sleep(0.02)  # noqa: ASYNC251 (the point: the loop is busy)
        await asyncio.sleep(0)
    assert lanes.limit == 1.0
    release.set()
    await asyncio.gather(*holders)
    again, running, jobs = await _started(lanes, 3)
    assert len(running) == 1 and lanes.waiting == 2
    again.set()
    await asyncio.gather(*jobs)
    lanes.close()


async def test_lanes_do_not_grow_while_the_loop_has_no_time_to_spare():
    """A loop some ms late on every tick (short of the CPU) is not late enough to cut the
    lanes, but must not let more background work in either."""
    lanes = Lanes(64, least=2, tick=0.005, target=0.05, slack=0.002)
    release, running = asyncio.Event(), []
    jobs = [asyncio.create_task(_hold(lanes, release, running)) for _ in range(10)]
    for _ in range(40):  # each tick comes about 4 ms late
        time.sleep(0.009)  # noqa: ASYNC251 (the point: the loop is busy)
        await asyncio.sleep(0)
    assert lanes.limit == 2 and len(running) == 2
    release.set()
    await asyncio.gather(*jobs)
    lanes.close()


async def test_a_cancelled_waiter_gives_no_lane_away():
    lanes = Lanes(64, least=1)
    release, running = asyncio.Event(), []
    first = asyncio.create_task(_hold(lanes, release, running))
    await asyncio.sleep(0)
    second = asyncio.create_task(_hold(lanes, release, running))
    await asyncio.sleep(0)
    assert lanes.waiting == 1
    second.cancel()
    await asyncio.gather(second, return_exceptions=True)
    assert lanes.waiting == 0
    release.set()
    await first
    assert lanes.busy == 0
    third = asyncio.create_task(_hold(lanes, release, running))
    await third  # the lane is free again
    lanes.close()


async def test_no_limit():
    lanes = Lanes(0)
    release, running = asyncio.Event(), []
    jobs = [asyncio.create_task(_hold(lanes, release, running)) for _ in range(50)]
    await asyncio.sleep(0)
    assert len(running) == 50
    release.set()
    await asyncio.gather(*jobs)
