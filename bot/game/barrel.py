"""The barrel (бочка) and the lock: who is on them, and the barrel's transitions.

See docs/rules.md, options ``barrel`` and ``lock_at``.
"""

from __future__ import annotations

from bot.game.events import ClimbedBarrel, Event, LeftBarrel
from bot.game.notes import note
from bot.game.rules import Barrel, BarrelConflict, Rules
from bot.game.state import HandEnd, State

# Bound once: on Python 3.11 an Enum member read off its class costs several times a global.
_CLASSIC, _LVIV = Barrel.CLASSIC, Barrel.LVIV


def reaches_target(rules: Rules, total: int) -> bool:
    return total > rules.target if rules.target_exceed else total >= rules.target


def on_classic_barrel(rules: Rules, total: int) -> bool:
    return rules.barrel is _CLASSIC and total == rules.barrel_at


def on_any_barrel(rules: Rules, total: int) -> bool:
    barrel = rules.barrel
    if barrel is _CLASSIC:
        return total == rules.barrel_at
    return barrel is _LVIV and rules.barrel_at <= total < rules.target


def is_locked(rules: Rules, total: int) -> bool:
    return rules.lock_at is not None and rules.lock_at <= total < rules.target


def classic_barrel(
    state: State, end: HandEnd, made: bool | None, start: tuple[int, ...], new: list[int],
    bh: list[int], falls: list[int], notes: list[str], events: list[Event],
) -> None:
    """The classic barrel's scoring step: wins, mounting, barrel hands, falls, conflicts."""
    r = state.rules
    d = state.declarer
    at = r.barrel_at
    fall_to = at - r.barrel_fall_penalty

    def fall(p: int) -> None:
        falls[p] += 1
        bh[p] = 0
        new[p] = 0 if r.barrel_third_fall_reset and falls[p] % 3 == 0 else fall_to
        events.append(LeftBarrel(p, new[p], fell=True))
        notes.append(note("fell", who=p, total=new[p]))

    def in_zone(x: int) -> bool:
        return at <= x <= r.target if r.target_exceed else at <= x < r.target

    newcomers: list[int] = []
    stayed: list[int] = []
    for p in range(r.seats):
        if start[p] == at:
            if p == state.sitter:
                stayed.append(p)
                continue
            if p == d and not (end is HandEnd.PLAYED and made):
                bh[p] = 0
                events.append(LeftBarrel(p, new[p], fell=False))
                notes.append(note("off_barrel", who=p))
                continue
            if p == d and reaches_target(r, new[p]):
                continue
            new[p] = at
            bh[p] += 1
            if bh[p] >= r.barrel_hands:
                fall(p)
            else:
                stayed.append(p)
        elif in_zone(new[p]):
            new[p] = at
            bh[p] = 0
            newcomers.append(p)
            events.append(ClimbedBarrel(p))
            notes.append(note("climbed", who=p))
    if not newcomers:
        return
    if r.barrel_conflict is BarrelConflict.ALL_FALL and (len(newcomers) > 1 or stayed):
        for p in newcomers:
            fall(p)
    elif r.barrel_conflict is BarrelConflict.NEWCOMER_KNOCKS_OFF:
        for p in stayed:
            fall(p)
