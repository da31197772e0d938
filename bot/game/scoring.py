"""Scoring a hand: the steps in the order docs/rules.md ("Scoring") gives."""

from __future__ import annotations

from dataclasses import replace

from bot.game.barrel import (
    classic_barrel,
    is_locked,
    on_any_barrel,
    on_classic_barrel,
    reaches_target,
)
from bot.game.cards import ALL_ACES, marriages_in, mask_points
from bot.game.doubling import factor
from bot.game.events import (
    ClimbedBarrel,
    DashGiven,
    Event,
    LeftBarrel,
)
from bot.game.match import after_scored_hand, annul, finish, throw_in
from bot.game.notes import note
from bot.game.partners import both, team_notes_of, team_view, to_seats
from bot.game.rules import (
    Barrel,
    DeclarerScores,
    DiscardsCountFor,
    FinalTie,
    RospisatAward,
    Rules,
    SitterBonus,
)
from bot.game.state import HandEnd, HandResult, Match, State

# Status tests and match steps live in barrel.py and match.py; other modules import them
# from here as well.
__all__ = [
    "annul", "is_locked", "on_any_barrel", "on_classic_barrel", "raw_points", "reaches_target",
    "round_nearest", "round_up_half", "score_giveup", "score_played_hand", "sitter_bonus",
    "throw_in",
]


# Enum members bound once (on Python 3.11 a member read off its class costs several times
# a global); scoring tests them for every seat of every hand.
_PLAYED, _ROSPISAT, _SPISAT, _CONCEDE = (
    HandEnd.PLAYED, HandEnd.ROSPISAT, HandEnd.SPISAT, HandEnd.CONCEDE)
_CLASSIC, _LVIV = Barrel.CLASSIC, Barrel.LVIV
_DISCARDS_DECLARER = DiscardsCountFor.DECLARER
_POINTS_TAKEN = DeclarerScores.POINTS_TAKEN


def round_nearest(x: int, u: int) -> int:
    """Nearest multiple of u; exactly halfway goes up (option `rounding`)."""
    q, r = divmod(x, u)
    return (q + 1) * u if 2 * r >= u else q * u


