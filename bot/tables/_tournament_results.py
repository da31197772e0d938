"""The end of a round and of an event (docs/tournaments.md): results posted once, the next
round seated, the final ranks stored; and the boards of a table closed before its end."""

from __future__ import annotations

from bot.game.actions import Action
from bot.game.tournament import EventBoard
from bot.store import BoardResultRow, EventTableRow, StoreAPI, TournamentRow
from bot.tables._model import Table
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
        """The final ranks stored with the event's end; the podium posted once."""
        ranks = {x.user_id: x.rank or 0 for x in report.standings}
        async with self.store.transaction() as tx:
            for e in ev.entrants:
                if ranks.get(e.user_id):
                    await tx.update_entrant(ev.row.id, e.user_id, final_rank=ranks[e.user_id])
            await tx.update_tournament(ev.row.id, status=EventStatus.FINISHED.value)
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
