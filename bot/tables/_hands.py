"""One finished hand of a recorded match, step by step: what the replay viewer shows.

The match's stored moves are replayed through the engine up to the hand's deal; then each
move of the hand is one step with the events it caused and the table after it (cards
still held, the trick on the table, trump, points). Pure: any thread may run it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.game.actions import Deal, Move
from bot.game.dealing import new_match
from bot.game.engine import apply_into
from bot.game.events import Event, HandScored, TrickWon
from bot.game.rules import Rules
from bot.game.serialize import move_from_json
from bot.game.state import HandResult, State


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a hand and the table after it."""

    move: Move
    events: tuple[Event, ...]
    held: tuple[int, ...]  # card masks per seat after the move
    trick: tuple[tuple[int, int], ...]  # (seat, card) on the table; a won trick stays shown
    trump: int  # -1: none yet
    points: tuple[int, ...]  # card and declaration points per seat so far this hand
    declarer: int  # -1 while the auction runs
    contract: int


@dataclass(frozen=True, slots=True)
class HandReplay:
    """A hand's steps (the first one is the deal) and its scored result."""

    hand_no: int  # 1-based, counting every deal of the match
    hands: int  # deals in the whole match
    steps: tuple[Step, ...]
    result: HandResult
    talons: tuple[int, ...]  # the talons as dealt (masks)


class NoSuchHand(LookupError):
    """The match has no finished hand of that number (or its moves do not replay)."""


def count_deals(moves: Sequence[dict[str, Any] | None]) -> int:
    """How many hands were dealt in a match (the deal moves of its log)."""
    return sum(1 for m in moves if m is not None and "deal" in m)


def _snapshot(s: State, move: Move, events: list[Event]) -> Step:
    won = next((e for e in events if isinstance(e, TrickWon)), None)
    trick = won.cards if won is not None else tuple(s.trick)
    return Step(move, tuple(events), tuple(s.held), trick, s.trump,
                tuple(p + d for p, d in zip(s.points, s.decl, strict=False)),
                s.declarer, s.contract)


def hand_replay(rules: Rules, dealer: int, moves: Sequence[dict[str, Any] | None],
                hand_no: int) -> HandReplay:
    """The steps of the ``hand_no``-th hand (1-based) of a match; NoSuchHand if that hand
    was not dealt, not finished, or its moves do not replay."""
    total = count_deals(moves)
    if not 1 <= hand_no <= total:
        raise NoSuchHand(hand_no)
    state = new_match(rules, dealer)
    deals = 0
    steps: list[Step] = []
    try:
        for raw in moves:
            if raw is None:
                break
            move = move_from_json(raw)
            if isinstance(move, Deal):
                deals += 1
                if deals > hand_no:
                    break
            if deals < hand_no:
                state = apply_into(state, move, None, inplace=True)
                continue
            events: list[Event] = []
            state = apply_into(state, move, events)
            steps.append(_snapshot(state, move, events))
            scored = next((e.result for e in events if isinstance(e, HandScored)), None)
            if scored is not None:
                first = steps[0].move
                talons = first.talons if isinstance(first, Deal) else ()
                return HandReplay(hand_no, total, tuple(steps), scored, talons)
    except Exception as exc:  # a damaged log: the hand cannot be shown
        raise NoSuchHand(hand_no) from exc
    raise NoSuchHand(hand_no)  # dealt but never scored: still in play (or cut short)
