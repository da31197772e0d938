"""Writes of the community record (a mixin of :class:`bot.store.Tx`).

A match is recorded once, in the transaction that finishes it: its row, its seats with their
hand aggregates, the players' day summaries and the ratings all commit together, so a
restart can neither lose nor double them. Removing a match recomputes only what it touched.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Sequence
from typing import Any

from bot.store._community import GuildSettings, MatchRecord, PlayerKind, PlayerRef
from bot.store._ratings import rate_match, recompute_family
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


class RecordWrites:
    """Players, guild settings and recorded matches, inside one transaction."""

    db: sqlite3.Connection
    settings_changed: set[int]
    players_changed: set[int]

    async def touch_players(self, players: Sequence[PlayerRef], now: float) -> list[int]:
        """Upsert players (humans by user id, with their name; AI one per level); ids."""
        return [self._touch(p, now) for p in players]

    async def seen_players(self, players: Sequence[PlayerRef], now: float) -> None:
        """Players seen now (as :meth:`touch_players`, when no id is needed)."""
        await self.touch_players(players, now)

    def _touch(self, p: PlayerRef, now: float) -> int:
        if p.kind is PlayerKind.HUMAN:
            if p.user_id is None:
                raise ValueError("a human player needs a user id")
            found = self.db.execute(
                "SELECT id FROM players WHERE kind = 'human' AND user_id = ?",
                (p.user_id,)).fetchone()
        else:
            found = self.db.execute(
                "SELECT id, name = ? AND last_seen >= ? FROM players"
                " WHERE kind = 'ai' AND level = ?",
                (p.name, now - AI_SEEN_EVERY, p.level)).fetchone()
            if found is not None and found[1]:
                return int(found[0])
        if found is not None:
            self.db.execute(
                "UPDATE players SET name = ?, last_seen = MAX(last_seen, ?) WHERE id = ?",
                (p.name, now, found[0]))
            return int(found[0])
        cur = self.db.execute(
            "INSERT INTO players (kind, user_id, level, name, first_seen, last_seen)"
            " VALUES (?,?,?,?,?,?)",
            (p.kind.value, p.user_id if p.kind is PlayerKind.HUMAN else None,
             p.level if p.kind is PlayerKind.AI else "", p.name, now, now))
        assert cur.lastrowid is not None
        return cur.lastrowid

    async def record_match(self, rec: MatchRecord, now: float) -> int:
        """Record a won match with its summaries and ratings; its public id. A second call
        for the same (table_id, match_no) changes nothing and returns the same id."""
        found = self.db.execute(
            "SELECT id FROM match_records WHERE table_id = ? AND match_no = ?",
            (rec.table_id, rec.match_no)).fetchone()
        if found is not None:
            return int(found[0])
        _check(rec)
        ids = [self._touch(p, now) for p in rec.players]
        rated = set(rec.rated_seats) if rec.rated else set()
        cur = self.db.execute(
            "INSERT INTO match_records (guild_id, table_id, match_no, preset, family,"
            " started_at, finished_at, hands, rated, recorded_at)"
            " VALUES (?,?,?,?,?,?,?,?,?,?)",
            (guild_key(rec.guild_id), rec.table_id, rec.match_no, rec.preset, rec.family,
             rec.started_at, rec.finished_at, len(rec.hands), int(len(rated) >= 2), now))
        match_id = cur.lastrowid
        assert match_id is not None
        self.db.executemany(
            "INSERT INTO match_seats (match_id, seat, player_id, name, total, winner,"
            " barrel_win, rated, hands, points, contracts_made, contracts_failed, rospisat,"
            " dashes) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [(match_id, seat, ids[seat], p.name, rec.totals[seat], int(seat in rec.winners),
              int(rec.barrel_wins[seat]), int(seat in rated), *seat_aggregates(rec, seat))
             for seat, p in enumerate(rec.players)])
        add_match(self.db, match_id)
        if len(rated) >= 2:
            rate_match(self.db, match_id)
        return match_id

    async def set_guild_settings(self, guild_id: int, **changes: Any) -> None:
        """Change some of a guild's settings (fields of :class:`GuildSettings`)."""
        sql, values = settings_update(changes)
        self.settings_changed.add(guild_id)
        self.db.execute("INSERT OR IGNORE INTO guild_settings (guild_id, default_preset)"
                        " VALUES (?, '')", (guild_id,))
        if values:
            self.db.execute(sql, (*values, guild_id))

    async def reset_guild(self, guild_id: int, now: float) -> int:
        """Exclude every recorded match of a guild, clearing its summaries and ratings;
        how many matches."""
        cur = self.db.execute(
            "UPDATE match_records SET excluded = 1, excluded_at = ?"
            " WHERE guild_id = ? AND excluded = 0", (now, guild_id))
        clear_guild(self.db, guild_id)
        self.db.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
        self.db.execute("DELETE FROM rating_history WHERE guild_id = ?", (guild_id,))
        return cur.rowcount

    async def remove_match(self, guild_id: int, match_id: int, now: float) -> bool:
        """Exclude one match of a guild and recompute what it counted in (False: no such
        match in that guild)."""
        row = self.db.execute(
            "SELECT preset, family, CAST(finished_at / 86400 AS INTEGER), rated"
            " FROM match_records WHERE id = ? AND guild_id = ? AND excluded = 0",
            (match_id, guild_id)).fetchone()
        if row is None:
            return False
        preset, family, day, rated = row
        self.db.execute("UPDATE match_records SET excluded = 1, excluded_at = ? WHERE id = ?",
                        (now, match_id))
        players = [r[0] for r in self.db.execute(
            "SELECT player_id FROM match_seats WHERE match_id = ?", (match_id,))]
        rebuild_day(self.db, guild_id, day, preset, players)
        if rated:
            recompute_family(self.db, guild_id, family, match_id)
        return True

    async def set_global_opt_in(self, user_id: int, on: bool) -> None:
        """Show (or stop showing) this user on the global leaderboards."""
        if on:
            self.db.execute("INSERT OR IGNORE INTO global_opt_ins (user_id) VALUES (?)",
                            (user_id,))
        else:
            self.db.execute("DELETE FROM global_opt_ins WHERE user_id = ?", (user_id,))
        self.players_changed.add(user_id)

    async def set_turn_ping(self, user_id: int, on: bool) -> None:
        """Tell (or stop telling) this user in the channel when a turn comes."""
        if on:
            self.db.execute("INSERT OR IGNORE INTO turn_pings (user_id) VALUES (?)", (user_id,))
        else:
            self.db.execute("DELETE FROM turn_pings WHERE user_id = ?", (user_id,))
        self.players_changed.add(user_id)
