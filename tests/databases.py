"""Helpers for tests that run on both databases (a SQLite path or a postgresql:// URL)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import asyncpg

from bot.store import StoreAPI
from bot.store._sql import to_pg


async def execute(database: str, sql: str, args: Sequence[Any] = ()) -> None:
    """Change a database behind the store's back (``?`` placeholders), as damage would."""
    if "://" in database:
        conn = await asyncpg.connect(database)
        try:
            await conn.execute(to_pg(sql), *args)
        finally:
            await conn.close()
        return
    db = sqlite3.connect(database)
    with db:
        db.execute(sql, args)
    db.close()


async def rows(store: StoreAPI, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Rows as plain tuples (both drivers' rows compare equal then)."""
    return [tuple(r) for r in await store.fetch(sql, args)]
