"""A perfect-information oracle in seat x against two normals: the headroom.

    nice -n 19 .venv/bin/python scripts/oracle_bound.py --hands 400 --seed 7 --gifts 3 \
        --nodes 150000 [--own] [--verbose]

The oracle sees every card (all hands and the talon, through ``bid_sweep``'s peek) and
solves them double-dummy (``bot.ai.solver``): it bids the next step while it makes it with
the talon and its best gifts, gives those gifts, raises to the most it makes against best
defence and gives up (rospisat, unless it is the third and penalised one) below the bid; it
plays every card by the solver, as declarer to make the contract, as defender to defeat it
(with ``--own``, where the contract's fate is the same, for its own points). It cheats: a
bound, not a player. Gifts are searched among the ``--gifts`` cheapest cards by the club
player's gift cost (both orders); a solve that passes ``--nodes`` counts as not made (a card
decision then falls back on the club player's card), so the bound errs low.

A line per deal goes to stderr (its difference, the share of the hands the oracle declared);
the last line on stdout is the JSON summary: the oracle's mean per hand minus the mean of the
two normals (paired over the deals) with its 95% half-width, that difference split into what
the hands it declared and the others bring, and the contracts.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import permutations

from bid_sweep import _SEEN, _peek, paired

from bot.ai import Player, arena, player
from bot.ai.club import ClubPlayer
from bot.ai.solver import Aborted, DoubleDummy, action_reaches, action_values, solver_for
from bot.ai.valuation import gift_cost
from bot.game.actions import Action, Verb
from bot.game.cards import cards_of, marriages_in
from bot.game.observation import Observation
from bot.game.presets import preset
from bot.game.rules import Rules
from bot.game.state import Phase, State

_NO_TRUMP = -1
COUNTS: Counter[str] = Counter()  # solves and the ones cut off by the node limit


@dataclass(slots=True)
class Plan:
    """What the oracle makes as declarer with one hand: the best gifts found and their value."""

    seat: int
    hand: int  # its cards with the talon
    receivers: tuple[int, ...]
    pairs: list[tuple[int, ...]]  # gift cards, one per receiver in ``receivers`` order
    solver: DoubleDummy
    made: dict[tuple[tuple[int, ...], int], bool] = field(default_factory=dict)
    best: tuple[int, ...] | None = None  # the gifts that reach ``value``
    value: int = -1  # most points known reachable with ``best`` (-1: none tested yet)
    solves: int = 0

    def hands(self, held: list[int], gifts: tuple[int, ...]) -> list[int]:
        """Every hand once the oracle has taken the talon and given ``gifts``."""
        out = list(held)
        out[self.seat] = self.hand
        for c, to in zip(gifts, self.receivers, strict=True):
            out[self.seat] &= ~(1 << c)
            out[to] |= 1 << c
        return out

    def reaches(self, held: list[int], gifts: tuple[int, ...], need: int) -> bool:
        """Whether the oracle takes ``need`` points with these gifts against best defence."""
        key = (gifts, need)
        if key not in self.made:
            self.solves += 1
            COUNTS["plan_solves"] += 1
            self.solver.nodes = 0  # the node limit is per solve
            try:
                v = self.solver.value(self.hands(held, gifts), (), self.seat, _NO_TRUMP, 0,
                                      self.solver.may_declare_first, need - 1, need)
            except Aborted:
                COUNTS["plan_aborted"] += 1
                v = -1  # too dear to prove: counted as not made
            self.made[key] = v >= need
            if v >= need > self.value:
                self.best, self.value = gifts, need
        return self.made[key]

    def can_make(self, held: list[int], need: int) -> bool:
        """Some gifts on the shortlist make ``need``."""
        return self.value >= need or any(self.reaches(held, g, need) for g in self._order())

    def most(self, held: list[int], step: int, floor: int) -> int:
        """The most points (to ``step``) some gifts make; below ``floor``, what is known."""
        if not self.can_make(held, floor):
            return self.value
        # Card points and every marriage held: more than any play takes.
        top = 120 + sum(self.solver.top_marriage[self.seat] for _ in marriages_in(self.hand))
        for g in self._order():
            if g != self.best and not self.reaches(held, g, self.value + step):
                continue
            lo, hi = self.value, top + step
            while hi - lo > step:  # bisection: the table keeps what each test proved
                mid = lo + (hi - lo) // step // 2 * step
                if self.reaches(held, g, mid):
                    lo = mid
                else:
                    hi = mid
        return self.value

    def _order(self) -> list[tuple[int, ...]]:
        return sorted(self.pairs, key=lambda g: g != self.best)  # the best so far first


def shortlist(hand: int, k: int, receivers: int) -> list[tuple[int, ...]]:
    """The gifts tried: the ``k`` cheapest cards by the club player's cost, in every order."""
    cheap = sorted(cards_of(hand), key=gift_cost(hand))[:k]
    return list(permutations(cheap, receivers))


