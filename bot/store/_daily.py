"""The daily challenge's rows (docs/daily.md): pars, the move log of each player's board,
the finished boards' results and the servers' choices. The SQL is the same for both stores."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.store._sql import to_pg
from bot.store._table_reads import Queries


@dataclass(frozen=True, slots=True)
class DailyResultRow:
    """One player's finished board."""

    user_id: int
    board: str
    day: str
    preset: str
    number: int
    guild_id: int
    name: str
    result: int
    par: int
    finished_at: float


@dataclass(frozen=True, slots=True)
class DailySettings:
    """A server's daily challenge: its preset ('' = the server's preset) and summary channel."""

    guild_id: int
    preset: str = ""
    channel_id: int = 0
    summary_day: str = ""  # the last day whose summary was posted


_RESULT_COLS = ("user_id, board, day, preset, number, guild_id, name, result, par,"
                " finished_at")


def _result(r: Any) -> DailyResultRow:
    return DailyResultRow(int(r[0]), r[1], r[2], r[3], int(r[4]), int(r[5]), r[6], int(r[7]),
                          int(r[8]), float(r[9]))


class DailyReads(Queries):
    """Reads of the daily challenge (a mixin of both stores)."""

    async def daily_par(self, board: str) -> tuple[list[Any], list[int]] | None:
        """A board's par: the moves and each seat's change of total (None: not computed)."""
        row = await self._one("SELECT moves, delta FROM daily_pars WHERE board = ?", (board,))
        return None if row is None else (json.loads(row[0]), json.loads(row[1]))

    async def daily_moves(self, user_id: int, board: str) -> list[Any]:
        """A player's moves on a board, in order."""
        rows = await self._all("SELECT move FROM daily_moves WHERE user_id = ? AND board = ?"
                               " ORDER BY seq", (user_id, board))
        return [json.loads(r[0]) for r in rows]

    async def daily_results(self, first_day: str, last_day: str,
                            preset: str) -> list[DailyResultRow]:
        """The finished boards of a preset's days from ``first_day`` to ``last_day``."""
        rows = await self._all(
            f"SELECT {_RESULT_COLS} FROM daily_results WHERE day >= ? AND day <= ?"
            " AND preset = ? ORDER BY day, number, finished_at, user_id",
            (first_day, last_day, preset))
        return [_result(r) for r in rows]

    async def daily_user_days(self, user_id: int) -> list[str]:
        """The days a player finished at least one board."""
        rows = await self._all("SELECT DISTINCT day FROM daily_results WHERE user_id = ?"
                               " ORDER BY day", (user_id,))
        return [r[0] for r in rows]

    async def daily_settings(self, guild_id: int) -> DailySettings:
        """A server's daily choices (the defaults when none are stored)."""
        row = await self._one("SELECT preset, channel_id, summary_day FROM daily_settings"
                              " WHERE guild_id = ?", (guild_id,))
        if row is None:
            return DailySettings(guild_id)
        return DailySettings(guild_id, row[0], int(row[1]), row[2])

    async def daily_summary_guilds(self) -> list[DailySettings]:
        """The servers that post a summary of each day."""
        rows = await self._all("SELECT guild_id, preset, channel_id, summary_day FROM"
                               " daily_settings WHERE channel_id <> 0 ORDER BY guild_id", ())
        return [DailySettings(int(r[0]), r[1], int(r[2]), r[3]) for r in rows]


_PAR = ("INSERT INTO daily_pars (board, moves, delta, created_at) VALUES (?,?,?,?)"
        " ON CONFLICT DO NOTHING")
_MOVE = "INSERT INTO daily_moves (user_id, board, seq, move, created_at) VALUES (?,?,?,?,?)"
_RESULT = (f"INSERT INTO daily_results ({_RESULT_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?)")
_SETTINGS = ("INSERT INTO daily_settings (guild_id) VALUES (?) ON CONFLICT DO NOTHING")
_SETTING_FIELDS = frozenset({"preset", "channel_id", "summary_day"})


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _settings_update(changes: dict[str, Any]) -> tuple[str, list[Any]]:
    bad = set(changes) - _SETTING_FIELDS
    if bad:
        raise ValueError(f"not daily settings: {sorted(bad)}")
    cols = ", ".join(f"{k} = ?" for k in changes)
    return f"UPDATE daily_settings SET {cols} WHERE guild_id = ?", list(changes.values())


class DailyWriteSQL:
    """The daily writes of one transaction, as statements for ``_write`` (each store's own)."""

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        raise NotImplementedError

    async def put_daily_par(self, board: str, moves: list[Any], delta: list[int],
                            now: float) -> None:
        """Store a board's par (a second one for the same board is ignored)."""
        self._write(_PAR, (board, _dumps(moves), _dumps(delta), now))

    async def append_daily_move(self, user_id: int, board: str, seq: int, move: Any,
                                now: float) -> None:
        """Append one move of a player's board (a seq already taken fails the transaction)."""
        self._write(_MOVE, (user_id, board, seq, _dumps(move), now))

    async def add_daily_result(self, row: DailyResultRow) -> None:
        """Record a finished board (a second one for the same player and board fails)."""
        self._write(_RESULT, (row.user_id, row.board, row.day, row.preset, row.number,
                              row.guild_id, row.name, row.result, row.par, row.finished_at))

    async def set_daily_settings(self, guild_id: int, **changes: Any) -> None:
        """Change a server's daily choices (fields of :class:`DailySettings`)."""
        sql, values = _settings_update(changes)
        self._write(_SETTINGS, (guild_id,))
        if values:
            self._write(sql, (*values, guild_id))


class SqliteDailyWrites(DailyWriteSQL):
    """The SQLite form: statements run at once on the write connection."""

    db: Any

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        self.db.execute(sql, args)


class PgDailyWrites(DailyWriteSQL):
    """The PostgreSQL form: statements kept and sent with the transaction's others."""

    def later(self, sql: str, *args: Any) -> None:
        raise NotImplementedError

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        self.later(to_pg(sql), *args)
