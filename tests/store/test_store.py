"""The store on both databases (a real SQLite file, a real PostgreSQL server)."""

from __future__ import annotations

import sqlite3

import asyncpg
import pytest

from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply
from bot.game.presets import preset
from bot.game.serialize import move_from_json, move_to_json
from bot.store import ChannelTaken, SeatRow, Store, migrations, open_store


async def test_migrations_set_the_schema_version(database):
    store = await open_store(database)
    try:
        assert await store.schema_version() == len(migrations()) >= 1
    finally:
        await store.close()
    again = await open_store(database)  # idempotent
    assert await again.schema_version() == len(migrations())
    await again.close()


async def test_sqlite_only_wal_and_user_version(tmp_path):
    """SQLite only: the file is in WAL mode and its user_version is the schema version."""
    store = await Store.open(tmp_path / "t.db")
    try:
        assert await store.user_version() == len(migrations())
        async with store.db.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"
    finally:
        await store.close()


async def test_one_live_table_per_channel(database):
    store = await open_store(database)
    async with store.transaction() as tx:
        tid = await tx.create_table(guild_id=1, channel_id=10, host_id=5, preset="russian",
                                    rules={}, timer=0, now=1.0)
    with pytest.raises(ChannelTaken):
        async with store.transaction() as tx:
            await tx.create_table(guild_id=1, channel_id=10, host_id=6, preset="russian",
                                  rules={}, timer=0, now=2.0)
    async with store.transaction() as tx:
        await tx.update_table(tid, status="ended")
        await tx.create_table(guild_id=1, channel_id=10, host_id=6, preset="russian",
                              rules={}, timer=0, now=2.0)
    live = await store.live_tables()
    assert [t.host_id for t in live] == [6]
    await store.close()


async def test_moves_round_trip_and_rollback(database):
    import random

    store = await open_store(database)
    rules = preset("russian")
    async with store.transaction() as tx:
        tid = await tx.create_table(guild_id=None, channel_id=1, host_id=1, preset="russian",
                                    rules=rules.to_json(), timer=60, now=0.0)
        await tx.save_seats(tid, [SeatRow(0, 1, "Ann"), SeatRow(1, None, "AI", True, "easy"),
                                  SeatRow(2, 3, "Cid", away=True, missed=2)])
        await tx.start_match(tid, 1, rules=rules.to_json(), dealer=2, seats=[], now=0.0)
    state = new_match(rules, 2)
    moves = random_deal(state, random.Random(1))
    for m in moves:
        state, _ = apply(state, m)
    async with store.transaction() as tx:
        await tx.append_moves(tid, 1, 0, [(move_to_json(m), None) for m in moves], now=1.0)
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.append_moves(tid, 1, len(moves), [({"seat": 0, "verb": "pass"}, 1)], 2.0)
            raise RuntimeError("boom")
    with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):  # seq unique
        async with store.transaction() as tx:
            await tx.append_moves(tid, 1, 0, [({"seat": 0, "verb": "pass"}, 1)], 2.0)
    await store.close()

    store = await open_store(database)
    rows = await store.moves(tid, 1)
    assert [move_from_json(r.move) for r in rows] == moves
    table = await store.table(tid)
    assert table is not None and table.rules == rules.to_json() and table.timer == 60
    assert [(s.name, s.is_ai, s.away, s.missed) for s in table.seats] == [
        ("Ann", False, False, 0), ("AI", True, False, 0), ("Cid", False, True, 2)]
    async with store.transaction() as tx:
        await tx.add_hand(tid, 1, 1, {"delta": [1, 2, 3]}, 3.0)
        await tx.finish_match(tid, 1, status="won", winners=[0], totals=[1000, 5, 0], now=4.0)
    assert (await store.hands(tid, 1))[0].result == {"delta": [1, 2, 3]}
    (match,) = await store.matches(tid)
    assert match.status == "won" and match.winners == [0] and match.totals == [1000, 5, 0]
    await store.close()


async def test_a_hand_analysis_is_stored_once_per_hand(store):
    """The replay viewer's analysis of a hand (migration 007): written, read, replaced."""
    async with store.transaction() as tx:
        tid = await tx.create_table(guild_id=1, channel_id=10, host_id=1, preset="russian",
                                    rules={}, timer=0, now=1.0)
    assert await store.hand_analysis(tid, 1, 1) is None
    async with store.transaction() as tx:
        await tx.add_hand_analysis(tid, 1, 1, {"steps": {"0": {"loss": 0}}}, 5.0)
        await tx.add_hand_analysis(tid, 1, 2, {"steps": {}}, 5.0)
    assert await store.hand_analysis(tid, 1, 1) == {"steps": {"0": {"loss": 0}}}
    async with store.transaction() as tx:
        await tx.add_hand_analysis(tid, 1, 1, {"steps": {"3": {"loss": 40}}}, 6.0)
    assert await store.hand_analysis(tid, 1, 1) == {"steps": {"3": {"loss": 40}}}
    assert await store.hand_analysis(tid, 1, 2) == {"steps": {}}
    assert await store.hand_analysis(tid, 2, 1) is None

