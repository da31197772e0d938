"""A PostgreSQL transaction (see :class:`PgTx`): the table writes in its own SQL, the
record's and the daily challenge's through the SQL written once for both stores."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

import asyncpg

from bot.store._daily import PgDailyWrites
from bot.store._pg_literals import inline
from bot.store._ratings import MODEL, conservative
from bot.store._recording import RecordWrites
from bot.store._records import SeatRow
from bot.store._sql import POSTGRESQL, Sql, to_pg
from bot.store._status import TableStatus
from bot.store._store import ChannelTaken, _dumps, table_update
from bot.store._tournaments import PgTournamentWrites

_ONE_LIVE_PER_CHANNEL = "tables_one_live_per_channel"  # the unique index (migration 001)


def count_of(status: str) -> int:
    """The row count of a command status such as ``UPDATE 3``."""
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


class PgSql:
    """:class:`bot.store._sql.Sql` over a connection inside a real transaction."""

    dialect = POSTGRESQL

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def value(self, sql: str, args: Sequence[Any]) -> Any:
        return await self.conn.fetchval(to_pg(sql), *args)

    async def row(self, sql: str, args: Sequence[Any]) -> Any:
        return await self.conn.fetchrow(to_pg(sql), *args)

    async def rows(self, sql: str, args: Sequence[Any]) -> list[Any]:
        return list(await self.conn.fetch(to_pg(sql), *args))

    async def run(self, sql: str, args: Sequence[Any]) -> int:
        return count_of(await self.conn.execute(to_pg(sql), *args))

    async def run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.conn.executemany(to_pg(sql), rows)


class PgTx(RecordWrites, PgDailyWrites, PgTournamentWrites):
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

    dialect = POSTGRESQL

    async def _sql(self) -> Sql:
        return PgSql(await self.begun())

    async def _lock_ratings(self, db: Sql, guild_id: int, family: str,
                            players: Iterable[int]) -> None:
        """Lock the players' rating rows (made at the start value if new), by player id:
        another process may be rating the same players."""
        c = await self.begun()
        ids = sorted(set(players))
        await c.execute(
            "INSERT INTO ratings (guild_id, family, player_id, mu, sigma, value, matches)"
            " SELECT $1::BIGINT, $2::TEXT, p, $3::FLOAT8, $4::FLOAT8, $5::FLOAT8, 0"
            " FROM unnest($6::BIGINT[]) AS p ORDER BY p"
            " ON CONFLICT DO NOTHING",
            guild_id, family, MODEL.mu, MODEL.sigma, conservative(MODEL.mu, MODEL.sigma), ids)
        await c.execute(
            "SELECT 1 FROM ratings WHERE guild_id = $1 AND family = $2 AND player_id = ANY($3)"
            " ORDER BY player_id FOR UPDATE", guild_id, family, ids)

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
        return count_of(await c.execute(
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

