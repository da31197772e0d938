"""Partnerships (option ``partnerships``): two fixed teams, seats 0 and 2 against 1 and 3.

A partnership shares one score, one barrel and one set of counters. The hand is scored as
if each team were one player: a two-seat view of the state (team 0, team 1) goes through
the ordinary scoring steps (scoring.py), and the result is copied back to both partners,
so the totals of partners stay equal.
"""

from __future__ import annotations

import copy

from bot.game.notes import for_team
from bot.game.rules import Rules
from bot.game.state import Match, State, evolve

_PER_SEAT = ("totals", "barrel_hands", "barrel_falls", "dashes", "rospisat_calls",
             "spisat_calls", "sticks", "no_wins")


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


_PLURAL = ((" wins ", " win "), (" shares ", " share "), (" is off ", " are off "),
           (" loses ", " lose "), (" goes back", " go back"))


def team_note(note: str) -> str:
    """A note of the two-seat view, naming both partners ("{0} & {2} win the match")."""
    if "{0}" not in note and "{1}" not in note:
        return note
    out = note.replace("{0}", "\0").replace("{1}", "{1} & {3}").replace("\0", "{0} & {2}")
    for one, many in _PLURAL:
        out = out.replace(one, many)
    return for_team(note, out)


def both(teams: tuple[int, ...]) -> tuple[int, ...]:
    """The seats of these partnerships."""
    return tuple(sorted(p for k in teams for p in (k, k + 2)))


def team_view(s: State) -> State:
    """The two-seat view of the hand: team 0 (seats 0, 2) and team 1 (seats 1, 3)."""
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


def to_seats(m: Match, m2: Match) -> Match:
    """The four-seat match after the hand, from the two-seat one (partners alike)."""
    four: dict[str, tuple[int, ...]] = {}
    for f in _PER_SEAT:
        v = getattr(m2, f)
        four[f] = (v[0], v[1], v[0], v[1])  # seat p plays for team p % 2
    return evolve(m, **four, dealer=(m.dealer + 1) % 4, nines_annuls=0,
                  winners=both(m2.winners))
