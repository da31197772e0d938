"""The club player (``normal``) and the beginner (``easy``): rules of thumb, no search.

The club player counts sure tricks and marriages to bid, keeps its marriages together and
leads to declare them, follows with the cheapest card that wins for good, remembers every
played card and the voids play revealed, and leans its bidding on the match score. The
beginner is the same player with a beginner's habits: it bids only what it can count, forgets
what was played, leads its aces at once and now and then plays a card without thinking.
"""

from __future__ import annotations

import random

from bot.ai.card_play import CardDecision
from bot.ai.valuation import (
    EASY,
    NORMAL,
    Style,
    bid_limit,
    bid_value,
    contract_choice,
    declarer_value,
    gift_cost,
)
from bot.game.actions import Action, Flag, Verb
from bot.game.cards import (
    RA,
    RANK_OF,
    RANK_POINTS,
    RK,
    SUIT_OF,
    card,
    marriage_cards,
    to_mask,
)
from bot.game.observation import Observation
from bot.game.rules import DiscardsCountFor
from bot.game.state import Phase

__all__ = ["EASY", "NORMAL", "ClubPlayer", "Style"]


class ClubPlayer:
    """A rules-of-thumb player; ``style`` makes it the club player or the beginner."""

    def __init__(self, style: Style = NORMAL) -> None:
        self.style = style

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        o = observation
        legal = [a for a in o.legal if a.seat == o.to_act] or list(o.legal)
        if not legal:
            raise ValueError("no legal action to choose from")
        phase = o.phase
        if phase is Phase.BIDDING:
            return self._bid(o, legal, rng)
        if phase is Phase.TALON:
            return legal[int(rng.random() * len(legal))]
        if phase is Phase.EXCHANGE:
            return self._exchange(o, legal, rng)
        if phase is Phase.CONTRACT:
            contract = self._contract(o, legal)
            if contract is not None:
                return contract
        claims = [a for a in legal if a.verb is Verb.REDEAL]
        if claims and o.declarer == o.seat and self._weak(o):
            return claims[0]
        plays = [a for a in legal if a.verb is Verb.PLAY]
        if not plays:
            return next((a for a in legal if a.verb is not Verb.REDEAL), legal[0])
        if self.style.blunder and rng.random() < self.style.blunder:
            return rng.choice([a for a in plays if a.flag is Flag.NONE] or plays)
        return CardDecision(o, self.style).play(plays, rng)

    # ---- auction ------------------------------------------------------------------------
    def _bid(self, o: Observation, legal: list[Action], rng: random.Random) -> Action:
        bids = [a for a in legal if a.verb is Verb.BID and a.flag is Flag.NONE]
        passes = [a for a in legal if a.verb is Verb.PASS]
        claims = [a for a in legal if a.verb is Verb.REDEAL]
        hand = to_mask(o.hand)
        value = bid_value(o, hand, self.style)
        if claims and value < o.rules.min_bid - 20:
            return claims[0]
        noise = rng.randrange(-3, 4)
        if bids and not passes:
            return bids[0]
        limit = bid_limit(o, o.seat, value, self.style) + noise
        ok = [a for a in bids if a.amount <= limit]
        if not ok or not passes:
            return passes[0] if passes else (bids[0] if bids else legal[0])
        # The next step: a club player does not jump.
        return ok[0]

    def _weak(self, o: Observation) -> bool:
        hand = to_mask(o.hand)
        value = self._declarer_value(o, hand)
        return value < o.contract - 10

    def _declarer_value(self, o: Observation, hand: int) -> int:
        """What the declarer counts on with the talon in hand."""
        return declarer_value(o, hand, self.style)

    # ---- exchange and contract ----------------------------------------------------------
    def _exchange(self, o: Observation, legal: list[Action], rng: random.Random) -> Action:
        moves = [a for a in legal if a.verb in (Verb.GIVE, Verb.DISCARD)]
        claims = [a for a in legal if a.verb is Verb.REDEAL]
        if claims and self._weak(o):
            return claims[0]
        if not moves:
            return legal[0]
        hand = to_mask(o.hand)
        keep = marriage_cards(hand)
        worth = gift_cost(hand)
        to_self = o.rules.discards_count_for is DiscardsCountFor.DECLARER

        def cost(a: Action) -> tuple[float, float]:
            c = a.card
            guarded = RANK_OF[c] == RA or (hand >> card(RA, SUIT_OF[c]) & 1 and RANK_OF[c] >= RK)
            if a.verb is Verb.DISCARD and to_self and not guarded and c not in keep:
                # points laid away count for the declarer
                return (-RANK_POINTS[RANK_OF[c]], rng.random())
            return (worth(c), rng.random())

        return min(moves, key=cost)

    def _contract(self, o: Observation, legal: list[Action]) -> Action | None:
        contracts = [a for a in legal if a.verb is Verb.CONTRACT]
        hand = to_mask(o.hand)
        value = self._declarer_value(o, hand) - self.style.margin
        ros = [a for a in legal if a.verb in (Verb.ROSPISAT, Verb.SPISAT)]
        if ros and value + self.style.rospisat_gap < o.winning_bid:
            me = o.seat
            third = me is not None and o.rules.rospisat_penalty and (
                o.rospisat_calls[me] % 3 == 2)
            if not third or value + 60 < o.winning_bid:
                return ros[0]
        concede = [a for a in legal if a.verb is Verb.CONCEDE]
        if concede and value < o.winning_bid - 30:
            return concede[0]
        if not contracts:
            return None
        if not self.style.raises:
            return min(contracts, key=lambda a: a.amount)
        amount = contract_choice(o, o.seat, value, [a.amount for a in contracts])
        return next(a for a in contracts if a.amount == amount)
