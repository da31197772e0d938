"""The table service: what the cogs call, and the only thing they ask.

Tables by channel; every public method is safe to call concurrently (one lock per table).
Each change is committed by the ``Ledger`` before the table shows it and before the method
returns, so whatever a caller answers is already stored.

The service is built of its parts, each a module: the tables it holds and the move path
(_core.py), seating (_seating.py), options (_options.py), playing a match (_play.py), and
restoring, ending and sweeping tables (_lifecycle.py), and tables that play set boards
(_planned.py).
"""

from __future__ import annotations

from bot.tables._core import DEFAULT_TIMER, Listener, Owns
from bot.tables._inputs import quote
from bot.tables._lifecycle import Lifecycle
from bot.tables._options import TableOptions
from bot.tables._planned import PlannedTables
from bot.tables._play import MatchPlay
from bot.tables._seating import Seating


class TableService(Seating, TableOptions, MatchPlay, Lifecycle, PlannedTables):
    """Tables by channel: seating, moves, automatic moves, restore, sweeping."""


__all__ = ["DEFAULT_TIMER", "Listener", "Owns", "TableService", "quote"]
