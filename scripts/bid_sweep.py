"""Variants of a player in seat 0 against two normal players over duplicate deals.

    .venv/bin/python scripts/bid_sweep.py --hands 3000 --seed 7 base compete=0 mc:0.65

Each argument is one variant; ``name=value`` pairs are ``Style`` fields on top of the normal
player (``base`` is the normal player itself):

- ``compete=0,play_bonus=20``: a club player with that style (with ``--budget``: the strong
  player with that style and budget);
- ``mc:TAU[:STYLE]``: bids the next step when the fitted post-talon estimate, averaged over
  24 sampled talons (after two gifts), makes it with a chance of at least TAU;
- ``cheat:TAU[:STYLE]``: the same with the real talon (it peeks: a bound, not a player);
- ``seeall[:STYLE]``: strong's card play solving the real deal (it peeks: a bound);
- ``seeall+cheat:TAU[:STYLE]``: that card play with the cheat's bidding;
- ``ddbid:TAU[:STYLE]``: bids the next step when, in a share TAU of 20 sampled deals (the
  others' hands and the talon), the club player's gifts leave a hand that makes it double
  dummy;
- ``raise:BONUS[:STYLE]``: the strong player with that style, its contract the best expected
  score over solved sampled worlds, each counting BONUS points more than double dummy;
- ``clubraise[:STYLE]``: the strong player with that style and the club player's contract;
- ``noinfer[:STYLE]``: the strong player with that style, its worlds not weighed by the
  others' bids (``bot.ai.inference``).

``scripts/oracle_bound.py`` seats a player that sees every card and solves them for its
bidding, gifts, raise and card play: the bound these peeking variants are not.

One JSON line per variant: the variant's mean per hand minus the mean of the two normals'
(paired over the deals) with its 95% half-width, and its contracts. ``declared`` counts
hands (three per deal), rospisat included.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Iterator
from dataclasses import fields, replace

from bot.ai import Player, arena, player
from bot.ai.club import ClubPlayer
from bot.ai.search import SearchPlayer
from bot.ai.solver import Aborted, solver_for
from bot.ai.valuation import (
    NORMAL,
    Style,
    _chance,
    declarer_estimate,
    gift_cost,
    hand_value,
    urge,
)
from bot.ai.worlds import Sampler, agrees
from bot.game.actions import Action, Flag, Verb
from bot.game.cards import cards_of, to_mask
from bot.game.observation import Observation, observe
from bot.game.presets import preset
from bot.game.state import State

_SEEN: list[State | None] = [None]  # the state the arena last observed, for the bounds


def _peek(s: State, p: int | None) -> Observation:
    _SEEN[0] = s
    return observe(s, p)


def style_of(spec: str) -> Style:
    """``compete=0,play_bonus=20`` as a Style on top of NORMAL."""
    if spec == "base":
        return NORMAL
    kinds = {f.name: str(f.type) for f in fields(Style)}
    changes: dict[str, object] = {}
    for part in spec.split(","):
        name, _, value = part.partition("=")
        kind = kinds[name]
        changes[name] = (value == "1" if kind == "bool" else
                         float(value) if kind == "float" else int(value))
    return replace(NORMAL, **changes)  # type: ignore[arg-type]


def after_gifts(hand: int, n: int) -> int:
    """``hand`` less the ``n`` cards the club player would give away first."""
    for c in sorted(cards_of(hand), key=gift_cost(hand))[:n]:
        hand &= ~(1 << c)
    return hand


class TalonBidder(ClubPlayer):
    """Bids the next step while the fitted estimate makes it with a chance of ``tau``."""

    def __init__(self, style: Style, tau: float, cheat: bool = False, samples: int = 24) -> None:
        super().__init__(style)
        self.tau = tau
        self.cheat = cheat
        self.samples = samples

    def _bid(self, o: Observation, legal: list[Action], rng: random.Random) -> Action:
        bids = [a for a in legal if a.verb is Verb.BID and a.flag is Flag.NONE]
        passes = [a for a in legal if a.verb is Verb.PASS]
        claims = [a for a in legal if a.verb is Verb.REDEAL]
        hand = to_mask(o.hand)
        if claims and hand_value(o, hand, with_talon=True) < o.rules.min_bid - 20:
            return claims[0]
        if not bids or not passes:
            return bids[0] if bids else (passes[0] if passes else legal[0])
        gifts = len(o.active) - 1
        seen = _SEEN[0]
        if self.cheat and seen is not None:
            talons = [seen.talons[0]]
        else:
            unknown = cards_of(o.rules.deck_mask & ~hand)
            k = max(o.rules.talons)
            srng = random.Random(hash((o.hand, o.hand_no)))
            talons = [to_mask(srng.sample(unknown, k)) for _ in range(self.samples)]
        extra = self.style.play_bonus + urge(o, o.seat, self.style)
        step = bids[0]
        p = statistics.fmean(
            _chance(declarer_estimate(o, after_gifts(hand | t, gifts)) + extra - step.amount)
            for t in talons)
        return step if p >= self.tau else passes[0]


class SolvedBidder(ClubPlayer):
    """Bids the next step while, in a share ``tau`` of sampled deals (the others' hands and
    the talon, within what the auction showed), the club player's gifts leave a hand that
    makes it double dummy; the club player's bid elsewhere (several talons, a stock)."""

    def __init__(self, style: Style, tau: float, samples: int = 20) -> None:
        super().__init__(style)
        self.tau = tau
        self.samples = samples

    def _bid(self, o: Observation, legal: list[Action], rng: random.Random) -> Action:
        bids = [a for a in legal if a.verb is Verb.BID and a.flag is Flag.NONE]
        passes = [a for a in legal if a.verb is Verb.PASS]
        me = o.seat
        if (not bids or not passes or me is None or len(o.talon_sizes) != 1
                or o.stock_size or any(a.verb is Verb.REDEAL for a in legal)):
            return super()._bid(o, legal, rng)
        step = bids[0]
        sampler = Sampler(o)
        srng = random.Random(hash((o.hand, o.hand_no, step.amount)))
        made = n = tries = 0
        while n < self.samples and tries < self.samples * 4:
            tries += 1
            w = sampler.world(srng)
            if w is None or not agrees(o, w):
                continue
            n += 1
            hands = list(w.held)
            hand = hands[me] | w.talons[0]
            receivers = [p for p in w.active if p != me]
            cheap = sorted(cards_of(hand), key=gift_cost(hand))[:len(receivers)]
            for c, to in zip(cheap, receivers, strict=True):
                hand &= ~(1 << c)
                hands[to] |= 1 << c
            hands[me] = hand
            solver = solver_for(w, frozenset({me}), node_limit=200_000)
            try:
                v = solver.value(hands, (), me, -1, 0, solver.may_declare_first,
                                 step.amount - 1, step.amount)
            except Aborted:
                continue
            made += v >= step.amount
        if not n:
            return super()._bid(o, legal, rng)
        return step if made / n >= self.tau else passes[0]


