"""Benchmark of the hand analysis: ``python -m bot bench analysis``.

Club players play seeded hands of a preset; each finished hand is analysed for its
seat with the most moves (the declarer in a played hand), as a
player asks for it after a match (real-deal values on), in this process. Times are this
process's CPU seconds, so that the other work of a shared machine does not count (the
wall-clock p95 is printed beside them). Prints a line per ten hands and, as the last line,
one JSON object: ``hands``, ``p50_s``, ``p95_s``, ``max_s`` (CPU seconds per hand),
``p95_wall_s`` and the ``solver`` in use.
"""

from __future__ import annotations

import json
import random
import time

from bot.ai.analysis import analyse
from bot.ai.arena import quantile
from bot.ai.club import ClubPlayer
from bot.ai.solver import active
from bot.game.actions import Action
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply_into
from bot.game.observation import observe
from bot.game.presets import preset
from bot.game.state import Phase, State


def played_hands(preset_name: str, count: int, seed: int = 1
                 ) -> list[tuple[State, tuple[Action, ...]]]:
    """``count`` finished hands of club players: the state after each deal and its moves."""
    rules = preset(preset_name)
    rng = random.Random(seed)
    club = ClubPlayer()
    out: list[tuple[State, tuple[Action, ...]]] = []
    s = new_match(rules, 0)
    while len(out) < count:
        if s.phase is Phase.MATCH_OVER:
            s = new_match(rules, 0)
        for move in random_deal(s, rng):
            s = apply_into(s, move, None)
        start = s
        actions = []
        while s.phase not in (Phase.DEALING, Phase.MATCH_OVER):
            a = club.choose(observe(s, s.to_act), rng)
            actions.append(a)
            s = apply_into(s, a, None)
        out.append((start, tuple(actions)))
    return out


def run_bench(hands: int = 50, preset_name: str = "russian", seed: int = 1) -> int:
    """Measure, print the lines and the JSON line; 0."""
    games = played_hands(preset_name, hands, seed)
    print(f"bench analysis: {preset_name}, {hands} hands, one seat each, "
          f"solver {active().value}", flush=True)
    times: list[float] = []
    walls: list[float] = []
    for i, (start, actions) in enumerate(games, 1):
        seat = _most_decisions(start, actions)
        t0, w0 = time.process_time(), time.perf_counter()
        analyse(start, actions, seat, real=True, seed=i)
        times.append(time.process_time() - t0)
        walls.append(time.perf_counter() - w0)
        if i % 10 == 0:
            print(f"{i} hands: p50 {quantile(sorted(times), 0.5):.2f} s, "
                  f"p95 {quantile(sorted(times), 0.95):.2f} s", flush=True)
    print(json.dumps({"hands": len(times), "p50_s": round(quantile(sorted(times), 0.5), 3),
                      "p95_s": round(quantile(sorted(times), 0.95), 3),
                      "max_s": round(max(times), 3),
                      "p95_wall_s": round(quantile(sorted(walls), 0.95), 3),
                      "solver": active().value}), flush=True)
    return 0


def _most_decisions(start: State, actions: tuple[Action, ...]) -> int:
    counts = {p: sum(1 for a in actions if a.seat == p) for p in start.active}
    return max(counts, key=lambda p: (counts[p], -p))
