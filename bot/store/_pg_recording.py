"""Writes of the community record on PostgreSQL (a mixin of :class:`bot.store.PgTx`).

The same records as :mod:`bot.store._recording` with the same SQL where the dialects
agree. What PostgreSQL adds is other writers: several bot processes may finish matches
with the same players at the same moment. Each transaction locks what it reads before it
writes, always in the same order (players by key, then their rating rows by player id), so
that the second one waits for the first one's commit and then reads its result: a rating
moves exactly once per match, and matches are rated in the order of their ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import asyncpg

from bot.store._community import MatchRecord, PlayerKind, PlayerRef
from bot.store._ratings import (
    ADD_HISTORY,
    DROP_HISTORY,
    DROP_RATINGS,
    LATER_MATCHES,
    MODEL,
    RATED_MATCH,
    RATED_SEATS,
    RATING_OF,
    RATINGS_FROM_HISTORY,
    SET_RATING,
    conservative,
    new_ratings,
)
from bot.store._recording import (
    AI_SEEN_EVERY,
    _check,
    guild_key,
    seat_aggregates,
    settings_update,
)
from bot.store._sql import to_pg
from bot.store._summaries import (
    ALL_GUILDS,
    COLS_SQL,
    COLUMNS,
    SEAT_SUMS,
    SEATS_SQL,
    SUM_SQL,
)


def _add(table: str) -> str:
    """The upsert's sums (PostgreSQL wants the old row named)."""
    return ", ".join(f"{c} = {table}.{c} + EXCLUDED.{c}" for c in COLUMNS)


_DAY = "FLOOR(m.finished_at / 86400)::INTEGER"  # as SQLite's CAST (times are positive)
_INSERT_PLAYER = "INSERT INTO players (kind, user_id, level, name, first_seen, last_seen)"
_SEEN = (" DO UPDATE SET name = EXCLUDED.name,"
         " last_seen = GREATEST(players.last_seen, EXCLUDED.last_seen)")
_UPSERT = {  # answers nothing (with the kept writes); touch_players adds RETURNING id
    PlayerKind.HUMAN: (
        f"{_INSERT_PLAYER} VALUES ('human', $1, '', $2, $3, $3)"
        f" ON CONFLICT (user_id) WHERE kind = 'human'{_SEEN}"),
    PlayerKind.AI: (
        f"{_INSERT_PLAYER} VALUES ('ai', NULL, $1, $2, $3, $3)"
        f" ON CONFLICT (level) WHERE kind = 'ai'{_SEEN}"),
}
# An AI level's row is shared by every table: DO NOTHING takes no lock on it, and the UPDATE
# locks it only when it matches (a rename, or once every AI_SEEN_EVERY).
_NEW_AI = (f"{_INSERT_PLAYER} VALUES ('ai', NULL, $1, $2, $3, $3)"
           " ON CONFLICT (level) WHERE kind = 'ai' DO NOTHING")
_STALE_AI = (
    "UPDATE players SET name = $2, last_seen = GREATEST(last_seen, $3)"
    " WHERE kind = 'ai' AND level = $1 AND (name <> $2 OR last_seen < $4)")


def _in_order(players: Sequence[PlayerRef]) -> list[tuple[tuple[str, int, str], PlayerRef]]:
    """Each player once, keyed, in one order for every transaction (two that share players
    cannot deadlock); ValueError for a human without a user id."""
    for p in players:
        if p.kind is PlayerKind.HUMAN and p.user_id is None:
            raise ValueError("a human player needs a user id")
    return sorted({(p.kind.value, p.user_id or 0, p.level): p for p in players}.items())


def _count(status: str) -> int:
    """The row count of a command status such as ``UPDATE 3``."""
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


