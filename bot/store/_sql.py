"""One SQL text for both databases where they agree: SQLite's ``?`` placeholders become
PostgreSQL's ``$1..$n`` (a numbered ``?N`` keeps its number, as SQLite reads it); where they
differ, a :class:`Dialect` names the piece; :class:`Sql` is a transaction's connection as
the SQL written once for both runs on it."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

_MARK = re.compile(r"'[^']*'|\?(\d*)")


@lru_cache(maxsize=1024)
def to_pg(sql: str) -> str:
    """``sql`` with PostgreSQL placeholders (quoted literals are left alone)."""
    last = 0

    def number(m: re.Match[str]) -> str:
        nonlocal last
        if m.group(0).startswith("'"):
            return m.group(0)
        # SQLite: a bare ? is one more than the largest number given so far
        n = int(m.group(1)) if m.group(1) else last + 1
        last = max(last, n)
        return f"${n}"

    return _MARK.sub(number, sql)


@dataclass(frozen=True, slots=True)
class Dialect:
    """Where the two databases' SQL differ, each a small piece of text."""

    name: str
    greatest: str  # the larger of two values: SQLite's two-argument MAX, GREATEST
    lock: str  # ends a SELECT whose rows the transaction writes next (SQLite: one writer)
    day_of: str  # the UTC day number of a time column, ``{}``; PostgreSQL's CAST rounds

    def day(self, column: str) -> str:
        """The day number of ``column`` (as ``player_days.day``; times are positive)."""
        return self.day_of.format(column)


SQLITE = Dialect("sqlite", "MAX", "", "CAST({} / 86400 AS INTEGER)")
POSTGRESQL = Dialect("postgresql", "GREATEST", " FOR UPDATE", "FLOOR({} / 86400)::INTEGER")


class Sql(Protocol):
    """A transaction's connection as the record's writes use it: SQL with ``?``
    placeholders, whatever the database (each store adapts its own connection)."""

    dialect: Dialect

    async def value(self, sql: str, args: Sequence[Any]) -> Any:
        """The first column of the first row (None: no row)."""
        ...

    async def row(self, sql: str, args: Sequence[Any]) -> Any:
        """The first row (None: no row)."""
        ...

    async def rows(self, sql: str, args: Sequence[Any]) -> list[Any]:
        """Every row."""
        ...

    async def run(self, sql: str, args: Sequence[Any]) -> int:
        """Run a statement; how many rows it changed."""
        ...

    async def run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run a statement once per row of values."""
        ...


class SqliteSql:
    """:class:`Sql` over the SQLite write connection (each call runs at once)."""

    dialect = SQLITE

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    async def value(self, sql: str, args: Sequence[Any]) -> Any:
        row = await self.row(sql, args)
        return None if row is None else row[0]

    async def row(self, sql: str, args: Sequence[Any]) -> Any:
        # fetchall: a statement with RETURNING is finished only once its rows are read
        rows = self.db.execute(sql, args).fetchall()
        return rows[0] if rows else None

    async def rows(self, sql: str, args: Sequence[Any]) -> list[Any]:
        return self.db.execute(sql, args).fetchall()

    async def run(self, sql: str, args: Sequence[Any]) -> int:
        return self.db.execute(sql, args).rowcount

    async def run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.db.executemany(sql, rows)
