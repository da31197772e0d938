"""Writes of the community record (a mixin of both stores' transactions, one SQL for both).

A match is recorded once, in the transaction that finishes it: its row, its seats with their
hand aggregates, the players' day summaries and the ratings all commit together, so a
restart can neither lose nor double them. Removing a match recomputes only what it touched.

PostgreSQL adds other writers: several bot processes may finish matches with the same
players at the same moment. Each transaction locks what it reads before it writes, always
in the same order (players by key, then their rating rows by player id), so that the second
one waits for the first one's commit and then reads its result: a rating moves exactly once
per match, and matches are rated in the order of their ids.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from bot.store._community import GuildSettings, MatchRecord, PlayerKind, PlayerRef
from bot.store._ratings import rate_match, recompute_family
from bot.store._sql import Dialect, Sql
from bot.store._summaries import add_match, clear_guild, rebuild_day

DAY = 86400
# An AI level's one row is shared by every table: refreshing it at most this often keeps
# each match's first transaction from waiting on the others for its row lock (PostgreSQL).
AI_SEEN_EVERY = 3600.0
SETTINGS_FIELDS = frozenset(f.name for f in dataclasses.fields(GuildSettings)) - {"guild_id"}


def settings_update(changes: dict[str, Any]) -> tuple[str, list[Any]]:
    """The UPDATE of a guild's settings row (``?`` placeholders, the guild id last) and its
    values; ValueError for a name that is not a setting."""
    bad = set(changes) - SETTINGS_FIELDS
    if bad:
        raise ValueError(f"not guild settings: {sorted(bad)}")
    cols = ", ".join(f"{k} = ?" for k in changes)  # names checked above
    values = [int(v) if isinstance(v, bool) else v for v in changes.values()]
    return f"UPDATE guild_settings SET {cols} WHERE guild_id = ?", values


def guild_key(guild_id: int | None) -> int:
    """The guild as stored in the record's tables (0: outside a guild)."""
    return guild_id if guild_id is not None else 0