class PgRecordWrites:
    """Players, guild settings and recorded matches, inside one PostgreSQL transaction."""

    conn: asyncpg.Connection
    settings_changed: set[int]
    players_changed: set[int]

    def later(self, sql: str, *args: Any) -> None:
        """Keep a statement that returns nothing, sent with the others (see PgTx)."""
        raise NotImplementedError

    async def begun(self) -> asyncpg.Connection:
        """The connection inside a real transaction, with the kept writes sent."""
        raise NotImplementedError

    async def touch_players(self, players: Sequence[PlayerRef], now: float) -> list[int]:
        """Upsert players (humans by user id, with their name; AI one per level); ids."""
        ids: dict[tuple[str, int, str], int] = {}
        c = await self.begun()
        for key, p in _in_order(players):
            if p.kind is PlayerKind.AI:  # fresh enough: read it without locking the row
                found = await c.fetchval(
                    "SELECT id FROM players WHERE kind = 'ai' AND level = $1 AND name = $2"
                    " AND last_seen >= $3", p.level, p.name, now - AI_SEEN_EVERY)
                if found is not None:
                    ids[key] = int(found)
                    continue
            first = p.user_id if p.kind is PlayerKind.HUMAN else p.level
            ids[key] = int(await c.fetchval(f"{_UPSERT[p.kind]} RETURNING id", first, p.name, now))
        return [ids[(p.kind.value, p.user_id or 0, p.level)] for p in players]

    async def seen_players(self, players: Sequence[PlayerRef], now: float) -> None:
        """Players seen now (as :meth:`touch_players`), written with the other kept writes:
        no answer is awaited, and an AI level's row is neither locked nor rewritten unless
        it is new, renamed or stale (see ``AI_SEEN_EVERY``)."""
        for _, p in _in_order(players):
            if p.kind is PlayerKind.HUMAN:
                self.later(_UPSERT[p.kind], p.user_id, p.name, now)
            else:
                self.later(_NEW_AI, p.level, p.name, now)
                self.later(_STALE_AI, p.level, p.name, now, now - AI_SEEN_EVERY)

    async def record_match(self, rec: MatchRecord, now: float) -> int:
        """Record a won match with its summaries and ratings; its public id. A second call
        for the same (table_id, match_no) changes nothing and returns the same id."""
        c = await self.begun()
        found = await c.fetchval(
            "SELECT id FROM match_records WHERE table_id = $1 AND match_no = $2",
            rec.table_id, rec.match_no)
        if found is not None:
            return int(found)
        _check(rec)
        ids = await self.touch_players(rec.players, now)
        rated = set(rec.rated_seats) if rec.rated else set()
        guild = guild_key(rec.guild_id)
        if len(rated) >= 2:  # before the match gets its id: rated in the order of the ids
            await _lock_ratings(c, guild, rec.family, [ids[s] for s in rated])
        match_id = int(await c.fetchval(
            "INSERT INTO match_records (guild_id, table_id, match_no, preset, family,"
            " started_at, finished_at, hands, rated, recorded_at)"
            " VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) RETURNING id",
            guild, rec.table_id, rec.match_no, rec.preset, rec.family, rec.started_at,
            rec.finished_at, len(rec.hands), int(len(rated) >= 2), now))
        await c.executemany(
            "INSERT INTO match_seats (match_id, seat, player_id, name, total, winner,"
            " barrel_win, rated, hands, points, contracts_made, contracts_failed, rospisat,"
            " dashes) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14)",
            [(match_id, seat, ids[seat], p.name, rec.totals[seat], int(seat in rec.winners),
              int(rec.barrel_wins[seat]), int(seat in rated), *seat_aggregates(rec, seat))
             for seat, p in enumerate(rec.players)])
        await _add_match(c, match_id)
        if len(rated) >= 2:
            await _rate_match(c, match_id)
        return match_id

    async def set_guild_settings(self, guild_id: int, **changes: Any) -> None:
        """Change some of a guild's settings (fields of :class:`GuildSettings`)."""
        sql, values = settings_update(changes)
        self.settings_changed.add(guild_id)
        self.later(
            "INSERT INTO guild_settings (guild_id, default_preset) VALUES ($1, '')"
            " ON CONFLICT DO NOTHING", guild_id)
        if values:
            self.later(to_pg(sql), *values, guild_id)

    async def reset_guild(self, guild_id: int, now: float) -> int:
        """Exclude every recorded match of a guild, clearing its summaries and ratings;
        how many matches."""
        c = await self.begun()
        status = await c.execute(
            "UPDATE match_records SET excluded = 1, excluded_at = $1"
            " WHERE guild_id = $2 AND excluded = 0", now, guild_id)
        touched = await c.fetch("SELECT preset, player_id FROM player_totals WHERE guild_id = $1"
                                " ORDER BY player_id, preset", guild_id)
        await c.execute("DELETE FROM player_days WHERE guild_id = $1", guild_id)
        for preset, player_id in touched:
            await _rebuild_totals(c, guild_id, preset, player_id)
        await c.execute("DELETE FROM ratings WHERE guild_id = $1", guild_id)
        await c.execute("DELETE FROM rating_history WHERE guild_id = $1", guild_id)
        return _count(status)

    async def remove_match(self, guild_id: int, match_id: int, now: float) -> bool:
        """Exclude one match of a guild and recompute what it counted in (False: no such
        match in that guild)."""
        c = await self.begun()
        row = await c.fetchrow(
            "SELECT preset, family, FLOOR(finished_at / 86400)::INTEGER, rated"
            " FROM match_records WHERE id = $1 AND guild_id = $2 AND excluded = 0 FOR UPDATE",
            match_id, guild_id)
        if row is None:
            return False
        preset, family, day, rated = row
        await c.execute("UPDATE match_records SET excluded = 1, excluded_at = $1 WHERE id = $2",
                        now, match_id)
        players = [r[0] for r in await c.fetch(
            "SELECT player_id FROM match_seats WHERE match_id = $1 ORDER BY player_id",
            match_id)]
        for player_id in players:
            await _rebuild_day(c, guild_id, day, preset, player_id)
        if rated:
            await _recompute_family(c, guild_id, family, match_id)
        return True

    async def set_global_opt_in(self, user_id: int, on: bool) -> None:
        """Show (or stop showing) this user on the global leaderboards."""
        if on:
            self.later(
                "INSERT INTO global_opt_ins (user_id) VALUES ($1) ON CONFLICT DO NOTHING",
                user_id)
        else:
            self.later("DELETE FROM global_opt_ins WHERE user_id = $1", user_id)
        self.players_changed.add(user_id)

    async def set_turn_ping(self, user_id: int, on: bool) -> None:
        """Tell (or stop telling) this user in the channel when a turn comes."""
        if on:
            self.later("INSERT INTO turn_pings (user_id) VALUES ($1) ON CONFLICT DO NOTHING",
                       user_id)
        else:
            self.later("DELETE FROM turn_pings WHERE user_id = $1", user_id)
        self.players_changed.add(user_id)


