"""How much of the oracle's raise an honest raise gets: declarer positions compared.

    nice -n 19 .venv/bin/python scripts/raise_probe.py --positions 150 --seed 7 --worlds 8 \
        --gifts 2 --nodes 40000 [--log probe.jsonl]

Positions are reached as real games reach them: russian deals (``arena``'s decks and dealers,
seed 7) bid by three club players; each hand a seat won is taken where its declarer has just
seen the talon (before gifts). Each matchless deal starts a fresh match (totals 0): the raise
is scored as russian scores it off the barrel, +C made, -C failed.

Policies, each choosing the gifts and the contract (never rospisat: a hand the club player
gives up is still declared, at what it would raise to without the give-up; counted apart):

- ``club``: ClubPlayer(NORMAL); ``strong``: the strong player's choice (SearchPlayer keeps
  the club player's with ``STRONG``'s play bonus before the play);
- ``pimc_*``: honest: ``--worlds`` worlds from ``Sampler`` (what the declarer knows), in each
  the most each gift pair on the oracle's shortlist (``--gifts`` cheapest cards, both orders)
  makes double-dummy (bisection over the legal contracts; a solve over ``--nodes`` counts as
  not made); ``pimc_ev`` picks the gifts and contract of the best mean score over the worlds,
  ``pimc_qNN`` the highest contract made in at least NN% of them (the bid when none is);
- ``oracle``: ``oracle_bound.Plan`` on the true deal (its gifts and its most, a bound).

Every choice is scored by a double-dummy solve of the true deal with those gifts (over the
node limit: failed). A line per position goes to stderr (and ``--log``); the table follows on
stdout, the last line one JSON object. ``--summarise LOG`` prints the table of a log again.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import count

from oracle_bound import COUNTS, Plan, shortlist

from bot.ai import arena
from bot.ai.club import ClubPlayer
from bot.ai.search import STRONG
from bot.ai.solver import solver_for
from bot.ai.valuation import NORMAL
from bot.ai.worlds import Sampler, agrees
from bot.game.actions import Verb, act
from bot.game.dealing import apply_deal, canonical_deal, new_match
from bot.game.engine import apply_into, legal_actions
from bot.game.observation import Observation, observe
from bot.game.presets import preset
from bot.game.rules import Rules
from bot.game.state import Phase, State

QUANTILES = (70, 80, 90)
Gifts = tuple[int, ...]  # one card per receiver, in ``receivers`` order


@dataclass(slots=True)
class Position:
    """A declarer who has just seen the talon: the truth and what he knows."""

    deal: int
    state: State
    obs: Observation

    @property
    def me(self) -> int:
        return self.state.declarer

    @property
    def receivers(self) -> tuple[int, ...]:
        return tuple(p for p in self.state.active if p != self.me)


def positions(rules: Rules, seed: int) -> Iterator[Position]:
    """Deals bid by three club players, stopped where the declarer has the talon."""
    club = ClubPlayer(NORMAL)
    for deal in count():
        deck = arena._deck(rules, seed, deal)
        dealer = deal % rules.seats
        s = new_match(rules, 0)
        s.match = replace(s.match, dealer=dealer)
        s = s.copy()
        apply_deal(s, canonical_deal(rules, dealer, deck), None)
        rng = random.Random(f"raise:{seed}:{deal}")
        while s.phase in (Phase.BIDDING, Phase.TALON):
            s = apply_into(s, club.choose(observe(s, s.to_act), rng), None, inplace=True)
        if s.phase is Phase.EXCHANGE and s.declarer >= 0 and not s.gifts:
            yield Position(deal, s.copy(), observe(s, s.declarer))


def after_gifts(s: State, me: int, receivers: tuple[int, ...], gifts: Gifts) -> State:
    """``s`` once the declarer has given ``gifts``."""
    s = s.copy()
    for c, to in zip(gifts, receivers, strict=True):
        s = apply_into(s, act(me, Verb.GIVE, card=c, target=to), None, inplace=True)
    return s


def contract_amounts(s: State, me: int) -> list[int]:
    """The legal contracts once the gifts are given (they depend on the declarer's cards)."""
    return sorted(a.amount for a in legal_actions(s, me) if a.verb is Verb.CONTRACT)


# ---- policies -------------------------------------------------------------------------
def club_choice(pos: Position, player: ClubPlayer, rng: random.Random) -> tuple[Gifts, int, bool]:
    """The club player's gifts and contract, and whether it would have given up instead."""
    s = pos.state.copy()
    me = pos.me
    while s.phase is Phase.EXCHANGE:
        o = observe(s, me)
        gives = [a for a in o.legal if a.seat == me and a.verb is Verb.GIVE]
        s = apply_into(s, player._exchange(o, gives, rng), None, inplace=True)
    by_to = {to: c for c, to in s.gifts}
    gifts = tuple(by_to[to] for to in pos.receivers)
    o = observe(s, me)
    legal = [a for a in o.legal if a.seat == me]
    whole = player._contract(o, legal)
    contract = player._contract(o, [a for a in legal if a.verb is Verb.CONTRACT])
    assert contract is not None
    gave_up = whole is not None and whole.verb is not Verb.CONTRACT
    return gifts, contract.amount, gave_up


def most_in(plan: Plan, held: list[int], gifts: Gifts, amounts: list[int]) -> int:
    """The highest legal contract ``gifts`` make (bisection; -1: not even the lowest)."""
    if not plan.reaches(held, gifts, amounts[0]):
        return -1
    lo, hi = 0, len(amounts)  # amounts[lo] made, amounts[hi] (if any) not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if plan.reaches(held, gifts, amounts[mid]):
            lo = mid
        else:
            hi = mid
    return amounts[lo]


def pimc(pos: Position, worlds: int, k: int, nodes: int,
         rng: random.Random) -> tuple[dict[str, tuple[Gifts, int]], dict[str, object]]:
    """The honest raises: each pair's most in sampled worlds, then each variant's choice."""
    o, me, recv = pos.obs, pos.me, pos.receivers
    hand = pos.state.held[me]  # the declarer's own cards with the talon: he sees them
    pairs = shortlist(hand, k, len(recv))
    amounts = {g: contract_amounts(after_gifts(pos.state, me, recv, g), me) for g in pairs}
    sampler = Sampler(o)
    most: dict[Gifts, list[int]] = {g: [] for g in pairs}
    solves = tries = 0
    while len(most[pairs[0]]) < worlds and tries < worlds * 5:
        tries += 1
        w = sampler.world(rng)
        if w is None or not agrees(o, w):
            continue
        held = list(w.held)
        solver = solver_for(w, frozenset({me}), node_limit=nodes)
        for g in pairs:
            plan = Plan(me, w.held[me], recv, [g], solver)
            most[g].append(most_in(plan, held, g, amounts[g]))
            solves += plan.solves
    n = len(most[pairs[0]])

    def ev(g: Gifts, c: int) -> float:
        return sum(c if m >= c else -c for m in most[g]) / n

    def share(g: Gifts, c: int) -> float:
        return sum(m >= c for m in most[g]) / n

    out: dict[str, tuple[Gifts, int]] = {}
    out["pimc_ev"] = max(((g, c) for g in pairs for c in amounts[g]),
                         key=lambda gc: (ev(*gc), -gc[1]))
    for q in QUANTILES:
        best: tuple[Gifts, int] | None = None
        for g in pairs:
            ok = [c for c in amounts[g] if share(g, c) >= q / 100] or amounts[g][:1]
            cand = (g, ok[-1])
            if best is None or (cand[1], ev(*cand)) > (best[1], ev(*best)):
                best = cand
        assert best is not None
        out[f"pimc_q{q}"] = best
    return out, {"worlds": n, "solves": solves}


def oracle(pos: Position, k: int, nodes: int) -> tuple[Gifts, int, int]:
    """The oracle's gifts and contract on the true deal (``oracle_bound``'s), and its solves."""
    s, me, recv = pos.state, pos.me, pos.receivers
    hand = s.held[me]
    plan = Plan(me, hand, recv, shortlist(hand, k, len(recv)),
                solver_for(s, frozenset({me}), node_limit=nodes))
    most = plan.most(list(s.held), s.rules.bid_step, s.winning_bid)
    gifts = plan.best or plan.pairs[0]
    amounts = contract_amounts(after_gifts(s, me, recv, gifts), me)
    ok = [c for c in amounts if c <= most] or amounts[:1]
    return gifts, ok[-1], plan.solves


# ---- one position ---------------------------------------------------------------------
def probe(pos: Position, worlds: int, k: int, nodes: int, truth_nodes: int,
          seed: int) -> dict[str, object]:
    """Every policy's choice at one position, scored on the true deal."""
    rng = random.Random(f"probe:{seed}:{pos.deal}")
    choices: dict[str, tuple[Gifts, int]] = {}
    times: dict[str, float] = {}
    t = time.process_time()
    g, c, gave_up = club_choice(pos, ClubPlayer(NORMAL), rng)
    times["club"] = time.process_time() - t
    choices["club"] = (g, c)
    g, c, _ = club_choice(pos, ClubPlayer(STRONG), rng)
    choices["strong"] = (g, c)
    t = time.process_time()
    cut = COUNTS["plan_aborted"]
    honest, info = pimc(pos, worlds, k, nodes, rng)
    dt = time.process_time() - t
    info["aborted"] = COUNTS["plan_aborted"] - cut
    for name, choice in honest.items():
        choices[name] = choice
        times[name] = dt
    t = time.process_time()
    g, c, _ = oracle(pos, k, truth_nodes)
    times["oracle"] = time.process_time() - t
    choices["oracle"] = (g, c)
    # The truth: one plan, so that a choice two policies share is solved once.
    s, me = pos.state, pos.me
    truth = Plan(me, s.held[me], pos.receivers, [],
                 solver_for(s, frozenset({me}), node_limit=truth_nodes))
    cut = COUNTS["plan_aborted"]
    out: dict[str, object] = {"deal": pos.deal, "bid": s.winning_bid, "club_gave_up": gave_up,
                              **info}
    for name, (g, c) in choices.items():
        made = truth.reaches(list(s.held), g, c)
        out[name] = {"gifts": list(g), "contract": c, "made": made,
                     "score": c if made else -c, "s": round(times.get(name, 0.0), 3)}
    out["truth_aborted"] = COUNTS["plan_aborted"] - cut
    return out


# ---- the table ------------------------------------------------------------------------
def summarise(rows: list[dict[str, object]]) -> dict[str, object]:
    """Per policy: mean score, paired difference to club (95%), made/failed, contracts, time."""
    names = [k for k, v in rows[0].items() if isinstance(v, dict)]
    n = len(rows)
    # The raise only matters where the bid can be made: the oracle's contract is made there.
    live = [i for i, r in enumerate(rows) if r["oracle"]["made"]]  # type: ignore[index]
    out: dict[str, object] = {"positions": n, "makeable": len(live),
                              "club_gave_up": sum(bool(r["club_gave_up"]) for r in rows),
                              "pimc_aborted": sum(int(r.get("aborted", 0)) for r in rows),  # type: ignore[call-overload]
                              "truth_aborted": sum(int(r.get("truth_aborted", 0)) for r in rows)}  # type: ignore[call-overload]
    for name in names:
        recs = [r[name] for r in rows]
        scores = [float(x["score"]) for x in recs]  # type: ignore[index]
        club = [float(r["club"]["score"]) for r in rows]  # type: ignore[index]
        d = [a - b for a, b in zip(scores, club, strict=True)]
        times = sorted(float(x["s"]) for x in recs)  # type: ignore[index]
        made = sum(bool(x["made"]) for x in recs)  # type: ignore[index]
        out[name] = {
            "mean": round(statistics.fmean(scores), 2),
            "ci95": round(arena.half_width(scores), 2) if n > 1 else None,
            "diff_vs_club": round(statistics.fmean(d), 2),
            "diff_ci95": round(arena.half_width(d), 2) if n > 1 else None,
            "diff_makeable": round(statistics.fmean(d[i] for i in live), 2) if live else None,
            "made": made, "failed": n - made,
            "contract": round(statistics.fmean(float(x["contract"]) for x in recs), 1),  # type: ignore[index]
            "over_bid": round(statistics.fmean(
                float(x["contract"]) - float(r["bid"])  # type: ignore[index,arg-type]
                for x, r in zip(recs, rows, strict=True)), 1),
            "p50_s": round(arena.quantile(times, 0.5), 3),
            "p95_s": round(arena.quantile(times, 0.95), 3),
        }
    return out


def table(summary: dict[str, object]) -> list[str]:
    """Readable lines, the JSON object last."""
    lines = [f"positions {summary['positions']} (bid makeable {summary['makeable']}; club would "
             f"give up {summary['club_gave_up']}; solves over the limit: honest "
             f"{summary['pimc_aborted']}, true deal {summary['truth_aborted']})",
             f"{'policy':>10} {'mean':>8} {'±95%':>6} {'vs club':>8} {'±95%':>6} "
             f"{'makeable':>8} {'made':>5} {'fail':>5} {'contract':>8} {'over bid':>8} "
             f"{'p50 s':>7} {'p95 s':>7}"]
    for name, v in summary.items():
        if not isinstance(v, dict):
            continue
        lines.append(f"{name:>10} {v['mean']:>8} {v['ci95']:>6} {v['diff_vs_club']:>+8} "
                     f"{v['diff_ci95']:>6} {v['diff_makeable']:>+8} {v['made']:>5} "
                     f"{v['failed']:>5} {v['contract']:>8} {v['over_bid']:>8} {v['p50_s']:>7} "
                     f"{v['p95_s']:>7}")
    lines.append(json.dumps(summary))
    return lines


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--positions", type=int, default=30)
    p.add_argument("--skip", type=int, default=0, help="positions to pass over first")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--preset", default="russian")
    p.add_argument("--worlds", type=int, default=8, help="sampled worlds per decision")
    p.add_argument("--gifts", type=int, default=2, help="cheapest cards tried as gifts")
    p.add_argument("--nodes", type=int, default=40_000, help="node limit per honest solve")
    p.add_argument("--truth-nodes", type=int, default=150_000,
                   help="node limit per solve of the true deal (the oracle's and the scores)")
    p.add_argument("--log", default=None, help="append a JSON line per position here")
    p.add_argument("--summarise", nargs="+", default=None, metavar="LOG",
                   help="print the table of logged positions and stop")
    args = p.parse_args()
    if args.summarise:
        rows = []
        for path in args.summarise:
            with open(path) as f:
                rows += [json.loads(line) for line in f if line.strip()]
        print("\n".join(table(summarise(rows))))
        return 0
    rows: list[dict[str, object]] = []
    log = open(args.log, "a") if args.log else None  # noqa: SIM115 (kept open for the run)
    t0 = time.process_time()
    try:
        for i, pos in enumerate(positions(preset(args.preset), args.seed)):
            if i < args.skip:
                continue
            if len(rows) >= args.positions:
                break
            row = probe(pos, args.worlds, args.gifts, args.nodes, args.truth_nodes, args.seed)
            row["elapsed"] = round(time.process_time() - t0, 1)
            rows.append(row)
            line = json.dumps(row)
            print(line, file=sys.stderr, flush=True)
            if log is not None:
                log.write(line + "\n")
                log.flush()
    except KeyboardInterrupt:
        print(f"interrupted after {len(rows)} positions", file=sys.stderr)
    finally:
        if log is not None:
            log.close()
    if rows:
        print("\n".join(table(summarise(rows))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
