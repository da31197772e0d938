"""What the database holds when the machine misbehaves: the SQLite file alone a moment after
a commit, no -wal after a close, a full or read-only disk refused politely (nothing written),
and a PostgreSQL server that would acknowledge commits before they are on disk refused.

SQLite's own features (the file, its WAL, its page limit) are tested on a file directly."""

from __future__ import annotations

import asyncio
import logging
import shutil
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.store import CHECKPOINT_AFTER, DatabaseUnusable, Store, StoreUnavailable, open_store


async def new_table(store: Store) -> int:
    async with store.transaction() as tx:
        return await tx.create_table(guild_id=1, channel_id=10, host_id=5, preset="russian",
                                     rules={}, timer=0, now=1.0)


async def add_move(store: Store, table_id: int, seq: int) -> None:
    async with store.transaction() as tx:
        await tx.append_moves(table_id, 1, seq, [({"verb": "pass", "seat": seq % 3}, 7)], 2.0)


def wal_size(path: Path) -> int | None:
    wal = Path(f"{path}-wal")
    return wal.stat().st_size if wal.exists() else None


def moves_in_file_alone(path: Path, tmp: Path) -> int:
    """The moves a plain copy of the database file holds (no -wal copied beside it)."""
    copy = tmp / "copy.db"
    for leftover in (copy, Path(f"{copy}-wal"), Path(f"{copy}-shm")):
        leftover.unlink(missing_ok=True)
    shutil.copyfile(path, copy)
    db = sqlite3.connect(copy)
    try:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
        return db.execute("SELECT count(*) FROM moves").fetchone()[0] if "moves" in names else 0
    finally:
        db.close()


@pytest.mark.slow
async def test_the_file_alone_holds_the_moves_a_moment_after_they_were_made(tmp_path):
    """A copy of tysiac.db without its -wal (a backup by hand) is at most a couple of
    seconds behind, however few moves were made since the bot started."""
    path = tmp_path / "tysiac.db"
    store = await Store.open(path)
    try:
        table = await new_table(store)
        for seq in range(12):
            await add_move(store, table, seq)
        assert wal_size(path) > 0  # committed, in the WAL so far
        for _ in range(int(CHECKPOINT_AFTER * 10) + 30):
            if moves_in_file_alone(path, tmp_path) == 12:
                break
            await asyncio.sleep(0.1)
        assert moves_in_file_alone(path, tmp_path) == 12
        await add_move(store, table, 12)  # and again after the next commit
        await asyncio.sleep(CHECKPOINT_AFTER + 0.5)
        assert moves_in_file_alone(path, tmp_path) == 13
    finally:
        await store.close()


async def test_a_closed_store_leaves_one_file_without_a_wal(tmp_path):
    path = tmp_path / "tysiac.db"
    store = await Store.open(path, checkpoint_after=3600)
    table = await new_table(store)
    for seq in range(5):
        await add_move(store, table, seq)
    await store.close()
    assert wal_size(path) is None
    assert moves_in_file_alone(path, tmp_path) == 5


async def test_a_full_disk_refuses_the_write_and_loses_nothing(tmp_path, caplog):
    """SQLite's page limit (``max_page_count``) fails as a full disk does (SQLITE_FULL):
    the transaction is refused as "not saved" (nothing of it written, a warning naming the
    cause), and the next one after the disk has room again commits."""
    path = tmp_path / "tysiac.db"
    store = await Store.open(path)
    try:
        table = await new_table(store)
        writer = store._writer
        assert writer is not None
        pages = writer.execute("PRAGMA page_count").fetchone()[0]
        writer.execute(f"PRAGMA max_page_count = {pages}")
        refused = None
        for seq in range(2000):
            try:
                await add_move(store, table, seq)
            except StoreUnavailable as exc:
                refused = seq, exc
                break
        assert refused is not None, "the page limit never refused a write"
        seq, exc = refused
        assert "is full" in str(exc) and str(path) in str(exc)
        assert len(await store.moves(table, 1)) == seq  # the refused move is not there
        writer.execute("PRAGMA max_page_count = 1073741823")  # space freed
        await add_move(store, table, seq)
        assert len(await store.moves(table, 1)) == seq + 1
    finally:
        await store.close()


async def test_a_read_only_database_refuses_the_write(tmp_path):
    path = tmp_path / "tysiac.db"
    store = await Store.open(path)
    try:
        table = await new_table(store)
        writer = store._writer
        assert writer is not None
        writer.execute("PRAGMA query_only = ON")  # SQLite refuses as for a read-only file
        with pytest.raises(StoreUnavailable, match="is read-only"):
            await add_move(store, table, 0)
        writer.execute("PRAGMA query_only = OFF")
        await add_move(store, table, 0)
        assert len(await store.moves(table, 1)) == 1
    finally:
        await store.close()


async def test_postgresql_without_synchronous_commit_is_refused(pg_server, caplog):
    """A server that answers COMMIT before the commit is on disk may lose acknowledged
    moves when it stops abruptly: refused in one line, unless ALLOW_ASYNC_COMMIT says the
    risk is accepted (then a warning)."""
    url = await pg_server.new_database()
    database = url.rsplit("/", 1)[1]
    conn = await asyncpg.connect(pg_server.url())
    try:
        await conn.execute(f'ALTER DATABASE "{database}" SET synchronous_commit = off')
    finally:
        await conn.close()
    with pytest.raises(DatabaseUnusable) as refused:
        await open_store(url)
    line = str(refused.value)
    assert "\n" not in line
    assert "synchronous_commit=off" in line and "ALLOW_ASYNC_COMMIT=1" in line
    with caplog.at_level(logging.WARNING, logger="bot.store._pg"):
        store = await open_store(url, allow_async_commit=True)
        await store.close()
    assert any("synchronous_commit=off" in r.getMessage() and r.levelno == logging.WARNING
               for r in caplog.records)


async def test_postgresql_with_synchronous_commit_opens(pg_server):
    store = await open_store(await pg_server.new_database())
    await store.close()
