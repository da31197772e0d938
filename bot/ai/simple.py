"""A cheap observation-based player: bids on strength, declares, takes tricks when it can.

The observation-only counterpart of ``bot.game.simulate.greedy_policy``; good enough that
matches end, and the baseline the stronger levels are measured against.
"""

from __future__ import annotations

import random

from bot.game.actions import Action, Flag, Verb
from bot.game.cards import (
    RA,
    RK,
    RQ,
    beats,
    card,
    marriages_in,
    points_of,
    rank_of,
    suit_of,
    to_mask,
)
from bot.game.observation import Observation
from bot.game.state import Phase
from bot.game.tricks import winning_card


class SimplePlayer:
    def choose(self, observation: Observation, rng: random.Random) -> Action:
        o = observation
        legal = [a for a in o.legal if a.seat == o.to_act] or list(o.legal)
        if not legal:
            raise ValueError("no legal action to choose from")
        legal = [a for a in legal if a.verb is not Verb.REDEAL] or legal
        phase = o.phase
        hand = to_mask(o.hand)
        if phase is Phase.BIDDING:
            return _bid(o, legal, hand, rng)
        if phase is Phase.EXCHANGE:
            moves = [a for a in legal if a.verb in (Verb.GIVE, Verb.DISCARD)]
            if moves:
                keep = _marriage_cards(hand)
                return min(moves, key=lambda a: (a.card in keep, points_of(a.card),
                                                 rng.random()))
            return legal[0]
        if phase is Phase.CONTRACT or (phase is Phase.PLAY and not o.trick):
            leads = [a for a in legal if a.verb is Verb.PLAY]
            if not leads:
                return _lowest_contract(legal)
            declared = [a for a in leads if a.flag is not Flag.NONE]
            if declared:
                return max(declared, key=lambda a: o.rules.marriage_values[suit_of(a.card)])
            aces = [a for a in leads if rank_of(a.card) == RA]
            return rng.choice(aces or leads)
        if phase is Phase.PLAY:
            return _follow(o, legal, rng)
        return rng.choice(legal)


def _bid(o: Observation, legal: list[Action], hand: int, rng: random.Random) -> Action:
    bids = [a for a in legal if a.verb is Verb.BID and a.flag is Flag.NONE]
    passes = [a for a in legal if a.verb is Verb.PASS]
    strength = sum(points_of(c) for c in o.hand)
    strength += sum(o.rules.marriage_values[m] for m in marriages_in(hand))
    strength += 25 + rng.randrange(-10, 11)
    if bids and (not passes or strength >= bids[0].amount):
        return bids[0]
    return passes[0] if passes else legal[0]


def _lowest_contract(legal: list[Action]) -> Action:
    contracts = [a for a in legal if a.verb is Verb.CONTRACT]
    return min(contracts, key=lambda a: a.amount) if contracts else legal[0]


def _follow(o: Observation, legal: list[Action], rng: random.Random) -> Action:
    trump = o.trump
    best = winning_card(o.trick, trump)
    plays = [a for a in legal if a.verb is Verb.PLAY] or legal
    winners = [a for a in plays if beats(a.card, best, trump)]
    if winners and rng.random() < 0.8:
        return max(winners, key=lambda a: rank_of(a.card))
    return min(plays, key=lambda a: (points_of(a.card), rng.random()))


def _marriage_cards(hand: int) -> set[int]:
    out: set[int] = set()
    for suit in marriages_in(hand):
        out |= {card(RK, suit), card(RQ, suit)}
    return out
