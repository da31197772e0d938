"""A damaged move row: reading the log never raises, and the rows can be set aside."""

from __future__ import annotations

import pytest

from bot.store import StoreAPI, open_store
from tests.databases import execute

MOVES = [({"seat": 0, "verb": "pass"}, 1), ({"seat": 1, "verb": "pass"}, 2),
         ({"seat": 2, "verb": "pass"}, 3), ({"seat": 0, "verb": "pass"}, 1)]


async def table_with_moves(database: str) -> tuple[StoreAPI, int]:
    store = await open_store(database)
    async with store.transaction() as tx:
        tid = await tx.create_table(guild_id=1, channel_id=7, host_id=1, preset="russian",
                                    rules={}, timer=0, now=1.0)
        await tx.start_match(tid, 1, rules={}, dealer=0, seats=[], now=1.0)
        await tx.append_moves(tid, 1, 0, MOVES, now=2.0)
    return store, tid


async def damage(database: str, tid: int, seq: int, text: str) -> None:
    await execute(database, "UPDATE moves SET move = ? WHERE table_id = ? AND seq = ?",
                  (text, tid, seq))


async def test_a_row_that_is_not_json_reads_as_none_with_its_text(database):
    store, tid = await table_with_moves(database)
    await damage(database, tid, 2, '{"seat": 2, "verb": "pa')
    await damage(database, tid, 3, "[1, 2]")  # JSON, but not a move object
    rows = await store.moves(tid, 1)
    assert [r.move for r in rows] == [MOVES[0][0], MOVES[1][0], None, None]
    assert rows[2].raw == '{"seat": 2, "verb": "pa' and rows[3].raw == "[1, 2]"
    assert rows[0].raw == '{"seat":0,"verb":"pass"}'
    await store.close()


async def test_set_aside_moves_keeps_the_rows_and_shortens_the_log(database):
    store, tid = await table_with_moves(database)
    await damage(database, tid, 2, "not json")
    async with store.transaction() as tx:
        count = await tx.set_aside_moves(tid, 1, 2, "move 2 is not JSON", now=9.0)
    assert count == 2
    assert [r.seq for r in await store.moves(tid, 1)] == [0, 1]
    aside = await store.set_aside(tid)
    assert [(r.match_no, r.seq, r.raw, r.user_id, r.reason, r.set_aside_at)
            for r in aside] == [(1, 2, "not json", 3, "move 2 is not JSON", 9.0),
                                (1, 3, '{"seat":0,"verb":"pass"}', 1, "move 2 is not JSON", 9.0)]
    assert aside[0].created_at == 2.0
    # the log goes on from where it was cut
    async with store.transaction() as tx:
        await tx.append_moves(tid, 1, 2, [({"seat": 2, "verb": "pass"}, 3)], now=10.0)
    assert [r.seq for r in await store.moves(tid, 1)] == [0, 1, 2]
    await store.close()


async def test_set_aside_belongs_to_the_callers_transaction(database):
    store, tid = await table_with_moves(database)
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            assert await tx.set_aside_moves(tid, 1, 0, "test", now=9.0) == 4
            raise RuntimeError("the caller changed its mind")
    assert len(await store.moves(tid, 1)) == 4
    assert await store.set_aside(tid) == []
    await store.close()


async def test_set_aside_of_another_match_or_past_the_end_moves_nothing(database):
    store, tid = await table_with_moves(database)
    async with store.transaction() as tx:
        assert await tx.set_aside_moves(tid, 2, 0, "test", now=9.0) == 0
        assert await tx.set_aside_moves(tid, 1, 4, "test", now=9.0) == 0
    assert len(await store.moves(tid, 1)) == 4
    await store.close()
