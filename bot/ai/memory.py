"""What a seat can work out from its observation: played cards, voids, cards that cannot be held.

Everything here is derived from the observation alone (its public history of played cards,
the declarations, the exchange it saw), so a fresh player per decision remembers as much as
one that watched the whole hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.game.cards import RA, RANK_OF, RK, RQ, SUIT_MASK, SUIT_OF, beats, to_mask
from bot.game.observation import Observation
from bot.game.rules import FourAcesEffect, MustBeat, Rules


@dataclass(frozen=True, slots=True)
class Memory:
    """The hand so far as one seat saw it."""

    played: int  # every card played to a trick this hand
    forbidden: tuple[int, ...]  # per seat: cards play has shown it cannot hold
    voids: tuple[int, ...]  # per seat: bitmask of suits it has shown it lacks


def _beats(c: int, best: int, trump: int) -> bool:
    return beats(c, best, trump)


def recall(o: Observation) -> Memory:
    """Replays the observation's public history to find voids and impossible holdings."""
    r = o.rules
    k = len(o.active)
    forbidden = [0] * r.seats
    voids = [0] * r.seats
    pending = list(o.declarations)  # declarations happen on leads, in this order
    trump = -1
    locked = False
    history = o.played
    stock_left = r.stock_size
    for start in range(0, len(history), k):
        trick = history[start:start + k]
        trump, locked = _trump_after_lead(r, trick[0], pending, trump, locked)
        free = stock_left > 0  # while a stock lasts, any card may be played
        stock_left -= k
        if not free:
            _followers_revealed(r, trick, trump, forbidden, voids)
    return Memory(to_mask(c for _, c in history), tuple(forbidden), tuple(voids))


def _trump_after_lead(r: Rules, lead: tuple[int, int], pending: list[tuple[int, int, int]],
                      trump: int, locked: bool) -> tuple[int, bool]:
    """The trump (and whether four aces locked it away) after a lead that may have declared
    the next pending declaration (taken off ``pending``)."""
    leader, card = lead
    if pending and pending[0][0] == leader:
        _, suit, _ = pending[0]
        if suit >= 0 and SUIT_OF[card] == suit and RANK_OF[card] in (RK, RQ):
            pending.pop(0)
            if not locked:
                trump = suit
        elif suit < 0 and RANK_OF[card] == RA:
            pending.pop(0)
            if r.four_aces_effect is FourAcesEffect.NO_TRUMP:
                trump, locked = -1, True
    return trump, locked


def _followers_revealed(r: Rules, trick: tuple[tuple[int, int], ...],
                        trump: int, forbidden: list[int], voids: list[int]) -> None:
    """What each card after the lead showed its player lacks: the led suit (and trump) when
    he did not follow, the higher cards when he did not beat where he had to."""
    lead = trick[0][1]
    led = SUIT_OF[lead]
    best = lead
    for p, c in trick[1:]:
        suit = SUIT_OF[c]
        followed = suit == led
        if not followed:
            voids[p] |= 1 << led
            forbidden[p] |= SUIT_MASK[led]
            if r.must_trump_when_void and trump >= 0 and suit != trump:
                voids[p] |= 1 << trump
                forbidden[p] |= SUIT_MASK[trump]
        mb = r.must_beat
        if (mb is MustBeat.ALWAYS or (mb is MustBeat.FOLLOW and followed)) and not _beats(
                c, best, trump):
            above = SUIT_MASK[SUIT_OF[best]] & ~((2 << best) - 1)
            if followed:
                if SUIT_OF[best] == led:
                    forbidden[p] |= above
            elif trump >= 0 and suit == trump and r.must_trump_when_void:
                if SUIT_OF[best] == trump:
                    forbidden[p] |= above
            else:
                forbidden[p] |= above
                if trump >= 0 and SUIT_OF[best] != trump:
                    forbidden[p] |= SUIT_MASK[trump]
                    voids[p] |= 1 << trump
        if _beats(c, best, trump):
            best = c
