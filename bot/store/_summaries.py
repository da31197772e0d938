"""The summaries leaderboards read: ``player_days`` and ``player_totals`` (humans only).

Both are sums over the recorded matches not excluded, kept in the transaction that records
(or excludes) a match: adding a match adds its seats; excluding rebuilds only the rows it
counted in, from the matches that remain (days) and from the days (totals). The SQL is the
same for both stores (see :class:`bot.store._sql.Sql`).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.store._sql import Sql

ALL_GUILDS = -1  # player_totals' row over every guild (the global scope)
COLUMNS = ("matches", "wins", "hands", "points", "contracts_made", "contracts_failed",
           "rospisat", "dashes", "barrel_wins")
COLS_SQL = ", ".join(COLUMNS)
SUM_SQL = ", ".join(f"SUM({c})" for c in COLUMNS)
# Seats of recorded matches as summary sums, in COLUMNS' order.
SEAT_SUMS = ("COUNT(*), SUM(s.winner), SUM(s.hands), SUM(s.points), SUM(s.contracts_made),"
              " SUM(s.contracts_failed), SUM(s.rospisat), SUM(s.dashes), SUM(s.barrel_win)")
SEATS_SQL = (" FROM match_records m JOIN match_seats s ON s.match_id = m.id"
          " JOIN players p ON p.id = s.player_id AND p.kind = 'human'")


def _add(table: str) -> str:
    """The upsert's sums (the old row named: PostgreSQL wants it, SQLite allows it)."""
    return ", ".join(f"{c} = {table}.{c} + excluded.{c}" for c in COLUMNS)


async def add_match(db: Sql, match_id: int) -> None:
    """Add a newly recorded match's human seats to the day rows and the totals."""
    day = db.dialect.day("m.finished_at")
    await db.run(
        f"INSERT INTO player_days (guild_id, day, preset, player_id, {COLS_SQL})"
        f" SELECT m.guild_id, {day}, m.preset, s.player_id, {SEAT_SUMS}{SEATS_SQL}"
        f" WHERE m.id = ? GROUP BY m.guild_id, m.finished_at, m.preset, s.player_id"
        f" ORDER BY s.player_id"
        f" ON CONFLICT (guild_id, day, preset, player_id)"
        f" DO UPDATE SET {_add('player_days')}", (match_id,))
    for scope in ("m.guild_id", str(ALL_GUILDS)):
        await db.run(
            f"INSERT INTO player_totals (guild_id, preset, player_id, {COLS_SQL})"
            f" SELECT {scope}, m.preset, s.player_id, {SEAT_SUMS}{SEATS_SQL}"
            f" WHERE m.id = ? GROUP BY m.guild_id, m.preset, s.player_id"
            f" ORDER BY s.player_id"
            f" ON CONFLICT (guild_id, preset, player_id)"
            f" DO UPDATE SET {_add('player_totals')}", (match_id,))


async def rebuild_day(db: Sql, guild_id: int, day: int, preset: str,
                      players: Iterable[int]) -> None:
    """Day rows (and then totals) of these players again, from the matches that count."""
    day_sql = db.dialect.day("m.finished_at")
    for player_id in players:
        key = (guild_id, day, preset, player_id)
        await db.run("DELETE FROM player_days WHERE guild_id = ? AND day = ? AND preset = ?"
                     " AND player_id = ?", key)
        await db.run(
            f"INSERT INTO player_days (guild_id, day, preset, player_id, {COLS_SQL})"
            f" SELECT m.guild_id, {day_sql}, m.preset, s.player_id, {SEAT_SUMS}{SEATS_SQL}"
            f" WHERE m.guild_id = ? AND m.excluded = 0 AND {day_sql} = ? AND m.preset = ?"
            f" AND s.player_id = ? GROUP BY m.guild_id, {day_sql}, m.preset, s.player_id",
            key)
        await rebuild_totals(db, guild_id, preset, player_id)


async def rebuild_totals(db: Sql, guild_id: int, preset: str, player_id: int) -> None:
    """A player's totals for a preset, in one guild and over every guild, from the days."""
    for scope, where, rest in ((guild_id, " AND guild_id = ?", (guild_id,)),
                               (ALL_GUILDS, "", ())):
        await db.run("DELETE FROM player_totals WHERE guild_id = ? AND preset = ?"
                     " AND player_id = ?", (scope, preset, player_id))
        await db.run(
            f"INSERT INTO player_totals (guild_id, preset, player_id, {COLS_SQL})"
            f" SELECT CAST(? AS BIGINT), preset, player_id, {SUM_SQL} FROM player_days"
            f" WHERE player_id = ? AND preset = ?{where} GROUP BY player_id, preset",
            (scope, player_id, preset, *rest))


async def clear_guild(db: Sql, guild_id: int) -> None:
    """Drop a guild's summaries (its matches were all excluded)."""
    touched = await db.rows("SELECT preset, player_id FROM player_totals WHERE guild_id = ?"
                            " ORDER BY player_id, preset", (guild_id,))
    await db.run("DELETE FROM player_days WHERE guild_id = ?", (guild_id,))
    for preset, player_id in touched:
        await rebuild_totals(db, guild_id, preset, player_id)