async def _lock_ratings(c: asyncpg.Connection, guild_id: int, family: str,
                        players: Iterable[int]) -> None:
    """Lock the players' rating rows (made at the start value if new), by player id."""
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


async def _rate_match(c: asyncpg.Connection, match_id: int) -> None:
    """Rate the rated seats of a recorded match against each other (as the SQLite one)."""
    row = await c.fetchrow(to_pg(RATED_MATCH), match_id)
    seats = await c.fetch(to_pg(RATED_SEATS), match_id)
    if row is None or len(seats) < 2:
        return
    guild_id, family, at = row
    before = []
    for player_id, _, _ in seats:
        got = await c.fetchrow(to_pg(RATING_OF), guild_id, family, player_id)
        before.append(tuple(got) if got is not None else (MODEL.mu, MODEL.sigma, 0))
    after = new_ratings(before, seats)
    await c.executemany(to_pg(SET_RATING), [
        (guild_id, family, player_id, mu, sigma, conservative(mu, sigma), played + 1)
        for (player_id, _, _), (_, _, played), (mu, sigma) in zip(seats, before, after,
                                                                   strict=True)])
    await c.executemany(to_pg(ADD_HISTORY), [
        (guild_id, family, player_id, match_id, mu, sigma, at)
        for (player_id, _, _), (mu, sigma) in zip(seats, after, strict=True)])


