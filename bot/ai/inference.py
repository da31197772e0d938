"""What the other seats' own bids and contract say about their cards, read as a club player's.

A sampled world (``bot.ai.worlds``) only has to offer the seat the actions it has; but a
club player who passed at 105 holds a weak hand, and one who raised to 140 a strong one.
:class:`Inference` weighs a world by how far the club player's policy, holding that world's
cards, strays from what the other seats did: nothing when it would have done the same, less
the further it would have bid or contracted from what they did. The weight is soft, so a
person or another level at the table, who does not bid like the club player, only blurs it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.ai.valuation import NORMAL, Style, bid_limit, bid_value, contract_choice, declarer_value
from bot.game.cards import to_mask
from bot.game.exchange import after_talon
from bot.game.limits import auction_cap, highest_allowed, opening_bid
from bot.game.observation import Observation
from bot.game.state import State

# Points of disagreement that divide a world's weight by e. The club player's own noise is
# within 3 points of a bid, so a wider spread is for seats that are not club players
# (the strong level bids on 10 points more, people on their own judgment).
SPREAD = 10.0
_NOISE = 3  # the club player's bid limit varies by -3..+3


@dataclass(frozen=True, slots=True)
class _Bounds:
    """What one seat's auction says about its bid limit: at least ``lo``; below each pass."""

    seat: int
    lo: int
    passes: tuple[int, ...]  # the lowest bid open to it at each of its passes


class Inference:
    """Weighs sampled worlds by the other seats' bids and contract under the club policy."""

    def __init__(self, o: Observation, style: Style = NORMAL, spread: float = SPREAD) -> None:
        self.o = o
        self.style = style
        self.spread = spread
        me = o.seat
        r = o.rules
        self.played_by = {p: to_mask(c for q, c in o.played if q == p) for p in o.active}
        # Hands change with stock draws in a way the world does not keep: no inference there.
        self.on = me is not None and r.stock_size == 0
        self.bounds = self._auction(o) if self.on else ()
        d = o.declarer
        self.contract = (self.on and d >= 0 and d != me and o.contract > 0 and r.contract_raise
                         and not o.misere and style.raises)

    @staticmethod
    def _auction(o: Observation) -> tuple[_Bounds, ...]:
        r = o.rules
        lo: dict[int, int] = {}
        passes: dict[int, list[int]] = {}
        high = 0
        silenced = {p for p in o.active
                    if r.silence_below is not None and o.totals[p] < r.silence_below}
        for i, (p, amount, blind) in enumerate(o.bids):
            nxt = r.next_bid(high) if high else opening_bid(r, o.golden)
            high = max(high, amount)
            forced = i == 0 and r.opening_bid_forced and not r.dealer_forced_bid
            if p == o.seat or blind or forced or p in silenced:
                continue
            if amount:
                lo[p] = max(lo.get(p, -10**6), amount - _NOISE)
            else:
                passes.setdefault(p, []).append(nxt)
        return tuple(_Bounds(p, lo.get(p, -10**6), tuple(passes.get(p, ())))
                     for p in sorted(set(lo) | set(passes)))

    def weight(self, world: State) -> float:
        """How likely the others' bids and contract were with this world's cards (0..1]."""
        if not self.on:
            return 1.0
        o = self.o
        miss = 0
        for b in self.bounds:
            hand = self.auction_hand(world, b.seat)
            limit = bid_limit(o, b.seat, bid_value(o, hand, self.style, played=0), self.style)
            miss += max(0, b.lo - limit)
            if b.passes:
                cap = auction_cap(world, b.seat, hand)
                for n in b.passes:
                    if n <= cap:  # above the cap the pass was forced
                        miss += max(0, limit - (n + _NOISE - 1))
        if self.contract:
            miss += abs(o.contract - self.club_contract(world))
        return math.exp(-miss / self.spread) if miss else 1.0

    def auction_hand(self, world: State, p: int) -> int:
        """The cards seat ``p`` bid with in this world."""
        if p == world.declarer:
            talon = world.talons[world.talon_index] if 0 <= world.talon_index < len(
                world.talons) else 0
            return (after_talon(world) | self.played_by[p]) & ~talon
        got = to_mask(c for c, to in world.gifts if to == p)
        return (world.held[p] | self.played_by[p]) & ~got

    def club_contract(self, world: State) -> int:
        """The contract a club player holding the declarer's cards of this world names."""
        o = self.o
        r = o.rules
        d = world.declarer
        hand = world.held[d] | self.played_by[d]
        took = after_talon(world) | self.played_by[d]
        value = declarer_value(o, hand, self.style, played=0) - self.style.margin
        lo = o.winning_bid
        hi = max(lo, highest_allowed(world, d, hand, took))
        amounts = [lo]
        while (nxt := r.next_bid(amounts[-1])) <= hi:
            amounts.append(nxt)
        return contract_choice(o, d, value, amounts)
