"""PostgreSQL only: the server goes away in the middle of a match and comes back.

A move made while it is down is refused with a polite sentence and changes nothing; once it
is back the same move is accepted (the pool connects again by itself), and a new service
over the same database sees every move that was acknowledged."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

from bot.ai.simple import SimplePlayer
from bot.i18n import t
from bot.store import DatabaseUnusable, open_store
from bot.tables import TableError
from tests.helpers.tables import ANN, BOB, CID, make_harness, play_human_turn
from tests.pgserver import PgServer, PgUnavailable

pytestmark = pytest.mark.postgres

ACTORS = {a.user_id: a for a in (ANN, BOB, CID)}


@pytest.fixture
def own_server():
    """A server of this test's own: it is stopped and started again."""
    try:
        server = PgServer()
    except PgUnavailable as exc:
        pytest.fail(f"PostgreSQL tests cannot run: {exc}", pytrace=False)
    yield server
    server.close()


async def test_a_move_while_the_server_is_down_is_refused_then_accepted(own_server):
    url = await own_server.new_database()
    h = await make_harness(url)
    s = h.service
    try:
        tid = (await s.create(ANN, channel_id=7, guild_id=1)).table.id
        for a in (BOB, CID):
            await s.join(tid, a)
        await s.start(tid, ANN)
        rng = random.Random(4)
        for _ in range(8):
            assert await play_human_turn(s, tid, ACTORS, rng)
        table = s.get(tid)
        seat = table.to_act()
        actor = ACTORS[table.seats[seat].user_id]
        move = SimplePlayer().choose(table.observation(seat), random.Random(1))
        before = (table.seq, table.version, table.state)

        await asyncio.to_thread(own_server.stop, "fast")
        with pytest.raises(TableError) as refused:
            await s.act(tid, actor, move.verb, card=move.card, amount=move.amount,
                        target=move.target, flag=move.flag)
        assert refused.value.key == "error.not_saved"
        assert "try again" in t("error.not_saved")
        assert (table.seq, table.version, table.state) == before  # not applied

        await asyncio.to_thread(own_server.start)
        await s.act(tid, actor, move.verb, card=move.card, amount=move.amount,
                    target=move.target, flag=move.flag)
        assert table.seq > before[0]
        for _ in range(4):
            assert await play_human_turn(s, tid, ACTORS, rng)
        acknowledged = await h.store.moves(tid, table.match_no)
        assert len(acknowledged) == table.seq
        state = table.state
        h = await h.restart()  # another process over the same database
        again = h.service.get(tid)
        assert again.seq == table.seq and again.state == state
    finally:
        await h.service.close()
        await h.store.close()


async def test_an_unreachable_server_at_start_is_retried_then_refused(own_server, caplog):
    url = await own_server.new_database()
    await asyncio.to_thread(own_server.stop, "fast")
    caplog.set_level(logging.WARNING)
    with pytest.raises(DatabaseUnusable) as refused:
        await open_store(url, connect_delays=(0.01, 0.02))
    assert "check DATABASE_URL" in str(refused.value) and "\n" not in str(refused.value)
    tries = [r.getMessage() for r in caplog.records if "not reachable" in r.getMessage()]
    assert len(tries) == 2 and "trying again in 0.01 s" in tries[0]


async def test_a_server_that_comes_up_late_is_waited_for(own_server):
    url = await own_server.new_database()
    await asyncio.to_thread(own_server.stop, "fast")
    opening = asyncio.ensure_future(open_store(url, connect_delays=(0.2,) * 100))
    await asyncio.sleep(0.5)
    assert not opening.done()
    await asyncio.to_thread(own_server.start)
    store = await asyncio.wait_for(opening, 30)
    try:
        assert await store.schema_version() >= 4
    finally:
        await store.close()


async def _logged(caplog, text: str, count: int) -> None:
    """Wait (real time, a few seconds at most) until ``text`` was logged ``count`` times."""
    for _ in range(500):
        if sum(text in r.getMessage() for r in caplog.records) >= count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{text!r} was not logged {count} times")


async def test_an_ai_move_during_an_outage_is_made_once_the_server_is_back(own_server,
                                                                            caplog):
    caplog.set_level(logging.WARNING)
    h = await make_harness(await own_server.new_database(), ai_delay=5.0)
    s = h.service
    try:
        tid = (await s.create(ANN, channel_id=7, guild_id=1)).table.id
        await s.join(tid, BOB)
        await s.add_ai(tid, ANN)
        await s.start(tid, ANN)
        table, rng = s.get(tid), random.Random(2)
        while table.seats[table.to_act()].automatic is False:
            assert await play_human_turn(s, tid, ACTORS, rng)
        seq = table.seq
        await asyncio.to_thread(own_server.stop, "fast")
        await h.clock.advance(5.0)  # the AI's turn comes: its move cannot be saved
        await _logged(caplog, "not saved; trying again in 1 s", 1)
        assert table.seq == seq
        await h.clock.advance(1.0)  # still down: the next try waits longer
        await _logged(caplog, "not saved; trying again in 2 s", 1)
        await asyncio.to_thread(own_server.start)
        await h.clock.advance(2.0)
        for _ in range(500):
            if table.seq > seq:
                break
            await asyncio.sleep(0.01)
        assert table.seq > seq  # the AI moved, and the table goes on
        assert len(await h.store.moves(tid, table.match_no)) == table.seq
    finally:
        await h.service.close()
        await h.store.close()
