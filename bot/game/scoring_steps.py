"""Scoring a hand after its base amounts: steps 2 to 10 of docs/rules.md ("Scoring"), one
function per step, named for the rule it applies, called in the order the rules fix."""

from __future__ import annotations

from dataclasses import dataclass

from bot.game.barrel import classic_barrel, is_locked, on_any_barrel, reaches_target
from bot.game.base_scores import sitter_bonus
from bot.game.doubling import factor
from bot.game.events import ClimbedBarrel, DashGiven, Event
from bot.game.match import after_scored_hand
from bot.game.notes import note
from bot.game.rules import Barrel, FinalTie, Rules
from bot.game.state import HandEnd, Match, State

# Enum members bound once (on Python 3.11 a member read off its class costs several times
# a global); scoring tests them for every seat of every hand.
_PLAYED, _ROSPISAT, _SPISAT, _CONCEDE = (
    HandEnd.PLAYED, HandEnd.ROSPISAT, HandEnd.SPISAT, HandEnd.CONCEDE)
_CLASSIC, _LVIV = Barrel.CLASSIC, Barrel.LVIV


# Mutable on purpose: the steps fill it in turn, and it never leaves this module.
@dataclass(slots=True)
class HandTally:
    """What the steps build for one hand: per-seat amounts and counters, notes, events."""

    deltas: list[int]
    penalties: list[int]
    dashes: list[int]
    rospisat_calls: list[int]
    spisat_calls: list[int]
    sticks: tuple[int, ...]
    no_wins: tuple[int, ...]
    barrel_hands: list[int]
    barrel_falls: list[int]
    notes: list[str]
    events: list[Event]

    @classmethod
    def begin(cls, match: Match, deltas: list[int]) -> HandTally:
        """The tally of a hand whose (multiplied) base amounts are ``deltas``."""
        return cls(
            deltas, [0] * len(deltas), list(match.dashes), list(match.rospisat_calls),
            list(match.spisat_calls), match.sticks, match.no_wins, list(match.barrel_hands),
            list(match.barrel_falls), [], [])


def run_steps(
    state: State, end: HandEnd, base: list[int], raw: dict[int, int] | None, made: bool | None,
) -> tuple[Match, list[str], list[Event], int, list[int]]:
    """Steps 2 to 10: the next Match, the notes, the events, the multiplier, the penalties."""
    mult = multiplier(state)
    tally = HandTally.begin(state.match, multiplied_base(state, base, mult))
    suppress_frozen_scores(state, tally.deltas)
    if end is _PLAYED and raw is not None:
        charge_dashes_and_lock(state, raw, tally)
    if state.rules.sticks_penalty or state.rules.no_win_penalty:
        charge_streaks(state, end, base, made, tally)
    count_giveup(state, end, tally)
    tally.notes[:0] = headline(state, end, made)
    if mult > 1:
        tally.notes.append(note("multiplier", factor=mult))
    start = state.match.totals
    new = [start[p] + tally.deltas[p] for p in range(state.rules.seats)]
    move_on_barrel(state, end, made, new, tally)
    if state.rules.reset_at_555:
        reset_at_555(state.rules, new, tally.notes)
    return next_match(state, made, new, tally), tally.notes, tally.events, mult, tally.penalties


def multiplier(state: State) -> int:
    """Step 2: a golden hand and a blind win each double every amount."""
    return (2 if state.golden else 1) * (2 if state.blind_win else 1)


def multiplied_base(state: State, base: list[int], mult: int) -> list[int]:
    """Step 3: the base amounts with the sitter's bonus, multiplied (``base`` gets the bonus)."""
    if state.sitter >= 0:
        base[state.sitter] = sitter_bonus(state)
    return [b * mult for b in base] if mult > 1 else base[:]


def suppress_frozen_scores(state: State, deltas: list[int]) -> None:
    """Step 4: nothing for a player on the barrel or locked, unless he is the declarer."""
    r = state.rules
    start = state.match.totals
    at = r.barrel_at
    classic = r.barrel is _CLASSIC
    lock = r.lock_at
    for p in range(r.seats):
        t = start[p]
        if p != state.declarer and ((classic and t == at) or (
            lock is not None and lock <= t < r.target) or (
            p == state.sitter and on_any_barrel(r, t)
        )):
            deltas[p] = 0


