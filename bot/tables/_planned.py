"""Tables that play set boards (a tournament's, docs/tournaments.md) instead of a match.

A table with a ``plan`` (``Plan`` in ``_model.py``) plays one board per match: match ``k``
is board ``k``, dealt from zero totals with the board's deal and dealer, and it ends with the
board's one hand. The ledger asks the plan for the deal, and writes the board's end through
the plan in the transaction of the board's last move; the service then tells the plan, which
deals the next board when it wants to (``start_board``).
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from bot.game.events import Event
from bot.store import StoreAPI, TableStatus
from bot.tables._model import Notice, Seat, Table

if TYPE_CHECKING:
    from bot.tables._autoplay import Autoplay
    from bot.tables._ledger import Ledger


# Attaches its plan to a table being restored (before its log is replayed).
Planner = Callable[[Table], Awaitable[None]]


class PlannedTables:
    """The service's part for tables of set boards (a mixin of ``TableService``)."""

    store: StoreAPI
    ledger: Ledger
    autoplay: Autoplay
    planner: Planner | None = None

    def _register(self, table: Table) -> None:
        raise NotImplementedError

    def _notify(self, table: Table, notices: tuple[Notice, ...] = (),
                events: tuple[Event, ...] = (), *,
                closed: bool = False, hand_no: int = 0, by: int | None = None) -> None:
        raise NotImplementedError

    def adopt(self, table: Table) -> None:
        """Hold a table made and stored by someone else (a tournament's round)."""
        self._register(table)
        self._notify(table)

    async def start_board(self, table: Table) -> bool:
        """Deal a planned table's next board; False if it is playing or all are played."""
        async with table.lock:
            plan = table.plan
            if (not table.live or table.status is TableStatus.PLAYING or plan is None
                    or plan.board(table.match_no + 1) is None):
                return False
            moved = await self.ledger.start_match(table, 0, random.Random(0))
            self._notify(table, (), moved.events)
            self.autoplay.schedule(table)
            return True

    async def set_seats(self, table: Table, seats: Sequence[Seat],
                        notices: tuple[Notice, ...] = ()) -> None:
        """New occupants (an AI for a withdrawn player, say), stored, then shown."""
        async with table.lock:
            if not table.live:
                return
            await self.ledger.seats(table, seats, human=False)
            self._notify(table, notices)
            self.autoplay.schedule(table)

    async def end_planned(self, table: Table) -> None:
        """Close a planned table whose boards are over (its round ended)."""
        async with table.lock:
            if table.live:
                await self.ledger.close(table, TableStatus.ENDED)
                self.autoplay.cancel(table)
                self._notify(table, closed=True)
