"""Strong's contract against the club player's, scored on the real deals.

    .venv/bin/python scripts/contract_probe.py --positions 200 --seed 7 --worlds 100

Declarers at the contract decision as club players' matches reach them (``--preset``, the
talon taken and the gifts given). At each, the club player's contract (with ``STRONG``'s
play bonus) and the strong player's (the best expected score over ``--worlds`` solved
sampled worlds, ``--bonus`` points added to each; ``--budget`` seconds of this process's
CPU, so that a shared machine does not starve it) are scored on the real deal two ways:

- ``dd``: made when the double-dummy solve of the real deal reaches it;
- ``play``: made when club players play the hand out (the same dice for both contracts);
- ``pimc``: made when the strong player (``--play-budget`` CPU seconds a card) plays the
  declarer's cards and club players defend, as in the arena.

A made contract scores its worth to the declarer (``contract_worth``: the barrel's rules),
a failed one minus itself. Positions where the club player gives up are skipped (giving up
stays the club player's). A line per position goes to stderr; the last line on stdout is a
JSON object: per scoring, the mean difference per decision with its 95% half-width, and the
decision's CPU seconds (p50, p95) and worlds.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from bot.ai import arena
from bot.ai.club import ClubPlayer
from bot.ai.search import STRONG, SearchPlayer, most_made
from bot.ai.valuation import contract_worth
from bot.game.actions import Action, Verb
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply_into, legal_actions
from bot.game.observation import observe
from bot.game.presets import preset
from bot.game.state import Phase, State


def positions(rules_name: str, seed: int, want: int) -> list[State]:
    """Declarers about to name their contract in club players' matches."""
    club = ClubPlayer()
    rng = random.Random(seed)
    found: list[State] = []
    s = new_match(preset(rules_name), 0)
    while len(found) < want:
        if s.phase is Phase.MATCH_OVER:
            s = new_match(preset(rules_name), 0)
        for move in random_deal(s, rng):
            s = apply_into(s, move, None)
        while s.phase not in (Phase.DEALING, Phase.MATCH_OVER):
            if s.phase is Phase.CONTRACT and s.to_act == s.declarer:
                found.append(s.copy())
            s = apply_into(s, club.choose(observe(s, s.to_act), rng), None)
    return found


def played_out(s: State, contract: Action, seed: int) -> bool:
    """Whether ``contract`` is made when club players play the hand out."""
    club = ClubPlayer()
    rng = random.Random(seed)
    s = apply_into(s, contract, None)
    while s.phase is Phase.PLAY:
        s = apply_into(s, club.choose(observe(s, s.to_act), rng), None, inplace=True)
    return bool(s.last_result is not None and s.last_result.made)


def played_by_strong(s: State, contract: Action, seed: int, budget: float) -> bool:
    """Whether ``contract`` is made when the strong player (``budget`` a decision) plays the
    declarer's cards and club players defend."""
    club = ClubPlayer()
    strong = SearchPlayer(budget=budget)
    rng = random.Random(seed)
    s = apply_into(s, contract, None)
    d = s.declarer
    while s.phase is Phase.PLAY:
        who = strong if s.to_act == d else club
        s = apply_into(s, who.choose(observe(s, s.to_act), rng), None, inplace=True)
    return bool(s.last_result is not None and s.last_result.made)


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--positions", type=int, default=100)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--preset", default="russian")
    p.add_argument("--worlds", type=int, default=100, help="worlds solved per decision at most")
    p.add_argument("--budget", type=float, default=60.0, help="CPU seconds per decision")
    p.add_argument("--play-budget", type=float, default=0.05,
                   help="CPU seconds a card for the strong declarer of the ``pimc`` scoring")
    p.add_argument("--bonus", type=int, default=0, help="points added to each world's value")
    args = p.parse_args()
    # The budget in this process's CPU time: the machine may be shared.
    time.perf_counter = time.process_time
    ai = SearchPlayer(budget=args.budget, max_worlds=args.worlds, raise_bonus=args.bonus)
    diffs: dict[str, list[float]] = {"dd": [], "play": [], "pimc": []}
    times: list[float] = []
    worlds: list[int] = []
    changed = 0
    for i, s in enumerate(positions(args.preset, args.seed, args.positions)):
        d = s.declarer
        o = observe(s, d)
        club = ClubPlayer(STRONG).choose(o, random.Random(i))
        if club.verb is not Verb.CONTRACT:
            continue
        t = time.process_time()
        strong = ai.choose(o, random.Random(i))
        times.append(time.process_time() - t)
        worlds.append(ai.last_worlds)
        amounts = sorted(a.amount for a in legal_actions(s, d) if a.verb is Verb.CONTRACT)
        most = most_made(s, club, amounts, float("inf"))
        row: dict[str, object] = {"i": i, "club": club.amount, "strong": strong.amount,
                                  "dd_most": most, "worlds": ai.last_worlds,
                                  "s": round(times[-1], 3)}
        for name, got in diffs.items():
            diff = 0.0
            for a, sign in ((strong, 1), (club, -1)):
                if strong == club:
                    break
                made = (most >= a.amount if name == "dd" else played_out(s, a, i)
                        if name == "play" else played_by_strong(s, a, i, args.play_budget))
                diff += sign * (contract_worth(o, a.amount) if made else -a.amount)
            got.append(diff)
            row[name] = diff
        changed += strong != club
        print(json.dumps(row), file=sys.stderr, flush=True)
    times.sort()
    out: dict[str, object] = {
        "preset": args.preset, "seed": args.seed, "decisions": len(times), "changed": changed,
        "worlds_max": args.worlds, "bonus": args.bonus,
        "worlds_p50": statistics.median(worlds) if worlds else 0,
        "p50_s": round(arena.quantile(times, 0.5), 3),
        "p95_s": round(arena.quantile(times, 0.95), 3),
    }
    for name, got in diffs.items():
        out[name] = {"diff": round(statistics.fmean(got), 2),
                     "ci95": round(arena.half_width(got), 2)}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
