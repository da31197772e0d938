"""A tournament's public page (docs/tournaments.md): the rounds that have ended, their
standings and every board at every table with par, and each result's replay. A round still
being played shows nothing: its boards' cards stay hidden until it ends."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.game.serialize import move_to_json
from bot.game.tournament import event_board, event_seed
from bot.i18n import t
from bot.store import MatchInfo, TournamentRow
from bot.tables._hands import NoSuchHand, hand_replay
from bot.tables._public import NotShown, PublicHand, PublicRecords
from bot.tables._results import preset_family
from bot.tables._tournament_model import EventView, RoundReport
from bot.tables._tournament_view import report_of, view_of


@dataclass(frozen=True, slots=True)
class TournamentPage:
    """An event and the reports of its ended rounds, in order."""

    event: EventView
    rounds: tuple[RoundReport, ...]


class PublicTournaments:
    """The tournament pages' reads (NotShown for anything not to be shown)."""

    def __init__(self, public: PublicRecords) -> None:
        self.public = public
        self.store = public.store

    async def _event(self, guild_id: int, event_id: int) -> TournamentRow:
        await self.public.guild(guild_id)
        row = await self.store.tournament(event_id)
        if row is None or row.guild_id != guild_id:
            raise NotShown(event_id)
        return row

    async def _ended(self, event_id: int) -> list[int]:
        posted = await self.store.tournament_posted(event_id)
        return sorted(int(w.split(":")[1]) for w in posted if w.startswith("round:"))

    async def page(self, guild_id: int, event_id: int) -> TournamentPage:
        """The event with the standings and boards of each ended round."""
        row = await self._event(guild_id, event_id)
        entrants = await self.store.tournament_entrants(event_id)
        tables = await self.store.tournament_tables(event_id)
        results = await self.store.tournament_results(event_id)
        pars = await self.store.tournament_pars(event_id)
        reports = tuple(report_of(row, entrants, tables, results, pars, r)
                        for r in await self._ended(event_id))
        return TournamentPage(view_of(row, entrants, tables), reports)

    async def hand(self, guild_id: int, event_id: int, round_no: int, board_no: int,
                   who: str, loc: str | None = None) -> PublicHand:
        """One board of an ended round at one table (``who``: its number) or its par
        (``par``), step by step."""
        row = await self._event(guild_id, event_id)
        if round_no not in await self._ended(event_id) or not 1 <= board_no <= row.boards:
            raise NotShown(round_no)
        b = event_board(event_seed(row.id, row.name), row.preset, round_no, board_no - 1)
        names = [t("daily.ai", loc, number=i + 1) for i in range(b.rules.seats)]
        if who == "par":
            moves = await self.store.tournament_par_moves(event_id, round_no, board_no)
            if moves is None:
                raise NotShown(who)
            log = [move_to_json(b.deal), *moves]
        else:
            table = next((x for x in await self.store.tournament_tables(event_id)
                          if x.round_no == round_no and str(x.table_no) == who), None)
            if table is None or table.table_id == 0:
                raise NotShown(who)
            names = list(table.names)
            log = [r.move for r in await self.store.moves(table.table_id, board_no)]
        try:
            replay = await asyncio.to_thread(hand_replay, b.rules, b.dealer, log, 1)
        except NoSuchHand:
            raise NotShown(who) from None
        info = MatchInfo(0, guild_id, 0, 0, b.preset, preset_family(b.preset), 0.0, 0.0,
                         tuple(names), (None,) * len(names), (), (), False)
        return PublicHand(info, tuple(names), b.rules, replay)
