"""The first step of scoring a hand: each seat's raw points and the base amount it scores,
before the multiplier and the penalties (docs/rules.md, "Scoring")."""

from __future__ import annotations

from bot.game.barrel import on_any_barrel
from bot.game.cards import ALL_ACES, marriages_in, mask_points
from bot.game.doubling import factor
from bot.game.rules import Barrel, DeclarerScores, DiscardsCountFor, RospisatAward, SitterBonus
from bot.game.state import HandEnd, State

# Enum members bound once (on Python 3.11 a member read off its class costs several times
# a global); scoring tests them for every seat of every hand.
_ROSPISAT, _SPISAT = HandEnd.ROSPISAT, HandEnd.SPISAT
_LVIV = Barrel.LVIV
_DISCARDS_DECLARER = DiscardsCountFor.DECLARER
_POINTS_TAKEN = DeclarerScores.POINTS_TAKEN

def round_nearest(amount: int, unit: int) -> int:
    """Nearest multiple of ``unit``; exactly halfway goes up (option `rounding`)."""
    q, r = divmod(amount, unit)
    return (q + 1) * unit if 2 * r >= unit else q * unit


def round_up_half(amount: int, unit: int) -> int:
    """round_up(amount / 2, unit) without floats."""
    return -(-amount // (2 * unit)) * unit if unit > 1 else -(-amount // 2)


def raw_points(state: State) -> dict[int, int]:
    """Card points plus declarations per active player, before rounding (``taken``)."""
    r = state.rules
    raw = {}
    for p in state.active:
        decl = state.decl[p]
        if r.declarations_need_trick and state.won[p] == 0:
            decl = 0
        raw[p] = state.points[p] + decl
    d = state.declarer
    if d >= 0:
        if r.discards_count_for is _DISCARDS_DECLARER:
            raw[d] += mask_points(state.discards)
        if (r.slam_claims_talons and state.contract == 120 and state.won[d] == state.trick_no
                and not any(p == d for p, suit, _ in state.decl_log if suit >= 0)):
            raw[d] = 120
    if r.last_trick_bonus and last_trick_taken(state):
        raw[state.last_winner] += r.last_trick_bonus
    return raw


def last_trick_taken(state: State) -> bool:
    """The hand's last trick has been won (every card played)."""
    return state.trick_no > 0 and not state.trick and not state.held[state.last_winner] and (
        state.stock_pos >= len(state.stock))


def sitter_bonus(state: State) -> int:
    """What the seat sitting out earns from the talon (option ``sitter_bonus``)."""
    r = state.rules
    if state.sitter < 0 or r.sitter_bonus is SitterBonus.NONE or not state.talons:
        return 0
    talon = state.talons[0]
    marriages = sum(r.marriage_values[m] for m in marriages_in(talon))
    if r.sitter_bonus is SitterBonus.ACES_MARRIAGE:
        bonus = r.sitter_ace_value * (talon & ALL_ACES).bit_count() + marriages
    else:
        bonus = round_nearest(mask_points(talon), r.rounding) + marriages
    if r.sitter_bonus_cap is not None:
        bonus = min(bonus, r.sitter_bonus_cap)
    return bonus


def giveup_base(state: State, kind: HandEnd) -> list[int]:
    """The base amounts of a hand given up, per seat (before multipliers and penalties)."""
    r = state.rules
    n = r.seats
    d = state.declarer
    base = [0] * n
    bid = state.winning_bid
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
            share = (len(state.active) - 1) * r.rounding
            award = -(-bid // share) * r.rounding
        for p in state.active:
            if p != d:
                base[p] = award
    elif kind is _SPISAT:
        base[d] = -bid
    else:
        base[d] = -bid
        for p in state.active:
            if p != d:
                base[p] = round_up_half(bid, r.rounding)
    return base


def played_base(state: State, raw: dict[int, int]) -> tuple[list[int], bool | None]:
    """The base amounts of a played hand per seat, and whether the contract was made."""
    r = state.rules
    n = r.seats
    base = [0] * n
    d = state.declarer
    made: bool | None = None
    for p in state.active:
        if p == d:
            continue
        if r.barrel_exact_points and r.barrel is _LVIV and on_any_barrel(
            r, state.match.totals[p]
        ):
            base[p] = raw[p]
        else:
            base[p] = round_nearest(raw[p], r.rounding)
    if d >= 0 and state.misere:
        made = state.won[d] == 0  # a mizère: no trick at all
        base[d] = state.contract if made else -state.contract
        if state.doubled:
            base[d] *= factor(state)
    elif d >= 0:
        made = (round_nearest(raw[d], r.rounding) if r.round_before_make else raw[d]
                ) >= state.contract
        if not made:
            base[d] = -state.contract
        elif r.declarer_scores is _POINTS_TAKEN:
            base[d] = round_nearest(raw[d], r.rounding)
        else:
            base[d] = state.contract
        if state.doubled:
            base[d] *= factor(state)
    return base, made
