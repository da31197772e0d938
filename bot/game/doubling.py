"""Contra and redouble (option ``contra``): between the fixed contract and the first lead.

The window uses the CONTRACT phase with ``contract_fixed`` set: each defender in turn
doubles or passes; after a double the declarer redoubles or passes; then he leads.
"""

from __future__ import annotations

from bot.game.actions import PASSES, Action, Verb, act
from bot.game.errors import RuleError
from bot.game.events import Doubled, Event
from bot.game.state import Phase, State


def doubling(state: State) -> bool:
    """The defenders (or the declarer, after a double) are still to speak."""
    return state.phase is Phase.CONTRACT and state.contract_fixed


def legal_doubling(state: State, seat: int) -> list[Action]:
    """Pass first (the AI's safe default), then contra or redouble."""
    if seat != state.to_act:
        return []
    if seat == state.declarer:
        return [PASSES[seat], act(seat, Verb.REDOUBLE)]
    return [PASSES[seat], act(seat, Verb.CONTRA)]


def next_opponent(state: State, seat: int) -> int:
    """The next seat after ``seat`` that may double: an opponent of the declarer (with
    partnerships his partner is skipped), or the declarer himself when none is left."""
    p = state.next_seat[seat]
    if state.rules.partnerships:
        while p != state.declarer and p % 2 == state.declarer % 2:
            p = state.next_seat[p]
    return p


def _check(s: State, a: Action) -> None:
    if not s.rules.contra:
        raise RuleError("contra_off", a)
    if not doubling(s):
        raise RuleError("double_when", a)


def apply_contra(state: State, action: Action, events: list[Event] | None) -> None:
    """A defender doubles the fixed contract; the declarer answers next."""
    _check(state, action)
    if action.seat == state.declarer or (
            state.rules.partnerships and action.seat % 2 == state.declarer % 2):
        raise RuleError("double_opponent", action)
    if state.doubled:
        raise RuleError("double_already", action)
    if action.seat != state.to_act:
        raise RuleError("turn_double", action, seat=state.to_act)
    state.doubled = 1
    state.to_act = state.declarer
    if events is not None:
        events.append(Doubled(action.seat, 1))


def apply_redouble(state: State, action: Action, events: list[Event] | None) -> None:
    """The declarer redoubles a doubled contract, then leads."""
    _check(state, action)
    if action.seat != state.declarer:
        raise RuleError("redouble_declarer", action)
    if state.doubled != 1 or action.seat != state.to_act:
        raise RuleError("redouble_nothing", action)
    state.doubled = 2
    if events is not None:
        events.append(Doubled(action.seat, 2))
    _start_play(state)


def apply_doubling_pass(state: State, action: Action, events: list[Event] | None) -> None:
    """No double (or no redouble): the next defender speaks, or the play begins."""
    if action.seat != state.to_act:
        raise RuleError("turn_double", action, seat=state.to_act)
    if events is not None:
        events.append(Doubled(action.seat, 0))
    nxt = next_opponent(state, action.seat)
    if state.declarer in (action.seat, nxt):
        _start_play(state)
    else:
        state.to_act = nxt


def _start_play(s: State) -> None:
    s.phase = Phase.PLAY
    s.to_act = s.leader


def factor(state: State) -> int:
    """What the declarer's gain or loss is multiplied by."""
    if not state.doubled:
        return 1
    return state.rules.contra_factor if state.doubled == 1 else state.rules.redouble_factor