class Oracle:
    """Sees the real state, bids on its solved best and plays every card by the solver."""

    def __init__(self, gifts: int = 2, nodes: int = 60_000, own: bool = False) -> None:
        self.gifts = gifts
        self.own = own  # play for its own points where the contract's fate is the same
        self.nodes = nodes
        self.club = ClubPlayer()
        self.plans: dict[tuple[object, ...], Plan] = {}
        self.solvers: dict[tuple[object, ...], DoubleDummy] = {}
        self.log: list[dict[str, object]] = []  # one line per hand the oracle declared

    def choose(self, o: Observation, rng: random.Random) -> Action:
        s = _SEEN[0]
        me = o.seat
        if s is None or me is None or s.to_act != me:
            return self.club.choose(o, rng)
        legal = [a for a in o.legal if a.seat == me]
        if o.phase is Phase.BIDDING:
            return self._bid(s, me, legal) or self.club.choose(o, rng)
        if o.phase is Phase.EXCHANGE:
            return self._exchange(s, me, legal) or self.club.choose(o, rng)
        if o.phase is Phase.CONTRACT and any(a.verb is Verb.CONTRACT for a in legal):
            return self._contract(s, me, legal) or self.club.choose(o, rng)
        if o.phase in (Phase.PLAY, Phase.CONTRACT):
            return self._play(s, me, legal, self.club.choose(o, rng))
        return self.club.choose(o, rng)

    # ---- declaring ------------------------------------------------------------------
    def _plan(self, s: State, me: int) -> Plan:
        key = (s.dealt, s.talons, s.match, me)
        plan = self.plans.get(key)
        if plan is None:
            self.plans.clear()
            hand = s.dealt[me] | s.talons[0]
            receivers = tuple(p for p in s.active if p != me)
            plan = Plan(me, hand, receivers, shortlist(hand, self.gifts, len(receivers)),
                        solver_for(s, frozenset({me}), node_limit=self.nodes))
            self.plans[key] = plan
        return plan

    def _bid(self, s: State, me: int, legal: list[Action]) -> Action | None:
        bids = sorted((a for a in legal if a.verb is Verb.BID), key=lambda a: a.amount)
        passes = [a for a in legal if a.verb is Verb.PASS]
        if not bids or not passes:
            return bids[0] if bids else (passes[0] if passes else None)
        plan = self._plan(s, me)
        # One step at a time: the price is not what it scores (the raise is), and a jump
        # only pushes the others out earlier.
        return bids[0] if plan.can_make(list(s.dealt), bids[0].amount) else passes[0]

    def _exchange(self, s: State, me: int, legal: list[Action]) -> Action | None:
        plan = self._plan(s, me)
        if not s.gifts:
            most = plan.most(list(s.dealt), s.rules.bid_step, s.winning_bid)
            ros = [a for a in legal if a.verb is Verb.ROSPISAT]
            third = s.rules.rospisat_penalty and s.match.rospisat_calls[me] % 3 == 2
            if most < s.winning_bid and ros and not third:
                # 60 to each defender beats failing: the bid and half their points
                self.log.append({"most": most, "bid": s.winning_bid, "rospisat": True})
                return ros[0]
            self.log.append({"most": most, "bid": s.winning_bid, "gifts": plan.best,
                             "solves": plan.solves})
        gifts = plan.best or plan.pairs[0]
        done = {to for _, to in s.gifts}
        for c, to in zip(gifts, plan.receivers, strict=True):
            if to not in done:
                return next((a for a in legal if a.verb is Verb.GIVE and a.card == c
                             and a.target == to), None)
        return None

    def _contract(self, s: State, me: int, legal: list[Action]) -> Action | None:
        plan = self._plan(s, me)
        most = plan.most(list(s.dealt), s.rules.bid_step, s.winning_bid)
        contracts = sorted((a for a in legal if a.verb is Verb.CONTRACT), key=lambda a: a.amount)
        ok = [a for a in contracts if a.amount <= most] or contracts[:1]
        self.log[-1]["contract"] = ok[-1].amount
        return ok[-1]

    # ---- card play ------------------------------------------------------------------
    def _play(self, s: State, me: int, legal: list[Action], fallback: Action) -> Action:
        plays = [a for a in legal if a.verb is Verb.PLAY]
        d = s.declarer
        if len(plays) < 2 or d < 0:
            return fallback if fallback in plays or not plays else plays[0]
        solver = self._solver(s, me, d)
        need = s.contract - s.points[d] - s.decl[d]
        COUNTS["play_solves"] += 1
        try:
            made = action_reaches(s, solver, plays, need)
        except Aborted:
            COUNTS["play_aborted"] += 1
            return fallback
        want = me == d
        good = [a for a, m in zip(plays, made, strict=True) if m == want] or plays
        if len(good) > 1 and self.own:
            # The contract's fate is the same: the oracle's own points decide (a point taken
            # from the declarer's side moves the difference as much as one kept from him).
            own = self._solver(s, me, me)
            COUNTS["own_solves"] += 1
            try:
                values = action_values(s, own, good)
            except Aborted:
                COUNTS["own_aborted"] += 1
            else:
                top = max(values)
                good = [a for a, v in zip(good, values, strict=True) if v == top]
        return fallback if fallback in good else good[0]

    def _solver(self, s: State, me: int, side: int) -> DoubleDummy:
        """The hand's solver for the points of ``side`` (its table kept for the deal)."""
        key = (s.dealt, s.talons, s.match, s.gifts, side)
        solver = self.solvers.get(key)
        if solver is None:
            if not any(k[:4] == key[:4] for k in self.solvers):
                self.solvers.clear()
            # The declarer's own starts with what its plan found.
            plan = self.plans.get((s.dealt, s.talons, s.match, me)) if side == me else None
            solver = plan.solver if plan is not None else solver_for(
                s, frozenset({side}), node_limit=self.nodes)
            self.solvers[key] = solver
        solver.nodes = 0  # the node limit is per decision
        return solver


