"""Benchmark of the double-dummy solver: ``python -m bot bench solver``.

Club players play seeded hands of a preset; from each hand two positions are kept: the
first the solver covers with a trick to lead (the declarer's first lead; in a stock game,
the first lead after the stock is gone) and the lead with half of those cards left
(mid-hand). Each position is solved as the strong player asks it: every legal card of the
seat to move, the declarer's make test (does the declarer still take what his contract
needs after this card?), or each card's points where nobody declared. Both
implementations solve the same positions, one after the other position by position, each
with a fresh transposition table as for a world of the strong player's; the compiled one
repeats a position until 20 ms have passed. Times are this process's CPU seconds, so that
the other work of a shared machine does not count. The answers are compared. Prints a line
per set and, as the last line, one JSON object: ``fast_positions_per_s``,
``python_positions_per_s`` and ``ratio`` from the first trick, the same with ``mid_`` from
mid-hand, positions searched per solve, and ``same_answers``.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from bot.ai.club import ClubPlayer
from bot.ai.solver import Kind, action_reaches, action_values, compiled_available, solver_for
from bot.ai.solver import supported as solver_covers
from bot.game.actions import Action, Verb
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply_into, legal_actions
from bot.game.observation import observe
from bot.game.presets import preset
from bot.game.state import Phase, State

_REPEAT_FOR = 0.02  # CPU seconds: a compiled solve is repeated until this much has passed


def positions(preset_name: str, count: int, seed: int = 1) -> tuple[list[State], list[State]]:
    """``count`` first-trick and ``count`` mid-hand positions of club players' hands."""
    rules = preset(preset_name)
    rng = random.Random(seed)
    club = ClubPlayer()
    first: list[State] = []
    mid: list[State] = []
    s = new_match(rules, 0)
    hands = 0
    while len(first) < count or len(mid) < count:
        hands += 1
        if hands > 50 * count + 100:
            raise RuntimeError(f"{preset_name}: too few positions the solver covers")
        if s.phase is Phase.MATCH_OVER:
            s = new_match(rules, 0)
        for move in random_deal(s, rng):
            s = apply_into(s, move, None)
        start = half = -1
        while s.phase not in (Phase.DEALING, Phase.MATCH_OVER):
            if s.phase in (Phase.PLAY, Phase.CONTRACT) and not s.trick and solver_covers(s):
                left = s.held[s.to_act].bit_count()
                if start < 0 and len(first) < count:
                    first.append(s.copy())
                    start = left
                elif start < 0:
                    start = left
                if half < 0 and left <= (start + 1) // 2 and start > 1:
                    half = left
                    if len(mid) < count:
                        mid.append(s.copy())
            s = apply_into(s, club.choose(observe(s, s.to_act), rng), None)
    return first, mid


def _question(s: State) -> tuple[frozenset[int], list[Action], int | None]:
    """The side maximised, the cards, and the points needed (None: each card's points)."""
    plays = [a for a in legal_actions(s, s.to_act) if a.verb is Verb.PLAY]
    d = s.declarer
    if d < 0:
        return frozenset({s.to_act}), plays, None
    return frozenset({d}), plays, s.contract - s.points[d] - s.decl[d]


def solve(s: State, kind: Kind, question: tuple[frozenset[int], list[Action], int | None]
          ) -> tuple[list[int] | list[bool], int]:
    """The strong player's ``question`` about ``s`` (see the module's text), and the
    positions searched."""
    side, plays, need = question
    solver = solver_for(s, side, kind=kind)
    if need is None:
        return action_values(s, solver, plays), solver.nodes
    return action_reaches(s, solver, plays, need), solver.nodes


def measure(states: list[State], with_compiled: bool) -> dict[str, Any]:
    """Seconds per solve of each implementation over ``states``, and whether they agree."""
    py_time = c_time = 0.0
    nodes = 0
    same = True
    for s in states:
        question = _question(s)
        t0 = time.process_time()
        answer, searched = solve(s, Kind.PYTHON, question)
        py_time += time.process_time() - t0
        nodes += searched
        if not with_compiled:
            continue
        runs = 0
        t0 = time.process_time()
        while True:
            got, _ = solve(s, Kind.COMPILED, question)
            runs += 1
            spent = time.process_time() - t0
            if spent >= _REPEAT_FOR:
                break
        c_time += spent / runs
        same = same and got == answer
    n = len(states)
    python_rate = n / py_time if py_time else 0.0
    fast_rate = n / c_time if c_time else None
    return {"fast": fast_rate, "python": python_rate,
            "ratio": fast_rate / python_rate if fast_rate and python_rate else None,
            "nodes": nodes / n if n else 0, "same": same}


def run_bench(count: int = 20, preset_name: str = "russian", seed: int = 1) -> int:
    """Measure, print the lines and the JSON line; 0, or 1 if the compiled solver is not
    there or the answers differ."""
    with_compiled = compiled_available()
    first, mid = positions(preset_name, count, seed)
    print(f"bench solver: {preset_name}, {len(first)} positions from the first trick and "
          f"{len(mid)} from mid-hand (seed {seed}); positions solved per CPU second",
          flush=True)
    if not with_compiled:
        print("the compiled solver is not available here: the Python one alone is measured")
    results = {}
    for name, states in (("first trick", first), ("mid-hand", mid)):
        r = results[name] = measure(states, with_compiled)
        fast = f"compiled {r['fast']:,.1f}/s, " if r["fast"] else ""
        ratio = f", ratio {r['ratio']:.1f}" if r["ratio"] else ""
        print(f"{name}: {fast}python {r['python']:,.2f}/s{ratio} "
              f"({r['nodes']:,.0f} positions searched per solve)", flush=True)
    a, b = results["first trick"], results["mid-hand"]
    same = a["same"] and b["same"]
    if not same:
        print("the compiled and the Python solver disagree on some position")

    def rounded(x: float | None, digits: int = 1) -> float | None:
        return None if x is None else round(x, digits)

    print(json.dumps({
        "preset": preset_name, "positions": count,
        "fast_positions_per_s": rounded(a["fast"]),
        "python_positions_per_s": rounded(a["python"], 2), "ratio": rounded(a["ratio"]),
        "mid_fast_positions_per_s": rounded(b["fast"]),
        "mid_python_positions_per_s": rounded(b["python"], 2),
        "mid_ratio": rounded(b["ratio"]),
        "nodes_per_position": round(a["nodes"]), "mid_nodes_per_position": round(b["nodes"]),
        "same_answers": same}))
    return 0 if with_compiled and same else 1
