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
from bot.game.state import Match, State


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
    out = _TEAM_TEXTS.get(note)
    if out is None:
        if len(_TEAM_TEXTS) >= _TEAM_TEXTS_MAX:
            _TEAM_TEXTS.clear()
        out = _TEAM_TEXTS[str(note)] = _team_text(note)
    return for_team(note, out)


def team_notes_of(notes: list[str]) -> tuple[str, ...]:
    """The notes of the two-seat view, each naming both partners."""
    return tuple([team_note(n) for n in notes])


# A hand's notes come from a small set of lines: each line's team wording is kept.
_TEAM_TEXTS: dict[str, str] = {}
_TEAM_TEXTS_MAX = 4096


def _team_text(text: str) -> str:
    out = text.replace("{0}", "\0").replace("{1}", "{1} & {3}").replace("\0", "{0} & {2}")
    for one, many in _PLURAL:
        out = out.replace(one, many)
    return out


# The seats of the partnerships listed (winners, climbed, fell are sorted team tuples).
_BOTH: dict[tuple[int, ...], tuple[int, ...]] = {
    (): (), (0,): (0, 2), (1,): (1, 3), (0, 1): (0, 1, 2, 3)}


def both(teams: tuple[int, ...]) -> tuple[int, ...]:
    """The seats of these partnerships."""
    got = _BOTH.get(teams)
    return got if got is not None else tuple(sorted(p for k in teams for p in (k, k + 2)))


def team_view(state: State) -> State:
    """The two-seat view of the hand: team 0 (seats 0, 2) and team 1 (seats 1, 3).

    It holds only what the scoring steps read (scoring_steps.py and the base
    amounts): a full copy of the hand would cost more than scoring it.
    """
    t = _new_state(State)
    t.rules = team_rules(state.rules)
    m = state.match
    # Built field by field (not through evolve): it runs at every hand of a partnership.
    t.match = Match(
        m.totals[:2], m.barrel_hands[:2], m.barrel_falls[:2], m.dashes[:2],
        m.rospisat_calls[:2], m.spisat_calls[:2], m.dealer % 2, m.hand_no, 0, m.golden_made,
        m.nines_annuls, (), m.sticks[:2], m.no_wins[:2])
    t.active = (0, 1)
    t.sitter = -1
    t.declarer = state.declarer % 2 if state.declarer >= 0 else -1
    won = state.won
    t.won = [won[0] + won[2], won[1] + won[3]]
    t.last_winner = state.last_winner % 2 if state.last_winner >= 0 else -1
    # the rest of what scoring reads means the same for the two teams
    t.golden = state.golden
    t.blind_win = state.blind_win
    t.misere = state.misere
    t.contract = state.contract
    t.doubled = state.doubled
    t.winning_bid = state.winning_bid
    t.bids = state.bids
    return t


_new_state = object.__new__


def to_seats(match: Match, m2: Match) -> Match:
    """The four-seat match after the hand, from the two-seat one (partners alike)."""
    # seat p plays for team p % 2; written out, as a helper per field costs a call each
    t, bh, bf, da = m2.totals, m2.barrel_hands, m2.barrel_falls, m2.dashes
    ro, sp, st, nw = m2.rospisat_calls, m2.spisat_calls, m2.sticks, m2.no_wins
    return Match(
        (t[0], t[1], t[0], t[1]), (bh[0], bh[1], bh[0], bh[1]), (bf[0], bf[1], bf[0], bf[1]),
        (da[0], da[1], da[0], da[1]), (ro[0], ro[1], ro[0], ro[1]),
        (sp[0], sp[1], sp[0], sp[1]), (match.dealer + 1) % 4, match.hand_no, match.golden_left,
        match.golden_made, 0, both(m2.winners), (st[0], st[1], st[0], st[1]),
        (nw[0], nw[1], nw[0], nw[1]))
