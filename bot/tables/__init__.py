"""The table service the cogs call: one table per channel, no Discord objects inside.

``TableService`` seats players, starts matches, applies moves (persisted before it
returns), plays AI and absent seats, runs the turn timer and closes abandoned tables.
Changes the channel should see go to a listener as ``Update`` values.
"""

from bot.tables._model import (
    ABANDONED,
    ENDED,
    FINISHED,
    PLAYING,
    SEATING,
    Actor,
    Notice,
    Outcome,
    Seat,
    Table,
    TableError,
    Update,
)
from bot.tables._play import result_json
from bot.tables._service import DEFAULT_TIMER, Gate, Listener, TableService, preset_for
from bot.tables.clock import Clock, FakeClock, RealClock

__all__ = [
    "ABANDONED", "DEFAULT_TIMER", "ENDED", "FINISHED", "PLAYING", "SEATING", "Actor", "Clock",
    "FakeClock", "Gate", "Listener", "Notice", "Outcome", "RealClock", "Seat", "Table",
    "TableError", "TableService", "Update", "preset_for", "result_json",
]