def round_up_half(amount: int, u: int) -> int:
    """round_up(amount / 2, u) without floats."""
    return -(-amount // (2 * u)) * u if u > 1 else -(-amount // 2)


def raw_points(s: State) -> dict[int, int]:
    """Card points plus declarations per active player, before rounding (``taken``)."""
    r = s.rules
    raw = {}
    for p in s.active:
        decl = s.decl[p]
        if r.declarations_need_trick and s.won[p] == 0:
            decl = 0
        raw[p] = s.points[p] + decl
    d = s.declarer
    if d >= 0:
        if r.discards_count_for is _DISCARDS_DECLARER:
            raw[d] += mask_points(s.discards)
        if (r.slam_claims_talons and s.contract == 120 and s.won[d] == s.trick_no
                and not any(p == d for p, suit, _ in s.decl_log if suit >= 0)):
            raw[d] = 120
    if r.last_trick_bonus and last_trick_taken(s):
        raw[s.last_winner] += r.last_trick_bonus
    return raw


def last_trick_taken(s: State) -> bool:
    """The hand's last trick has been won (every card played)."""
    return s.trick_no > 0 and not s.trick and not s.held[s.last_winner] and (
        s.stock_pos >= len(s.stock))


def sitter_bonus(s: State) -> int:
    r = s.rules
    if s.sitter < 0 or r.sitter_bonus is SitterBonus.NONE or not s.talons:
        return 0
    talon = s.talons[0]
    marriages = sum(r.marriage_values[m] for m in marriages_in(talon))
    if r.sitter_bonus is SitterBonus.ACES_MARRIAGE:
        bonus = r.sitter_ace_value * (talon & ALL_ACES).bit_count() + marriages
    else:
        bonus = round_nearest(mask_points(talon), r.rounding) + marriages
    if r.sitter_bonus_cap is not None:
        bonus = min(bonus, r.sitter_bonus_cap)
    return bonus


def score_giveup(s: State, kind: HandEnd, events: list[Event] | None) -> None:
    """Rospisat, spisat or the 100 concession: the hand is scored without play."""
    if s.rules.partnerships:
        _score_teams(s, kind, events)
        return
    _pipeline(s, kind, giveup_base(s, kind), None, None, events)


def giveup_base(s: State, kind: HandEnd) -> list[int]:
    """The base amounts of a hand given up, per seat (before multipliers and penalties)."""
    r = s.rules
    n = r.seats
    d = s.declarer
    base = [0] * n
    bid = s.winning_bid
    if kind is _ROSPISAT:
        award = 60
        how = r.rospisat_award
        if how is RospisatAward.HALF_BID_UP5:
            award = round_up_half(bid, 5)
        elif how is RospisatAward.HALF_BID_UP10:
            award = round_up_half(bid, 10)
        elif how is RospisatAward.DECLARER_PAYS_HALF:
            base[d] = -bid
            award = round_up_half(bid, r.rounding)
        elif how is RospisatAward.DECLARER_PAYS_SPLIT:
            base[d] = -bid
            share = (len(s.active) - 1) * r.rounding
            award = -(-bid // share) * r.rounding
        for p in s.active:
            if p != d:
                base[p] = award
    elif kind is _SPISAT:
        base[d] = -bid
    else:
        base[d] = -bid
        for p in s.active:
            if p != d:
                base[p] = round_up_half(bid, r.rounding)
    return base


def score_played_hand(s: State, events: list[Event] | None) -> None:
    if s.rules.partnerships:
        _score_teams(s, _PLAYED, events)
        return
    raw = raw_points(s)
    base, made = played_base(s, raw)
    _pipeline(s, _PLAYED, base, raw, made, events)


def played_base(s: State, raw: dict[int, int]) -> tuple[list[int], bool | None]:
    """The base amounts of a played hand per seat, and whether the contract was made."""
    r = s.rules
    n = r.seats
    base = [0] * n
    d = s.declarer
    made: bool | None = None
    for p in s.active:
        if p == d:
            continue
        if r.barrel_exact_points and r.barrel is _LVIV and on_any_barrel(
            r, s.match.totals[p]
        ):
            base[p] = raw[p]
        else:
            base[p] = round_nearest(raw[p], r.rounding)
    if d >= 0 and s.misere:
        made = s.won[d] == 0  # a mizère: no trick at all
        base[d] = s.contract if made else -s.contract
        if s.doubled:
            base[d] *= factor(s)
    elif d >= 0:
        made = (round_nearest(raw[d], r.rounding) if r.round_before_make else raw[d]
                ) >= s.contract
        if not made:
            base[d] = -s.contract
        elif r.declarer_scores is _POINTS_TAKEN:
            base[d] = round_nearest(raw[d], r.rounding)
        else:
            base[d] = s.contract
        if s.doubled:
            base[d] *= factor(s)
    return base, made


# The pipeline is long because the rules fix one order for every step; keeping the
# steps in one function makes that order visible.
def _pipeline(
    s: State, end: HandEnd, base: list[int], raw: dict[int, int] | None, made: bool | None,
    out: list[Event] | None,
) -> None:
    m2, result, events = score_steps(s, end, base, raw, made)
    finish(s, m2, result, out, events)


def score_steps(
    s: State, end: HandEnd, base: list[int], raw: dict[int, int] | None, made: bool | None,
) -> tuple[Match, HandResult, list[Event]]:
    """The scoring steps after the base amounts: the next Match, the result, the events."""
    m = s.match
    d = s.declarer
    n = s.rules.seats
    m2, notes, events, mult, pen = _steps(s, end, base, raw, made)
    start = m.totals
    totals = m2.totals
    marriages, aces = _declared(s)
    climbed, fell = _barrel_moves(events, n)
    # positional: the keyword call costs twice as much for two dozen fields
    result = HandResult(
        end, m.dealer, d, s.contract if d >= 0 else 0, True,
        dict(raw) if raw is not None else {}, marriages,
        tuple([totals[p] - start[p] for p in range(n)]), totals, tuple(notes), made, mult,
        m2.winners, aces, m.hand_no, s.sitter, s.golden, m2.barrel_hands, m2.dashes,
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


def _steps(
    s: State, end: HandEnd, base: list[int], raw: dict[int, int] | None, made: bool | None,
) -> tuple[Match, list[str], list[Event], int, list[int]]:
    """Steps 2 to 10: the next Match, the notes, the events, the multiplier, the penalties."""
    r = s.rules
    m = s.match
    n = r.seats
    d = s.declarer
    start = m.totals
    notes: list[str] = []
    events: list[Event] = []
    # 2. multiplier
    mult = (2 if s.golden else 1) * (2 if s.blind_win else 1)
    # 3. base deltas (+ sitter bonus), multiplied
    if s.sitter >= 0:
        base[s.sitter] = sitter_bonus(s)
    deltas = [b * mult for b in base] if mult > 1 else base[:]
    # 4. suppression
    at = r.barrel_at
    classic = r.barrel is _CLASSIC
    lock = r.lock_at
    for p in range(n):
        t = start[p]
        if p != d and ((classic and t == at) or (lock is not None and lock <= t < r.target) or (
            p == s.sitter and on_any_barrel(r, t)
        )):
            deltas[p] = 0
    # 5. counter penalties (not multiplied)
    dashes = list(m.dashes)
    pen = [0] * n
    ros = list(m.rospisat_calls)
    spis = list(m.spisat_calls)
    if end is _PLAYED and raw is not None:
        for p in s.active:
            if p == d:
                continue
            if r.zero_penalty > 0 and raw[p] == 0 and not on_any_barrel(r, start[p]):
                dashes[p] += 1
                events.append(DashGiven(p, dashes[p]))
                notes.append(note("dash", who=p, count=dashes[p]))
                if dashes[p] >= 3:
                    deltas[p] -= r.zero_penalty
                    pen[p] -= r.zero_penalty
                    dashes[p] = 0
                    notes.append(note("dash_penalty", who=p, penalty=r.zero_penalty))
            if r.lock_no_trick_penalty and is_locked(r, start[p]) and s.won[p] == 0:
                deltas[p] -= r.lock_no_trick_penalty
                pen[p] -= r.lock_no_trick_penalty
                notes.append(note("locked_no_trick", who=p, penalty=r.lock_no_trick_penalty))
    sticks, no_wins = m.sticks, m.no_wins
    if r.sticks_penalty or r.no_win_penalty:
        sticks, no_wins = _streaks(s, end, base, made, deltas, pen, notes)
    if end is _ROSPISAT:
        ros[d] += 1
        notes.append(note("rospisat", who=d))
        if r.rospisat_penalty and ros[d] % 3 == 0:
            deltas[d] -= r.rospisat_penalty
            pen[d] -= r.rospisat_penalty
            notes.append(note("rospisat_penalty", who=d, penalty=r.rospisat_penalty))
    elif end is _SPISAT:
        spis[d] += 1
        notes.append(note("spisat", who=d))
    elif end is _CONCEDE:
        notes.append(note("conceded", who=d, contract=s.winning_bid))
    if end is _PLAYED and r.last_trick_bonus:
        notes.insert(0, note("last_trick", who=s.last_winner, bonus=r.last_trick_bonus))
    if s.doubled:
        notes.insert(0, note("doubled" if s.doubled == 1 else "redoubled", factor=factor(s)))
    if r.dealer_forced_bid and d >= 0 and not any(n for _, n, _ in s.bids):
        notes.insert(0, note("dealer_forced", who=d, contract=s.winning_bid))
    if end is _PLAYED and d >= 0:
        kind = ("made" if made else "failed") + ("_misere" if s.misere else "")
        notes.insert(0, note(kind, who=d, contract=s.contract))
    if mult > 1:
        notes.append(note("multiplier", factor=mult))
    # 6. provisional totals
    new = [start[p] + deltas[p] for p in range(n)]
    # 7. barrel transitions
    bh = list(m.barrel_hands)
    falls = list(m.barrel_falls)
    top = r.target + 1 if r.target_exceed else r.target
    if classic and (at in start or any(at <= x < top for x in new)):
        classic_barrel(s, end, made, start, new, bh, falls, notes, events)
    elif r.barrel is _LVIV:
        for p in range(n):
            if start[p] < r.barrel_at and r.barrel_at <= new[p] < r.target:
                new[p] = r.barrel_at
                events.append(ClimbedBarrel(p))
                notes.append(note("climbed", who=p))
    # 9. 555
    if r.reset_at_555:
        v = r.reset_value
        for p in range(n):
            x = new[p]
            if x == v or (x == -v and r.reset_negative):
                new[p] = 0
                shown = f"−{v}" if x < 0 else str(v)
                notes.append(note("reset", who=p, value=shown))
    # 10. winner
    winners = _winners(r, d, new)
    golden_made = bool(made) and d >= 0
    m2 = after_scored_hand(r, m, tuple(new), made=golden_made, golden=s.golden,
                            winners=winners, notes=notes, barrel_hands=tuple(bh),
                            barrel_falls=tuple(falls), dashes=tuple(dashes),
                            rospisat_calls=tuple(ros), spisat_calls=tuple(spis),
                            sticks=sticks, no_wins=no_wins)
    for w in winners:
        notes.append(note("wins" if len(winners) == 1 else "shares", who=w))
    return m2, notes, events, mult, pen


def _winners(r: Rules, d: int, new: list[int]) -> tuple[int, ...]:
    if not reaches_target(r, max(new)):  # most hands: nobody has reached the target
        return ()
    reached = [p for p in range(r.seats) if reaches_target(r, new[p])]
    if not reached:
        return ()
    if d >= 0 and d in reached and r.declarer_wins_ties:
        return (d,)
    top = max(new[p] for p in reached)
    tied = tuple(p for p in reached if new[p] == top)
    if len(tied) > 1 and r.final_tie is FinalTie.PLAY_ON:
        return ()
    return tied




def _streaks(
    s: State, end: HandEnd, base: list[int], made: bool | None, deltas: list[int],
    pen: list[int], notes: list[str],
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Sticks and no-win streaks (counter penalties, not multiplied); the new counters.

    Both are kept like dashes: not for a player on the barrel at the start of the hand
    (his score is frozen there), and only for the active players.
    """
    r = s.rules
    m = s.match
    d = s.declarer
    sticks = list(m.sticks)
    no_wins = list(m.no_wins)
    for p in s.active:
        if on_any_barrel(r, m.totals[p]):
            continue
        if r.sticks_penalty and end is _PLAYED and (
                p != d or (r.sticks_declarer and not s.misere)):
            if s.won[p] == 0:
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
    return tuple(sticks), tuple(no_wins)


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
    m2, team_notes, events, mult, team_pen = _steps(t, end, base, raw, made)
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
