"""Contra and redouble (option ``contra``): between the fixed contract and the first lead.

The window uses the CONTRACT phase with ``contract_fixed`` set: each defender in turn
doubles or passes; after a double the declarer redoubles or passes; then he leads.
"""

from __future__ import annotations

from bot.game.actions import PASSES, Action, Verb, act
from bot.game.errors import RuleError
from bot.game.events import Doubled, Event
from bot.game.state import Phase, State


def doubling(s: State) -> bool:
    """The defenders (or the declarer, after a double) are still to speak."""
    return s.phase is Phase.CONTRACT and s.contract_fixed


def legal_doubling(s: State, seat: int) -> list[Action]:
    """Pass first (the AI's safe default), then contra or redouble."""
    if seat != s.to_act:
        return []
    if seat == s.declarer:
        return [PASSES[seat], act(seat, Verb.REDOUBLE)]
    return [PASSES[seat], act(seat, Verb.CONTRA)]


def next_opponent(s: State, seat: int) -> int:
    """The next seat after ``seat`` that may double: an opponent of the declarer (with
    partnerships his partner is skipped), or the declarer himself when none is left."""
    p = s.next_seat[seat]
    if s.rules.partnerships:
        while p != s.declarer and p % 2 == s.declarer % 2:
            p = s.next_seat[p]
    return p


def _check(s: State, a: Action) -> None:
    if not s.rules.contra:
        raise RuleError("contra_off", a)
    if not doubling(s):
        raise RuleError("double_when", a)


def apply_contra(s: State, a: Action, events: list[Event] | None) -> None:
    """A defender doubles the fixed contract; the declarer answers next."""
    _check(s, a)
    if a.seat == s.declarer or (s.rules.partnerships and a.seat % 2 == s.declarer % 2):
        raise RuleError("double_opponent", a)
    if s.doubled:
        raise RuleError("double_already", a)
    if a.seat != s.to_act:
        raise RuleError("turn_double", a, seat=s.to_act)
    s.doubled = 1
    s.to_act = s.declarer
    if events is not None:
        events.append(Doubled(a.seat, 1))


def apply_redouble(s: State, a: Action, events: list[Event] | None) -> None:
    """The declarer redoubles a doubled contract, then leads."""
    _check(s, a)
    if a.seat != s.declarer:
        raise RuleError("redouble_declarer", a)
    if s.doubled != 1 or a.seat != s.to_act:
        raise RuleError("redouble_nothing", a)
    s.doubled = 2
    if events is not None:
        events.append(Doubled(a.seat, 2))
    _start_play(s)


def apply_doubling_pass(s: State, a: Action, events: list[Event] | None) -> None:
    """No double (or no redouble): the next defender speaks, or the play begins."""
    if a.seat != s.to_act:
        raise RuleError("turn_double", a, seat=s.to_act)
    if events is not None:
        events.append(Doubled(a.seat, 0))
    nxt = next_opponent(s, a.seat)
    if s.declarer in (a.seat, nxt):
        _start_play(s)
    else:
        s.to_act = nxt


def _start_play(s: State) -> None:
    s.phase = Phase.PLAY
    s.to_act = s.leader


def factor(s: State) -> int:
    """What the declarer's gain or loss is multiplied by."""
    if not s.doubled:
        return 1
    return s.rules.contra_factor if s.doubled == 1 else s.rules.redouble_factor
