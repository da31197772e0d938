"""The Store: SQLite in WAL mode, numbered migrations, small repositories.

Writes run synchronously on the event loop's thread through their own ``sqlite3``
connection: a small transaction in WAL mode with ``synchronous=NORMAL`` costs tens of
microseconds (its commit is a ``write()`` into the WAL, which the OS keeps if the process
is killed), far less than the thread hops of an async driver, whose worker thread has to
win the GIL back from a busy loop for every statement. The slow part, checkpointing the WAL
into the database file (with its fsync), runs in the background on the aiosqlite
connection's thread, which also serves the reads: a passive checkpoint a couple of seconds
after the first commit that follows the last one (and every ``CHECKPOINT_EVERY`` commits), so
that the database file alone is never more than a moment behind. A copy of ``tysiac.db``
without its ``-wal`` (the usual backup by hand) then holds the data; a closed store leaves the
file alone, with no ``-wal``.

A write the disk refuses (full, read-only, an I/O error) raises :class:`StoreUnavailable`:
nothing was committed, and the service answers "could not be saved, try again".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import sqlite3
import threading
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite
import orjson

from bot.store._community import GuildSettings, PlayerSettings
from bot.store._community_reads import RecordReads
from bot.store._daily import DailyReads, SqliteDailyWrites
from bot.store._health import (
    RESTORE_HINT,
    DatabaseUnusable,
    check_database_path,
    describe,
    unwritable,
)
from bot.store._interface import StoreUnavailable
from bot.store._recording import RecordWrites
from bot.store._records import SeatRow
from bot.store._sql import SQLITE, Sql, SqliteSql
from bot.store._status import TableStatus
from bot.store._table_reads import TableReads
from bot.store._tournaments import SqliteTournamentWrites, TournamentReads

log = logging.getLogger(__name__)
MIGRATIONS_DIR = Path(__file__).with_name("migrations")
CHECKPOINT_EVERY = 500  # commits between background WAL checkpoints under load
CHECKPOINT_AFTER = 2.0  # seconds from a commit to the checkpoint that copies it into the file
CHECKPOINT_TRIES = 5
_TABLE_FIELDS = frozenset({
    "host_id", "rules", "timer", "status", "match_no", "dealer", "message_id", "updated_at",
    "last_human_at", "preset", "locale", "pause",
})


class ChannelTaken(Exception):
    """A channel already has a live table."""


def migrations(dialect: str = "sqlite") -> list[tuple[int, str, str]]:
    """(version, name, sql) of every ``NNN_name.sql`` file, in order; for PostgreSQL a
    ``NNN_name.pg.sql`` beside it replaces it (where the two dialects disagree)."""
    out = []
    for path in sorted(MIGRATIONS_DIR.glob("*.sql")):
        m = re.fullmatch(r"(\d{3})_(\w+)\.sql", path.name)
        if m:
            own = path.with_name(f"{m.group(1)}_{m.group(2)}.pg.sql")
            if dialect == "postgresql" and own.is_file():
                path = own
            out.append((int(m.group(1)), m.group(2), path.read_text(encoding="utf-8")))
    versions = [v for v, _, _ in out]
    if versions != list(range(1, len(out) + 1)):
        raise RuntimeError(f"migrations must be numbered 001, 002, ... without gaps: {versions}")
    return out


_CREATES = re.compile(r"CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)", re.I)


def log_lost_line(path: str | Path, version: int, lost: int) -> str:
    """One line for a file whose tables are newer than its schema version says."""
    return (f"The database {path} holds the tables of schema version {lost} but says version "
            f"{version}: its migration log was lost, so the bot will not migrate it; "
            f"{RESTORE_HINT}.")


def check_schema_log(path: str | Path) -> None:
    """Raise :class:`DatabaseUnusable` if the SQLite file at ``path`` lost its migration log
    (before Discord is contacted, as a damaged file is)."""
    if not Path(path).is_file() or not Path(path).stat().st_size:
        return
    db = sqlite3.connect(str(path), timeout=5.0)
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        tables = {str(r[0]).lower() for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.Error as exc:
        raise DatabaseUnusable(describe(path, exc)) from exc
    finally:
        db.close()
    if lost := log_lost(version, tables):
        raise DatabaseUnusable(log_lost_line(path, version, lost))


def log_lost(version: int, tables: set[str], dialect: str = "sqlite") -> int:
    """The highest migration above ``version`` whose tables already exist (0: none).

    Such a file lost its migration log (SQLite's ``user_version``, in the header), for
    example when a tool rewrote the file: migrating it would fail, or start over empty."""
    found = 0
    for number, _, sql in migrations(dialect):
        if number > version and tables & {t.lower() for t in _CREATES.findall(sql)}:
            found = number
    return found


def _dumps(value: Any) -> str:
    # orjson writes the same compact UTF-8 text as json.dumps(separators=(",", ":"),
    # ensure_ascii=False) for the values stored here, in a tenth of the time (a move's row)
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def table_update(changes: dict[str, Any]) -> tuple[str, list[Any]]:
    """The UPDATE of a table's ``changes`` (``?`` placeholders, the table id last) and its
    values; ValueError for a name that is not a table field."""
    bad = set(changes) - _TABLE_FIELDS
    if bad:
        raise ValueError(f"not table fields: {sorted(bad)}")
    values = [_dumps(v) if k == "rules" else str(v) if isinstance(v, TableStatus) else v
              for k, v in changes.items()]
    cols = ", ".join(f"{k} = ?" for k in changes)
    return f"UPDATE tables SET {cols} WHERE id = ?", values


class Tx(RecordWrites, SqliteDailyWrites, SqliteTournamentWrites):
    """Writes inside one transaction (see :meth:`Store.transaction`).

    The methods are coroutines for the callers' sake (a driver that needs awaiting can
    replace this one); they run at once and never yield to the event loop."""

    dialect = SQLITE
    db: sqlite3.Connection

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.settings_changed: set[int] = set()  # guilds whose settings this tx wrote
        self.players_changed: set[int] = set()  # users whose /optin this tx wrote
        self._answers = SqliteSql(db)

    async def _sql(self) -> Sql:
        return self._answers

    async def create_table(self, *, guild_id: int | None, channel_id: int, host_id: int,
                           preset: str, rules: dict[str, Any], timer: int, now: float,
                           locale: str = "") -> int:
        try:
            cur = self.db.execute(
                "INSERT INTO tables (guild_id, channel_id, host_id, preset, rules, timer, status,"
                " created_at, updated_at, last_human_at, locale)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (guild_id, channel_id, host_id, preset, _dumps(rules), timer,
                 TableStatus.SEATING.value, now, now, now, locale))
        except sqlite3.IntegrityError as exc:
            raise ChannelTaken(channel_id) from exc
        assert cur.lastrowid is not None
        return cur.lastrowid

    async def update_table(self, table_id: int, **changes: Any) -> None:
        sql, values = table_update(changes)
        try:
            self.db.execute(sql, (*values, table_id))
        except sqlite3.IntegrityError as exc:
            raise ChannelTaken(table_id) from exc

    async def save_seats(self, table_id: int, seats: Sequence[SeatRow]) -> None:
        self.db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
        self.db.executemany(
            "INSERT INTO seats (table_id, seat, user_id, name, is_ai, ai_level, away, missed,"
            " player_id) VALUES (?,?,?,?,?,?,?,?, CASE WHEN ?5"
            " THEN (SELECT id FROM players WHERE kind = 'ai' AND level = ?6)"
            " ELSE (SELECT id FROM players WHERE kind = 'human' AND user_id = ?3) END)",
            [(table_id, s.seat, s.user_id, s.name, int(s.is_ai), s.ai_level, int(s.away),
              s.missed) for s in seats])

    async def append_moves(self, table_id: int, match_no: int, first_seq: int,
                           moves: Iterable[tuple[dict[str, Any], int | None]],
                           now: float) -> None:
        self.db.executemany(
            "INSERT INTO moves (table_id, match_no, seq, move, user_id, created_at)"
            " VALUES (?,?,?,?,?,?)",
            [(table_id, match_no, first_seq + i, _dumps(m), uid, now)
             for i, (m, uid) in enumerate(moves)])

    async def set_aside_moves(self, table_id: int, match_no: int, from_seq: int, reason: str,
                              now: float) -> int:
        """Move this match's moves from ``from_seq`` on into ``set_aside_moves``; how many."""
        self.db.execute(
            "INSERT INTO set_aside_moves (table_id, match_no, seq, move, user_id, created_at,"
            " reason, set_aside_at) SELECT table_id, match_no, seq, move, user_id, created_at,"
            " ?, ? FROM moves WHERE table_id = ? AND match_no = ? AND seq >= ?",
            (reason, now, table_id, match_no, from_seq))
        cur = self.db.execute(
            "DELETE FROM moves WHERE table_id = ? AND match_no = ? AND seq >= ?",
            (table_id, match_no, from_seq))
        return cur.rowcount

    async def start_match(self, table_id: int, match_no: int, *, rules: dict[str, Any],
                          dealer: int, seats: list[dict[str, Any]], now: float) -> None:
        self.db.execute(
            "INSERT INTO matches (table_id, match_no, rules, dealer, seats, status, started_at)"
            " VALUES (?,?,?,?,?,'playing',?)",
            (table_id, match_no, _dumps(rules), dealer, _dumps(seats), now))

    async def finish_match(self, table_id: int, match_no: int, *, status: str,
                           winners: Sequence[int], totals: Sequence[int], now: float) -> None:
        self.db.execute(
            "UPDATE matches SET status = ?, winners = ?, totals = ?, finished_at = ?"
            " WHERE table_id = ? AND match_no = ?",
            (status, _dumps(list(winners)), _dumps(list(totals)), now, table_id, match_no))

    async def add_look(self, table_id: int, match_no: int, hand_no: int, seat: int,
                       now: float) -> None:
        """``seat`` looked at his cards in this hand (no blind bids for him any more)."""
        self.db.execute(
            "INSERT OR IGNORE INTO looks (table_id, match_no, hand_no, seat, created_at)"
            " VALUES (?,?,?,?,?)", (table_id, match_no, hand_no, seat, now))

    async def add_hand(self, table_id: int, match_no: int, hand_no: int,
                       result: dict[str, Any], now: float) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO hands (table_id, match_no, hand_no, result, created_at)"
            " VALUES (?,?,?,?,?)", (table_id, match_no, hand_no, _dumps(result), now))

    async def add_hand_analysis(self, table_id: int, match_no: int, hand_no: int,
                                analysis: dict[str, Any], now: float) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO hand_analyses"
            " (table_id, match_no, hand_no, analysis, created_at) VALUES (?,?,?,?,?)",
            (table_id, match_no, hand_no, _dumps(analysis), now))


