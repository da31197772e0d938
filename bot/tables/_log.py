"""A match is its move log: replaying it (at a restart, for a score sheet) and hand results
as stored JSON. Pure functions: any thread may run them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.game.dealing import new_match
from bot.game.engine import apply_into
from bot.game.events import Event, HandScored
from bot.game.rules import Rules
from bot.game.serialize import move_from_json
from bot.game.state import HandResult, State


@dataclass(frozen=True, slots=True)
class Replayed:
    """The state after the moves that replayed; ``bad`` is the index of the first move that
    did not (None: all did), ``reason`` why."""

    state: State
    good: int
    bad: int | None = None
    reason: str = ""
    results: tuple[HandResult, ...] = ()  # the hands scored in what replayed


def replay_match(rules: Rules, dealer: int,
                 moves: Sequence[dict[str, Any] | None]) -> Replayed:
    """Replay a match's stored moves, stopping at the first unreadable or illegal one."""
    state = new_match(rules, dealer)
    events: list[Event] = []

    def scored() -> tuple[HandResult, ...]:
        return tuple(e.result for e in events if isinstance(e, HandScored))

    for i, raw in enumerate(moves):
        if raw is None:
            return Replayed(state, i, i, "unreadable JSON", scored())
        mark = len(events)
        try:
            move = move_from_json(raw)
            state = apply_into(state, move, events)
        except Exception as exc:  # any defect of a stored row: keep what replayed
            del events[mark:]
            return Replayed(state, i, i, f"{type(exc).__name__}: {exc}"[:200], scored())
    return Replayed(state, len(moves), results=scored())


def replay_results(rules: Rules, dealer: int,
                   moves: Sequence[dict[str, Any] | None]) -> list[HandResult]:
    """Every hand result of a match, replayed from its stored moves (up to a bad one)."""
    state = new_match(rules, dealer)
    events: list[Event] = []
    for raw in moves:
        if raw is None:
            break
        try:
            state = apply_into(state, move_from_json(raw), events, inplace=True)
        except Exception:
            break
    return [e.result for e in events if isinstance(e, HandScored)]


def result_json(r: HandResult) -> dict[str, Any]:
    """A hand's result as JSON for the score sheet."""
    return {
        "end": r.end.value, "dealer": r.dealer, "declarer": r.declarer,
        "contract": r.contract, "complete": r.complete, "made": r.made,
        "taken": {str(k): v for k, v in r.taken.items()},
        "marriages": {str(k): list(v) for k, v in r.marriages.items()},
        "delta": list(r.delta), "totals": list(r.totals), "notes": list(r.notes),
        "multiplier": r.multiplier, "winners": list(r.winners), "aces": list(r.aces),
    }
