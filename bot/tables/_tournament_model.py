"""The plain values of tournaments (docs/tournaments.md) and what the service asks of Discord."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


class EventStatus(enum.Enum):
    """Where an event is: sign-up, check-in, its rounds, or over."""

    SIGNUP = "signup"
    CHECKIN = "checkin"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def open(self) -> bool:
        """Not finished nor cancelled."""
        return self in (EventStatus.SIGNUP, EventStatus.CHECKIN, EventStatus.RUNNING)


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entrant of an event; negative ids are AI fillers, never ranked."""

    user_id: int
    name: str
    rating: float
    checked_in: bool
    strikes: int
    withdrawn: bool  # two strikes: the AI finishes his boards, not ranked
    dropped: bool  # did not check in


@dataclass(frozen=True, slots=True)
class EventTable:
    """One table of a round: where it plays and who sits where."""

    round_no: int  # 1-based
    table_no: int  # 1-based
    channel_id: int  # the thread the table plays in (0 until the port opened it)
    table_id: int  # the TableService table (0 until made)
    user_ids: tuple[int, ...]  # by seat of the round's first board; negative = AI
    done: bool


@dataclass(frozen=True, slots=True)
class EventView:
    """An event as the cogs show it."""

    id: int
    guild_id: int
    channel_id: int  # where the sign-up message and the results are posted
    message_id: int  # the sign-up message (0 until posted)
    organiser_id: int
    name: str
    preset: str
    boards: int  # per round, a multiple of the preset's seats
    rounds: int
    start_at: float  # UTC epoch seconds
    checkin_minutes: int
    round_minutes: int  # the round deadline
    status: EventStatus
    round_no: int  # 0 before the start; the current or last round
    entrants: tuple[Entrant, ...]
    tables: tuple[EventTable, ...]  # of the current round


@dataclass(frozen=True, slots=True)
class StandingLine:
    """One line of the standings."""

    rank: int | None  # None: not ranked (withdrawn, AI)
    user_id: int
    name: str
    percent: float  # mean matchpoint % over the boards played
    butler: int  # sum of differences from the board's average (tie-break 1)
    boards: int
    tie_note: str = ""  # "h2h" when head-to-head broke a tie (tie-break 2)


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One board of a round: every table's result side by side, and par."""

    round_no: int
    board_no: int  # 1-based within the round
    par: tuple[int, ...]  # each seat's change of total with strong AIs in every seat
    results: tuple[tuple[int, tuple[int, ...], tuple[str, ...]], ...]
    # (table_no, each seat's change of total, each seat's name)
    key: str  # the board's key (for the replay link on the web)


@dataclass(frozen=True, slots=True)
class RoundReport:
    """A round's results: the standings after it and its boards."""

    event: EventView
    round_no: int
    standings: tuple[StandingLine, ...]
    boards: tuple[BoardLine, ...]
    final: bool  # the last round: the podium follows


class TournamentPort(Protocol):
    """What the service asks of Discord (cogs/tournament.py). Each call is made once per
    event, round and table (the service stores that it was done, so a restart never posts
    twice); ``open_table`` returns the existing thread if called again after a crash
    between the call and the store."""

    async def entrants_changed(self, event: EventView) -> None:
        """Refresh the sign-up message."""

    async def checkin_opened(self, event: EventView) -> None:
        """Check-in is open: tell the entrants."""

    async def dropped(self, event: EventView, user_ids: Sequence[int]) -> None:
        """These entrants did not check in and are out."""

    async def open_table(self, event: EventView, table: EventTable) -> int:
        """A private thread for the table; its id."""
        ...

    async def struck(self, event: EventView, user_id: int, strikes: int,
                     withdrawn: bool) -> None:
        """An entrant let the turn timer run out."""

    async def round_ended(self, report: RoundReport) -> None:
        """Post the round's standings and boards."""

    async def finished(self, report: RoundReport) -> None:
        """Post the podium."""

    async def cancelled(self, event: EventView) -> None:
        """The event is cancelled."""
