"""The strong player: perfect-information Monte Carlo over sampled worlds.

For a card it samples deals that agree with everything the seat knows (``bot.ai.worlds``),
weighs each by how likely the other seats' bids and contract were in it (``bot.ai.inference``)
and solves each one double-dummy (``bot.ai.solver``): does the declarer still make his
contract after this card? The card that wins the most worlds for the seat's side is played;
the club player's card stands unless another one is strictly better. Early in a hand, when
not one world can be solved within the budget, it plays the club player's card.

A defender plays to defeat the contract, not for his own points: what counts is the score
relative to the others, and a failed contract moves the declarer by twice its value.

The contract is the one of the best expected score (+C made, -C failed, the barrel's worth)
over sampled worlds solved double dummy from the first lead, each weighed like a card's; the
club player's where too few are solved in time. Bidding, the talon, gifts and giving up are
the club player's (``normal``) counting on the points strong's card play takes beyond the
club player's (``STRONG``): bidding over sampled talons, played out with club players or
solved, measured no better. Positions the solver does not cover (a stock to draw from, four
aces to declare) are played out with club players.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Literal

from bot.ai.club import ClubPlayer
from bot.ai.inference import Inference
from bot.ai.solver import Aborted, action_reaches, action_values, solver_for, supported
from bot.ai.valuation import NORMAL, Style, contract_worth, marriage_worth
from bot.ai.worlds import Sampler, agrees
from bot.game.actions import Action, Flag, Verb
from bot.game.cards import RANK_OF, RANK_POINTS, marriages_in, to_mask
from bot.game.engine import apply_into
from bot.game.observation import Observation, observe
from bot.game.state import Phase, State

_MAX_CANDIDATES = 8
# The club player's bidding, raise and rospisat, counting on the points its card play takes
# beyond the club player's with the same cards. Fitted on 1,366 contracts played in a
# russian arena (strong against two club players, --budget 0.05): the chance to make C with
# the estimate E is that of a normal deviate (sd 35) above C - E - b, with b = +6 for strong
# (95%: +2 to +10) and -3 for the club players (-7 to 0). Bidding more or less readily
# than this (compete 40 to -20, play_bonus 0 to 30, a bid on the estimate over sampled
# talons) measured within noise of it or worse against normal (scripts/bid_sweep.py).
STRONG = replace(NORMAL, play_bonus=10)
# Worlds solved for one decision at most. From the second trick on, a 0.4 s search solved
# 900-6,800 worlds, most of them the same few deals again (with two cards left a defender's
# hand has a handful of possibilities); past a few hundred samples the counts' noise is
# below the gaps between cards that matter, so the rest of the budget bought nothing.
ENOUGH_WORLDS = 300
# Solved worlds the raise needs before it overrules the club player's contract: with fewer
# the share of worlds that make a contract is too coarse to price a 10-point step.
RAISE_WORLDS = 30


class SearchPlayer:
    """Perfect-information Monte Carlo with club-player playouts, within ``budget`` seconds."""

    def __init__(self, budget: float = 0.5, max_worlds: int | None = None,
                 defence: Literal["fail", "own"] = "fail", style: Style = STRONG,
                 infer: bool = True, raise_by: Literal["club", "worlds"] = "worlds",
                 raise_bonus: int = 0) -> None:
        self.budget = budget
        # The contract: the club player's estimate ("club"), or the best expected score over
        # solved sampled worlds ("worlds"), each world counting ``raise_bonus`` points more
        # than its double-dummy value (the defenders at the table are not double dummy).
        self.raise_by = raise_by
        self.raise_bonus = raise_bonus
        # Weigh each world by how likely the others' bids and contract were in it, read as
        # the club player's (``bot.ai.inference``).
        self.infer = infer
        # A defender plays to defeat the contract ("fail") or for his own points ("own"):
        # the score that counts is relative (a failed contract moves the declarer by twice
        # its value) and a full-window solve for own points costs ten times a make test, so
        # "own" solves far fewer worlds in the early tricks; it measured no better.
        self.defence = defence
        self.max_worlds = ENOUGH_WORLDS if max_worlds is None else max_worlds
        self.club = ClubPlayer(style)
        self.last_worlds = 0  # worlds searched for the last decision (for tests and tuning)

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        start = time.perf_counter()
        o = observation
        fallback = self.club.choose(o, rng)
        candidates = _candidates(o, fallback)
        self.last_worlds = 0
        if len(candidates) < 2 or o.seat is None:
            return fallback
        # Stop with a margin: the club player, the sampler and a niced process share it.
        deadline = start + self.budget * 0.8
        if o.phase is Phase.PLAY:
            solved = self._solve(o, candidates, deadline, rng)
            if solved is not None:
                return solved
        if (o.phase is Phase.CONTRACT and self.raise_by == "worlds"
                and fallback.verb is Verb.CONTRACT):
            return self._raise(o, fallback, deadline, rng)
        if o.phase is not Phase.PLAY:
            return fallback
        me = o.seat
        totals = [0.0] * len(candidates)
        worlds = 0
        inference = Inference(o) if self.infer else None
        for world in self._worlds(o, deadline, rng):
            w = inference.weight(world) if inference is not None else 1.0
            seed = rng.random()
            results = []
            for a in candidates:
                if time.perf_counter() >= deadline and worlds:
                    break
                results.append(_playout(world, a, me, random.Random(seed), self.club))
            if len(results) < len(candidates):
                break
            for i, v in enumerate(results):
                totals[i] += w * v
            worlds += 1
        self.last_worlds = worlds
        if not worlds:
            return fallback
        best = max(range(len(candidates)),
                   key=lambda i: (totals[i], candidates[i] is fallback))
        return candidates[best]


    def _worlds(self, o: Observation, deadline: float,
                rng: random.Random) -> Iterator[State]:
        """Deals that agree with all ``o`` knows, until the deadline or ``max_worlds``; none
        if the first few samples all fail (the caller keeps the club player's choice)."""
        sampler = Sampler(o)
        given = misses = 0
        while time.perf_counter() < deadline and given < self.max_worlds:
            world = sampler.world(rng)
            if world is None or not agrees(o, world):
                misses += 1
                if misses > 5 and not given:
                    return
                continue
            given += 1
            yield world

    def _solve(self, o: Observation, candidates: list[Action], deadline: float,
               rng: random.Random) -> Action | None:
        """The card that wins the most solved worlds (None: the solver does not apply)."""
        me = o.seat
        assert me is not None
        wins = [0.0] * len(candidates)
        worlds = 0
        seen: dict[tuple[int, ...], list[float]] = {}  # a deal dealt again counts again
        inference = Inference(o) if self.infer else None
        for world in self._worlds(o, deadline, rng):
            if not supported(world):
                return None
            key = (*world.held, world.discards, *world.points)  # all a solve depends on
            got = seen.get(key)
            if got is None:
                try:
                    got = self._solve_world(world, me, candidates, deadline)
                except Aborted:
                    break
                w = inference.weight(world) if inference is not None else 1.0
                got = seen[key] = [w * v for v in got]
            for i, v in enumerate(got):
                wins[i] += v
            worlds += 1
        self.last_worlds = worlds
        if not worlds:
            return candidates[0]  # the club player's card
        best = max(range(len(candidates)), key=lambda i: (wins[i], i == 0))
        return candidates[best]

    def _raise(self, o: Observation, fallback: Action, deadline: float,
               rng: random.Random) -> Action:
        """The contract of the best expected score (+C made, -C failed, the barrel's worth)
        over solved sampled worlds; the club player's when too few are solved in time."""
        contracts = sorted((a for a in o.legal if a.seat == o.seat and a.verb is Verb.CONTRACT),
                           key=lambda a: a.amount)
        if len(contracts) < 2:
            return fallback
        # More than every card point and the declarer's marriages cannot be made.
        top = 120 + sum(marriage_worth(o, suit, i)
                        for i, suit in enumerate(marriages_in(to_mask(o.hand))))
        amounts = [a.amount for a in contracts if a.amount <= top] or [contracts[0].amount]
        inference = Inference(o) if self.infer else None
        taken: list[tuple[float, int]] = []  # (weight, points the declarer ends with)
        seen: dict[tuple[int, ...], int] = {}
        for world in self._worlds(o, deadline, rng):
            if not supported(world):
                return fallback
            key = (*world.held, world.discards, *world.points)
            got = seen.get(key)
            if got is None:
                try:
                    got = seen[key] = most_made(world, fallback, amounts, deadline)
                except Aborted:
                    break
            w = inference.weight(world) if inference is not None else 1.0
            taken.append((w, got + self.raise_bonus if got else 0))
        self.last_worlds = len(taken)
        weight = sum(w for w, _ in taken)
        if len(taken) < RAISE_WORLDS or weight <= 0:
            return fallback

        def gain(a: Action) -> tuple[float, int]:
            p = sum(w for w, v in taken if v >= a.amount) / weight
            return (p * contract_worth(o, a.amount) - (1 - p) * a.amount, -a.amount)

        return max(contracts, key=gain)

    def _solve_world(self, world: State, me: int, candidates: list[Action],
                     deadline: float) -> list[float]:
        """Each candidate's outcome in one world: +1/-1 as the seat's side makes or loses
        the contract, or (a defender for his own points) the points the seat takes."""
        d = world.declarer
        if d >= 0 and (d == me or self.defence == "fail"):
            solver = solver_for(world, frozenset({d}), deadline=deadline)
            need = world.contract - world.points[d] - world.decl[d]
            sign = 1.0 if me == d else -1.0
            return [sign if r else -sign
                    for r in action_reaches(world, solver, candidates, need)]
        # everyone for himself, or a defender for his own points
        solver = solver_for(world, frozenset({me}), deadline=deadline)
        return [float(v) for v in action_values(world, solver, candidates)]


def _candidates(o: Observation, fallback: Action) -> list[Action]:
    """The actions worth searching: every card, a few bids, gifts and contracts."""
    legal = [a for a in o.legal if a.seat == o.to_act]
    phase = o.phase
    out: list[Action] = [fallback]
    if phase is Phase.BIDDING:
        bids = sorted((a for a in legal if a.verb is Verb.BID and a.flag is Flag.NONE),
                      key=lambda a: a.amount)
        out += [a for a in legal if a.verb is Verb.PASS] + bids[:2]
    elif phase is Phase.EXCHANGE:
        moves = [a for a in legal if a.verb in (Verb.GIVE, Verb.DISCARD)]
        moves.sort(key=lambda a: (RANK_POINTS[RANK_OF[a.card]], a.card))
        out += moves[:_MAX_CANDIDATES - 1]
        out += [a for a in legal if a.verb in (Verb.ROSPISAT, Verb.REDEAL)]
    elif phase is Phase.CONTRACT:
        contracts = sorted((a for a in legal if a.verb is Verb.CONTRACT), key=lambda a: a.amount)
        out += contracts[:3]
        if fallback.verb is Verb.CONTRACT and fallback.amount > contracts[0].amount:
            step = o.rules.bid_step
            out += [a for a in contracts if a.amount == fallback.amount + step]
        out += [a for a in legal if a.verb in (Verb.ROSPISAT, Verb.SPISAT, Verb.CONCEDE)]
    elif phase is Phase.PLAY:
        out += [a for a in legal if a.verb is Verb.PLAY]
    elif phase is Phase.TALON:
        out += legal
    return list(dict.fromkeys(out))  # each once, in the order found


def most_made(world: State, contract: Action, amounts: list[int], deadline: float) -> int:
    """The highest of ``amounts`` (ascending) the declarer makes in ``world`` double dummy,
    or 0 when not even the lowest: a bisection of make tests, far cheaper than the value."""
    s = apply_into(world, contract, None)
    d = s.declarer
    base = s.points[d] + s.decl[d]
    solver = solver_for(s, frozenset({d}), deadline=deadline)
    declare = s.trick_no > 0 or solver.may_declare_first
    hands = list(s.held)

    def makes(amount: int) -> bool:
        need = amount - base
        return solver.value(hands, s.trick, s.to_act, s.trump, s.marriages_declared, declare,
                            need - 1, need) >= need

    if not makes(amounts[0]):
        return 0
    lo, hi = 0, len(amounts)  # amounts[lo] made, amounts[hi] (if any) not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if makes(amounts[mid]):
            lo = mid
        else:
            hi = mid
    return amounts[lo]


def _playout(world: State, first: Action, me: int, rng: random.Random,
             club: ClubPlayer) -> float:
    """The change to ``me``'s total when ``first`` is played and club players finish."""
    s = apply_into(world, first, None)
    steps = 0
    while s.phase is not Phase.DEALING and s.phase is not Phase.MATCH_OVER and steps < 200:
        o = observe(s, s.to_act)
        a = club.choose(o, rng)
        s = apply_into(s, a, None, inplace=True)
        steps += 1
    res = s.last_result
    return float(res.delta[me]) if res is not None else 0.0
