"""The rows of tournaments (docs/tournaments.md): events, entrants, each round's tables, board
results, pars, what was posted and the servers' choices. The SQL is the same for both stores."""

from __future__ import annotations

import json
from dataclasses import astuple, dataclass, fields
from typing import Any

from bot.store._sql import to_pg
from bot.store._table_reads import Queries

OPEN_STATUSES = ("signup", "checkin", "running")


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """One event as stored."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int
    organiser_id: int
    name: str
    preset: str
    boards: int
    rounds: int
    start_at: float
    checkin_minutes: int
    round_minutes: int
    status: str
    round_no: int
    round_started_at: float
    created_at: float


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """One entrant of an event."""

    tournament_id: int
    user_id: int
    name: str
    rating: float
    checked_in: bool = False
    strikes: int = 0
    withdrawn: bool = False
    dropped: bool = False
    joined_at: float = 0.0
    final_rank: int = 0  # 0: not ranked, or the event not finished


@dataclass(frozen=True, slots=True)
class EventTableRow:
    """One table of a round: its thread, its table and who sits where."""

    tournament_id: int
    round_no: int
    table_no: int
    channel_id: int
    table_id: int
    user_ids: tuple[int, ...]
    names: tuple[str, ...]
    done: bool = False


@dataclass(frozen=True, slots=True)
class BoardResultRow:
    """One board's result at one table: each seat's change of total."""

    tournament_id: int
    round_no: int
    board_no: int  # 1-based
    table_no: int
    delta: tuple[int, ...]
    match_no: int


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """A server's choices: the organisers' role (0: Manage Server only), rated events, and
    the time zone start times are typed in ('': UTC)."""

    guild_id: int
    role_id: int = 0
    rated: bool = False
    timezone: str = ""


_EVENT_COLS = ", ".join(f.name for f in fields(TournamentRow))
_ENTRANT_COLS = ", ".join(f.name for f in fields(EntrantRow))
_TABLE_COLS = ("tournament_id, round_no, table_no, channel_id, table_id, user_ids, names, done")
_RESULT_COLS = "tournament_id, round_no, board_no, table_no, delta, match_no"


def _event(r: Any) -> TournamentRow:
    return TournamentRow(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), r[5], r[6],
                         int(r[7]), int(r[8]), float(r[9]), int(r[10]), int(r[11]), r[12],
                         int(r[13]), float(r[14]), float(r[15]))


def _entrant(r: Any) -> EntrantRow:
    return EntrantRow(int(r[0]), int(r[1]), r[2], float(r[3]), bool(r[4]), int(r[5]),
                      bool(r[6]), bool(r[7]), float(r[8]), int(r[9]))


def _table(r: Any) -> EventTableRow:
    return EventTableRow(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]),
                         tuple(json.loads(r[5])), tuple(json.loads(r[6])), bool(r[7]))


class TournamentReads(Queries):
    """Reads of tournaments (a mixin of both stores)."""

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        """An event by id."""
        row = await self._one(f"SELECT {_EVENT_COLS} FROM tournaments WHERE id = ?",
                              (tournament_id,))
        return None if row is None else _event(row)

    async def tournaments(self, guild_id: int) -> list[TournamentRow]:
        """A server's events, newest first."""
        rows = await self._all(f"SELECT {_EVENT_COLS} FROM tournaments WHERE guild_id = ?"
                               " ORDER BY created_at DESC, id DESC", (guild_id,))
        return [_event(r) for r in rows]

    async def open_tournaments(self) -> list[TournamentRow]:
        """Every event not finished nor cancelled."""
        rows = await self._all(f"SELECT {_EVENT_COLS} FROM tournaments WHERE status IN"
                               " (?,?,?) ORDER BY id", OPEN_STATUSES)
        return [_event(r) for r in rows]

    async def tournament_entrants(self, tournament_id: int) -> list[EntrantRow]:
        """An event's entrants in the order they joined."""
        rows = await self._all(f"SELECT {_ENTRANT_COLS} FROM tournament_entrants WHERE"
                               " tournament_id = ? ORDER BY joined_at, user_id",
                               (tournament_id,))
        return [_entrant(r) for r in rows]

    async def tournament_tables(self, tournament_id: int) -> list[EventTableRow]:
        """The tables of every round of an event."""
        rows = await self._all(f"SELECT {_TABLE_COLS} FROM tournament_tables WHERE"
                               " tournament_id = ? ORDER BY round_no, table_no",
                               (tournament_id,))
        return [_table(r) for r in rows]

    async def tournament_table_of(self, table_id: int) -> EventTableRow | None:
        """The event table a table plays (None: an ordinary table)."""
        row = await self._one(f"SELECT {_TABLE_COLS} FROM tournament_tables WHERE"
                              " table_id = ?", (table_id,))
        return None if row is None else _table(row)

    async def tournament_results(self, tournament_id: int) -> list[BoardResultRow]:
        """Every board result of an event."""
        rows = await self._all(f"SELECT {_RESULT_COLS} FROM tournament_results WHERE"
                               " tournament_id = ? ORDER BY round_no, board_no, table_no",
                               (tournament_id,))
        return [BoardResultRow(int(r[0]), int(r[1]), int(r[2]), int(r[3]),
                               tuple(json.loads(r[4])), int(r[5])) for r in rows]

    async def tournament_pars(self, tournament_id: int) -> dict[tuple[int, int], list[int]]:
        """The pars computed so far: (round, board) to each seat's change of total."""
        rows = await self._all("SELECT round_no, board_no, delta FROM tournament_pars WHERE"
                               " tournament_id = ?", (tournament_id,))
        return {(int(r[0]), int(r[1])): json.loads(r[2]) for r in rows}

    async def tournament_par_moves(self, tournament_id: int, round_no: int,
                                   board_no: int) -> list[Any] | None:
        """The strong AIs' moves of a board's par (None: not computed)."""
        row = await self._one("SELECT moves FROM tournament_pars WHERE tournament_id = ?"
                              " AND round_no = ? AND board_no = ?",
                              (tournament_id, round_no, board_no))
        return None if row is None else list(json.loads(row[0]))

    async def tournament_posted(self, tournament_id: int) -> set[str]:
        """What was posted about an event (never posted twice)."""
        rows = await self._all("SELECT what FROM tournament_posts WHERE tournament_id = ?",
                               (tournament_id,))
        return {r[0] for r in rows}

    async def tournament_settings(self, guild_id: int) -> TournamentSettings:
        """A server's tournament choices (the defaults when none are stored)."""
        row = await self._one("SELECT role_id, rated, timezone FROM tournament_settings"
                              " WHERE guild_id = ?", (guild_id,))
        return TournamentSettings(guild_id) if row is None else TournamentSettings(
            guild_id, int(row[0]), bool(row[1]), str(row[2]))

    async def tournament_history(self, guild_id: int, user_id: int) -> tuple[int, int | None]:
        """A player's finished events in a server and his best rank (None: never ranked)."""
        row = await self._one(
            "SELECT COUNT(*), MIN(CASE WHEN e.final_rank > 0 THEN e.final_rank END)"
            " FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id"
            " WHERE t.guild_id = ? AND t.status = 'finished' AND e.user_id = ?"
            " AND e.dropped = 0", (guild_id, user_id))
        if row is None:
            return 0, None
        return int(row[0]), None if row[1] is None else int(row[1])


