"""The table session and the plain values the service hands to the cogs (no Discord objects)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from bot.game.events import Event, redact
from bot.game.limits import highest_allowed
from bot.game.observation import Observation, observe
from bot.game.rules import Rules
from bot.game.state import Phase, State
from bot.store import SeatRow

SEATING, PLAYING, FINISHED, ENDED, ABANDONED = (
    "seating", "playing", "finished", "ended", "abandoned")


class TableError(Exception):
    """A refusal the user should read: an i18n key and its parameters."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __repr__(self) -> str:
        return f"TableError({self.key!r}, {self.params!r})"


@dataclass(frozen=True, slots=True)
class Actor:
    """Who asks: a Discord user id, the name to show, channel-manager rights, and the
    user's locale (for anything the service words for that user alone)."""

    user_id: int
    name: str
    can_manage: bool = False
    locale: str = "en-US"


@dataclass(slots=True)
class Seat:
    user_id: int | None
    name: str
    ai: bool = False
    level: str = ""
    away: bool = False  # a human an AI stands in for, until "I'm back"
    missed: int = 0  # turns missed in a row

    @property
    def automatic(self) -> bool:
        """Moves are made by an AI (an AI seat, or an absent human's)."""
        return self.ai or self.away

    def row(self, index: int) -> SeatRow:
        return SeatRow(index, self.user_id, self.name, self.ai, self.level, self.away,
                       self.missed)

    @classmethod
    def from_row(cls, r: SeatRow) -> Seat:
        return cls(r.user_id, r.name, r.is_ai, r.ai_level, r.away, r.missed)


@dataclass(frozen=True, slots=True)
class Notice:
    """Something to tell the channel (or one user): an i18n key, parameters, a mention."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    mention: int | None = None


@dataclass(eq=False)
class Table:
    """One table in one channel: seats, rules and the match in progress."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    preset: str
    rules: Rules
    timer: int
    status: str
    match_no: int = 0
    dealer: int = 0
    message_id: int | None = None
    created_at: float = 0.0
    last_human_at: float = 0.0
    seats: list[Seat] = field(default_factory=list)
    locale: str = ""  # of the public messages ('' = English)
    # (hand_no, seat) of players who looked at their cards in this match (blind bidding)
    looked: set[tuple[int, int]] = field(default_factory=set)
    state: State | None = None
    seq: int = 0  # next move number in the current match's log
    version: int = 0  # bumped by every accepted change
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    # observations of the current state by seat (None: public); they are immutable
    _views: dict[int | None, Observation] = field(default_factory=dict, repr=False)
    _views_of: State | None = field(default=None, repr=False)

    @property
    def size(self) -> int:
        return self.rules.seats

    @property
    def full(self) -> bool:
        return len(self.seats) >= self.size

    @property
    def live(self) -> bool:
        return self.status in (SEATING, PLAYING, FINISHED)

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.user_id == user_id and not s.ai:
                return i
        return None

    def face_down(self, seat: int | None) -> bool:
        """``seat`` may still bid blind and has not looked: his cards stay face down."""
        st = self.state
        return (seat is not None and st is not None and self.rules.blind_bidding
                and st.phase is Phase.BIDDING and bool(st.blind >> seat & 1)
                and (st.match.hand_no, seat) not in self.looked)

    def blind_cap(self, seat: int) -> int:
        """The highest bid a face-down seat may make: the limit for a hand without any
        marriage (or aces), since a higher limit would tell him what he holds."""
        assert self.state is not None
        return highest_allowed(self.state, seat, 0)

    def to_act(self) -> int:
        return self.state.to_act if self.state is not None else -1

    def observation(self, seat: int | None) -> Observation | None:
        """The view of ``seat`` (None: the public view); None before the first deal."""
        state = self.state
        if state is None:
            return None
        if self._views_of is not state:  # a new state: forget the old views
            self._views.clear()
            self._views_of = state
        obs = self._views.get(seat)
        if obs is None:
            obs = self._views[seat] = observe(state, seat)
        return obs


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a service call did: the reply to show its caller (an i18n key and parameters)."""

    table: Table
    key: str
    params: dict[str, Any] = field(default_factory=dict)
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Update:
    """A change the channel should see: the table message, hand results, notices."""

    table: Table
    events: tuple[Event, ...] = ()
    notices: tuple[Notice, ...] = ()
    closed: bool = False
    hand_no: int = 0  # the hand the events belong to (for result messages)

    def events_for(self, seat: int | None) -> list[Event]:
        """The events as ``seat`` (None: everybody) may see them."""
        out = []
        for e in self.events:
            r = redact(e, seat)
            if r is not None:
                out.append(r)
        return out
