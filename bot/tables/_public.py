"""What a guild's web pages may show: its records, read without a Discord user asking.

Everything answers :class:`NotShown` (a 404 for the web) unless the guild's admins turned
its pages on; a match is shown only once recorded (won: every hand of it is over), and
only if it belongs to that guild and was not removed; a player only if he played there.
Finished matches do not change, so their sheets and replayed hands are kept (a few).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from bot.game.actions import Action
from bot.game.boards import SEAT_NAMES, day_boards
from bot.game.duplicate import score_board
from bot.game.presets import PRESETS
from bot.game.rules import Rules
from bot.game.serialize import move_from_json, move_to_json
from bot.i18n import t
from bot.i18n.values import TalonWord
from bot.store import GuildSettings, LeaderRow, MatchInfo, MatchRow, Profile
from bot.tables._analysis import StepMark
from bot.tables._daily import DailyChallenge, day_of
from bot.tables._hands import HandReplay, NoSuchHand, count_deals, hand_replay
from bot.tables._log import replay_results
from bot.tables._model import Actor, TableError, talon_name_of
from bot.tables._records import (
    EmptyBoard,
    Export,
    LeaderboardQuery,
    Page,
    RecordBook,
    Scope,
    Sheet,
)
from bot.tables._results import preset_family

K = TypeVar("K")
V = TypeVar("V")
RECENT = 10  # matches on a player's page
_MAX_ID = 2**62


class NotShown(LookupError):
    """Nothing is shown at this address: pages off, an unknown id, or not yet over."""


@dataclass(frozen=True, slots=True)
class PlayerPage:
    """A player's page: his /stats numbers and his latest matches in the guild."""

    profile: Profile
    recent: tuple[MatchInfo, ...]


@dataclass(frozen=True, slots=True)
class MatchPage:
    """A recorded match: its sheet, the store's player id of each seat (None: AI)."""

    sheet: Sheet
    info: MatchInfo
    player_ids: tuple[int | None, ...]
    hands: int  # deals in the match (the replayable hands)


@dataclass(frozen=True, slots=True)
class PublicHand:
    """One hand of a recorded match, for the replay viewer."""

    info: MatchInfo
    names: tuple[str, ...]
    rules: Rules
    replay: HandReplay

    def talon_word(self, *, capital: bool = False) -> TalonWord:
        """The talon as the players of the match's preset call it, in the reader's
        language (the word the table's messages use)."""
        return TalonWord(self.info.preset, talon_name_of(self.info.preset), capital)


@dataclass(frozen=True, slots=True)
class DailyEntry:
    """One player's result on a daily board, scored against everyone who played it."""

    name: str
    result: int
    percent: float
    vs_par: int


@dataclass(frozen=True, slots=True)
class DailyBoardPage:
    """A closed day's board: its deal as a scenario, par, and the guild's results."""

    number: int  # 0-based
    seat: int
    par: int | None  # None: nobody played it, so no par was computed
    entries: tuple[DailyEntry, ...]
    scenario: str  # the deal and the par's moves, for ``python -m bot replay``


@dataclass(frozen=True, slots=True)
class DailyPage:
    """A closed day of the daily challenge in a guild."""

    day: dt.date
    preset: str
    boards: tuple[DailyBoardPage, ...]