_EVENT_FIELDS = frozenset({"channel_id", "message_id", "name", "preset", "boards", "rounds",
                           "start_at", "checkin_minutes", "round_minutes", "status",
                           "round_no", "round_started_at"})
_ENTRANT_FIELDS = frozenset({"name", "checked_in", "strikes", "withdrawn", "dropped",
                             "final_rank"})
_TABLE_FIELDS = frozenset({"channel_id", "table_id", "done"})
_SETTING_FIELDS = frozenset({"role_id", "rated", "timezone"})


def _update(table: str, allowed: frozenset[str], changes: dict[str, Any],
            where: str) -> tuple[str, list[Any]]:
    bad = set(changes) - allowed
    if bad or not changes:
        raise ValueError(f"not fields of {table}: {sorted(bad) or 'none given'}")
    cols = ", ".join(f"{k} = ?" for k in changes)
    values = [int(v) if isinstance(v, bool) else v for v in changes.values()]
    return f"UPDATE {table} SET {cols} WHERE {where}", values


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class TournamentWriteSQL:
    """The tournament writes of one transaction, as statements for ``_write``."""

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        raise NotImplementedError

    async def add_tournament(self, row: TournamentRow) -> None:
        """A new event (its id chosen by the caller)."""
        marks = ",".join("?" * len(fields(TournamentRow)))
        self._write(f"INSERT INTO tournaments ({_EVENT_COLS}) VALUES ({marks})", astuple(row))

    async def update_tournament(self, tournament_id: int, **changes: Any) -> None:
        """Change fields of an event."""
        sql, values = _update("tournaments", _EVENT_FIELDS, changes, "id = ?")
        self._write(sql, (*values, tournament_id))

    async def add_entrant(self, row: EntrantRow) -> None:
        """A new entrant (a second time for the same user fails the transaction)."""
        marks = ",".join("?" * len(fields(EntrantRow)))
        values = tuple(int(v) if isinstance(v, bool) else v for v in astuple(row))
        self._write(f"INSERT INTO tournament_entrants ({_ENTRANT_COLS}) VALUES ({marks})",
                    values)

    async def update_entrant(self, tournament_id: int, user_id: int, **changes: Any) -> None:
        """Change fields of an entrant."""
        sql, values = _update("tournament_entrants", _ENTRANT_FIELDS, changes,
                              "tournament_id = ? AND user_id = ?")
        self._write(sql, (*values, tournament_id, user_id))

    async def remove_entrant(self, tournament_id: int, user_id: int) -> None:
        """An entrant leaves before the start."""
        self._write("DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                    (tournament_id, user_id))

    async def add_tournament_table(self, row: EventTableRow) -> None:
        """A table of a round (one already stored for the same number is kept)."""
        self._write(f"INSERT INTO tournament_tables ({_TABLE_COLS}) VALUES (?,?,?,?,?,?,?,?)"
                    " ON CONFLICT DO NOTHING",
                    (row.tournament_id, row.round_no, row.table_no, row.channel_id,
                     row.table_id, _dumps(row.user_ids), _dumps(row.names), int(row.done)))

    async def update_tournament_table(self, tournament_id: int, round_no: int, table_no: int,
                                      **changes: Any) -> None:
        """Change a round's table: its thread, its table, done."""
        sql, values = _update("tournament_tables", _TABLE_FIELDS, changes,
                              "tournament_id = ? AND round_no = ? AND table_no = ?")
        self._write(sql, (*values, tournament_id, round_no, table_no))

    async def add_board_result(self, row: BoardResultRow, now: float) -> None:
        """A board's result at a table (a second one for the same board is ignored)."""
        self._write(f"INSERT INTO tournament_results ({_RESULT_COLS}, created_at) VALUES"
                    " (?,?,?,?,?,?,?) ON CONFLICT DO NOTHING",
                    (row.tournament_id, row.round_no, row.board_no, row.table_no,
                     _dumps(row.delta), row.match_no, now))

    async def put_tournament_par(self, tournament_id: int, round_no: int, board_no: int,
                                 moves: list[Any], delta: list[int], now: float) -> None:
        """A board's par (a second one for the same board is ignored)."""
        self._write("INSERT INTO tournament_pars (tournament_id, round_no, board_no, moves,"
                    " delta, created_at) VALUES (?,?,?,?,?,?) ON CONFLICT DO NOTHING",
                    (tournament_id, round_no, board_no, _dumps(moves), _dumps(delta), now))

    async def mark_posted(self, tournament_id: int, what: str, now: float) -> None:
        """Something about an event was posted (marked once)."""
        self._write("INSERT INTO tournament_posts (tournament_id, what, created_at) VALUES"
                    " (?,?,?) ON CONFLICT DO NOTHING", (tournament_id, what, now))

    async def set_tournament_settings(self, guild_id: int, **changes: Any) -> None:
        """Change a server's tournament choices (fields of :class:`TournamentSettings`)."""
        sql, values = _update("tournament_settings", _SETTING_FIELDS, changes, "guild_id = ?")
        self._write("INSERT INTO tournament_settings (guild_id) VALUES (?)"
                    " ON CONFLICT DO NOTHING", (guild_id,))
        self._write(sql, (*values, guild_id))


class SqliteTournamentWrites(TournamentWriteSQL):
    """The SQLite form: statements run at once on the write connection."""

    db: Any

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        self.db.execute(sql, args)


class PgTournamentWrites(TournamentWriteSQL):
    """The PostgreSQL form: statements kept and sent with the transaction's others."""

    def later(self, sql: str, *args: Any) -> None:
        raise NotImplementedError

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        self.later(to_pg(sql), *args)
