"""The club player's card play: from what is still out and the voids play revealed, the
cheapest card that wins for good, a lead that pulls trumps or gives away little, and points
added to a partner's sure trick."""

from __future__ import annotations

import random

from bot.ai.memory import Memory, recall
from bot.ai.valuation import Style, marriage_worth
from bot.game.actions import Action, Flag
from bot.game.cards import (
    RA,
    RANK_OF,
    RANK_POINTS,
    RQ,
    SUIT_MASK,
    SUIT_OF,
    beats,
    cards_of,
    marriage_cards,
    to_mask,
)
from bot.game.observation import Observation


class CardDecision:
    """One card decision: what is out, who is on whose side, what wins for good."""

    def __init__(self, o: Observation, style: Style) -> None:
        self.o = o
        self.style = style
        me = o.seat
        assert me is not None
        self.me = me
        self.hand = to_mask(o.hand)
        r = o.rules
        if style.remembers:
            self.mem: Memory | None = recall(o)
            gone = self.mem.played
        else:
            self.mem = None
            gone = to_mask(c for _, c in o.trick)
        self.out = r.deck_mask & ~self.hand & ~gone  # cards someone else may still hold
        d = o.declarer
        self.friends = {me}
        # Partners share one score; defenders of a contract share only its defeat.
        self.one_score = r.partnerships
        if r.partnerships:
            self.friends = {p for p in o.active if p % 2 == me % 2}
        elif d >= 0 and me != d:
            self.friends = {p for p in o.active if p != d}
        self.trump = o.trump

    def void(self, p: int, suit: int) -> bool:
        return self.mem is not None and bool(self.mem.voids[p] >> suit & 1)

    def may_hold(self, p: int, c: int) -> bool:
        return bool(self.out >> c & 1) and not (
            self.mem is not None and self.mem.forbidden[p] >> c & 1)

    def can_beat(self, p: int, best: int, led: int) -> bool:
        """Seat ``p`` may hold a card that beats ``best`` in a trick led in ``led``."""
        bs = SUIT_OF[best]
        for c in cards_of(self.out & SUIT_MASK[bs]):
            if c > best and self.may_hold(p, c):
                return True
        t = self.trump
        if t >= 0 and bs != t and self.void(p, led):
            return any(self.may_hold(p, c) for c in cards_of(self.out & SUIT_MASK[t]))
        return False

    def holds_top(self, c: int) -> bool:
        """No one else may hold a higher card of its suit."""
        return not any(x > c for x in cards_of(self.out & SUIT_MASK[SUIT_OF[c]]))

    def play(self, plays: list[Action], rng: random.Random) -> Action:
        o = self.o
        if o.trick:
            return self.follow(plays, rng)
        return self.lead(plays, rng)

    def lead(self, plays: list[Action], rng: random.Random) -> Action:
        o = self.o
        aces = [a for a in plays if a.flag is Flag.ACES]
        if aces:
            return aces[0]
        marriages = [a for a in plays if a.flag is Flag.MARRIAGE]
        plain = [a for a in plays if a.flag is Flag.NONE]
        if self.style.aces_first:
            bare = [a for a in plain if RANK_OF[a.card] == RA]
            if bare:
                return bare[0]
        if marriages:
            return max(marriages, key=lambda a: (marriage_worth(o, SUIT_OF[a.card]),
                                                 RANK_OF[a.card] == RQ))
        keep = marriage_cards(self.hand)
        opponents = [p for p in o.active if p not in self.friends]
        # who may take a lead from me: the opponents, and a defender playing for his points
        rivals = opponents if self.one_score else [p for p in o.active if p != self.me]
        t = self.trump
        # Pull trumps with the top trump while an opponent may still have one.
        if t >= 0:
            tops = [a for a in plain if SUIT_OF[a.card] == t and self.holds_top(a.card)
                    and a.card not in keep]
            if tops and any(any(self.may_hold(p, c) for c in cards_of(self.out & SUIT_MASK[t]))
                            for p in opponents) and o.declarer == self.me:
                return max(tops, key=lambda a: a.card)
        winners = []
        for a in plain:
            c = a.card
            if c in keep or not self.holds_top(c):
                continue
            if any(self.can_beat(p, c, SUIT_OF[c]) for p in rivals):
                continue
            winners.append(a)
        if winners:
            return max(winners, key=lambda a: (RANK_POINTS[RANK_OF[a.card]], rng.random()))
        # Nothing wins for sure: give away as little as possible, from a suit where an
        # opponent cannot ruff and where the cards are not needed for a marriage.
        def cost(a: Action) -> tuple[int, int, float]:
            c = a.card
            ruffed = t >= 0 and SUIT_OF[c] != t and any(self.void(p, SUIT_OF[c]) for p in opponents)
            pts = RANK_POINTS[RANK_OF[c]] + (50 if c in keep else 0)
            if RANK_OF[c] == RA:
                pts += 20
            return (pts + (8 if ruffed else 0), SUIT_OF[c] == t, rng.random())
        return min(plain or plays, key=cost)

    def follow(self, plays: list[Action], rng: random.Random) -> Action:
        o = self.o
        trick = o.trick
        led = SUIT_OF[trick[0][1]]
        t = self.trump
        best_seat, best = trick[0]
        for p, c in trick[1:]:
            if beats(c, best, t):
                best_seat, best = p, c
        k = len(o.active)
        order = list(o.active)
        i = order.index(self.me)
        later = [order[(i + j) % k] for j in range(1, k - len(trick))]
        later_foes = [p for p in later if p not in self.friends]
        keep = marriage_cards(self.hand)

        def cheap(a: Action) -> tuple[int, int, float]:
            c = a.card
            return (RANK_POINTS[RANK_OF[c]] + (40 if c in keep else 0)
                    + (15 if RANK_OF[c] == RA else 0), SUIT_OF[c] == t, rng.random())

        winners = [a for a in plays if beats(a.card, best, t)]
        sure = [a for a in winners if not any(self.can_beat(p, a.card, led) for p in later_foes)]

        def cheapest(a: Action) -> tuple[bool, int, int, bool]:
            c = a.card
            return (SUIT_OF[c] == t, RANK_POINTS[RANK_OF[c]], RANK_OF[c], c in keep)

        if best_seat in self.friends and not self.one_score:
            # Defenders score each for himself: a trick the other defender wins is better
            # taken over when mine for sure (its points then count for me), or left cheaply.
            return min(sure, key=cheapest) if sure else min(plays, key=cheap)
        if best_seat in self.friends:
            safe = not any(self.can_beat(p, best, led) for p in later_foes)
            if safe:  # a partner takes it: add points that are not needed later
                def smear(a: Action) -> tuple[int, float]:
                    c = a.card
                    pts = RANK_POINTS[RANK_OF[c]]
                    if c in keep or (SUIT_OF[c] == t and t >= 0) or (
                            RANK_OF[c] == RA and not self.style.aces_first):
                        pts = -pts - 1
                    return (pts, rng.random())
                return max(plays, key=smear)
            return min(plays, key=cheap)
        if sure:
            return min(sure, key=cheapest)
        if winners and sum(RANK_POINTS[RANK_OF[c]] for _, c in trick) >= 10:
            return min(winners, key=lambda a: (a.card in keep, RANK_POINTS[RANK_OF[a.card]]))
        return min(plays, key=cheap)
