"""Slow work is deferred in time: every interaction in progress gets its deferral once its
work has taken the budget, late by one look at most, and none once it is done."""

from __future__ import annotations

import asyncio

from cogs import _interaction
from cogs._interaction import Deadlines


async def test_work_past_the_budget_is_deferred_and_finished_work_is_not(monkeypatch):
    monkeypatch.setattr(_interaction, "ACK_BUDGET", 0.2)
    monkeypatch.setattr(_interaction, "SWEEP", 0.05)
    loop = asyncio.get_running_loop()
    deadlines = Deadlines.of(loop)
    assert Deadlines.of(loop) is deadlines  # one set of deadlines per loop
    fired: dict[str, float] = {}
    start = loop.time()
    slow = deadlines.add(lambda: fired.setdefault("slow", loop.time() - start))
    quick = deadlines.add(lambda: fired.setdefault("quick", loop.time() - start))
    await asyncio.sleep(0.05)
    deadlines.discard(quick)  # done before the budget: never deferred
    later = deadlines.add(lambda: fired.setdefault("later", loop.time() - start))
    await asyncio.sleep(0.45)
    assert set(fired) == {"slow", "later"}
    assert 0.2 <= fired["slow"] <= 0.2 + 0.05 + 0.04
    assert 0.25 <= fired["later"] <= 0.25 + 0.05 + 0.04
    deadlines.discard(slow)  # already fired: nothing to discard, nothing breaks
    deadlines.discard(later)
    await asyncio.sleep(0.12)
    assert deadlines._timer is None  # nothing in progress: no timer left running