class Lru(Generic[K, V]):
    """A small least-recently-used map."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        got = self.items.get(key)
        if got is not None:
            self.items.move_to_end(key)
        return got

    def put(self, key: K, value: V) -> None:
        self.items[key] = value
        self.items.move_to_end(key)
        while len(self.items) > self.size:
            self.items.popitem(last=False)


class PublicRecords:
    """The records of a guild whose web pages are on (see the module's docstring)."""

    def __init__(self, records: RecordBook) -> None:
        self.records = records
        self.store = records.store
        self._matches: Lru[int, MatchPage] = Lru(128)
        self._hands: Lru[tuple[int, int], PublicHand] = Lru(256)
        self._exports: Lru[int, Export] = Lru(64)
        # what does not change once written: a match's rules and first dealer (fixed when
        # it starts; a table may hold hundreds of matches, read together) and a user's
        # player id
        self._tables: Lru[int, dict[int, MatchRow]] = Lru(64)
        self._players: Lru[int, int] = Lru(4096)

    async def guild(self, guild_id: int) -> GuildSettings:
        """The guild's settings; NotShown unless its pages are on."""
        if not 0 < guild_id < _MAX_ID:
            raise NotShown(guild_id)
        settings = await self.records.settings(guild_id)
        if not settings.web:
            raise NotShown(guild_id)
        return settings

    @staticmethod
    def _actor(guild_id: int) -> Actor:
        return Actor(0, "", guild_id=guild_id)

    async def leaderboard(self, guild_id: int, query: LeaderboardQuery,
                          page: int) -> Page[LeaderRow]:
        """One page of the guild's leaderboard (the choices of /leaderboard, in the guild's
        scope)."""
        await self.guild(guild_id)
        try:
            return await self.records.leaderboard(
                self._actor(guild_id), replace(query, scope=Scope.GUILD), page)
        except TableError as exc:
            raise NotShown(exc.key) from None

    async def why_empty(self, guild_id: int, query: LeaderboardQuery) -> EmptyBoard:
        """Why the guild's leaderboard of these choices is empty (see ``RecordBook``)."""
        await self.guild(guild_id)
        return await self.records.why_empty(self._actor(guild_id),
                                            replace(query, scope=Scope.GUILD))

    async def history(self, guild_id: int, page: int = 1) -> Page[MatchInfo]:
        """The guild's recorded matches, newest first."""
        await self.guild(guild_id)
        try:
            return await self.records.history(self._actor(guild_id), user_id=None,
                                              preset=None, page=page)
        except TableError as exc:
            raise NotShown(exc.key) from None

    async def player(self, guild_id: int, player_id: int) -> PlayerPage:
        """A player's numbers and recent matches in the guild."""
        await self.guild(guild_id)
        user = await self.store.human_user_id(player_id) if 0 < player_id < _MAX_ID else None
        profile = await self.store.profile(guild_id, user) if user is not None else None
        if profile is None or user is None:
            raise NotShown(player_id)
        recent, _ = await self.store.history(guild_id, user_id=user, limit=RECENT)
        return PlayerPage(profile, tuple(recent))

    async def match(self, guild_id: int, match_id: int) -> MatchPage:
        """A recorded match of the guild: its sheet and hands."""
        await self.guild(guild_id)
        try:
            info = await self.records._match(guild_id, match_id)
        except TableError:
            raise NotShown(match_id) from None
        cached = self._matches.get(match_id)
        if cached is not None:
            return cached
        # the sheet as RecordBook.sheet makes it, with the match's rows read once
        row = await self._match_row(info.table_id, info.match_no)
        rules = Rules.from_json(row.rules) if row else PRESETS["russian"].rules
        dealer = row.dealer if row else 0
        moves = [r.move for r in await self.store.moves(info.table_id, info.match_no)]
        results = await asyncio.to_thread(replay_results, rules, dealer, moves)
        title = PRESETS[info.preset].title if info.preset in PRESETS else info.preset
        sheet = Sheet(title, info.names, tuple(results), info, False, rules, dealer)
        ids = tuple([await self._player_id(u) if u is not None else None
                     for u in info.user_ids])
        got = MatchPage(sheet, info, ids, count_deals(moves))
        self._matches.put(match_id, got)
        return got

    async def _match_row(self, table_id: int, match_no: int) -> MatchRow | None:
        rows = self._tables.get(table_id)
        if rows is None or match_no not in rows:
            rows = {m.match_no: m for m in await self.store.matches(table_id)}
            self._tables.put(table_id, rows)
        return rows.get(match_no)

    async def _player_id(self, user_id: int) -> int | None:
        got = self._players.get(user_id)
        if got is None:
            got = await self.store.player_id_of(user_id)
            if got is not None:
                self._players.put(user_id, got)
        return got

    async def hand(self, guild_id: int, match_id: int, hand_no: int) -> PublicHand:
        """One finished hand of a recorded match, step by step."""
        page = await self.match(guild_id, match_id)  # checks the guild and the match
        cached = self._hands.get((match_id, hand_no))
        if cached is not None:
            return cached
        if not 1 <= hand_no <= page.hands:
            raise NotShown(hand_no)
        info = page.info
        moves = [r.move for r in await self.store.moves(info.table_id, info.match_no)]
        try:
            replay = await asyncio.to_thread(hand_replay, page.sheet.rules, page.sheet.dealer,
                                             moves, hand_no)
        except NoSuchHand:
            raise NotShown(hand_no) from None
        got = PublicHand(info, page.sheet.names, page.sheet.rules, replay)
        self._hands.put((match_id, hand_no), got)
        return got

    async def hand_marks(self, guild_id: int, match_id: int,
                         hand_no: int) -> dict[int, StepMark] | None:
        """The stored analysis of a recorded hand, by the index of each move among the
        hand's actions (None: being computed now, for a later view)."""
        got = await self.hand(guild_id, match_id, hand_no)  # checks the guild and the hand
        return await self.records.service.analyses.stored(
            got.info.table_id, got.info.match_no, hand_no)

    async def scenario(self, guild_id: int, match_id: int) -> Export:
        """The match as files (the scenario that ``python -m bot replay`` reproduces)."""
        await self.match(guild_id, match_id)
        cached = self._exports.get(match_id)
        if cached is not None:
            return cached
        try:
            got = await self.records.export(self._actor(guild_id), match_id)
        except TableError:
            raise NotShown(match_id) from None
        self._exports.put(match_id, got)
        return got

    async def daily(self, guild_id: int, day_text: str) -> DailyPage:
        """A closed day of the daily challenge: every board with the guild's results side
        by side, par and matchpoints (NotShown for a day still being played)."""
        await self.guild(guild_id)
        try:
            day = dt.date.fromisoformat(day_text)
        except ValueError:
            raise NotShown(day_text) from None
        clock = self.records.service.clock
        if day >= day_of(clock.now()):  # nobody may see a board before finishing it
            raise NotShown(day_text)
        preset = await DailyChallenge(self.store, clock).preset_of(guild_id)
        rows = await self.store.daily_results(day.isoformat(), day.isoformat(), preset)
        pages = []
        for b in day_boards(day, preset):
            mine = [r for r in rows if r.number == b.number]
            stored = await self.store.daily_par(b.key)
            par = int(stored[1][b.seat]) if stored else (mine[0].par if mine else None)
            scores = score_board({r.user_id: r.result for r in mine}, par or 0)
            entries = sorted(
                (DailyEntry(r.name, r.result, scores[r.user_id].percent,
                            scores[r.user_id].vs_par)
                 for r in mine if r.guild_id == guild_id),
                key=lambda e: (-e.result, e.name))
            scenario = b.scenario()
            if stored:  # the par's moves, so that the file replays the par's hand
                names = list(SEAT_NAMES[:b.rules.seats])
                scenario["hands"][0]["actions"] = [
                    a.to_json(names) for a in map(move_from_json, stored[0])
                    if isinstance(a, Action)]
            pages.append(DailyBoardPage(b.number, b.seat, par, tuple(entries),
                                        json.dumps(scenario, ensure_ascii=False)))
        return DailyPage(day, preset, tuple(pages))

    async def daily_hand(self, guild_id: int, day_text: str, number: int,
                         who: str, loc: str | None = None) -> PublicHand:
        """One result of a closed day's board (``who``: its place in the page's list, from
        1) or its par (``par``), step by step, as a match of one hand."""
        page = await self.daily(guild_id, day_text)  # checks the guild and the day
        if not 1 <= number <= len(page.boards):
            raise NotShown(number)
        b = day_boards(page.day, page.preset)[number - 1]
        # the AI seats named as the /daily messages name them ("AI 1", "AI 2")
        names = [t("daily.ai", loc, number=i + 1) for i in range(b.rules.seats)]
        if who == "par":
            stored = await self.store.daily_par(b.key)
            if stored is None:
                raise NotShown(who)
            moves = stored[0]
        else:
            rows = [r for r in await self.store.daily_results(
                page.day.isoformat(), page.day.isoformat(), page.preset)
                if r.number == b.number and r.guild_id == guild_id]
            rows.sort(key=lambda r: (-r.result, r.name))
            place = int(who) if who.isdigit() else 0
            if not 1 <= place <= len(rows):
                raise NotShown(who)
            row = rows[place - 1]
            names[b.seat] = row.name
            moves = await self.store.daily_moves(row.user_id, b.key)
        log = [move_to_json(b.deal), *moves]
        try:
            replay = await asyncio.to_thread(hand_replay, b.rules, b.dealer, log, 1)
        except NoSuchHand:
            raise NotShown(who) from None
        info = MatchInfo(0, guild_id, 0, 0, b.preset, preset_family(b.preset), 0.0, 0.0,
                         tuple(names), (None,) * len(names), (), (), False)
        return PublicHand(info, tuple(names), b.rules, replay)
