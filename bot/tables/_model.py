"""The table session and the plain values the service hands to the cogs (no Discord objects)."""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.game.actions import Action, Deal
from bot.game.errors import RuleError
from bot.game.events import Event
from bot.game.observation import Observation, observe
from bot.game.presets import PRESETS
from bot.game.rules import Rules
from bot.game.state import HandResult, Phase, State
from bot.i18n.rule_text import move_message, rule_message
from bot.i18n.values import PresetTitle, TalonWord
from bot.store import SeatRow, TableStatus, TxAPI
from bot.tables._offers import Offer, offer_for


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
    """Who asks: a Discord user id, the name to show, whether he may manage the channel the
    request came from (and the server), that channel and guild, and the user's locale."""

    user_id: int
    name: str
    can_manage: bool = False
    locale: str = "en-US"
    channel_id: int | None = None  # where the request was made (None: not checked)
    guild_id: int | None = None
    can_manage_guild: bool = False  # Manage Server: the guild's admin commands
    role_ids: frozenset[int] = frozenset()  # the member's roles (who may organise events)


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat's occupant. Frozen: a change is a new ``Seat``, assigned once it is stored."""

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

    def but(self, **changes: Any) -> Seat:
        """This seat with some fields changed."""
        return dataclasses.replace(self, **changes)

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


class Plan(Protocol):
    """Set boards for a table (a tournament's; ``_planned.py``): what the table asks."""

    def board(self, match_no: int) -> tuple[int, Deal] | None:
        """The dealer and deal of match ``match_no`` (1-based); None: every board played."""
        ...

    async def ended(self, tx: TxAPI, table: Table, delta: tuple[int, ...],
                    now: float) -> None:
        """Store the board's result, in the transaction of its last move."""

    def after(self, table: Table) -> None:
        """A board's end is committed and shown (the table's lock held)."""

    def timed_out(self, table: Table, seat: int) -> None:
        """The turn timer ran out: the AI moved for ``seat`` (the table's lock held)."""


def talon_name_of(preset: str) -> str:
    """What the players of ``preset`` call the talon (prikup, musik, ...)."""
    p = PRESETS.get(preset)
    return p.talon_name if p is not None else "talon"


