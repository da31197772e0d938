"""The community's records, as the cogs ask for them: score sheets (and their export),
match history, leaderboards, player profiles, and the guild's settings.

Every answer is scoped to the guild it is asked from; a match of another guild is as
unknown as a made-up id. Nothing here shows a card of a hand still in play: a live match's
sheet holds only scored hands, and its export is refused until the match is over.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, Protocol, TypeVar

from bot.game.export import NotExportable, scenario_of
from bot.game.presets import PRESETS
from bot.game.rules import Rules
from bot.game.serialize import move_from_json
from bot.game.state import HandResult
from bot.store import (
    GuildSettings,
    LeaderRow,
    MatchInfo,
    Metric,
    PlayerSettings,
    Profile,
    StoreAPI,
    TableStatus,
)
from bot.tables._analysis import Analyses
from bot.tables._inputs import quote
from bot.tables._ledger import Saving
from bot.tables._model import Actor, Table, TableError
from bot.tables._results import preset_family
from bot.tables.clock import Clock


class Tables(Protocol):
    """What the records need of the table service."""

    store: StoreAPI
    clock: Clock
    analyses: Analyses

    def find(self, channel_id: int) -> Table | None: ...

    async def match_results(self, table_id: int, match_no: int) -> list[HandResult]: ...

PAGE_SIZE = 10
_LOCALE = re.compile(r"[a-z]{2}(-[A-Z]{2})?")  # Discord's locale codes: pl, ru, en-GB, pt-BR
DAY = 86400.0
T = TypeVar("T")


class Period(StrEnum):
    ALL = "all"
    DAYS_30 = "30d"
    DAYS_7 = "7d"

    @property
    def seconds(self) -> float | None:
        return {Period.DAYS_30: 30 * DAY, Period.DAYS_7: 7 * DAY}.get(self)


class Scope(StrEnum):
    GUILD = "guild"
    GLOBAL = "global"


@dataclass(frozen=True, slots=True)
class LeaderboardQuery:
    """The choices of one leaderboard, read once from a command, a button or a web page."""

    metric: Metric = Metric.RATING
    preset: str | None = None  # None: every preset
    period: Period = Period.ALL
    scope: Scope = Scope.GUILD

    @classmethod
    def parse(cls, metric: str | None = None, preset: str | None = None,
              period: str | None = None, scope: str | None = None) -> LeaderboardQuery:
        """The query of these choices as given (None or "": the default); TableError for
        one that is not offered."""
        try:
            query = cls(Metric(metric or Metric.RATING), preset or None,
                        Period(period or Period.ALL), Scope(scope or Scope.GUILD))
        except ValueError:
            raise TableError("error.no_such_action") from None
        if query.preset is not None and query.preset not in PRESETS:
            raise TableError("error.unknown_preset", name=quote(query.preset),
                             presets=", ".join(PRESETS))
        return query

    @property
    def filtered(self) -> bool:
        """Narrowed to a preset or a period (fewer matches count than in the guild's)."""
        return self.preset is not None or self.period is not Period.ALL


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a listing (``page`` counts from 1)."""

    items: tuple[T, ...]
    page: int
    pages: int
    total: int


@dataclass(frozen=True, slots=True)
class Sheet:
    """A match's score sheet: its record (None while it is played), names and hands."""

    title: str
    names: tuple[str, ...]
    results: tuple[HandResult, ...]
    info: MatchInfo | None
    live: bool
    rules: Rules
    dealer: int


@dataclass(frozen=True, slots=True)
class EmptyBoard:
    """Why a leaderboard has nobody on it (a message key), and whether ranking by wins,
    which counts every recorded match, would show someone."""

    key: str
    wins_instead: bool = False


@dataclass(frozen=True, slots=True)
class Export:
    """A finished match as files: the sheet as CSV and a scenario that replays it."""

    name: str  # file stem, e.g. "match-12"
    csv: str
    scenario: str


def _pages(total: int) -> int:
    return max(1, math.ceil(total / PAGE_SIZE))


def _check_page(page: int) -> int:
    if not 1 <= page <= 100_000:
        raise TableError("error.page", page=quote(str(page)))
    return page


class RecordBook:
    """Read the records of the asking guild (and change them, for its admins)."""

    def __init__(self, service: Tables) -> None:
        self.service = service
        self.store = service.store

    @staticmethod
    def _guild(actor: Actor) -> int:
        if actor.guild_id is None:
            raise TableError("error.guild_only")
        return actor.guild_id

    async def _match(self, guild_id: int, match_id: int) -> MatchInfo:
        info = await self.store.match_info(match_id) if 0 < match_id < 2**62 else None
        if info is None or info.guild_id != guild_id or info.excluded:
            raise TableError("error.no_match", id=quote(str(match_id)))
        return info

    # ---- score sheets --------------------------------------------------------------------
    async def sheet(self, actor: Actor, match_id: int | None) -> Sheet:
        """The sheet of a recorded match, or (no id) of this channel's table's match."""
        guild = self._guild(actor)
        if match_id is None:
            table = self.service.find(actor.channel_id or 0)
            if table is None or table.state is None:
                raise TableError("error.no_sheet_here")
            info = None
            if table.status is TableStatus.FINISHED:
                mid = await self.store.match_id_of(table.id, table.match_no)
                info = await self.store.match_info(mid) if mid is not None else None
            return Sheet(table.title, tuple(table.names()), table.results, info,
                         table.status is TableStatus.PLAYING, table.rules, table.dealer)
        info = await self._match(guild, match_id)
        row = next((m for m in await self.store.matches(info.table_id)
                    if m.match_no == info.match_no), None)
        results = await self.service.match_results(info.table_id, info.match_no)
        title = PRESETS[info.preset].title if info.preset in PRESETS else info.preset
        rules = Rules.from_json(row.rules) if row else PRESETS["russian"].rules
        return Sheet(title, info.names, tuple(results), info, False, rules,
                     row.dealer if row else 0)

    async def export(self, actor: Actor, match_id: int | None) -> Export:
        """CSV and scenario files of a finished match (refused while cards are hidden)."""
        sheet = await self.sheet(actor, match_id)
        if sheet.live or sheet.info is None:
            raise TableError("error.export_live")
        info = sheet.info
        moves = [r.move for r in await self.store.moves(info.table_id, info.match_no)]
        if any(m is None for m in moves):
            raise TableError("error.export_damaged")
        try:
            scenario = scenario_of(info.preset, sheet.rules, info.names, sheet.dealer,
                                   [move_from_json(m) for m in moves if m is not None],
                                   note=f"match #{info.match_id}, exported by the 1000 bot")
        except (NotExportable, ValueError):
            raise TableError("error.export_damaged") from None
        return Export(f"match-{info.match_id}", sheet_csv(info.names, sheet.results),
                      json.dumps(scenario, ensure_ascii=False, indent=1))

    # ---- history, leaderboards, profiles ---------------------------------------------------
    async def history(self, actor: Actor, *, user_id: int | None, preset: str | None,
                      page: int) -> Page[MatchInfo]:
        guild = self._guild(actor)
        _check_page(page)
        if preset is not None and preset not in PRESETS:
            raise TableError("error.unknown_preset", name=quote(preset),
                             presets=", ".join(PRESETS))
        items, total = await self.store.history(
            guild, user_id=user_id, preset=preset, limit=PAGE_SIZE,
            offset=(page - 1) * PAGE_SIZE)
        if total == 0 and user_id is not None:
            raise TableError("error.never_played")
        return self._page(items, page, total)

    async def leaderboard(self, actor: Actor, query: LeaderboardQuery,
                          page: int) -> Page[LeaderRow]:
        """One page of a leaderboard of the asking guild (or, in the global scope, of
        everyone who opted in)."""
        guild = self._guild(actor)
        _check_page(page)
        since = None
        if query.period.seconds is not None:
            since = self.service.clock.now() - query.period.seconds
        preset = query.preset
        wanted = preset_family(preset) if preset is not None and query.metric is Metric.RATING \
            else preset
        rows, total = await self.store.leaderboard(
            guild if query.scope is Scope.GUILD else None, query.metric, preset=wanted,
            since=since, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE)
        return self._page(rows, page, total)

    async def why_empty(self, actor: Actor, query: LeaderboardQuery) -> EmptyBoard:
        """Why the leaderboard of these choices is empty, for a guild that may not know: no
        match has ended yet, or none was rated (and what would rate them)."""
        guild = self._guild(actor)
        if query.scope is not Scope.GUILD or query.filtered:
            return EmptyBoard("leaderboard.empty")
        _, ended = await self.store.history(guild, limit=1)
        if not ended:
            return EmptyBoard("leaderboard.none_ended")
        if query.metric is not Metric.RATING:
            return EmptyBoard("leaderboard.empty")
        if not (await self.store.guild_settings(guild)).ai_rated:
            return EmptyBoard("leaderboard.ai_not_rated", wins_instead=True)
        return EmptyBoard("leaderboard.few_people", wins_instead=True)

    async def profile(self, actor: Actor, user_id: int) -> Profile:
        guild = self._guild(actor)
        got = await self.store.profile(guild, user_id)
        if got is None:
            raise TableError("error.never_played")
        return got

    def _page(self, items: Sequence[T], page: int, total: int) -> Page[T]:
        pages = _pages(total)
        if page > pages and total:
            raise TableError("error.page_past", page=page, pages=pages)
        return Page(tuple(items), page, pages, total)

    # ---- the guild's settings (admins) -------------------------------------------------------
    async def settings(self, guild_id: int) -> GuildSettings:
        return await self.store.guild_settings(guild_id)

    @staticmethod
    def _need_admin(actor: Actor) -> None:
        if not actor.can_manage_guild:
            raise TableError("error.not_admin")

    async def set_defaults(self, actor: Actor, *, preset: str | None = None,
                           timer: int | None = None, language: str | None = None,
                           ai_rated: bool | None = None,
                           web: bool | None = None) -> GuildSettings:
        guild = self._guild(actor)
        self._need_admin(actor)
        changes: dict[str, object] = {}
        if preset is not None:
            if preset not in PRESETS:
                raise TableError("error.unknown_preset", name=quote(preset),
                                 presets=", ".join(PRESETS))
            changes["default_preset"] = preset
        if timer is not None:
            if timer and not 30 <= timer <= 3600:
                raise TableError("error.timer_range")
            changes["turn_timer"] = timer
        if language is not None:
            code = language.strip()
            if code and not _LOCALE.fullmatch(code):
                raise TableError("error.language", text=quote(code))
            changes["language"] = code
        if ai_rated is not None:
            changes["ai_rated"] = ai_rated
        if web is not None:
            changes["web"] = web
        if changes:
            async with Saving(self.store) as tx:
                await tx.set_guild_settings(guild, **changes)
        return await self.store.guild_settings(guild)

    async def reset(self, actor: Actor) -> int:
        """Clear the guild's leaderboard and ratings (its matches stay in the history)."""
        guild = self._guild(actor)
        self._need_admin(actor)
        async with Saving(self.store) as tx:
            return await tx.reset_guild(guild, self.service.clock.now())

    async def remove_match(self, actor: Actor, match_id: int) -> MatchInfo:
        """Take one match out of the record; the ratings are recomputed without it."""
        guild = self._guild(actor)
        self._need_admin(actor)
        info = await self._match(guild, match_id)
        async with Saving(self.store) as tx:
            await tx.remove_match(guild, match_id, self.service.clock.now())
        return info

    async def set_opt_in(self, actor: Actor, *, show: bool | None = None,
                         ping: bool | None = None) -> PlayerSettings:
        """The actor's /optin choices, changed where given: ``show`` on the global
        leaderboard, ``ping`` when a turn comes; what they are now."""
        if show is not None or ping is not None:
            async with Saving(self.store) as tx:
                if show is not None:
                    await tx.set_global_opt_in(actor.user_id, show)
                if ping is not None:
                    await tx.set_turn_ping(actor.user_id, ping)
        return await self.store.player_settings(actor.user_id)


# What makes a spreadsheet read a cell as a formula (OWASP, CSV injection), the full-width
# forms included: such a cell gets a leading apostrophe and is shown as the text it is.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠")


def csv_text(value: str) -> str:
    """A text cell of an export: one that starts like a formula is quoted as text."""
    return "'" + value if value.startswith(_FORMULA_START) else value


def sheet_csv(names: Sequence[str], results: Sequence[HandResult]) -> str:
    """The sheet as CSV: one row per hand, each player's change and total (every text cell
    in double quotes and safe from formula injection; the numbers as numbers)."""
    out = io.StringIO()
    w = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC)
    w.writerow(["hand", "declarer", "contract", "made",
                *[csv_text(f"{n} change") for n in names],
                *[csv_text(f"{n} total") for n in names]])
    for i, r in enumerate(results, 1):
        declarer = csv_text(names[r.declarer]) if 0 <= r.declarer < len(names) else ""
        made = "" if r.made is None else ("yes" if r.made else "no")
        w.writerow([r.hand_no or i, declarer, r.contract or "", made, *r.delta, *r.totals])
    return out.getvalue()
