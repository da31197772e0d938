"""Hand analyses through the service: the privacy rule, one at a time per player."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.ai import pool
from bot.tables import TableError, TableStatus
from tests.helpers.tables import ANN, BOB, CID, DOT, play_human_turn

from .test_records import _short_match

ACTORS = {a.user_id: a for a in (ANN, BOB, CID)}


@pytest.fixture(autouse=True, scope="module")
def _stop_the_pool():
    yield
    pool.shutdown()


async def _play_until(h, tid: int, rng: random.Random, *, hands_done: int | None) -> None:
    for _ in range(3000):
        table = h.service.get(tid)
        if table.status is TableStatus.FINISHED:
            return
        if hands_done is not None and len(table.results) >= hands_done:
            return
        await h.service.settle()
        if h.service.get(tid).status is TableStatus.PLAYING:
            await play_human_turn(h.service, tid, ACTORS, rng)
    raise AssertionError("the match did not get there")


@pytest.mark.slow
async def test_during_a_match_only_ones_own_hands_from_ones_own_information(harness):
    s = harness.service
    tid = await _short_match(s)
    await _play_until(harness, tid, random.Random(5), hands_done=1)
    assert s.get(tid).status is TableStatus.PLAYING
    bob = s.get(tid).seat_of(BOB.user_id)
    got = await s.analyses.analyse(tid, BOB, match_no=1, hand_no=1, seat=None)
    assert got.analysis.seat == bob and got.hand_no == 1 and not got.finished
    assert got.analysis.decisions
    assert all(d.real_loss is None for d in got.analysis.decisions)  # no real-deal values
    other = (bob + 1) % 3
    with pytest.raises(TableError) as refused:
        await s.analyses.analyse(tid, BOB, match_no=1, hand_no=1, seat=other)
    assert refused.value.key == "error.analysis.not_yours"
    with pytest.raises(TableError) as stranger:  # not seated: no hand of one's own
        await s.analyses.analyse(tid, DOT, match_no=1, hand_no=1, seat=None)
    assert stranger.value.key == "error.analysis.not_yours"
    with pytest.raises(TableError) as unfinished:
        await s.analyses.analyse(tid, BOB, match_no=1, hand_no=2, seat=None)
    assert unfinished.value.key == "error.analysis.hand"
    assert unfinished.value.params == {"hands": 1}


@pytest.mark.slow
async def test_after_the_match_any_seat_with_the_real_deal(harness):
    s = harness.service
    tid = await _short_match(s)
    await _play_until(harness, tid, random.Random(5), hands_done=None)
    assert s.get(tid).status is TableStatus.FINISHED
    bob = s.get(tid).seat_of(BOB.user_id)
    other = (bob + 1) % 3
    got = await s.analyses.analyse(tid, BOB, match_no=1, hand_no=1, seat=other)
    assert got.finished and got.analysis.seat == other
    cards = [d for d in got.analysis.decisions if d.stage.value == "play"]
    assert cards and all(d.real_loss is not None for d in cards)


@pytest.mark.slow
async def test_one_analysis_per_player_at_a_time(harness):
    s = harness.service
    tid = await _short_match(s)
    await _play_until(harness, tid, random.Random(5), hands_done=1)
    first = asyncio.create_task(s.analyses.analyse(tid, BOB, match_no=1, hand_no=1, seat=None))
    await asyncio.sleep(0)  # the first has begun
    with pytest.raises(TableError) as busy:
        await s.analyses.analyse(tid, BOB, match_no=1, hand_no=1, seat=None)
    assert busy.value.key == "error.analysis.busy"
    assert (await first).hand_no == 1