def measure(hands: int, seed: int, rules_name: str, gifts: int, nodes: int,
            verbose: bool, own: bool = False) -> dict[str, object]:
    """The oracle in seat x against two normals: the paired difference and the contracts."""
    arena.observe = _peek  # type: ignore[attr-defined,assignment]
    oracles: list[Oracle] = []
    hands_x: list[tuple[bool, float]] = []  # per hand: the oracle declared, its difference

    def make(level: str) -> Player:
        if level != "x":
            return player(level)
        o = Oracle(gifts, nodes, own)
        oracles.append(o)
        return o

    # which deals the oracle declared: a hand's result names its declarer
    real_play = arena._play_hand

    def play_hand(rules: Rules, stream: arena.Stream, deck: list[int], dealer: int,
                  levels: list[str], seat_of: list[int], entries: list[arena.Entry],
                  rng: random.Random, make: Callable[[str], Player]) -> list[int]:
        deltas = real_play(rules, stream, deck, dealer, levels, seat_of, entries, rng, make)
        res = stream.state.last_result
        x_seat = seat_of[0]
        hands_x.append((res is not None and res.declarer == x_seat,
                        deltas[x_seat] - (deltas[seat_of[1]] + deltas[seat_of[2]]) / 2))
        if len(hands_x) % len(seat_of) == 0:  # a deal's last rotation: progress for a log
            last = hands_x[-len(seat_of):]
            print(json.dumps({"deal": len(hands_x) // len(seat_of) - 1,
                              "d": sum(v for _, v in last) / len(last),
                              "d_declaring": sum(v for dec, v in last if dec) / len(last),
                              "declared": sum(dec for dec, _ in last),
                              "s": round(time.perf_counter() - t0, 1)}),
                  file=sys.stderr, flush=True)
        if verbose and res is not None and res.declarer == x_seat:
            o = oracles[-1]
            line = o.log[-1] if o.log else {}
            print(json.dumps({**line, "end": res.end.value, "made": res.made,
                              "taken": res.taken.get(x_seat), "delta": deltas[x_seat]}),
                  flush=True)
        return deltas

    arena._play_hand = play_hand
    t0 = time.perf_counter()
    try:
        e = arena.run(preset(rules_name), ["x", "normal", "normal"], hands=hands, seed=seed,
                      make=make)
    finally:
        arena._play_hand = real_play
    n = len(e[0].per_deal)
    # The difference per hand is the sum of what the hands it declared and the others
    # bring, each over every hand (split of the mean, not a mean within each group).
    split = {f"diff_{name}": round(sum(v for dec, v in hands_x if dec == want) / len(hands_x), 2)
             for name, want in (("declaring", True), ("defending", False))}
    n_decl = sum(dec for dec, _ in hands_x)
    mean_decl = [v for dec, v in hands_x if dec]
    return {
        "variant": "oracle+own" if own else "oracle", "deals": n, "seed": seed,
        "gifts": gifts, "nodes": nodes, **paired(e), **split,
        "mean_when_declaring": round(statistics.fmean(mean_decl), 1) if mean_decl else None,
        "hands": len(hands_x), "hands_declared": n_decl, **COUNTS,
        "seconds": round(time.perf_counter() - t0, 1),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--hands", type=int, default=300)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--preset", default="russian")
    p.add_argument("--gifts", type=int, default=2, help="cheapest cards tried as gifts")
    p.add_argument("--nodes", type=int, default=60_000, help="node limit per solve")
    p.add_argument("--own", action="store_true",
                   help="where the contract's fate is the same, play for its own points")
    p.add_argument("--verbose", action="store_true", help="a line per hand the oracle declared")
    args = p.parse_args()
    print(json.dumps(measure(args.hands, args.seed, args.preset, args.gifts, args.nodes,
                             args.verbose, args.own)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
