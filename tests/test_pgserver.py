"""The tests' own PostgreSQL server: a settled durable server has its next WAL files made."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from tests.pgserver import SETTLE_SEGMENTS, PgServer

pytestmark = pytest.mark.postgres


async def _future_segments(server: PgServer) -> int:
    """WAL files past the one being written: reused at a switch, not created then."""
    conn = await asyncpg.connect(server.url())
    try:
        current = await conn.fetchval("SELECT pg_walfile_name(pg_current_wal_lsn())")
        names = await conn.fetch("SELECT name FROM pg_ls_waldir()")
    finally:
        await conn.close()
    return sum(1 for r in names if len(r["name"]) == 24 and r["name"] > current)


async def test_a_settled_server_writes_its_next_wal_segments_into_files_it_has() -> None:
    server = await asyncio.to_thread(PgServer, durable=True)
    try:
        assert await _future_segments(server) == 0  # new: a switch would create a file
        await server.settle()
        assert await _future_segments(server) >= SETTLE_SEGMENTS - 2
    finally:
        server.close()