async def _recompute_family(c: asyncpg.Connection, guild_id: int, family: str,
                            from_match: int) -> None:
    """Ratings of a guild's family replayed from ``from_match`` on (as the SQLite one)."""
    await c.execute(to_pg(DROP_HISTORY), guild_id, family, from_match)
    await c.execute(to_pg(DROP_RATINGS), guild_id, family)
    await c.execute(to_pg(RATINGS_FROM_HISTORY), guild_id, family)
    for (match_id,) in await c.fetch(to_pg(LATER_MATCHES), guild_id, family, from_match):
        await _rate_match(c, match_id)


async def _add_match(c: asyncpg.Connection, match_id: int) -> None:
    """Add a newly recorded match's human seats to the day rows and the totals."""
    await c.execute(
        f"INSERT INTO player_days (guild_id, day, preset, player_id, {COLS_SQL})"
        f" SELECT m.guild_id, {_DAY}, m.preset, s.player_id, {SEAT_SUMS}{SEATS_SQL}"
        f" WHERE m.id = $1 GROUP BY m.guild_id, m.finished_at, m.preset, s.player_id"
        f" ORDER BY s.player_id"
        f" ON CONFLICT (guild_id, day, preset, player_id)"
        f" DO UPDATE SET {_add('player_days')}", match_id)
    for scope in ("m.guild_id", str(ALL_GUILDS)):
        await c.execute(
            f"INSERT INTO player_totals (guild_id, preset, player_id, {COLS_SQL})"
            f" SELECT {scope}, m.preset, s.player_id, {SEAT_SUMS}{SEATS_SQL}"
            f" WHERE m.id = $1 GROUP BY m.guild_id, m.preset, s.player_id"
            f" ORDER BY s.player_id"
            f" ON CONFLICT (guild_id, preset, player_id)"
            f" DO UPDATE SET {_add('player_totals')}", match_id)


async def _rebuild_day(c: asyncpg.Connection, guild_id: int, day: int, preset: str,
                       player_id: int) -> None:
    """A player's day row (and then totals) again, from the matches that count."""
    key = (guild_id, day, preset, player_id)
    await c.execute("DELETE FROM player_days WHERE guild_id = $1 AND day = $2"
                    " AND preset = $3 AND player_id = $4", *key)
    await c.execute(
        f"INSERT INTO player_days (guild_id, day, preset, player_id, {COLS_SQL})"
        f" SELECT m.guild_id, {_DAY}, m.preset, s.player_id, {SEAT_SUMS}{SEATS_SQL}"
        f" WHERE m.guild_id = $1 AND m.excluded = 0 AND {_DAY} = $2 AND m.preset = $3"
        f" AND s.player_id = $4 GROUP BY m.guild_id, {_DAY}, m.preset, s.player_id", *key)
    await _rebuild_totals(c, guild_id, preset, player_id)


async def _rebuild_totals(c: asyncpg.Connection, guild_id: int, preset: str,
                          player_id: int) -> None:
    """A player's totals for a preset, in one guild and over every guild, from the days."""
    for scope, where in ((guild_id, "guild_id = $4"), (ALL_GUILDS, "$4::BIGINT IS NOT NULL")):
        await c.execute("DELETE FROM player_totals WHERE guild_id = $1 AND preset = $2"
                        " AND player_id = $3", scope, preset, player_id)
        await c.execute(
            f"INSERT INTO player_totals (guild_id, preset, player_id, {COLS_SQL})"
            f" SELECT $1::BIGINT, preset, player_id, {SUM_SQL} FROM player_days"
            f" WHERE player_id = $2 AND preset = $3 AND {where} GROUP BY player_id, preset",
            scope, player_id, preset, guild_id)