class SeeAll(SearchPlayer):
    """Strong's card play with the real deal as its only world."""

    def _worlds(self, o: Observation, deadline: float, rng: random.Random) -> Iterator[State]:
        seen = _SEEN[0]
        if seen is not None:
            yield seen.copy()


def measure(spec: str, hands: int, seed: int, rules_name: str,
            budget: float | None = None, per_deal: str | None = None) -> dict[str, object]:
    """One variant against two normals: the paired difference and the contracts."""
    kind, _, rest = spec.partition(":")
    tau = None
    if kind in ("mc", "cheat", "seeall+cheat", "ddbid"):
        tau_text, _, rest = rest.partition(":")
        tau = float(tau_text)
    elif kind == "raise":
        bonus_text, _, rest = rest.partition(":")
    elif kind not in ("seeall", "seeall+cheat", "noinfer", "clubraise"):
        kind, rest = "style", spec
    style = style_of(rest or "base")
    arena.observe = _peek if kind not in {"style", "mc"} else observe  # type: ignore[attr-defined,assignment]

    def make(level: str) -> Player:
        if level != "x":
            return player(level)
        if kind.startswith("seeall"):
            strong = SeeAll(budget or 0.5, style=style)
            if tau is not None:
                strong.club = TalonBidder(style, tau, cheat=True)
            return strong
        if kind == "noinfer":
            return SearchPlayer(budget or 0.5, style=style, infer=False)
        if kind == "clubraise":
            return SearchPlayer(budget or 0.5, style=style, raise_by="club")
        if kind == "raise":
            return SearchPlayer(budget or 0.5, style=style, raise_bonus=int(bonus_text))
        if kind == "ddbid":
            assert tau is not None
            return SolvedBidder(style, tau)
        if tau is not None:
            return TalonBidder(style, tau, cheat=kind == "cheat")
        return ClubPlayer(style) if budget is None else SearchPlayer(budget, style=style)

    t0 = time.perf_counter()
    e = arena.run(preset(rules_name), ["x", "normal", "normal"], hands=hands, seed=seed,
                  make=make)
    if per_deal:
        with open(per_deal, "a") as f:
            f.write(json.dumps({"variant": spec, "seed": seed, "per_deal": [
                a - (b + c) / 2 for a, b, c in zip(e[0].per_deal, e[1].per_deal,
                                                   e[2].per_deal, strict=True)]}) + "\n")
    return {
        "variant": spec, "deals": hands, "seed": seed, "budget": budget, **paired(e),
        "p95_s": e[0].summary()["decision_p95_s"],
        "seconds": round(time.perf_counter() - t0, 1),
    }


def paired(e: list[arena.Entry]) -> dict[str, object]:
    """Seat x's mean per hand minus the two normals' (paired over the deals, with its 95%
    half-width) and the contracts of seat x and of the first normal."""
    d = [a - (b + c) / 2 for a, b, c in zip(e[0].per_deal, e[1].per_deal, e[2].per_deal,
                                           strict=True)]

    def declared(x: arena.Entry) -> int:
        return x.contracts_made + x.contracts_failed + x.rospisat

    return {
        "diff": round(statistics.fmean(d), 2),
        "ci95": round(arena.half_width(d), 2),
        "mean": round(statistics.fmean(e[0].per_deal), 2),
        "declared": declared(e[0]), "failed": e[0].contracts_failed,
        "rospisat": e[0].rospisat, "normal_declared": declared(e[1]),
        "normal_failed": e[1].contracts_failed, "normal_rospisat": e[1].rospisat,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("variants", nargs="+")
    p.add_argument("--hands", type=int, default=2000)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--preset", default="russian")
    p.add_argument("--budget", type=float, default=None,
                   help="seat the strong player with this budget and the variant's style")
    p.add_argument("--per-deal", default=None, metavar="FILE",
                   help="append each variant's difference per deal here (for paired variants)")
    args = p.parse_args()
    for spec in args.variants:
        print(json.dumps(measure(spec, args.hands, args.seed, args.preset, args.budget,
                                 args.per_deal)),
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
