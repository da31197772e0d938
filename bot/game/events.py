"""Events: plain data describing what an action caused, for the table service and the images.

Events carry full information; ``redact(event, seat)`` gives the version a seat (or a
spectator, ``seat=None``) may see, or None when the event is private to someone else.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.game.state import HandEnd, HandResult


@dataclass(frozen=True, slots=True)
class HandStarted:
    hand_no: int
    dealer: int
    forehand: int
    sitter: int
    golden: bool


@dataclass(frozen=True, slots=True)
class CardsDealt:
    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealerPenalized:
    seat: int
    amount: int
    reason: str


@dataclass(frozen=True, slots=True)
class BidMade:
    seat: int
    amount: int
    blind: bool
    misere: bool = False


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int


@dataclass(frozen=True, slots=True)
class MarriageShown:
    seat: int
    suit: int


@dataclass(frozen=True, slots=True)
class AuctionWon:
    seat: int
    amount: int
    blind: bool


@dataclass(frozen=True, slots=True)
class AllPassed:
    dealer: int


@dataclass(frozen=True, slots=True)
class RedealClaimed:
    seat: int
    reason: str
    shown: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandAnnulled:
    next_dealer: int


@dataclass(frozen=True, slots=True)
class TalonTaken:
    seat: int
    index: int
    cards: tuple[int, ...] | None  # None where the viewer may not see them
    shown: bool


@dataclass(frozen=True, slots=True)
class CardGiven:
    giver: int
    receiver: int
    card: int | None
    face_up: bool


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    seat: int
    card: int | None


@dataclass(frozen=True, slots=True)
class ContractSet:
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class Doubled:
    seat: int
    level: int  # 1 contra, 2 redouble; 0: the seat said no


@dataclass(frozen=True, slots=True)
class GaveUp:
    seat: int
    kind: HandEnd


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: int
    trick_no: int


@dataclass(frozen=True, slots=True)
class MarriageDeclared:
    seat: int
    suit: int
    value: int


@dataclass(frozen=True, slots=True)
class FourAcesDeclared:
    seat: int
    value: int


@dataclass(frozen=True, slots=True)
class TrumpChanged:
    suit: int  # -1: no trump


@dataclass(frozen=True, slots=True)
class TrickWon:
    seat: int
    cards: tuple[tuple[int, int], ...]
    points: int
    trick_no: int


@dataclass(frozen=True, slots=True)
class CardDrawn:
    seat: int
    card: int | None
    public: bool


@dataclass(frozen=True, slots=True)
class DashGiven:
    seat: int
    dashes: int


@dataclass(frozen=True, slots=True)
class ClimbedBarrel:
    seat: int


@dataclass(frozen=True, slots=True)
class LeftBarrel:
    seat: int
    total: int
    fell: bool  # a fall (−120 or to 0), not just a failed contract


@dataclass(frozen=True, slots=True)
class HandScored:
    result: HandResult


@dataclass(frozen=True, slots=True)
class MatchWon:
    winners: tuple[int, ...]


Event = (
    HandStarted | CardsDealt | DealerPenalized | BidMade | Passed | MarriageShown | AuctionWon
    | AllPassed | RedealClaimed | HandAnnulled | TalonTaken | CardGiven | CardDiscarded
    | ContractSet | Doubled | GaveUp | CardPlayed | MarriageDeclared | FourAcesDeclared
    | TrumpChanged | TrickWon | CardDrawn | DashGiven | ClimbedBarrel | LeftBarrel | HandScored
    | MatchWon
)


def redact(event: Event, seat: int | None) -> Event | None:
    """The event as ``seat`` may see it (None: a spectator); None if it is not his to see."""
    if isinstance(event, CardsDealt):
        return event if event.seat == seat else None
    if isinstance(event, TalonTaken):
        if event.shown or event.seat == seat:
            return event
        return replace(event, cards=None)
    if isinstance(event, CardGiven):
        if event.face_up or seat in (event.giver, event.receiver):
            return event
        return replace(event, card=None)
    if isinstance(event, CardDiscarded):
        return event if event.seat == seat else replace(event, card=None)
    if isinstance(event, CardDrawn):
        return event if event.public or event.seat == seat else replace(event, card=None)
    return event