def charge_dashes_and_lock(state: State, raw: dict[int, int], tally: HandTally) -> None:
    """Step 5, first counters: a dash for a defender with no points (every third costs
    ``zero_penalty``), and ``lock_no_trick_penalty`` for a locked defender with no trick."""
    r = state.rules
    start = state.match.totals
    dashes, deltas, pen, notes = tally.dashes, tally.deltas, tally.penalties, tally.notes
    for p in state.active:
        if p == state.declarer:
            continue
        if r.zero_penalty > 0 and raw[p] == 0 and not on_any_barrel(r, start[p]):
            dashes[p] += 1
            tally.events.append(DashGiven(p, dashes[p]))
            notes.append(note("dash", who=p, count=dashes[p]))
            if dashes[p] >= 3:
                deltas[p] -= r.zero_penalty
                pen[p] -= r.zero_penalty
                dashes[p] = 0
                notes.append(note("dash_penalty", who=p, penalty=r.zero_penalty))
        if r.lock_no_trick_penalty and is_locked(r, start[p]) and state.won[p] == 0:
            deltas[p] -= r.lock_no_trick_penalty
            pen[p] -= r.lock_no_trick_penalty
            notes.append(note("locked_no_trick", who=p, penalty=r.lock_no_trick_penalty))


def charge_streaks(
    state: State, end: HandEnd, base: list[int], made: bool | None, tally: HandTally,
) -> None:
    """Step 5, then sticks and hands without a win (counter penalties, not multiplied).

    Both are kept like dashes: not for a player on the barrel at the start of the hand
    (his score is frozen there), and only for the active players.
    """
    r = state.rules
    m = state.match
    d = state.declarer
    sticks = list(m.sticks)
    no_wins = list(m.no_wins)
    deltas, pen, notes = tally.deltas, tally.penalties, tally.notes
    for p in state.active:
        if on_any_barrel(r, m.totals[p]):
            continue
        if r.sticks_penalty and end is _PLAYED and (
                p != d or (r.sticks_declarer and not state.misere)):
            if state.won[p] == 0:
                sticks[p] += 1
                notes.append(note("stick", who=p, count=sticks[p], of=r.sticks_count))
                if sticks[p] >= r.sticks_count:
                    deltas[p] -= r.sticks_penalty
                    pen[p] -= r.sticks_penalty
                    sticks[p] = 0
                    notes.append(note("sticks_penalty", who=p, penalty=r.sticks_penalty,
                                      of=r.sticks_count))
            elif r.sticks_in_a_row:
                sticks[p] = 0
        if r.no_win_penalty:
            won = bool(made) if p == d else base[p] > 0
            if won:
                if r.no_win_in_a_row:
                    no_wins[p] = 0
                continue
            no_wins[p] += 1
            if no_wins[p] >= r.no_win_hands:
                deltas[p] -= r.no_win_penalty
                pen[p] -= r.no_win_penalty
                no_wins[p] = 0
                notes.append(note("no_win_penalty", who=p, penalty=r.no_win_penalty,
                                  hands=r.no_win_hands))
    tally.sticks, tally.no_wins = tuple(sticks), tuple(no_wins)


def count_giveup(state: State, end: HandEnd, tally: HandTally) -> None:
    """Step 5, last: a rospisat or spisat call is counted (every third rospisat costs
    ``rospisat_penalty``); a conceded forced bid is noted."""
    r = state.rules
    d = state.declarer
    if end is _ROSPISAT:
        ros = tally.rospisat_calls
        ros[d] += 1
        tally.notes.append(note("rospisat", who=d))
        if r.rospisat_penalty and ros[d] % 3 == 0:
            tally.deltas[d] -= r.rospisat_penalty
            tally.penalties[d] -= r.rospisat_penalty
            tally.notes.append(note("rospisat_penalty", who=d, penalty=r.rospisat_penalty))
    elif end is _SPISAT:
        tally.spisat_calls[d] += 1
        tally.notes.append(note("spisat", who=d))
    elif end is _CONCEDE:
        tally.notes.append(note("conceded", who=d, contract=state.winning_bid))


