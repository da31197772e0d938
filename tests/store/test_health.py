"""Opening a database that cannot be used: a clear error and no thread left behind.

SQLite only: these are the file's own failures (PostgreSQL's are in
tests/tables/test_pg_outage.py and test_startup.py)."""

from __future__ import annotations

import os
import sqlite3
import threading

import pytest

from bot.store import DatabaseUnusable, Store, check_database_path


def live_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if not t.daemon and t.is_alive()}


async def test_a_damaged_file_is_refused_without_a_thread_left(tmp_path):
    path = tmp_path / "bad.db"
    path.write_bytes(os.urandom(65536))
    before = live_threads()
    with pytest.raises(DatabaseUnusable) as err:
        await Store.open(path)
    assert str(path) in str(err.value) and "damaged" in str(err.value)
    assert "\n" not in str(err.value)
    assert live_threads() <= before


async def test_a_failure_after_connecting_closes_the_connections(tmp_path):
    # A database the preflight accepts but the migrations must not touch (a table a later
    # migration creates is already there: its migration log was lost): the open fails
    # half-way through, after connecting.
    path = tmp_path / "odd.db"
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE looks (x); PRAGMA user_version = 1;")
    db.close()
    before = live_threads()
    with pytest.raises(DatabaseUnusable) as err:
        await Store.open(path)
    assert "migration log was lost" in str(err.value)
    assert live_threads() <= before


async def test_a_healthy_or_missing_file_passes(tmp_path):
    path = tmp_path / "t.db"
    check_database_path(path)  # missing: the store creates it
    store = await Store.open(path)
    await store.close()
    check_database_path(path)


def test_a_damaged_page_is_found_by_the_check(tmp_path):
    path = tmp_path / "t.db"
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE t (x TEXT); CREATE INDEX t_x ON t(x);")
    db.executemany("INSERT INTO t VALUES (?)", [(f"value {i:05d}",) for i in range(3000)])
    db.commit()
    page = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    with open(path, "r+b") as f:  # scribble over a page in the middle of the file
        f.seek((path.stat().st_size // page // 2) * page + 100)
        f.write(b"\xff" * 200)
    with pytest.raises(DatabaseUnusable, match="damaged"):
        check_database_path(path)
