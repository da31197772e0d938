"""The store benchmark at a small size, on a SQLite file and on PostgreSQL."""

from __future__ import annotations

import json

import pytest

from bot.store import Metric, Store
from bot.store.bench import run


@pytest.mark.slow
async def test_bench_store_small(tmp_path, capsys):
    path = tmp_path / "bench.db"
    result = await run(path, hands=600, matches=40, players=30, guilds=3, appends=20,
                       rounds=2)
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert json.loads(last) == result
    assert set(result) == {"hands", "append_p50_ms", "append_p95_ms", "leaderboard_p50_ms",
                           "leaderboard_p95_ms", "db_mb"}
    assert result["hands"] == 600
    store = await Store.open(path)
    try:
        async with store.db.execute("SELECT COUNT(*), SUM(hands) FROM match_records") as cur:
            assert tuple(await cur.fetchone()) == (40, 600)
        async with store.db.execute("SELECT COUNT(*) FROM hands") as cur:
            assert (await cur.fetchone())[0] == 600
        board, total = await store.leaderboard(None, Metric.MATCHES, limit=100)
        assert total > 0 and sum(r.value for r in board) > 0
    finally:
        await store.close()


async def test_bench_store_small_on_postgresql(pg_server, capsys):
    url = await pg_server.new_database()
    result = await run(url, hands=300, matches=20, players=20, guilds=2, appends=10,
                       rounds=2)
    assert result["hands"] == 300 and result["db_mb"] > 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1]) == result
