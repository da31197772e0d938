"""The state of a match and of its current hand.

``State`` is treated as immutable by everyone outside the engine: ``apply`` copies it
(a flat copy of a few small lists) and changes the copy. ``Match`` holds what lasts
across hands and is replaced, never changed, when a hand is scored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from bot.game.frozen import fast_init
from bot.game.rules import Rules

if TYPE_CHECKING:
    from bot.game.actions import Action


class Phase(StrEnum):
    DEALING = "dealing"  # waiting for the cards of the next hand (a chance move)
    BIDDING = "bidding"
    TALON = "talon"  # the declarer chooses one of two talons
    EXCHANGE = "exchange"
    CONTRACT = "contract"  # exchange done, contract not yet fixed
    PLAY = "play"
    MATCH_OVER = "match_over"


class HandEnd(StrEnum):
    PLAYED = "played"
    ROSPISAT = "rospisat"
    SPISAT = "spisat"
    CONCEDE = "concede"
    THROWN_IN = "thrown_in"
    ANNULLED = "annulled"


@fast_init
@dataclass(frozen=True, slots=True)
class Match:
    """Everything that lasts from hand to hand (the counters a scenario's ``start`` can set)."""

    totals: tuple[int, ...]
    barrel_hands: tuple[int, ...]
    barrel_falls: tuple[int, ...]
    dashes: tuple[int, ...]
    rospisat_calls: tuple[int, ...]
    spisat_calls: tuple[int, ...]
    dealer: int
    hand_no: int = 0  # hands dealt so far, annulled ones included
    golden_left: int = 0  # golden hands still to deal in the current golden round
    golden_made: bool = False  # a declarer made his contract in the current golden round
    nines_annuls: int = 0  # consecutive nines redeals of the same dealer
    winners: tuple[int, ...] = ()
    sticks: tuple[int, ...] = ()  # sticks (hands without a trick) toward the next penalty
    no_wins: tuple[int, ...] = ()  # hands without a win toward the next penalty


@fast_init
@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended and what it changed. Seats index the tuples."""

    end: HandEnd
    dealer: int
    declarer: int  # -1 without a declarer
    contract: int  # 0 without a contract
    complete: bool
    taken: dict[int, int]  # raw points of the active players (played hands only)
    marriages: dict[int, tuple[int, ...]]  # suits declared, per seat, in order
    delta: tuple[int, ...]
    totals: tuple[int, ...]
    notes: tuple[str, ...]
    made: bool | None = None
    multiplier: int = 1
    winners: tuple[int, ...] = ()
    aces: tuple[int, ...] = ()  # seats that declared four aces
    hand_no: int = 0
    sitter: int = -1
    golden: bool = False
    barrel_hands: tuple[int, ...] = ()  # counters after the hand, per seat
    dashes: tuple[int, ...] = ()
    sticks: tuple[int, ...] = ()
    no_wins: tuple[int, ...] = ()
    penalties: tuple[int, ...] = ()  # counter and dealer penalties (≤ 0), per seat
    climbed: tuple[int, ...] = ()  # seats that got onto the barrel and stayed
    fell: tuple[int, ...] = ()  # seats that fell off the barrel (−120 or to 0)


_MATCH_FIELDS = tuple(f.name for f in fields(Match))  # constructor order
_MATCH_FIELD_SET = frozenset(_MATCH_FIELDS)


def evolve(match: Match, **changes: Any) -> Match:
    """``dataclasses.replace`` for Match, several times faster (it runs once a hand)."""
    names = tuple(changes)
    make = _EVOLVERS.get(names)
    if make is None:
        if not _MATCH_FIELD_SET.issuperset(changes):
            raise TypeError(f"Match has no field {sorted(set(changes) - _MATCH_FIELD_SET)}")
        make = _EVOLVERS[names] = _evolver(names)
    return make(match, *changes.values())


def _evolver(names: tuple[str, ...]) -> Callable[..., Match]:
    # One function per set of changed fields, generated once: a straight call of Match
    # with the unchanged fields read off ``m`` (a loop over the fields costs twice as much).
    args = ", ".join(f if f in names else f"m.{f}" for f in _MATCH_FIELDS)
    source = f"def _evolve(m, {', '.join(names)}):\n    return Match({args})"
    namespace: dict[str, Any] = {"Match": Match}
    exec(source, namespace)
    make: Callable[..., Match] = namespace["_evolve"]
    return make


# the call sites use a handful of field sets
_EVOLVERS: dict[tuple[str, ...], Callable[..., Match]] = {}


class State:
    """A match in progress: the match counters plus the hand being played."""

    __slots__ = (
        "acted",
        "active",
        "bids",
        "blind",
        "blind_win",
        "claims",
        "contract",
        "contract_fixed",
        "dealt",
        "decl",
        "decl_log",
        "declarer",
        "discards",
        "doubled",
        "drawn",
        "forehand",
        "gifts",
        "giveups",
        "golden",
        "held",
        "high",
        "high_bidder",
        "high_blind",
        "history",
        "last_result",
        "last_trick",
        "last_winner",
        "leader",
        "marriages_declared",
        "match",
        "max_bid_by",
        "misere",
        "next_seat",
        "passed",
        "pending_trump",
        "phase",
        "played",
        "points",
        "rules",
        "shown_marriages",
        "silenced",
        "sitter",
        "stock",
        "stock_pos",
        "talon_index",
        "talon_shown",
        "talons",
        "to_act",
        "trick",
        "trick_no",
        "trump",
        "trump_locked",
        "winning_bid",
        "won",
    )

    rules: Rules
    match: Match
    phase: Phase
    to_act: int
    # hand set-up
    active: tuple[int, ...]  # active seats, clockwise from forehand
    next_seat: tuple[int, ...]  # per seat: the next active seat clockwise (-1 for the sitter)
    forehand: int
    sitter: int
    golden: bool
    silenced: int  # bitmask of seats
    held: list[int]  # card mask per seat
    dealt: tuple[int, ...]  # the masks as dealt, per seat
    talons: tuple[int, ...]
    stock: tuple[int, ...]
    stock_pos: int
    drawn: tuple[tuple[int, int], ...]  # (seat, card) drawn from the stock, in order
    # auction
    high: int
    high_bidder: int
    high_blind: bool
    passed: int  # bitmask
    acted: int  # bitmask of seats that took a bidding action
    blind: int  # bitmask of seats that have not looked at their cards
    max_bid_by: tuple[int, ...]
    misere: bool  # the high bid (and, after the auction, the contract) is a mizère
    bids: tuple[tuple[int, int, bool], ...]  # (seat, amount or 0 for pass, blind)
    shown_marriages: tuple[tuple[int, int], ...]  # (seat, suit) shown for a high bid
    claims: tuple[tuple[int, str, int], ...]  # (seat, reason, cards shown) redeal claims
    # talon, exchange, contract
    declarer: int
    winning_bid: int
    blind_win: bool
    talon_index: int
    talon_shown: bool
    gifts: tuple[tuple[int, int], ...]  # (card, receiver)
    discards: int
    contract: int
    contract_fixed: bool
    doubled: int  # option contra: 0, 1 doubled, 2 redoubled
    giveups: tuple[Action, ...]  # give-ups open to the declarer this hand (fixed at the talon)
    # play
    leader: int
    trick: tuple[tuple[int, int], ...]  # (seat, card) in play order
    trick_no: int
    won: list[int]  # tricks won per seat
    points: list[int]  # card points won per seat
    decl: list[int]  # declaration points per seat
    decl_log: tuple[tuple[int, int, int], ...]  # (seat, suit or -1 for aces, value)
    trump: int  # -1: no trump
    pending_trump: int  # marriage_trump next_trick: the suit that becomes trump after this trick
    trump_locked: bool
    marriages_declared: int
    played: int  # mask of cards played to tricks
    history: tuple[tuple[int, int], ...]  # (seat, card) played this hand, in order (public)
    last_trick: tuple[tuple[int, int], ...]
    last_winner: int
    last_result: HandResult | None

    def copy(self) -> State:
        """A flat copy: tuples are shared, the per-seat lists are copied."""
        return _copy_state(self)

    @property
    def seats(self) -> int:
        return self.rules.seats

    @property
    def dealer(self) -> int:
        return self.match.dealer

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in State.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<State {self.phase} hand {self.match.hand_no} to_act={self.to_act}>"


_SHARED = tuple(n for n in State.__slots__ if n not in ("held", "won", "points", "decl"))


def _build_copier() -> Callable[[State], State]:
    # Generated once so that a copy is one straight run of attribute assignments: a loop
    # with getattr/setattr costs several times more, and copies sit on the hot path.
    lines = ["def _copy(self):", "    s = _new(State)"]
    lines += [f"    s.{n} = self.{n}" for n in _SHARED]
    lines += [f"    s.{n} = self.{n}[:]" for n in ("held", "won", "points", "decl")]
    lines.append("    return s")
    namespace: dict[str, Any] = {"_new": object.__new__, "State": State}
    exec("\n".join(lines), namespace)
    copier: Callable[[State], State] = namespace["_copy"]
    return copier


_copy_state = _build_copier()