def headline(state: State, end: HandEnd, made: bool | None) -> list[str]:
    """The notes that open the result: made or failed, a forced dealer, a doubled
    contract, the last trick's bonus."""
    r = state.rules
    d = state.declarer
    notes: list[str] = []
    if end is _PLAYED and d >= 0:
        kind = ("made" if made else "failed") + ("_misere" if state.misere else "")
        notes.append(note(kind, who=d, contract=state.contract))
    if r.dealer_forced_bid and d >= 0 and not any(amount for _, amount, _ in state.bids):
        notes.append(note("dealer_forced", who=d, contract=state.winning_bid))
    if state.doubled:
        notes.append(note("doubled" if state.doubled == 1 else "redoubled", factor=factor(state)))
    if end is _PLAYED and r.last_trick_bonus:
        notes.append(note("last_trick", who=state.last_winner, bonus=r.last_trick_bonus))
    return notes


def move_on_barrel(
    state: State, end: HandEnd, made: bool | None, new: list[int], tally: HandTally,
) -> None:
    """Steps 7 and 8: climbing onto, spending hands on and falling off the barrel."""
    r = state.rules
    start = state.match.totals
    at = r.barrel_at
    top = r.target + 1 if r.target_exceed else r.target
    if r.barrel is _CLASSIC and (at in start or any(at <= x < top for x in new)):
        classic_barrel(state, end, made, start, new, tally.barrel_hands, tally.barrel_falls,
                       tally.notes, tally.events)
    elif r.barrel is _LVIV:
        for p in range(r.seats):
            if start[p] < r.barrel_at and r.barrel_at <= new[p] < r.target:
                new[p] = r.barrel_at
                tally.events.append(ClimbedBarrel(p))
                tally.notes.append(note("climbed", who=p))


def reset_at_555(rules: Rules, new: list[int], notes: list[str]) -> None:
    """Step 9: a total of exactly ``reset_value`` (or minus it) goes back to 0."""
    v = rules.reset_value
    for p in range(rules.seats):
        x = new[p]
        if x == v or (x == -v and rules.reset_negative):
            new[p] = 0
            shown = f"−{v}" if x < 0 else str(v)
            notes.append(note("reset", who=p, value=shown))


def next_match(state: State, made: bool | None, new: list[int], tally: HandTally) -> Match:
    """Step 10: the winners, and the match after the hand with its new counters."""
    r = state.rules
    winners = match_winners(r, state.declarer, new)
    notes = tally.notes
    m2 = after_scored_hand(
        r, state.match, tuple(new), made=bool(made) and state.declarer >= 0, golden=state.golden,
        winners=winners, notes=notes, barrel_hands=tuple(tally.barrel_hands),
        barrel_falls=tuple(tally.barrel_falls), dashes=tuple(tally.dashes),
        rospisat_calls=tuple(tally.rospisat_calls), spisat_calls=tuple(tally.spisat_calls),
        sticks=tally.sticks, no_wins=tally.no_wins)
    for w in winners:
        notes.append(note("wins" if len(winners) == 1 else "shares", who=w))
    return m2


def match_winners(rules: Rules, declarer: int, new: list[int]) -> tuple[int, ...]:
    """Who wins with these totals: a player reaching the target, the declarer first."""
    if not reaches_target(rules, max(new)):  # most hands: nobody has reached the target
        return ()
    reached = [p for p in range(rules.seats) if reaches_target(rules, new[p])]
    if not reached:
        return ()
    if declarer >= 0 and declarer in reached and rules.declarer_wins_ties:
        return (declarer,)
    top = max(new[p] for p in reached)
    tied = tuple(p for p in reached if new[p] == top)
    if len(tied) > 1 and rules.final_tie is FinalTie.PLAY_ON:
        return ()
    return tied
