"""The life of a table, as stored in ``tables.status``."""

from __future__ import annotations

from enum import StrEnum


class TableStatus(StrEnum):
    SEATING = "seating"  # open for players; no match yet
    PLAYING = "playing"
    FINISHED = "finished"  # a match was won; a rematch may follow
    ENDED = "ended"  # closed by its host or a channel manager
    ABANDONED = "abandoned"  # no human moved for a long time

    @property
    def live(self) -> bool:
        """The table still holds its channel (one live table per channel)."""
        return self in LIVE_STATUSES


LIVE_STATUSES = (TableStatus.SEATING, TableStatus.PLAYING, TableStatus.FINISHED)