class Store(TableReads, RecordReads, DailyReads, TournamentReads):
    """Open with ``await Store.open(path)``; close with ``await store.close()``."""

    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection, path: str,
                 writer: sqlite3.Connection | None = None, *,
                 checkpoint_after: float = CHECKPOINT_AFTER) -> None:
        self.db = db  # reads, migrations and checkpoints (its own thread)
        self.path = path
        self._writer = writer  # transactions (on the event loop's thread)
        self._write = asyncio.Lock()
        self._commits = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self.checkpoint_after = checkpoint_after
        self._checkpoint_timer: asyncio.TimerHandle | None = None
        self._checkpoint_failed = ""  # the last failure logged (said once, not every time)
        # Guild settings are read on every /table new and match end, and written rarely:
        # kept here once read, forgotten when a transaction writes them (this process is
        # the database's only writer).
        self.settings_cache: dict[int, tuple[float, GuildSettings]] = {}
        self.player_cache: dict[int, tuple[float, PlayerSettings]] = {}

    @classmethod
    async def open(cls, path: str | Path, *,
                   checkpoint_after: float = CHECKPOINT_AFTER) -> Store:
        """Open (creating and migrating) the database; :class:`DatabaseUnusable` if it cannot
        be used, with every connection closed (aiosqlite's thread would keep the process
        alive). ``checkpoint_after``: seconds from a commit to its checkpoint."""
        check_database_path(path)
        try:
            db = await aiosqlite.connect(str(path))
        except sqlite3.Error as exc:
            raise DatabaseUnusable(describe(path, exc)) from exc
        store = cls(db, str(path), checkpoint_after=checkpoint_after)
        try:
            db.row_factory = aiosqlite.Row
            # WAL + synchronous=NORMAL: a commit is durable once it returns, against a killed
            # process (SIGKILL); only a power cut may lose the last commits.
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA busy_timeout = 5000")
            await store.migrate()
            store._writer = _writer(str(path))
        except BaseException as exc:
            with contextlib.suppress(Exception):
                await store.close()
            if isinstance(exc, sqlite3.Error):
                raise DatabaseUnusable(describe(path, exc)) from exc
            raise
        return store

    async def close(self) -> None:
        """Close both connections; the last one to close copies the WAL into the database
        file and removes the ``-wal``."""
        if self._checkpoint_timer is not None:
            self._checkpoint_timer.cancel()
            self._checkpoint_timer = None
        if self._checkpoint is not None:
            with contextlib.suppress(Exception):
                await self._checkpoint
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        thread = getattr(self.db, "_thread", None)
        await self.db.close()
        # aiosqlite resolves close() a moment before its thread ends: wait for the thread
        # (briefly), so that a closed store leaves no thread behind.
        for _ in range(200):
            if not isinstance(thread, threading.Thread) or not thread.is_alive():
                break
            await asyncio.sleep(0.001)

    async def user_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        return await self.user_version()

    async def migrate(self) -> int:
        """Apply the migrations above ``PRAGMA user_version``; the new version."""
        version = await self.user_version()
        async with self.db.execute("SELECT name FROM sqlite_master WHERE type='table'") as cur:
            tables = {str(r[0]).lower() for r in await cur.fetchall()}
        if lost := log_lost(version, tables):
            raise DatabaseUnusable(log_lost_line(self.path, version, lost))
        async with self._write:
            for number, _, sql in migrations():
                if number <= version:
                    continue
                await self.db.executescript(
                    f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
                version = number
        return version

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """One write transaction, committed on success and rolled back on error.

        Committed (in the WAL) when the ``async with`` block is left: callers answer only
        after that."""
        async with self._write:
            db = self._writer
            if db is None:
                raise RuntimeError("the store is closed")
            try:
                db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                self._refused(exc)
                raise
            tx = Tx(db)
            try:
                yield tx
                db.execute("COMMIT")
            except BaseException as exc:
                if db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled back
                        db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    self._refused(exc)
                raise
            for guild in tx.settings_changed:
                self.settings_cache.pop(guild, None)
            for user in tx.players_changed:
                self.player_cache.pop(user, None)
        self._commits += 1
        if self._commits % CHECKPOINT_EVERY == 0:
            self._start_checkpoint()
        elif self._checkpoint_timer is None:
            self._checkpoint_timer = asyncio.get_running_loop().call_later(
                self.checkpoint_after, self._checkpoint_due)

    def _refused(self, exc: sqlite3.Error) -> None:
        """Raise :class:`StoreUnavailable` if ``exc`` is a write the disk refused (nothing
        was committed); any other error is the caller's to raise."""
        why = unwritable(self.path, exc)
        if why:
            raise StoreUnavailable(why) from exc

    def _checkpoint_due(self) -> None:
        self._checkpoint_timer = None
        if self._checkpoint is not None and not self._checkpoint.done():
            # Commits made while that one runs may be after its end: look again later.
            self._checkpoint_timer = asyncio.get_running_loop().call_later(
                self.checkpoint_after, self._checkpoint_due)
            return
        self._start_checkpoint()

    def _start_checkpoint(self) -> None:
        """Copy the WAL into the database file in the background (not on the loop)."""
        if self._checkpoint is not None and not self._checkpoint.done():
            return
        self._checkpoint = asyncio.get_running_loop().create_task(self.checkpoint())

    async def checkpoint(self) -> None:
        """Copy the committed WAL into the database file (passive: never waits for a
        writer); a failure is logged once, as a warning, and tried again later."""
        # The reads share this connection: a read whose rows are not fetched yet makes the
        # checkpoint fail as "locked"; it is free again a moment later.
        for attempt in range(CHECKPOINT_TRIES):
            try:
                async with self.db.execute("PRAGMA wal_checkpoint(PASSIVE)") as cur:
                    await cur.fetchall()
                self._checkpoint_failed = ""
                return
            except sqlite3.Error as exc:
                if "locked" in str(exc) and attempt < CHECKPOINT_TRIES - 1:
                    await asyncio.sleep(0.05)
                    continue
                said = unwritable(self.path, exc) or f"SQLite says: {exc}"
                if said != self._checkpoint_failed:
                    self._checkpoint_failed = said
                    log.warning("WAL checkpoint failed (%s); tried again after the next "
                                "commit", said)
                return
            except Exception:
                log.exception("WAL checkpoint failed")
                return

    async def _one(self, sql: str, args: Sequence[Any]) -> Any:
        async with self.db.execute(sql, args) as cur:
            return await cur.fetchone()

    async def _all(self, sql: str, args: Sequence[Any]) -> list[Any]:
        async with self.db.execute(sql, args) as cur:
            return list(await cur.fetchall())


def _writer(path: str) -> sqlite3.Connection:
    """The write connection: explicit transactions, no automatic checkpoints."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA busy_timeout = 5000")
    db.execute("PRAGMA wal_autocheckpoint = 0")  # see Store.checkpoint
    return db
