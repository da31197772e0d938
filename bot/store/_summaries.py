"""The summaries leaderboards read: ``player_days`` and ``player_totals`` (humans only).

Both are sums over the recorded matches not excluded, kept in the transaction that records
(or excludes) a match: adding a match adds its seats; excluding rebuilds only the rows it
counted in, from the matches that remain (days) and from the days (totals).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

ALL_GUILDS = -1  # player_totals' row over every guild (the global scope)
COLUMNS = ("matches", "wins", "hands", "points", "contracts_made", "contracts_failed",
           "rospisat", "dashes", "barrel_wins")
COLS_SQL = ", ".join(COLUMNS)
ADD_SQL = ", ".join(f"{c} = {c} + excluded.{c}" for c in COLUMNS)
SUM_SQL = ", ".join(f"SUM({c})" for c in COLUMNS)
# Seats of recorded matches as summary sums, in COLUMNS' order.
SEAT_SUMS = ("COUNT(*), SUM(s.winner), SUM(s.hands), SUM(s.points), SUM(s.contracts_made),"
              " SUM(s.contracts_failed), SUM(s.rospisat), SUM(s.dashes), SUM(s.barrel_win)")
SEATS_SQL = (" FROM match_records m JOIN match_seats s ON s.match_id = m.id"
          " JOIN players p ON p.id = s.player_id AND p.kind = 'human'")
_DAY = "CAST(m.finished_at / 86400 AS INTEGER)"


def add_match(db: sqlite3.Connection, match_id: int) -> None:
    """Add a newly recorded match's human seats to the day rows and the totals."""
    db.execute(
        f"INSERT INTO player_days (guild_id, day, preset, player_id, {COLS_SQL})"
        f" SELECT m.guild_id, {_DAY}, m.preset, s.player_id, {SEAT_SUMS}{SEATS_SQL}"
        f" WHERE m.id = ? GROUP BY s.player_id"
        f" ON CONFLICT (guild_id, day, preset, player_id) DO UPDATE SET {ADD_SQL}", (match_id,))
    for scope in ("m.guild_id", str(ALL_GUILDS)):
        db.execute(
            f"INSERT INTO player_totals (guild_id, preset, player_id, {COLS_SQL})"
            f" SELECT {scope}, m.preset, s.player_id, {SEAT_SUMS}{SEATS_SQL}"
            f" WHERE m.id = ? GROUP BY s.player_id"
            f" ON CONFLICT (guild_id, preset, player_id) DO UPDATE SET {ADD_SQL}", (match_id,))


def rebuild_day(db: sqlite3.Connection, guild_id: int, day: int, preset: str,
                players: Iterable[int]) -> None:
    """Day rows (and then totals) of these players again, from the matches that count."""
    for player_id in players:
        key = (guild_id, day, preset, player_id)
        db.execute("DELETE FROM player_days WHERE guild_id = ? AND day = ? AND preset = ?"
                   " AND player_id = ?", key)
        db.execute(
            f"INSERT INTO player_days (guild_id, day, preset, player_id, {COLS_SQL})"
            f" SELECT m.guild_id, {_DAY}, m.preset, s.player_id, {SEAT_SUMS}{SEATS_SQL}"
            f" WHERE m.guild_id = ? AND m.excluded = 0 AND {_DAY} = ? AND m.preset = ?"
            f" AND s.player_id = ? GROUP BY s.player_id", key)
        rebuild_totals(db, guild_id, preset, player_id)


def rebuild_totals(db: sqlite3.Connection, guild_id: int, preset: str,
                   player_id: int) -> None:
    """A player's totals for a preset, in one guild and over every guild, from the days."""
    for scope, where in ((guild_id, "guild_id = ?"), (ALL_GUILDS, "? IS NOT NULL")):
        db.execute("DELETE FROM player_totals WHERE guild_id = ? AND preset = ?"
                   " AND player_id = ?", (scope, preset, player_id))
        db.execute(
            f"INSERT INTO player_totals (guild_id, preset, player_id, {COLS_SQL})"
            f" SELECT ?, preset, player_id, {SUM_SQL} FROM player_days"
            f" WHERE player_id = ? AND preset = ? AND {where} GROUP BY player_id",
            (scope, player_id, preset, guild_id))


def clear_guild(db: sqlite3.Connection, guild_id: int) -> None:
    """Drop a guild's summaries (its matches were all excluded)."""
    touched = db.execute("SELECT preset, player_id FROM player_totals WHERE guild_id = ?",
                         (guild_id,)).fetchall()
    db.execute("DELETE FROM player_days WHERE guild_id = ?", (guild_id,))
    for preset, player_id in touched:
        rebuild_totals(db, guild_id, preset, player_id)
