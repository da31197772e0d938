"""The end of a round and of an event (docs/tournaments.md): results posted once, the next
round seated, the final ranks stored; and the boards of a table closed before its end."""

from __future__ import annotations

from bot.game.actions import Action
from bot.game.tournament import EventBoard
from bot.store import (
    BoardResultRow,
    EventTableRow,
    MatchRecord,
    PlayerKind,
    PlayerRef,
    StoreAPI,
    TournamentRow,
)
from bot.tables._model import Table
from bot.tables._results import preset_family
from bot.tables._service import TableService
from bot.tables._tournament_model import EventStatus, RoundReport, TournamentPort
from bot.tables._tournament_view import Loaded, view_of
from bot.tables.clock import Clock


class RoundEnds:
    """What follows the last board and par of a round (the event's lock held): a part of
    ``Rounds`` (``_tournament_self.py``), which has the methods below."""

    store: StoreAPI
    tables: TableService
    clock: Clock
    ai_level: str

    async def load(self, event_id: int) -> Loaded | None:
        raise NotImplementedError

    async def report(self, ev: Loaded, round_no: int) -> RoundReport:
        raise NotImplementedError

    async def posting(self, event_id: int, what: str) -> bool:
        raise NotImplementedError

    def live_table(self, t: EventTableRow) -> Table | None:
        raise NotImplementedError

    async def seating(self, ev: Loaded, round_no: int) -> list[tuple[int, ...]]:
        raise NotImplementedError

    async def begin_round(self, ev: Loaded, round_no: int,
                          groups: list[tuple[int, ...]]) -> None:
        raise NotImplementedError

    async def run_round(self, ev: Loaded, port: TournamentPort) -> None:
        raise NotImplementedError

    def boards(self, row: TournamentRow, round_no: int) -> list[EventBoard]:
        raise NotImplementedError

    async def play_out(self, b: EventBoard, level: str,
                       what: str) -> tuple[list[Action], tuple[int, ...]]:
        raise NotImplementedError

    async def round_over(self, ev: Loaded, port: TournamentPort) -> None:
        """Post the round's results (once), close its tables, then seat the next round or
        finish the event."""
        r = ev.row.round_no
        report = await self.report(ev, r)
        if await self.posting(ev.row.id, f"round:{r}"):
            await port.round_ended(report)
        for t in ev.round_tables():
            table = self.live_table(t)
            if table is not None:
                await self.tables.end_planned(table)
        if r >= ev.row.rounds:
            await self.finish(ev, report, port)
            return
        groups = await self.seating(ev, r + 1)
        await self.begin_round(ev, r + 1, groups)
        nxt = await self.load(ev.row.id)
        if nxt is not None:
            await port.entrants_changed(view_of(nxt.row, nxt.entrants, nxt.tables))
            await self.run_round(nxt, port)

    async def finish(self, ev: Loaded, report: RoundReport, port: TournamentPort) -> None:
        """The final ranks stored with the event's end (and, where the server rates its
        events, the ratings moved); the podium posted once."""
        ranks = {x.user_id: x.rank or 0 for x in report.standings}
        rated = (await self.store.tournament_settings(ev.row.guild_id)).rated
        record = rating_record(ev, report) if rated else None
        now = self.clock.now()
        async with self.store.transaction() as tx:
            for e in ev.entrants:
                if ranks.get(e.user_id):
                    await tx.update_entrant(ev.row.id, e.user_id, final_rank=ranks[e.user_id])
            await tx.update_tournament(ev.row.id, status=EventStatus.FINISHED.value)
            if record is not None:
                await tx.touch_players(record.players, now)
                await tx.record_match(record, now)
        done = await self.load(ev.row.id)
        if done is None:
            return
        final = await self.report(done, done.row.round_no)
        if await self.posting(ev.row.id, "finished"):
            await port.finished(final)
            await port.entrants_changed(final.event)

    async def play_out_table(self, ev: Loaded, t: EventTableRow) -> None:
        """A table closed before its boards were over (ended by hand), at the deadline: its
        missing boards played by the AI fillers' level in every seat and stored."""
        have = {r.board_no for r in await self.store.tournament_results(ev.row.id)
                if r.round_no == t.round_no and r.table_no == t.table_no}
        boards = self.boards(ev.row, t.round_no)
        played = [(b.number + 1, await self.play_out(b, self.ai_level, "stand-in"))
                  for b in boards if b.number + 1 not in have]
        now = self.clock.now()
        async with self.store.transaction() as tx:
            for no, (_, delta) in played:
                await tx.add_board_result(BoardResultRow(
                    ev.row.id, t.round_no, no, t.table_no, delta, 0), now)
            await tx.update_tournament_table(ev.row.id, t.round_no, t.table_no, done=True)


def rating_record(ev: Loaded, report: RoundReport) -> MatchRecord | None:
    """A rated event as one result of its ranked players, ranked by their final places, in
    the preset's rating family (None: fewer than two ranked). Recorded as match 0 of the
    last round's first table, so that it is recorded once."""
    ranked = [x for x in report.standings if x.rank is not None]
    first = next((t for t in ev.round_tables() if t.table_no == 1), None)
    if len(ranked) < 2 or first is None or not first.table_id:
        return None
    n = len(ranked)
    return MatchRecord(
        guild_id=ev.row.guild_id, table_id=first.table_id, match_no=0, preset=ev.row.preset,
        family=preset_family(ev.row.preset), started_at=ev.row.start_at,
        finished_at=ev.row.start_at, players=tuple(
            PlayerRef(PlayerKind.HUMAN, x.user_id, "", x.name) for x in ranked),
        totals=tuple(-(x.rank or 0) for x in ranked),
        winners=tuple(i for i, x in enumerate(ranked) if x.rank == 1),
        barrel_wins=(False,) * n, hands=(), rated=True, rated_seats=tuple(range(n)))
