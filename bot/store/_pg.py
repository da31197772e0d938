"""The PostgreSQL store (asyncpg, a connection pool): the same interface as the SQLite one.

Chosen by ``DATABASE_URL=postgresql://...``. Several bot processes may share the database,
so nothing here assumes a single writer: guild settings are read each time (no cache to go
stale when another process writes them), and the record's writes lock what they read (see
:mod:`bot.store._pg_recording`). A server that is not reachable turns into
:class:`StoreUnavailable`: the transaction is not committed and the caller says so; the pool
connects again by itself once the server is back.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Any
from urllib.parse import urlsplit

import asyncpg

from bot.store._community import GuildSettings, PlayerSettings
from bot.store._community_reads import RecordReads
from bot.store._daily import DailyReads, PgDailyWrites
from bot.store._health import DatabaseUnusable
from bot.store._interface import StoreUnavailable
from bot.store._pg_literals import inline
from bot.store._pg_recording import PgRecordWrites, _count
from bot.store._records import SeatRow
from bot.store._sql import to_pg
from bot.store._status import TableStatus
from bot.store._store import ChannelTaken, _dumps, migrations, table_update
from bot.store._table_reads import TableReads
from bot.store._tournaments import PgTournamentWrites, TournamentReads
from bot.store._turns import Turns, is_background

log = logging.getLogger(__name__)
# Seconds between tries to reach the server at start-up (then it gives up): about 3 min.
CONNECT_DELAYS: tuple[float, ...] = (1, 2, 4, 8, 16, 30, 30, 30, 30, 30)
TABLE_IDS = 32  # table ids taken from the identity sequence at once (see PgStore.table_id)
# Connections per process: a transaction holds one for a round trip or three, and on a busy
# loop each costs a pass (measured at 400 tables: answers waited for one of 10; a few
# processes of 20 stay well inside PostgreSQL's default of 100 connections).
POOL_SIZE = 20
_ONE_LIVE_PER_CHANNEL = "tables_one_live_per_channel"  # the unique index (migration 001)
_MIGRATION_LOCK = 0x7EA51000  # pg_advisory_xact_lock key: one process migrates at a time
SCHEMES = ("postgresql", "postgres")


def is_database_url(database: str) -> bool:
    """Is ``database`` a URL (``scheme://...``) rather than a file path?"""
    return "://" in database


def describe_url(url: str) -> str:
    """host:port/database of a URL, without the user and password (for messages)."""
    try:
        parts = urlsplit(url)
        where = f"{parts.hostname or 'localhost'}:{parts.port or 5432}"
        return f"{where}{parts.path or '/'}"
    except ValueError:
        return "(unparsable URL)"


def check_database_url(url: str) -> None:
    """Raise :class:`DatabaseUnusable` (one line) unless ``url`` is a postgresql:// URL."""
    scheme = url.split("://", 1)[0].lower()
    if scheme not in SCHEMES:
        raise DatabaseUnusable(
            f"DATABASE_URL must start with postgresql:// (not {scheme[:20]!r}://): "
            f"postgresql://user:password@host:5432/database, or leave it empty to use "
            f"SQLite at DATABASE_PATH.")
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises on a port that is not a number
    except ValueError as exc:
        raise DatabaseUnusable(
            f"DATABASE_URL cannot be read ({exc}): write it as "
            f"postgresql://user:password@host:5432/database.") from None
    if not parts.path.strip("/") and not parts.query:
        raise DatabaseUnusable(
            "DATABASE_URL names no database: write it as "
            "postgresql://user:password@host:5432/database.")


def is_outage(exc: BaseException) -> bool:
    """Does ``exc`` say the server cannot be reached (as opposed to a bad statement)?"""
    if isinstance(exc, StoreUnavailable | OSError | TimeoutError
                  | asyncpg.PostgresConnectionError
                  | asyncpg.exceptions.OperatorInterventionError
                  | asyncpg.exceptions.ConnectionDoesNotExistError):
        return True
    return isinstance(exc, asyncpg.InterfaceError) and "closed" in str(exc)


def _reason(exc: BaseException) -> str:
    text = str(exc).splitlines()[0][:160] if str(exc) else ""
    return text or type(exc).__name__


async def _keep_session(conn: asyncpg.Connection) -> None:
    """Nothing to reset when a connection goes back to the pool: the store sets no session
    state (no SET, LISTEN, cursors or session locks), and the default reset query would be
    one more round trip per transaction. asyncpg still rolls back an open transaction."""


class PgTx(PgRecordWrites, PgDailyWrites, PgTournamentWrites):
    """Writes inside one PostgreSQL transaction (see :meth:`PgStore.transaction`).

    Each ``await`` of the server costs a pass of the busy event loop, so the writes that
    return nothing are not sent at once: they are kept as SQL text with their values
    written in (:func:`inline`). A block made only of those (a move, a look, new seats, a new
    table, whose id comes from the store's block) goes out at its end as ONE simple-protocol
    query: PostgreSQL runs the statements of one query string as one implicit transaction,
    all or nothing, with no BEGIN or COMMIT round trips. A method that needs an answer opens
    a real transaction: BEGIN goes out with what was kept, and at the end COMMIT goes with the
    rest, so a transaction with one answer costs three round trips. No savepoints: a write
    refused because the channel is taken fails the whole transaction, which its one caller
    (opening a table) gives up anyway.

    The pooled connection is taken only when something is sent: a block of kept writes holds
    one for a single round trip, not while its caller works between the writes (the pool is
    shared by the whole process, and a connection held across passes of a busy event loop
    made answers queue for one: measured at 400 tables, waits of 1-3 s for the pool).
    """

    def __init__(self, acquire: Callable[[], Awaitable[asyncpg.Connection]],
                 table_id: Callable[[], Awaitable[int]]) -> None:
        self._acquire = acquire
        self._table_id = table_id
        self.conn: asyncpg.Connection | None = None  # taken at the first send
        self.settings_changed: set[int] = set()
        self.players_changed: set[int] = set()
        self.pending: list[str] = []  # statements not sent yet, values written in
        self.open = False  # BEGIN was sent: a real transaction, ended by COMMIT or ROLLBACK

    async def _connection(self) -> asyncpg.Connection:
        if self.conn is None:
            self.conn = await self._acquire()
        return self.conn

    def later(self, sql: str, *args: Any) -> None:
        """Keep a statement that returns nothing, to be sent with the others."""
        self.pending.append(inline(sql, args))

    async def begun(self) -> asyncpg.Connection:
        """The connection inside a real transaction, with the kept writes sent."""
        conn = await self._connection()
        if not self.open:
            self.pending.insert(0, "BEGIN")
            self.open = True
        await self._send()
        return conn

    async def finish(self) -> None:
        """Commit: the kept writes in one query (an implicit transaction of its own, or the
        real one's last statements with its COMMIT); nothing kept and nothing begun: no query."""
        if self.open:
            self.pending.append("COMMIT")
        await self._send()

    async def abandon(self) -> None:
        """Nothing of this transaction is committed."""
        self.pending.clear()
        await self.roll_back()

    async def roll_back(self) -> None:
        """End a real transaction that failed or is given up (a simple query)."""
        if self.open and self.conn is not None and not self.conn.is_closed():
            self.open = False
            await self.conn.execute("ROLLBACK")

    async def _send(self) -> None:
        if self.pending:
            text = ";\n".join(self.pending)
            self.pending.clear()
            try:
                await (await self._connection()).execute(text)
            except asyncpg.UniqueViolationError as exc:
                if exc.constraint_name == _ONE_LIVE_PER_CHANNEL:
                    raise ChannelTaken(exc.detail or str(exc)) from exc
                raise

    async def create_table(self, *, guild_id: int | None, channel_id: int, host_id: int,
                           preset: str, rules: dict[str, Any], timer: int, now: float,
                           locale: str = "") -> int:
        # The id comes from the store's block, so the row is kept with the other writes
        # (no RETURNING round trip); a taken channel raises ChannelTaken when it is sent.
        table_id = await self._table_id()
        self.later(
            "INSERT INTO tables (id, guild_id, channel_id, host_id, preset, rules, timer,"
            " status, created_at, updated_at, last_human_at, locale)"
            " VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)",
            table_id, guild_id, channel_id, host_id, preset, _dumps(rules), timer,
            TableStatus.SEATING.value, now, now, now, locale)
        return table_id

    async def update_table(self, table_id: int, **changes: Any) -> None:
        text, values = table_update(changes)
        # a new status that takes a taken channel: ChannelTaken when this is sent
        self.later(to_pg(text), *values, table_id)

    async def save_seats(self, table_id: int, seats: Sequence[SeatRow]) -> None:
        self.later("DELETE FROM seats WHERE table_id = $1", table_id)
        if not seats:
            return
        rows = ", ".join(inline(
            "($1,$2,$3,$4,$5,$6,$7,$8, CASE WHEN $5 = 1"
            " THEN (SELECT id FROM players WHERE kind = 'ai' AND level = $6)"
            " ELSE (SELECT id FROM players WHERE kind = 'human' AND user_id = $3) END)",
            (table_id, s.seat, s.user_id, s.name, int(s.is_ai), s.ai_level, int(s.away),
             s.missed)) for s in seats)
        self.pending.append(
            "INSERT INTO seats (table_id, seat, user_id, name, is_ai, ai_level, away, missed,"
            f" player_id) VALUES {rows}")

    async def append_moves(self, table_id: int, match_no: int, first_seq: int,
                           moves: Iterable[tuple[dict[str, Any], int | None]],
                           now: float) -> None:
        rows = ", ".join(inline("($1,$2,$3,$4,$5,$6)",
                                (table_id, match_no, first_seq + i, _dumps(m), uid, now))
                         for i, (m, uid) in enumerate(moves))
        if rows:
            self.pending.append(
                "INSERT INTO moves (table_id, match_no, seq, move, user_id, created_at)"
                f" VALUES {rows}")

    async def set_aside_moves(self, table_id: int, match_no: int, from_seq: int, reason: str,
                              now: float) -> int:
        """Move this match's moves from ``from_seq`` on into ``set_aside_moves``; how many."""
        c = await self.begun()
        await c.execute(
            "INSERT INTO set_aside_moves (table_id, match_no, seq, move, user_id, created_at,"
            " reason, set_aside_at) SELECT table_id, match_no, seq, move, user_id, created_at,"
            " $1, $2 FROM moves WHERE table_id = $3 AND match_no = $4 AND seq >= $5",
            reason, now, table_id, match_no, from_seq)
        return _count(await c.execute(
            "DELETE FROM moves WHERE table_id = $1 AND match_no = $2 AND seq >= $3",
            table_id, match_no, from_seq))

    async def start_match(self, table_id: int, match_no: int, *, rules: dict[str, Any],
                          dealer: int, seats: list[dict[str, Any]], now: float) -> None:
        self.later(
            "INSERT INTO matches (table_id, match_no, rules, dealer, seats, status, started_at)"
            " VALUES ($1,$2,$3,$4,$5,'playing',$6)",
            table_id, match_no, _dumps(rules), dealer, _dumps(seats), now)

    async def finish_match(self, table_id: int, match_no: int, *, status: str,
                           winners: Sequence[int], totals: Sequence[int], now: float) -> None:
        self.later(
            "UPDATE matches SET status = $1, winners = $2, totals = $3, finished_at = $4"
            " WHERE table_id = $5 AND match_no = $6",
            status, _dumps(list(winners)), _dumps(list(totals)), now, table_id, match_no)

    async def add_look(self, table_id: int, match_no: int, hand_no: int, seat: int,
                       now: float) -> None:
        """``seat`` looked at his cards in this hand (no blind bids for him any more)."""
        self.later(
            "INSERT INTO looks (table_id, match_no, hand_no, seat, created_at)"
            " VALUES ($1,$2,$3,$4,$5) ON CONFLICT DO NOTHING",
            table_id, match_no, hand_no, seat, now)

    async def add_hand(self, table_id: int, match_no: int, hand_no: int,
                       result: dict[str, Any], now: float) -> None:
        self.later(
            "INSERT INTO hands (table_id, match_no, hand_no, result, created_at)"
            " VALUES ($1,$2,$3,$4,$5) ON CONFLICT (table_id, match_no, hand_no) DO UPDATE"
            " SET result = EXCLUDED.result, created_at = EXCLUDED.created_at",
            table_id, match_no, hand_no, _dumps(result), now)

    async def add_hand_analysis(self, table_id: int, match_no: int, hand_no: int,
                                analysis: dict[str, Any], now: float) -> None:
        self.later(
            "INSERT INTO hand_analyses (table_id, match_no, hand_no, analysis, created_at)"
            " VALUES ($1,$2,$3,$4,$5) ON CONFLICT (table_id, match_no, hand_no) DO UPDATE"
            " SET analysis = EXCLUDED.analysis, created_at = EXCLUDED.created_at",
            table_id, match_no, hand_no, _dumps(analysis), now)


class PgStore(TableReads, RecordReads, DailyReads, TournamentReads):
    """Open with ``await PgStore.open(url)``; close with ``await store.close()``."""

    dialect = "postgresql"
    cache_settings = False  # other processes may write them: read unless told an age

    def __init__(self, pool: asyncpg.Pool, url: str, size: int = POOL_SIZE) -> None:
        self.pool = pool
        self.turns = Turns(size, size // 4)  # who gets the next connection: answers first
        self.where = describe_url(url)
        self.settings_cache: dict[int, tuple[float, GuildSettings]] = {}
        self.player_cache: dict[int, tuple[float, PlayerSettings]] = {}
        self._table_ids: collections.deque[int] = collections.deque()
        self._table_ids_lock = asyncio.Lock()
        self._refill: asyncio.Task[None] | None = None  # the next block, taken ahead

    @classmethod
    async def open(cls, url: str, *, connect_delays: Sequence[float] = CONNECT_DELAYS,
                   max_size: int = POOL_SIZE, allow_async_commit: bool = False) -> PgStore:
        """Connect (waiting for a server that is not up yet, see ``connect_delays``) and
        migrate; :class:`DatabaseUnusable` with one line if it cannot be used, or if the
        server acknowledges commits before they are on disk (``synchronous_commit=off``)
        unless ``allow_async_commit``."""
        check_database_url(url)
        where = describe_url(url)
        delays = list(connect_delays)
        while True:
            try:
                pool = await asyncpg.create_pool(url, min_size=1, max_size=max_size,
                                                 timeout=10, command_timeout=60,
                                                 reset=_keep_session)
                break
            except Exception as exc:
                if not is_outage(exc) or not delays:
                    raise DatabaseUnusable(
                        f"PostgreSQL at {where} cannot be used ({_reason(exc)}): check "
                        f"DATABASE_URL and that the server is running.") from None
                delay = delays.pop(0)
                log.warning("PostgreSQL at %s is not reachable (%s); trying again in %g s",
                            where, _reason(exc), delay)
                await asyncio.sleep(delay)
        store = cls(pool, url, max_size)
        try:
            await store._check_commits_durable(allow_async_commit)
            await store.migrate()
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, DatabaseUnusable):
                raise
            if isinstance(exc, Exception) and (
                    is_outage(exc) or isinstance(exc, asyncpg.PostgresError)):
                raise DatabaseUnusable(
                    f"PostgreSQL at {where} could not be prepared ({_reason(exc)}): check "
                    f"that the user of DATABASE_URL may create tables there.") from None
            raise
        # The first block too is taken ahead: the first openings of a busy start (every
        # table restored at once, people waiting) would otherwise all wait for it.
        store._refill = asyncio.get_running_loop().create_task(store._prefetch())
        return store

    async def close(self) -> None:
        if self._refill is not None:
            self._refill.cancel()
            with suppress(asyncio.CancelledError):
                await self._refill
        try:
            await asyncio.wait_for(self.pool.close(), 10)
        except Exception:  # a connection that does not answer: do not wait for it
            self.pool.terminate()

    async def _check_commits_durable(self, allowed: bool) -> None:
        """With ``synchronous_commit=off`` the server answers a COMMIT before the commit is
        on disk: an immediate stop (a crash, ``pg_ctl -m immediate``) then loses moves the
        players were told were made. Refuse such a server, unless ``allowed``."""
        async with self.pool.acquire() as c:
            setting = str(await c.fetchval("SHOW synchronous_commit"))
        if setting != "off":
            return
        if not allowed:
            raise DatabaseUnusable(
                f"PostgreSQL at {self.where} has synchronous_commit=off: it may lose moves "
                f"the bot has acknowledged if the server stops abruptly. Turn it on "
                f"(ALTER DATABASE ... SET synchronous_commit = on), or set "
                f"ALLOW_ASYNC_COMMIT=1 to accept that risk.")
        log.warning("PostgreSQL at %s has synchronous_commit=off (ALLOW_ASYNC_COMMIT=1): an "
                    "abrupt stop of the server may lose the last acknowledged moves",
                    self.where)

    async def schema_version(self) -> int:
        """The number of the last migration applied (``schema_version`` table)."""
        row = await self._one(
            "SELECT COALESCE(MAX(version), 0) FROM schema_version", ())
        return int(row[0]) if row else 0

    async def migrate(self) -> int:
        """Apply the migrations not yet in ``schema_version``; the new version."""
        async with self.pool.acquire() as c, c.transaction():
            await c.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            await c.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY,"
                " name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)")
            version = int(await c.fetchval(
                "SELECT COALESCE(MAX(version), 0) FROM schema_version"))
            for number, name, sql in migrations("postgresql"):
                if number <= version:
                    continue
                await c.execute(sql)
                await c.execute("INSERT INTO schema_version VALUES ($1, $2, $3)",
                                number, name, time.time())
                version = number
        return version

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgTx]:
        """One write transaction, committed on success and rolled back on error.

        Committed on the server when the ``async with`` block is left: callers answer only
        after that. :class:`StoreUnavailable` if the server went away (nothing committed).
        A block of writes that return nothing costs one round trip (see :class:`PgTx`)."""
        tx = PgTx(self._acquire, self.table_id)
        try:
            try:
                yield tx
            except BaseException as exc:
                try:
                    await tx.abandon()
                except Exception:
                    if tx.conn is not None:
                        tx.conn.terminate()  # the pool replaces it
                if isinstance(exc, Exception) and is_outage(exc):
                    raise StoreUnavailable(self._gone(exc)) from exc
                raise
            try:
                await tx.finish()
            except StoreUnavailable:
                raise
            except Exception as exc:
                try:
                    await tx.roll_back()  # a statement sent at the end failed
                except Exception:
                    if tx.conn is not None:
                        tx.conn.terminate()
                if is_outage(exc):
                    # Not known whether the commit reached the server: the caller must not
                    # answer as if it had (a restart replays whatever did commit).
                    raise StoreUnavailable(self._gone(exc)) from exc
                raise
            for guild in tx.settings_changed:
                self.settings_cache.pop(guild, None)
            for user in tx.players_changed:
                self.player_cache.pop(user, None)
        finally:
            if tx.conn is not None:
                await self._release(tx.conn)

    async def table_id(self) -> int:
        """A new table's id, from a block of the identity sequence this process took.

        Opening a table then sends its rows with one query instead of waiting for the id
        (each round trip waits a pass of a busy event loop). Ids are unique across
        processes but not in order of opening, and a stopped process leaves a gap."""
        while not self._table_ids:
            await self._more_table_ids(0)
        if len(self._table_ids) <= TABLE_IDS // 4 and self._refill is None:
            # the next block is taken while this one lasts: no opening waits for it
            self._refill = asyncio.get_running_loop().create_task(self._prefetch())
        return self._table_ids.popleft()

    async def _more_table_ids(self, low: int) -> None:
        """Take a block of ids unless more than ``low`` are left (one block at a time)."""
        async with self._table_ids_lock:
            if len(self._table_ids) > low:
                return
            rows = await self._all(
                "SELECT nextval(pg_get_serial_sequence('tables', 'id'))"
                " FROM generate_series(1, ?)", (TABLE_IDS,))
            self._table_ids.extend(int(r[0]) for r in rows)

    async def _prefetch(self) -> None:
        try:
            await self._more_table_ids(TABLE_IDS // 4)
        except Exception as exc:  # the server away: an opening that needs ids tries again
            log.info("taking table ids ahead failed: %s", exc)
        finally:
            self._refill = None

    async def _acquire(self) -> asyncpg.Connection:
        """A pooled connection, answers before background work (the pool connects again
        those it saw closed); give it back with :meth:`_release`."""
        await self.turns.enter(is_background())
        try:
            conn: asyncpg.Connection = await self.pool.acquire()
        except BaseException as exc:
            self.turns.leave()
            if isinstance(exc, Exception) and is_outage(exc):
                raise StoreUnavailable(self._gone(exc)) from exc
            raise
        return conn

    async def _release(self, conn: asyncpg.Connection) -> None:
        try:
            await self.pool.release(conn)
        finally:
            self.turns.leave()

    def _gone(self, exc: BaseException) -> str:
        return f"PostgreSQL at {self.where} is not reachable ({_reason(exc)})"

    async def _one(self, sql: str, args: Sequence[Any]) -> Any:
        rows = await self._all(sql, args)
        return rows[0] if rows else None

    async def _all(self, sql: str, args: Sequence[Any]) -> list[Any]:
        # A read can be tried again: once, for a pooled connection the server dropped.
        for attempt in (1, 2):
            try:
                conn = await self._acquire()
                try:
                    return list(await conn.fetch(to_pg(sql), *args))
                finally:
                    await self._release(conn)
            except Exception as exc:
                if not is_outage(exc):
                    raise
                if attempt == 2:
                    raise StoreUnavailable(self._gone(exc)) from exc
        raise AssertionError("unreachable")