def day_of(at: float) -> int:
    """The UTC day number of a time (as ``player_days.day``)."""
    return int(at // DAY)


def seat_aggregates(rec: MatchRecord, seat: int) -> tuple[int, int, int, int, int, int]:
    """(hands, points, contracts made, failed, rospisat, dashes) of one seat."""
    lines = [hand[seat] for hand in rec.hands]
    return (len(lines), sum(h.delta for h in lines),
            sum(1 for h in lines if h.declarer and h.made is True),
            sum(1 for h in lines if h.declarer and h.made is False),
            sum(1 for h in lines if h.rospisat), sum(1 for h in lines if h.dash))


def _check(rec: MatchRecord) -> None:
    n = len(rec.players)
    if len(rec.totals) != n or len(rec.barrel_wins) != n:
        raise ValueError("players, totals and barrel_wins must have one entry per seat")
    if any(len(hand) != n for hand in rec.hands):
        raise ValueError("every hand needs one line per seat")
    if any(not 0 <= s < n for s in (*rec.winners, *rec.rated_seats)):
        raise ValueError("winners and rated_seats must be seats")


_INSERT_PLAYER = "INSERT INTO players (kind, user_id, level, name, first_seen, last_seen)"


@lru_cache(maxsize=8)
def _upsert(kind: PlayerKind, dialect: Dialect) -> str:
    """Insert or refresh a player (values: user id or level, name, now); touch_players
    adds RETURNING id."""
    first = "'human', ?1, ''" if kind is PlayerKind.HUMAN else "'ai', NULL, ?1"
    key = "user_id" if kind is PlayerKind.HUMAN else "level"
    return (f"{_INSERT_PLAYER} VALUES ({first}, ?2, ?3, ?3)"
            f" ON CONFLICT ({key}) WHERE kind = '{kind.value}' DO UPDATE SET"
            f" name = excluded.name,"
            f" last_seen = {dialect.greatest}(players.last_seen, excluded.last_seen)")


# An AI level's row is shared by every table: DO NOTHING takes no lock on it, and the UPDATE
# locks it only when it matches (a rename, or once every AI_SEEN_EVERY).
_NEW_AI = (f"{_INSERT_PLAYER} VALUES ('ai', NULL, ?1, ?2, ?3, ?3)"
           " ON CONFLICT (level) WHERE kind = 'ai' DO NOTHING")


@lru_cache(maxsize=2)
def _stale_ai(dialect: Dialect) -> str:
    """Refresh an AI level's row only if renamed or stale (values: level, name, now, the
    oldest fresh time)."""
    return (f"UPDATE players SET name = ?2, last_seen = {dialect.greatest}(last_seen, ?3)"
            " WHERE kind = 'ai' AND level = ?1 AND (name <> ?2 OR last_seen < ?4)")


def _in_order(players: Sequence[PlayerRef]) -> list[tuple[tuple[str, int, str], PlayerRef]]:
    """Each player once, keyed, in one order for every transaction (two that share players
    cannot deadlock); ValueError for a human without a user id."""
    for p in players:
        if p.kind is PlayerKind.HUMAN and p.user_id is None:
            raise ValueError("a human player needs a user id")
    return sorted({(p.kind.value, p.user_id or 0, p.level): p for p in players}.items())


class RecordWrites:
    """Players, guild settings and recorded matches, inside one transaction."""

    dialect: Dialect
    settings_changed: set[int]
    players_changed: set[int]

    if TYPE_CHECKING:
        def _write(self, sql: str, args: tuple[Any, ...]) -> None:
            """A statement that answers nothing (each store's own: at once, or kept)."""

    async def _sql(self) -> Sql:
        """The connection for statements whose answer is awaited (each store's own)."""
        raise NotImplementedError

    async def _lock_ratings(self, db: Sql, guild_id: int, family: str,
                            players: Iterable[int]) -> None:
        """Lock the players' rating rows before the match that moves them gets its id
        (SQLite: nothing to do, one writer at a time)."""

    async def touch_players(self, players: Sequence[PlayerRef], now: float) -> list[int]:
        """Upsert players (humans by user id, with their name; AI one per level); ids."""
        db = await self._sql()
        ids: dict[tuple[str, int, str], int] = {}
        for key, p in _in_order(players):
            if p.kind is PlayerKind.AI:  # fresh enough: read it without locking the row
                found = await db.value(
                    "SELECT id FROM players WHERE kind = 'ai' AND level = ? AND name = ?"
                    " AND last_seen >= ?", (p.level, p.name, now - AI_SEEN_EVERY))
                if found is not None:
                    ids[key] = int(found)
                    continue
            first = p.user_id if p.kind is PlayerKind.HUMAN else p.level
            ids[key] = int(await db.value(f"{_upsert(p.kind, db.dialect)} RETURNING id",
                                          (first, p.name, now)))
        return [ids[(p.kind.value, p.user_id or 0, p.level)] for p in players]

    async def seen_players(self, players: Sequence[PlayerRef], now: float) -> None:
        """Players seen now (as :meth:`touch_players`), with no answer awaited; an AI level's
        row is neither locked nor rewritten unless it is new, renamed or stale (see
        ``AI_SEEN_EVERY``)."""
        dialect = self.dialect
        for _, p in _in_order(players):
            if p.kind is PlayerKind.HUMAN:
                self._write(_upsert(p.kind, dialect), (p.user_id, p.name, now))
            else:
                self._write(_NEW_AI, (p.level, p.name, now))
                self._write(_stale_ai(dialect), (p.level, p.name, now, now - AI_SEEN_EVERY))

    async def record_match(self, rec: MatchRecord, now: float) -> int:
        """Record a won match with its summaries and ratings; its public id. A second call
        for the same (table_id, match_no) changes nothing and returns the same id."""
        db = await self._sql()
        found = await db.value(
            "SELECT id FROM match_records WHERE table_id = ? AND match_no = ?",
            (rec.table_id, rec.match_no))
        if found is not None:
            return int(found)
        _check(rec)
        ids = await self.touch_players(rec.players, now)
        rated = set(rec.rated_seats) if rec.rated else set()
        guild = guild_key(rec.guild_id)
        if rec.rated:  # before the match gets its id: rated in the order of the ids
            await self._lock_ratings(db, guild, rec.family, [ids[s] for s in rated])
        match_id = int(await db.value(
            "INSERT INTO match_records (guild_id, table_id, match_no, preset, family,"
            " started_at, finished_at, hands, rated, recorded_at)"
            " VALUES (?,?,?,?,?,?,?,?,?,?) RETURNING id",
            (guild, rec.table_id, rec.match_no, rec.preset, rec.family, rec.started_at,
             rec.finished_at, len(rec.hands), int(rec.rated), now)))
        await db.run_many(
            "INSERT INTO match_seats (match_id, seat, player_id, name, total, winner,"
            " barrel_win, rated, hands, points, contracts_made, contracts_failed, rospisat,"
            " dashes) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [(match_id, seat, ids[seat], p.name, rec.totals[seat], int(seat in rec.winners),
              int(rec.barrel_wins[seat]), int(seat in rated), *seat_aggregates(rec, seat))
             for seat, p in enumerate(rec.players)])
        await add_match(db, match_id)
        if rec.rated:
            await rate_match(db, match_id)
        return match_id

    async def set_guild_settings(self, guild_id: int, **changes: Any) -> None:
        """Change some of a guild's settings (fields of :class:`GuildSettings`)."""
        sql, values = settings_update(changes)
        self.settings_changed.add(guild_id)
        self._write("INSERT INTO guild_settings (guild_id, default_preset) VALUES (?, '')"
                    " ON CONFLICT DO NOTHING", (guild_id,))
        if values:
            self._write(sql, (*values, guild_id))

    async def reset_guild(self, guild_id: int, now: float) -> int:
        """Exclude every recorded match of a guild, clearing its summaries and ratings;
        how many matches."""
        db = await self._sql()
        count = await db.run(
            "UPDATE match_records SET excluded = 1, excluded_at = ?"
            " WHERE guild_id = ? AND excluded = 0", (now, guild_id))
        await clear_guild(db, guild_id)
        await db.run("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
        await db.run("DELETE FROM rating_history WHERE guild_id = ?", (guild_id,))
        return count

    async def remove_match(self, guild_id: int, match_id: int, now: float) -> bool:
        """Exclude one match of a guild and recompute what it counted in (False: no such
        match in that guild)."""
        db = await self._sql()
        row = await db.row(
            f"SELECT preset, family, {db.dialect.day('finished_at')}, rated"
            f" FROM match_records WHERE id = ? AND guild_id = ? AND excluded = 0"
            f"{db.dialect.lock}", (match_id, guild_id))
        if row is None:
            return False
        preset, family, day, rated = row
        await db.run("UPDATE match_records SET excluded = 1, excluded_at = ? WHERE id = ?",
                     (now, match_id))
        players = [r[0] for r in await db.rows(
            "SELECT player_id FROM match_seats WHERE match_id = ? ORDER BY player_id",
            (match_id,))]
        await rebuild_day(db, guild_id, day, preset, players)
        if rated:
            await recompute_family(db, guild_id, family, match_id)
        return True

    async def set_global_opt_in(self, user_id: int, on: bool) -> None:
        """Show (or stop showing) this user on the global leaderboards."""
        if on:
            self._write("INSERT INTO global_opt_ins (user_id) VALUES (?)"
                        " ON CONFLICT DO NOTHING", (user_id,))
        else:
            self._write("DELETE FROM global_opt_ins WHERE user_id = ?", (user_id,))
        self.players_changed.add(user_id)

    async def set_turn_ping(self, user_id: int, on: bool) -> None:
        """Tell (or stop telling) this user in the channel when a turn comes."""
        if on:
            self._write("INSERT INTO turn_pings (user_id) VALUES (?) ON CONFLICT DO NOTHING",
                        (user_id,))
        else:
            self._write("DELETE FROM turn_pings WHERE user_id = ?", (user_id,))
        self.players_changed.add(user_id)
