"""The strong player: Monte Carlo over sampled worlds, each finished by club players.

For every decision it samples deals that agree with everything the seat knows
(``bot.ai.worlds``), plays each candidate action in each world and finishes the hand with
club players on every seat, and takes the action with the best mean change to its own match
total. Bidding, the talon, gifts and discards, the raise and rospisat come from the same
machinery: the candidate is played out over the sampled talons and hands. Worlds are shared
between candidates (common random numbers), and the loop stops at the time budget.
"""

from __future__ import annotations

import random
import time

from bot.ai.club import NORMAL, ClubPlayer
from bot.ai.worlds import Sampler, agrees
from bot.game.actions import Action, Flag, Verb
from bot.game.cards import RANK_POINTS
from bot.game.engine import apply_into
from bot.game.observation import Observation, observe
from bot.game.state import Phase, State

_MAX_CANDIDATES = 8


class SearchPlayer:
    """Perfect-information Monte Carlo with club-player playouts, within ``budget`` seconds."""

    def __init__(self, budget: float = 0.5, max_worlds: int | None = None) -> None:
        self.budget = budget
        self.max_worlds = max_worlds  # stop early (deterministic tests)
        self.club = ClubPlayer(NORMAL)
        self.last_worlds = 0  # worlds searched for the last decision (for tests and tuning)

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        start = time.perf_counter()
        o = observation
        fallback = self.club.choose(o, rng)
        candidates = _candidates(o, fallback)
        self.last_worlds = 0
        if len(candidates) < 2 or o.seat is None:
            return fallback
        deadline = start + self.budget * 0.9
        sampler = Sampler(o)
        me = o.seat
        totals = [0.0] * len(candidates)
        worlds = 0
        misses = 0
        while time.perf_counter() < deadline and (
                self.max_worlds is None or worlds < self.max_worlds):
            world = sampler.world(rng)
            if world is None or not agrees(o, world):
                misses += 1
                if misses > 5 and not worlds:
                    return fallback
                continue
            seed = rng.random()
            results = []
            for a in candidates:
                if time.perf_counter() >= deadline and worlds:
                    break
                results.append(_playout(world, a, me, random.Random(seed), self.club))
            if len(results) < len(candidates):
                break
            for i, v in enumerate(results):
                totals[i] += v
            worlds += 1
        self.last_worlds = worlds
        if not worlds:
            return fallback
        best = max(range(len(candidates)),
                   key=lambda i: (totals[i], candidates[i] is fallback))
        return candidates[best]


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
        moves.sort(key=lambda a: (RANK_POINTS[a.card & 7], a.card))
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
    seen: set[Action] = set()
    unique = []
    for a in out:
        if a not in seen:
            seen.add(a)
            unique.append(a)
    return unique


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
