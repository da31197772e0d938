"""Scoring a hand: its base amounts (base_scores.py), then steps 2 to 10 (scoring_steps.py)
in the order docs/rules.md ("Scoring") gives, and the hand's result."""

from __future__ import annotations

from dataclasses import replace

from bot.game.barrel import is_locked, on_any_barrel, on_classic_barrel, reaches_target
from bot.game.base_scores import (
    giveup_base,
    played_base,
    raw_points,
    round_nearest,
    round_up_half,
    sitter_bonus,
)
from bot.game.events import ClimbedBarrel, Event, LeftBarrel
from bot.game.match import annul, finish, throw_in
from bot.game.partners import both, team_notes_of, team_view, to_seats
from bot.game.scoring_steps import run_steps
from bot.game.state import HandEnd, HandResult, Match, State

# Status tests, base amounts and match steps live in barrel.py, base_scores.py and
# match.py; other modules import them from here as well.
__all__ = [
    "annul", "is_locked", "on_any_barrel", "on_classic_barrel", "raw_points", "reaches_target",
    "round_nearest", "round_up_half", "score_giveup", "score_played_hand", "sitter_bonus",
    "throw_in",
]

_PLAYED = HandEnd.PLAYED  # bound once: an Enum member read off its class is slow on 3.11


def score_giveup(state: State, kind: HandEnd, events: list[Event] | None) -> None:
    """Rospisat, spisat or the 100 concession: the hand is scored without play."""
    if state.rules.partnerships:
        _score_teams(state, kind, events)
        return
    _pipeline(state, kind, giveup_base(state, kind), None, None, events)


def score_played_hand(state: State, events: list[Event] | None) -> None:
    """A hand played to its last trick: scored from the points each seat took."""
    if state.rules.partnerships:
        _score_teams(state, _PLAYED, events)
        return
    raw = raw_points(state)
    base, made = played_base(state, raw)
    _pipeline(state, _PLAYED, base, raw, made, events)


def _pipeline(
    s: State, end: HandEnd, base: list[int], raw: dict[int, int] | None, made: bool | None,
    out: list[Event] | None,
) -> None:
    m2, result, events = score_steps(s, end, base, raw, made)
    finish(s, m2, result, out, events)


def score_steps(
    state: State, end: HandEnd, base: list[int], raw: dict[int, int] | None, made: bool | None,
) -> tuple[Match, HandResult, list[Event]]:
    """The scoring steps after the base amounts: the next Match, the result, the events."""
    m = state.match
    d = state.declarer
    n = state.rules.seats
    m2, notes, events, mult, pen = run_steps(state, end, base, raw, made)
    start = m.totals
    totals = m2.totals
    marriages, aces = _declared(state)
    climbed, fell = _barrel_moves(events, n)
    # positional: the keyword call costs twice as much for two dozen fields
    result = HandResult(
        end, m.dealer, d, state.contract if d >= 0 else 0, True,
        dict(raw) if raw is not None else {}, marriages,
        tuple([totals[p] - start[p] for p in range(n)]), totals, tuple(notes), made, mult,
        m2.winners, aces, m.hand_no, state.sitter, state.golden, m2.barrel_hands, m2.dashes,
        m2.sticks, m2.no_wins, tuple(pen), climbed, fell,
    )
    return m2, result, events


def _declared(s: State) -> tuple[dict[int, tuple[int, ...]], tuple[int, ...]]:
    """The suits of the marriages declared per seat, and the seats that declared four aces."""
    marriages: dict[int, tuple[int, ...]] = {}
    aces: tuple[int, ...] = ()
    for p, suit, _ in s.decl_log:
        if suit >= 0:
            marriages[p] = (*marriages.get(p, ()), suit)
        else:
            aces = (*aces, p)
    return marriages, aces


def _barrel_moves(events: list[Event], n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seats that climbed onto the barrel and stayed, and those that fell off."""
    if not events:
        return (), ()
    fell = tuple(e.seat for e in events if isinstance(e, LeftBarrel) and e.fell)
    climbed = tuple(p for p in range(n) if p not in fell and any(
        isinstance(e, ClimbedBarrel) and e.seat == p for e in events))
    return climbed, fell


def _score_teams(s: State, end: HandEnd, out: list[Event] | None) -> None:
    """Score the hand per partnership and finish it for the four seats."""
    t = team_view(s)
    if end is _PLAYED:
        seat_raw = raw_points(s)
        # a team's points: its partners' (the sitter, absent from seat_raw, adds nothing)
        raw: dict[int, int] | None = {0: seat_raw.get(0, 0) + seat_raw.get(2, 0),
                                      1: seat_raw.get(1, 0) + seat_raw.get(3, 0)}
        assert raw is not None
        base, made = played_base(t, raw)
    else:
        seat_raw, raw, made = {}, None, None
        base = giveup_base(t, end)
    m2, team_notes, events, mult, team_pen = run_steps(t, end, base, raw, made)
    m = s.match
    m4 = to_seats(m, m2)
    marriages, aces = _declared(s)
    climbed, fell = _barrel_moves(events, 2)
    start = m.totals
    totals = m4.totals
    d = s.declarer
    result = HandResult(
        end, m.dealer, d, s.contract if d >= 0 else 0, True, seat_raw, marriages,
        (totals[0] - start[0], totals[1] - start[1], totals[2] - start[2],
         totals[3] - start[3]), totals, team_notes_of(team_notes), made, mult, m4.winners,
        aces, m.hand_no, s.sitter, s.golden, m4.barrel_hands, m4.dashes, m4.sticks,
        m4.no_wins, (team_pen[0], team_pen[1], team_pen[0], team_pen[1]), both(climbed),
        both(fell),
    )
    seat_events: list[Event] = []
    if out is not None:  # nobody reads the events otherwise
        for e in events:
            seat = getattr(e, "seat", None)
            if seat is None:
                seat_events.append(e)
            else:
                seat_events += [replace(e, seat=p) for p in (seat, seat + 2)]
    finish(s, m4, result, out, seat_events)
