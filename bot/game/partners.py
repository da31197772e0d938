"""Partnerships (option ``partnerships``): two fixed teams, seats 0 and 2 against 1 and 3.

A partnership shares one score, one barrel and one set of counters. The hand is scored as
if each team were one player: a two-seat view of the state (team 0, team 1) goes through
the ordinary scoring steps, and the result is copied back to both partners, so the totals
of partners stay equal.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from bot.game.events import Event
from bot.game.match import finish
from bot.game.rules import Rules
from bot.game.scoring import giveup_base, played_base, raw_points, score_steps
from bot.game.state import HandEnd, HandResult, Match, State, evolve

_PER_SEAT = ("totals", "barrel_hands", "barrel_falls", "dashes", "rospisat_calls",
             "spisat_calls", "sticks", "no_wins")


def team_of(seat: int) -> int:
    return seat % 2


def team_rules(rules: Rules) -> Rules:
    """The rules seen by the two-seat team view (memoized on the rule set)."""
    got = rules.memo.get("teams")
    if isinstance(got, Rules):
        return got
    # A copy with two seats, made without validation: only scoring reads it.
    tr = copy.copy(rules)
    object.__setattr__(tr, "seats", 2)
    object.__setattr__(tr, "memo", {})
    rules.memo["teams"] = tr
    return tr


def score_teams(s: State, end: HandEnd, out: list[Event] | None) -> None:
    """Score the hand per partnership and finish it for the four seats."""
    t = _team_view(s)
    if end is HandEnd.PLAYED:
        seat_raw = raw_points(s)
        raw: dict[int, int] | None = {k: sum(v for p, v in seat_raw.items() if p % 2 == k)
                                      for k in (0, 1)}
        assert raw is not None
        base, made = played_base(t, raw)
    else:
        seat_raw, raw, made = {}, None, None
        base = giveup_base(t, end)
    m2, res, events = score_steps(t, end, base, raw, made)
    m4 = _to_seats(s.match, m2)
    notes = tuple(_team_note(n) for n in res.notes)
    marriages: dict[int, tuple[int, ...]] = {}
    for p, suit, _ in s.decl_log:
        if suit >= 0:
            marriages[p] = (*marriages.get(p, ()), suit)
    start = s.match.totals
    both = _both
    result = HandResult(
        end=end, dealer=s.match.dealer, declarer=s.declarer, contract=res.contract,
        complete=True, taken=dict(seat_raw), marriages=marriages,
        delta=tuple(m4.totals[p] - start[p] for p in range(4)), totals=m4.totals,
        notes=notes, made=res.made, multiplier=res.multiplier, winners=m4.winners,
        aces=tuple(p for p, suit, _ in s.decl_log if suit < 0), hand_no=s.match.hand_no,
        sitter=s.sitter, golden=s.golden, barrel_hands=m4.barrel_hands, dashes=m4.dashes,
        sticks=m4.sticks, no_wins=m4.no_wins,
        penalties=tuple(res.penalties[p % 2] for p in range(4)),
        climbed=both(res.climbed), fell=both(res.fell),
    )
    seat_events: list[Event] = []
    for e in events:
        seat = getattr(e, "seat", None)
        if seat is None:
            seat_events.append(e)
        else:
            seat_events += [replace(e, seat=p) for p in (seat, seat + 2)]
    finish(s, m4, result, out, seat_events)


_PLURAL = ((" wins ", " win "), (" shares ", " share "), (" is off ", " are off "),
           (" loses ", " lose "), (" goes back", " go back"))


def _team_note(note: str) -> str:
    """A note of the two-seat view, naming both partners ("{0} & {2} win the match")."""
    if "{0}" not in note and "{1}" not in note:
        return note
    out = note.replace("{0}", "\0").replace("{1}", "{1} & {3}").replace("\0", "{0} & {2}")
    for one, many in _PLURAL:
        out = out.replace(one, many)
    return out


def _both(teams: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(p for k in teams for p in (k, k + 2)))


def _team_view(s: State) -> State:
    t = s.copy()
    t.rules = team_rules(s.rules)
    m = s.match
    t.match = evolve(m, **{f: getattr(m, f)[:2] for f in _PER_SEAT}, dealer=m.dealer % 2,
                     golden_left=0, winners=())
    t.active = (0, 1)
    t.sitter = -1
    t.declarer = s.declarer % 2 if s.declarer >= 0 else -1
    t.won = [s.won[0] + s.won[2], s.won[1] + s.won[3]]
    t.last_winner = s.last_winner % 2 if s.last_winner >= 0 else -1
    t.decl_log = tuple((p % 2, suit, v) for p, suit, v in s.decl_log)
    return t


def _to_seats(m: Match, m2: Match) -> Match:
    four = {f: tuple(getattr(m2, f)[p % 2] for p in range(4)) for f in _PER_SEAT}
    return evolve(m, **four, dealer=(m.dealer + 1) % 4, nines_annuls=0,
                  winners=_both(m2.winners))
