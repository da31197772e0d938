"""Moves: what a seat can do (``Action``) and the chance moves that deal the cards."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.game.cards import card, card_str, cards_of, mask_str
from bot.game.frozen import fast_init


class Verb(StrEnum):
    """The verbs of scenario actions (docs/scenarios.md)."""

    BID = "bid"
    PASS = "pass"
    REDEAL = "redeal"
    TALON = "talon"
    GIVE = "give"
    DISCARD = "discard"
    CONTRACT = "contract"
    ROSPISAT = "rospisat"
    SPISAT = "spisat"
    CONCEDE = "concede"
    CONTRA = "contra"
    REDOUBLE = "redouble"
    PLAY = "play"


class Flag(StrEnum):
    NONE = ""
    BLIND = "blind"
    MARRIAGE = "marriage"
    ACES = "aces"
    MISERE = "misere"


# The verbs whose phrase takes nothing from the action.
_PHRASES = {
    Verb.PASS: "pass", Verb.REDEAL: "claim a redeal", Verb.ROSPISAT: "declare rospisat",
    Verb.SPISAT: "declare spisat", Verb.CONCEDE: "concede",
    Verb.CONTRA: "double the contract (contra)", Verb.REDOUBLE: "redouble the contract",
}


@dataclass(frozen=True, slots=True)
class Action:
    """One seat's move. ``card``/``amount``/``target`` are -1/0/-1 where the verb takes none."""

    seat: int
    verb: Verb
    card: int = -1
    amount: int = 0
    target: int = -1
    flag: Flag = Flag.NONE

    def describe(self, names: Sequence[str] | None = None) -> str:
        """Verb phrase for messages: "bid 105", "give 9C to Bob", "play QH with a marriage"."""
        v = self.verb
        if v is Verb.BID:
            if self.flag is Flag.MISERE:
                return f"bid a mizère ({self.amount})"
            return f"bid {self.amount}" + (" blind" if self.flag is Flag.BLIND else "")
        phrase = _PHRASES.get(v)
        if phrase is not None:
            return phrase
        if v is Verb.TALON:
            return f"take talon {self.amount}"
        if v is Verb.GIVE:
            to = names[self.target] if names and 0 <= self.target < len(names) else (
                f"seat {self.target}")
            return f"give {card_str(self.card)} to {to}"
        if v is Verb.DISCARD:
            return f"discard {card_str(self.card)}"
        if v is Verb.CONTRACT:
            return f"set the contract at {self.amount}"
        if self.flag is Flag.MARRIAGE:
            return f"play {card_str(self.card)} with a marriage"
        if self.flag is Flag.ACES:
            return f"play {card_str(self.card)} declaring four aces"
        return f"play {card_str(self.card)}"

    def to_json(self, names: Sequence[str] | None = None) -> list[object]:
        """The scenario form ``[player, verb, args...]``."""
        who: object = names[self.seat] if names else self.seat
        out: list[object] = [who, self.verb.value]
        v = self.verb
        if v in (Verb.BID, Verb.CONTRACT, Verb.TALON):
            out.append(self.amount)
        elif v in (Verb.PLAY, Verb.DISCARD, Verb.GIVE):
            out.append(card_str(self.card))
        if v is Verb.GIVE:
            out.append(names[self.target] if names else self.target)
        if self.flag is not Flag.NONE:
            out.append(self.flag.value)
        return out


@fast_init
@dataclass(frozen=True, slots=True)
class Deal:
    """A chance move: the cards of one hand. Masks indexed by seat (the sitter's is 0)."""

    hands: tuple[int, ...]
    talons: tuple[int, ...] = ()
    stock: tuple[int, ...] = ()

    def describe(self) -> str:
        parts = [f"seat {i}: {mask_str(m)}" for i, m in enumerate(self.hands) if m]
        parts += [f"talon {i}: {mask_str(m)}" for i, m in enumerate(self.talons)]
        if self.stock:
            parts.append("stock: " + " ".join(card_str(c) for c in self.stock))
        return "; ".join(parts)

    def cards(self) -> list[int]:
        out: list[int] = []
        for m in (*self.hands, *self.talons):
            out += cards_of(m)
        return out + list(self.stock)


@dataclass(frozen=True, slots=True)
class JackPenalty:
    """A chance move: a third jack in a row at the bottom costs the dealer 120."""


Move = Action | Deal | JackPenalty

# Interned actions: legal_actions hands out the same objects every time (no allocation).
_CACHE: dict[tuple[int, Verb, int, int, int, Flag], Action] = {}


def act(
    seat: int, verb: Verb, card: int = -1, amount: int = 0, target: int = -1,
    flag: Flag = Flag.NONE,
) -> Action:
    """The interned Action for these fields."""
    key = (seat, verb, card, amount, target, flag)
    a = _CACHE.get(key)
    if a is None:
        a = _CACHE[key] = Action(seat, verb, card, amount, target, flag)
    return a


PLAYS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(act(s, Verb.PLAY, c) for c in range(32)) for s in range(4)
)
PLAYS_MARRIAGE: tuple[tuple[Action, ...], ...] = tuple(
    tuple(act(s, Verb.PLAY, c, flag=Flag.MARRIAGE) for c in range(32)) for s in range(4)
)
PLAYS_ACES: tuple[tuple[Action, ...], ...] = tuple(
    tuple(act(s, Verb.PLAY, c, flag=Flag.ACES) for c in range(32)) for s in range(4)
)
PASSES: tuple[Action, ...] = tuple(act(s, Verb.PASS) for s in range(4))
GIVES: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(tuple(act(s, Verb.GIVE, c, target=t) for c in range(32)) for t in range(4))
    for s in range(4)
)
DISCARDS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(act(s, Verb.DISCARD, c) for c in range(32)) for s in range(4)
)


def _by_byte(actions: tuple[Action, ...]) -> tuple[tuple[tuple[Action, ...], ...], ...]:
    # [suit][byte] -> the actions for the cards of that suit present in the byte
    return tuple(
        tuple(tuple(actions[card(r, suit)] for r in range(8) if b >> r & 1) for b in range(256))
        for suit in range(4)
    )


def actions_for(table: tuple[tuple[tuple[Action, ...], ...], ...], mask: int) -> tuple[
        Action, ...]:
    """The actions of a by-byte table for every card of ``mask``, in card order."""
    return (table[0][mask & 255] + table[1][mask >> 8 & 255] + table[2][mask >> 16 & 255]
            + table[3][mask >> 24 & 255])


PLAY_TABLE = tuple(_by_byte(PLAYS[s]) for s in range(4))
GIVE_TABLE = tuple(tuple(_by_byte(GIVES[s][t]) for t in range(4)) for s in range(4))
DISCARD_TABLE = tuple(_by_byte(DISCARDS[s]) for s in range(4))
