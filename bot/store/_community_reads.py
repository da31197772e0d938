"""Reads of the community record (a mixin of :class:`bot.store.Store`)."""

from __future__ import annotations

import time
from typing import Any

from bot.store._community import (
    GuildSettings,
    LeaderRow,
    MatchInfo,
    Metric,
    PlayerSettings,
    Profile,
    RatingPoint,
)
from bot.store._leaderboard import leaderboard
from bot.store._ratings import conservative
from bot.store._table_reads import Queries

TREND = 20  # rating points in a profile
_MATCH_COLS = ("id, guild_id, table_id, match_no, preset, family, started_at, finished_at,"
               " excluded")


class RecordReads(Queries):
    """Guild settings, recorded matches, leaderboards and profiles."""

    dialect: str
    settings_cache: dict[int, tuple[float, GuildSettings]]  # guild: (read at, settings)
    player_cache: dict[int, tuple[float, PlayerSettings]]  # user: (read at, settings)
    # True where this process is the database's only writer (SQLite): what it read stays
    # right until it writes them itself. PostgreSQL: other processes may write them too.
    cache_settings: bool = True

    async def guild_settings(self, guild_id: int, *, max_age: float = 0.0) -> GuildSettings:
        """A guild's settings (the defaults if none are stored); ``max_age``: where other
        processes may write them, a copy read that many seconds ago will do."""
        cached = self.settings_cache.get(guild_id)
        now = time.monotonic()
        if cached is not None and (self.cache_settings or now - cached[0] <= max_age):
            return cached[1]
        row = await self._one(
            "SELECT default_preset, turn_timer, language, ai_rated, web FROM guild_settings"
            " WHERE guild_id = ?", (guild_id,))
        got = (GuildSettings(guild_id) if row is None else GuildSettings(
            guild_id, row[0], int(row[1]), row[2], bool(row[3]), bool(row[4])))
        self.settings_cache[guild_id] = (now, got)
        return got

    async def player_settings(self, user_id: int, *,
                              max_age: float = 0.0) -> PlayerSettings:
        """What a user chose with /optin; ``max_age`` as for ``guild_settings``."""
        cached = self.player_cache.get(user_id)
        now = time.monotonic()
        if cached is not None and (self.cache_settings or now - cached[0] <= max_age):
            return cached[1]
        row = await self._one(
            "SELECT EXISTS (SELECT 1 FROM global_opt_ins WHERE user_id = ?),"
            " EXISTS (SELECT 1 FROM turn_pings WHERE user_id = ?)", (user_id, user_id))
        got = PlayerSettings(user_id, bool(row[0]), bool(row[1]))
        self.player_cache[user_id] = (now, got)
        return got

    async def player_id_of(self, user_id: int) -> int | None:
        row = await self._one("SELECT id FROM players WHERE kind = 'human' AND user_id = ?",
                              (user_id,))
        return int(row[0]) if row else None

    async def human_user_id(self, player_id: int) -> int | None:
        """The Discord user of a human player (None: no such human)."""
        row = await self._one("SELECT user_id FROM players WHERE id = ? AND kind = 'human'",
                              (player_id,))
        return int(row[0]) if row and row[0] is not None else None

    async def match_id_of(self, table_id: int, match_no: int) -> int | None:
        row = await self._one(
            "SELECT id FROM match_records WHERE table_id = ? AND match_no = ?",
            (table_id, match_no))
        return int(row[0]) if row else None

    async def match_info(self, match_id: int) -> MatchInfo | None:
        """A recorded match (excluded ones too, marked so)."""
        rows = await self._infos(
            await self._all(f"SELECT {_MATCH_COLS} FROM match_records WHERE id = ?",
                            (match_id,)))
        return rows[0] if rows else None

    async def _infos(self, matches: list[Any]) -> list[MatchInfo]:
        if not matches:
            return []
        ids = [m[0] for m in matches]
        seats: dict[int, list[Any]] = {i: [] for i in ids}
        marks = ",".join("?" * len(ids))
        for r in await self._all(
                f"SELECT s.match_id, s.name, p.user_id, s.total, s.winner, s.seat"
                f" FROM match_seats s JOIN players p ON p.id = s.player_id"
                f" WHERE s.match_id IN ({marks}) ORDER BY s.match_id, s.seat", ids):
            seats[r[0]].append(r)
        return [MatchInfo(
            match_id=m[0], guild_id=m[1] or None, table_id=m[2], match_no=m[3], preset=m[4],
            family=m[5], started_at=m[6], finished_at=m[7],
            names=tuple(s[1] for s in seats[m[0]]),
            user_ids=tuple(s[2] for s in seats[m[0]]),
            totals=tuple(s[3] for s in seats[m[0]]),
            winners=tuple(s[5] for s in seats[m[0]] if s[4]),
            excluded=bool(m[8])) for m in matches]

    async def history(self, guild_id: int, *, user_id: int | None = None,
                      preset: str | None = None, limit: int = 10,
                      offset: int = 0) -> tuple[list[MatchInfo], int]:
        """A guild's recorded matches, newest first (excluded ones left out); a page and
        how many there are."""
        where = ["guild_id = ?", "excluded = 0"]
        args: list[Any] = [guild_id]
        if preset is not None:
            where.append("preset = ?")
            args.append(preset)
        if user_id is not None:
            player_id = await self.player_id_of(user_id)
            if player_id is None:
                return [], 0
            where.append("id IN (SELECT match_id FROM match_seats WHERE player_id = ?)")
            args.append(player_id)
        cond = " AND ".join(where)
        count = await self._one(f"SELECT COUNT(*) FROM match_records WHERE {cond}", args)
        page = await self._all(
            f"SELECT {_MATCH_COLS} FROM match_records WHERE {cond}"
            f" ORDER BY finished_at DESC, id DESC LIMIT ? OFFSET ?", (*args, limit, offset))
        return await self._infos(page), int(count[0])

    async def leaderboard(self, guild_id: int | None, metric: Metric, *,
                          preset: str | None = None, since: float | None = None,
                          limit: int = 10, offset: int = 0,
                          min_matches: int = 1) -> tuple[list[LeaderRow], int]:
        """One page of a leaderboard and its number of rows. ``guild_id`` None: global
        (opted-in players only); ``preset``: a preset, or for RATING a family; ``since``:
        matches finished at/after it (not for RATING: a rating is current)."""
        return await leaderboard(self._all, self.dialect, guild_id, metric, preset=preset,
                                 since=since, limit=limit, offset=offset,
                                 min_matches=min_matches)

    async def profile(self, guild_id: int, user_id: int) -> Profile | None:
        """A player's record in a guild (None: no recorded match there)."""
        player = await self._one(
            "SELECT id, name FROM players WHERE kind = 'human' AND user_id = ?", (user_id,))
        if player is None:
            return None
        pid, name = player
        sums = await self._one(
            "SELECT SUM(matches), SUM(wins), SUM(hands), SUM(points), SUM(contracts_made),"
            " SUM(contracts_failed), SUM(rospisat), SUM(dashes), SUM(barrel_wins)"
            " FROM player_totals WHERE player_id = ? AND guild_id = ?", (pid, guild_id))
        if sums is None or not sums[0]:
            return None
        fav = await self._one(
            "SELECT preset FROM player_totals WHERE player_id = ? AND guild_id = ?"
            " ORDER BY matches DESC, preset LIMIT 1", (pid, guild_id))
        ratings = await self._all(
            "SELECT family, value, matches FROM ratings WHERE player_id = ? AND guild_id = ?"
            " ORDER BY value DESC, family", (pid, guild_id))
        trend: tuple[RatingPoint, ...] = ()
        if ratings:
            main = max(ratings, key=lambda r: r[2])[0]  # the most played family
            past = await self._all(
                "SELECT match_id, at, mu, sigma FROM rating_history WHERE guild_id = ?"
                " AND family = ? AND player_id = ? ORDER BY match_id DESC LIMIT ?",
                (guild_id, main, pid, TREND))
            trend = tuple(RatingPoint(r[0], r[1], conservative(r[2], r[3]))
                          for r in reversed(past))
        best = await self._one(
            "SELECT s.match_id FROM match_seats s JOIN match_records m ON m.id = s.match_id"
            " WHERE s.player_id = ? AND s.winner = 1 AND m.guild_id = ? AND m.excluded = 0"
            " ORDER BY s.total DESC, m.finished_at DESC LIMIT 1", (pid, guild_id))
        matches, wins, hands, points, made, failed, rospisat, dashes, barrels = (
            int(v) for v in sums)
        return Profile(
            pid, user_id, name, matches, wins, hands, points, made, failed, rospisat, dashes,
            barrels, ratings=tuple((r[0], float(r[1]), int(r[2])) for r in ratings), trend=trend,
            favourite_preset=fav[0] if fav else None,
            best_match=await self.match_info(best[0]) if best else None)
