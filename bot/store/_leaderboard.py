"""Leaderboards: one query each, over the summaries (never over the hands).

All-time counting metrics read ``player_totals`` (one row per player and preset); those of
a period sum ``player_days`` (at most its days of rows; its first day, which only partly
counts, is read from the recorded matches themselves); the rating reads ``ratings``. Only
human players are ranked; the global scope (no guild) shows only users who opted in.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.store._community import LeaderRow, Metric
from bot.store._recording import DAY, day_of
from bot.store._summaries import ALL_GUILDS

# (value, the rows that have one) by metric, over the sums of one player.
_VALUES: dict[Metric, tuple[str, str]] = {
    Metric.WINS: ("wins", "TRUE"),
    Metric.MATCHES: ("matches", "TRUE"),
    Metric.BARREL_WINS: ("barrel_wins", "TRUE"),
    Metric.WIN_RATE: ("100.0 * wins / matches", "matches > 0"),
    Metric.POINTS_PER_HAND: ("1.0 * points / hands", "hands > 0"),
    Metric.CONTRACTS_MADE: ("100.0 * contracts_made / (contracts_made + contracts_failed)",
                            "contracts_made + contracts_failed > 0"),
}
_SUMS = ("SUM(matches) AS matches, SUM(wins) AS wins, SUM(hands) AS hands,"
         " SUM(points) AS points, SUM(contracts_made) AS contracts_made,"
         " SUM(contracts_failed) AS contracts_failed, SUM(barrel_wins) AS barrel_wins")
_ORDER = " ORDER BY value DESC, matches DESC, p.name, p.id LIMIT ? OFFSET ?"


def _players(guild_id: int | None) -> str:
    """The join that names the rows (and, globally, keeps only those who opted in)."""
    sql = " JOIN players p ON p.id = a.player_id AND p.kind = 'human'"
    if guild_id is None:
        sql += " JOIN global_opt_ins o ON o.user_id = p.user_id"
    return sql


Fetch = Callable[[str, Sequence[Any]], Awaitable[list[Any]]]


def _rating_sql(dialect: str, guild_id: int | None,
                family: str | None) -> tuple[str, list[Any]]:
    where: list[str] = ["TRUE"]
    args: list[Any] = []
    if guild_id is not None:
        where.append("guild_id = ?")
        args.append(guild_id)
    if family is not None:
        where.append("family = ?")
        args.append(family)
    # Globally (or over every family) a player's best rating counts: with MAX(), SQLite
    # takes the bare column ``matches`` from the row of the maximum; PostgreSQL says so
    # with DISTINCT ON.
    if dialect == "postgresql":
        inner = (f"SELECT DISTINCT ON (player_id) player_id, value, matches FROM ratings"
                 f" WHERE {' AND '.join(where)} ORDER BY player_id, value DESC")
    else:
        inner = (f"SELECT player_id, MAX(value) AS value, matches FROM ratings"
                 f" WHERE {' AND '.join(where)} GROUP BY player_id")
    return inner, args


def _count_sql(guild_id: int | None, preset: str | None,
               since: float | None) -> tuple[str, list[Any]]:
    where: list[str] = ["guild_id = ?"]
    args: list[Any] = [ALL_GUILDS if guild_id is None else guild_id]
    if preset is not None:
        where.append("preset = ?")
        args.append(preset)
    cols = "player_id, matches, wins, hands, points, contracts_made, contracts_failed," \
           " barrel_wins"
    if since is None:  # all time: one row per player and preset
        return (f"SELECT player_id, {_SUMS} FROM player_totals"
                f" WHERE {' AND '.join(where)} GROUP BY player_id", args)
    if guild_id is None:
        where[0], args = "TRUE", args[1:]
    where.append("day > ?")
    args.append(day_of(since))
    sql = f"SELECT {cols} FROM player_days WHERE {' AND '.join(where)}"
    # The first day of the period counts only from ``since``: from the matches themselves.
    first = ["m.excluded = 0", "m.finished_at >= ?", "m.finished_at < ?"]
    args += [since, (day_of(since) + 1) * DAY]
    if guild_id is not None:
        first.append("m.guild_id = ?")
        args.append(guild_id)
    if preset is not None:
        first.append("m.preset = ?")
        args.append(preset)
    sql += (" UNION ALL SELECT s.player_id, 1, s.winner, s.hands, s.points,"
            " s.contracts_made, s.contracts_failed, s.barrel_win"
            " FROM match_records m JOIN match_seats s ON s.match_id = m.id"
            f" WHERE {' AND '.join(first)}")
    return f"SELECT player_id, {_SUMS} FROM ({sql}) AS u GROUP BY player_id", args


async def leaderboard(fetch: Fetch, dialect: str, guild_id: int | None, metric: Metric, *,
                      preset: str | None = None, since: float | None = None,
                      limit: int = 10, offset: int = 0,
                      min_matches: int = 1) -> tuple[list[LeaderRow], int]:
    """One page of a leaderboard and how many rows it has (see :meth:`Store.leaderboard`)."""
    if metric is Metric.RATING:
        inner, args = _rating_sql(dialect, guild_id, preset)
        value, has = "a.value", "TRUE"
    else:
        inner, args = _count_sql(guild_id, preset, since)
        value, has = _VALUES[metric]
    sql = (f"SELECT p.id, p.user_id, p.name, {value} AS value, a.matches AS matches,"
           f" COUNT(*) OVER () FROM ({inner}) a{_players(guild_id)}"
           f" WHERE a.matches >= ? AND {has}{_ORDER}")
    rows = await fetch(sql, (*args, min_matches, limit, offset))
    if rows:
        total = int(rows[0][5])
    elif offset > 0:  # past the end: the count needs its own query
        found = await fetch(f"SELECT COUNT(*) FROM ({inner}) a{_players(guild_id)}"
                            f" WHERE a.matches >= ? AND {has}", (*args, min_matches))
        total = int(found[0][0]) if found else 0
    else:
        total = 0
    return [LeaderRow(offset + i + 1, r[0], r[1], r[2], float(r[3]), int(r[4]))
            for i, r in enumerate(rows)], total