@dataclass(eq=False)
class Table:
    """One table in one channel: seats, rules and the match in progress.

    Only the service's ledger (``_ledger.py``) changes a table, and only after the change
    is committed to the database."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    preset: str
    rules: Rules
    timer: int
    status: TableStatus
    match_no: int = 0
    dealer: int = 0
    message_id: int | None = None
    created_at: float = 0.0
    last_human_at: float = 0.0
    seats: tuple[Seat, ...] = ()
    locale: str = ""  # of the public messages ('' = English)
    pause: int = 0  # seconds a finished hand stays on show before the next deal (0: none)
    # While a finished hand is on show: the seats of the people who have not yet pressed
    # "Next hand", and when the next hand is dealt anyway (clock time). Not stored: the
    # pause itself is the log (a hand scored, the next not dealt), its end the last move's
    # time plus ``pause``; after a restart everyone is waited for again.
    waiting: frozenset[int] = frozenset()
    pause_until: float = 0.0
    # (hand_no, seat) of players who looked at their cards in this match (blind bidding)
    looked: frozenset[tuple[int, int]] = frozenset()
    state: State | None = None
    results: tuple[HandResult, ...] = ()  # the current match's scored hands, in order
    match_started: float = 0.0  # when the current match began
    seq: int = 0  # next move number in the current match's log
    version: int = 0  # bumped by every accepted change
    plan: Plan | None = field(default=None, repr=False)  # set boards (_planned.py), or None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    # observations and offers of the current state by seat (None: public); immutable
    _views: dict[int | None, Observation] = field(default_factory=dict, repr=False)
    _offers: dict[int, Offer] = field(default_factory=dict, repr=False)
    _views_of: tuple[State | None, frozenset[tuple[int, int]]] | None = field(
        default=None, repr=False)

    @property
    def size(self) -> int:
        return self.rules.seats

    @property
    def full(self) -> bool:
        return len(self.seats) >= self.size

    @property
    def live(self) -> bool:
        return self.status.live

    @property
    def title(self) -> str:
        """The preset's readable title ("Russian 1000 (Тысяча)")."""
        p = PRESETS.get(self.preset)
        return p.title if p is not None else self.preset

    def title_word(self) -> PresetTitle:
        """The preset's title in the reader's language (``title`` where none has it)."""
        return PresetTitle(self.preset, self.title)

    @property
    def talon_name(self) -> str:
        """What the players of this preset call the talon (prikup, musik, ...)."""
        return talon_name_of(self.preset)

    def talon_word(self, *, capital: bool = False) -> TalonWord:
        """The talon as this preset's players call it, in the reader's language."""
        return TalonWord(self.preset, self.talon_name, capital)

    @property
    def hand_no(self) -> int:
        """The hand being played (0 before the first deal)."""
        return self.state.match.hand_no if self.state is not None else 0

    @property
    def hand_key(self) -> str:
        """Names the current hand of the current match (in the ids of a hand's buttons)."""
        return f"{self.match_no}.{self.hand_no}"

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.user_id == user_id and not s.ai:
                return i
        return None

    @property
    def paused(self) -> bool:
        """A finished hand is on show: the next one is dealt when its people are ready."""
        st = self.state
        return (self.status is TableStatus.PLAYING and st is not None
                and st.phase is Phase.DEALING and st.last_result is not None)

    def people(self, seats: tuple[Seat, ...] | None = None) -> frozenset[int]:
        """The seats a person plays (not an AI, nor an AI standing in for one away)."""
        return frozenset(i for i, s in enumerate(self.seats if seats is None else seats)
                         if not s.automatic)

    def waiting_names(self) -> list[str]:
        """Who the pause still waits for, in seat order."""
        return [self.seats[i].name for i in sorted(self.waiting & self.people())]

    def to_act(self) -> int:
        return self.state.to_act if self.state is not None else -1

    def _fresh(self) -> None:
        key = (self.state, self.looked)
        if self._views_of is None or self._views_of[0] is not key[0] or (
                self._views_of[1] is not key[1]):
            self._views.clear()
            self._offers.clear()
            self._views_of = key

    def observation(self, seat: int | None) -> Observation | None:
        """The view of ``seat`` (None: the public view); None before the first deal."""
        state = self.state
        if state is None:
            return None
        self._fresh()
        obs = self._views.get(seat)
        if obs is None:
            obs = self._views[seat] = observe(state, seat)
        return obs

    def offer(self, seat: int) -> Offer:
        """What ``seat`` may do now, as it may be offered to him (see ``Offer``)."""
        self._fresh()
        got = self._offers.get(seat)
        if got is None:
            looked = self.state is not None and (self.state.match.hand_no, seat) in self.looked
            got = self._offers[seat] = offer_for(self.state, self.observation(seat), seat,
                                                 looked=looked)
        return got

    def refusal(self, err: RuleError) -> TableError:
        """The engine's refusal as the player who tried the move reads it (the words are
        chosen by his locale when it is shown)."""
        msg = rule_message(err, self.names(), preset=self.preset, talon=self.talon_name)
        return TableError(msg.key, **msg.params)

    def moved(self, action: Action, seat: int) -> Outcome:
        """The answer to the player who made ``action``: "You play A♠."."""
        msg = move_message(action, self.names(), preset=self.preset, talon=self.talon_name)
        return Outcome(self, msg.key, dict(msg.params), seat=seat)

    def face_down(self, seat: int | None) -> bool:
        """``seat`` may still bid blind and has not looked: his cards stay face down."""
        return seat is not None and self.state is not None and self.offer(seat).face_down


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
    by: int | None = None  # the user whose request made the change (None: automatic)
    turn: int | None = None  # a human whose turn begins with it (told if he asked for it)
