"""Plain rows the store reads and writes (no ORM: dataclasses and JSON columns)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.store._status import TableStatus


@dataclass(slots=True)
class SeatRow:
    seat: int
    user_id: int | None
    name: str
    is_ai: bool = False
    ai_level: str = ""
    away: bool = False
    missed: int = 0


@dataclass(slots=True)
class TableRow:
    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    preset: str
    rules: dict[str, Any]
    timer: int
    status: TableStatus
    match_no: int
    dealer: int
    message_id: int | None
    created_at: float
    updated_at: float
    last_human_at: float
    seats: list[SeatRow] = field(default_factory=list)
    locale: str = ""  # of the public messages ('' = the default, English)
    pause: int = 8  # seconds a finished hand stays on show before the next deal


@dataclass(frozen=True, slots=True)
class MoveRow:
    seq: int
    move: dict[str, Any] | None  # None: ``raw`` is not a JSON object (a damaged row)
    user_id: int | None
    created_at: float
    raw: str  # the stored text


@dataclass(frozen=True, slots=True)
class SetAsideRow:
    """A move taken out of a match's log because it could not be replayed."""

    table_id: int
    match_no: int
    seq: int
    raw: str
    user_id: int | None
    created_at: float
    reason: str
    set_aside_at: float


@dataclass(frozen=True, slots=True)
class MatchRow:
    table_id: int
    match_no: int
    rules: dict[str, Any]
    dealer: int
    seats: list[dict[str, Any]]
    status: str
    winners: list[int]
    totals: list[int]
    started_at: float
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class HandRow:
    match_no: int
    hand_no: int
    result: dict[str, Any]
    created_at: float
