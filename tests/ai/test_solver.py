"""The double-dummy solver: the engine's card rules, exact values, the compiled and the Python
implementations giving the same answers, and the strong player's use."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.ai.club import ClubPlayer
from bot.ai.search import SearchPlayer
from bot.ai.solver import (
    CompiledSolver,
    DoubleDummy,
    Kind,
    Solver,
    action_reaches,
    action_values,
    compiled_available,
    solver_for,
    supported,
)
from bot.game.actions import Flag, Verb
from bot.game.cards import DECK_CARDS
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply_into, legal_actions
from bot.game.observation import observe
from bot.game.presets import PRESETS
from bot.game.rules import FourAcesEffect, Rules
from bot.game.state import Phase, State
from bot.game.tricks import legal_card_mask

_PLAYED = [name for name, p in PRESETS.items() if not p.rules.stock]
needs_compiled = pytest.mark.skipif(
    not compiled_available(),
    reason="the compiled solver is not built here (the install found no C compiler)")
_KINDS = [Kind.PYTHON, pytest.param(Kind.COMPILED, marks=needs_compiled)]


def _positions(name: str, seed: int, hands: int = 3) -> list[State]:
    """Every card-play position of a few hands played by club players."""
    rng = random.Random(seed)
    rules = PRESETS[name].rules
    club = ClubPlayer()
    out = []
    s = new_match(rules, 0)
    for _ in range(hands):
        if s.phase is Phase.MATCH_OVER:
            s = new_match(rules, 0)
        for move in random_deal(s, rng):
            s = apply_into(s, move, None)
        while s.phase not in (Phase.DEALING, Phase.MATCH_OVER):
            if s.phase is Phase.PLAY:
                out.append(s.copy())
            s = apply_into(s, club.choose(observe(s, s.to_act), rng), None)
    return out


@pytest.mark.parametrize("kind", _KINDS)
@pytest.mark.parametrize("name", _PLAYED)
def test_the_solver_allows_exactly_the_engines_cards_and_marriages(name: str,
                                                                   kind: Kind) -> None:
    for s in _positions(name, 11):
        if not supported(s):
            continue
        solver = solver_for(s, frozenset({max(s.declarer, 0)}), kind=kind)
        p = s.to_act
        assert solver.legal(s.held[p], s.trick, s.trump) == legal_card_mask(s, p)
        declare = s.trick_no > 0 or solver.may_declare_first
        mine = {(c, suit) for c, suit in solver.moves(s.held[p], s.trick, s.trump, declare)}
        engine = {(a.card, a.card >> 3 if a.flag is Flag.MARRIAGE else -1)
                  for a in legal_actions(s, p) if a.verb is Verb.PLAY}
        assert mine == engine


def _brute(s: State, d: int) -> int:
    """The declarer's points at the end under best play, by the engine's own moves."""
    if s.phase is not Phase.PLAY:
        return s.points[d] + s.decl[d]
    vals = [_brute(apply_into(s, a, None), d) for a in legal_actions(s, s.to_act)]
    return max(vals) if s.to_act == d else min(vals)


@pytest.mark.parametrize("kind", _KINDS)
@pytest.mark.parametrize(("name", "hands"), [("russian", 4), ("polish", 4),
                                             ("german_house", 10), ("polish2_bidding", 4)])
def test_solved_values_are_the_best_play_the_engine_allows(name: str, hands: int,
                                                           kind: Kind) -> None:
    checked = 0
    for s in _positions(name, 5, hands=hands):
        d = s.declarer
        if d < 0 or not supported(s) or len(s.trick) + sum(
                h.bit_count() for h in s.held) > 3 * len(s.active):
            continue  # the last three tricks at most: the brute force stays quick
        acts = [a for a in legal_actions(s, s.to_act) if a.verb is Verb.PLAY]
        solver = solver_for(s, frozenset({d}), kind=kind)
        now = s.points[d] + s.decl[d]
        values = action_values(s, solver, acts)
        for a, v in zip(acts, values, strict=True):
            assert now + v == _brute(apply_into(s, a, None), d), a.describe()
        need = s.contract - now
        assert action_reaches(s, solver_for(s, frozenset({d}), kind=kind), acts, need) == [
            v >= need for v in values]
        checked += 1
    assert checked >= 3


def test_strong_solves_late_positions_within_its_budget() -> None:
    late = [s for s in _positions("russian", 8, hands=4) if s.trick_no >= 4]
    ai = SearchPlayer(budget=0.05)
    solved = 0
    for s in late[:8]:
        o = observe(s, s.to_act)
        t0 = time.perf_counter()
        a = ai.choose(o, random.Random(1))
        assert time.perf_counter() - t0 < 0.1
        assert a in o.legal
        solved += ai.last_worlds >= 1
    assert solved >= 4


def test_the_make_test_stops_where_the_points_left_cannot_reach_the_contract() -> None:
    """Cut where every point still out is not enough: from the second trick the make
    test searches some 7,000 positions (94,000 without the cut)."""
    early = [s for s in _positions("russian", 3, hands=6)
             if s.trick_no == 1 and not s.trick and s.declarer >= 0 and supported(s)]
    assert len(early) >= 4
    nodes = 0
    for s in early:
        d = s.declarer
        acts = [a for a in legal_actions(s, s.to_act) if a.verb is Verb.PLAY]
        solver = solver_for(s, frozenset({d}))
        action_reaches(s, solver, acts, s.contract - s.points[d] - s.decl[d])
        nodes += solver.nodes
    assert nodes / len(early) < 15_000


# ---- the compiled solver against the Python one ---------------------------------------------

_ALL = list(PRESETS)


def _players_dealt(rules: Rules) -> int:
    """How many seats a hand of ``rules`` deals cards to (a fourth seat may sit out)."""
    s = new_match(rules, 0)
    for move in random_deal(s, random.Random(0)):
        s = apply_into(s, move, None)
    return len(s.active)


def _random_position(rules: Rules, rng: random.Random) -> tuple[dict[str, object], ...]:
    """A random play position of ``rules``: one to five tricks left, a trick under way,
    any trump (none, locked by four aces where they do that), marriages declared before
    (valued by order or by suit, or nothing on the Lviv barrel), either side maximising.
    Returns the solver's arguments and the position."""
    k = _players_dealt(rules)
    seats = list(range(rules.seats))
    sitter = rng.randrange(rules.seats) if k < rules.seats else -1
    order = [p for p in seats if p != sitter]
    first = rng.randrange(k)
    order = order[first:] + order[:first]  # the leader first
    locked = rules.four_aces_effect is FourAcesEffect.NO_TRUMP and rng.random() < 0.25
    trump = -1 if locked else rng.choice((-1, 0, 1, 2, 3))
    tricks = rng.choice((1, 2, 2, 3, 3, 4, 4, 5))
    cards = rng.sample(DECK_CARDS[str(rules.deck)], tricks * k)
    hands = [0] * rules.seats
    for i, p in enumerate(order):
        for c in cards[i * tricks:(i + 1) * tricks]:
            hands[p] |= 1 << c
    maxside = frozenset(rng.sample(order, 2 if k == 3 and rng.random() < 0.2 else 1))
    mvals = tuple((0, 0, 0, 0) if rng.random() < 0.15 else tuple(rules.marriage_values)
                  for _ in seats)
    args = {"rules": rules, "order": tuple(order), "maxside": maxside,
            "marriage_values": mvals, "may_declare_first": rules.marriage_on_first_lead,
            "trump_locked": locked}
    # the trick under way: legal cards of the first seats (a lead may open it)
    rules_only = Solver(**args)  # type: ignore[arg-type]
    trick: tuple[tuple[int, int], ...] = ()
    for p in order[:rng.randrange(k)]:
        legal = rules_only.legal(hands[p], trick, trump)
        c = rng.choice([x for x in range(32) if legal >> x & 1])
        hands[p] ^= 1 << c
        trick = (*trick, (p, c))
    position = {"hands": hands, "trick": trick, "seat": order[len(trick)], "trump": trump,
                "ndecl": rng.randrange(4), "declare": rules.marriage_on_first_lead or
                rng.random() < 0.8}
    return args, position


def _answers(solver: DoubleDummy, pos: dict[str, object],
             need: int) -> tuple[object, ...]:
    """The moves, each move's value, the best move, the make test of ``need`` and the
    positions searched."""
    hands, trick, seat = pos["hands"], pos["trick"], pos["seat"]
    trump, ndecl, declare = pos["trump"], pos["ndecl"], pos["declare"]
    assert isinstance(hands, list) and isinstance(trick, tuple) and isinstance(seat, int)
    assert isinstance(trump, int) and isinstance(ndecl, int) and isinstance(declare, bool)
    moves = solver.moves(hands[seat], trick, trump, declare)
    values = [solver.after(hands, trick, seat, trump, ndecl, declare, c, suit)
              for c, suit in moves]
    sign = 1 if seat in solver.maxside else -1
    best = max(range(len(moves)), key=lambda i: (sign * values[i], -i))
    reach = [solver.after(hands, trick, seat, trump, ndecl, declare, c, suit, need - 1, need)
             >= need for c, suit in moves]
    whole = solver.value(hands, trick, seat, trump, ndecl, declare)
    return moves, values, moves[best], reach, whole, solver.nodes


@needs_compiled
@pytest.mark.parametrize("name", _ALL)
@pytest.mark.slow
def test_the_compiled_solver_gives_the_python_solvers_values_and_moves(name: str) -> None:
    """1,000 random positions of the preset's play rules, and the positions of played hands:
    the same moves, values, best move and make tests, after as many positions searched."""
    rules = PRESETS[name].rules
    rng = random.Random(name)
    for _ in range(1000):
        args, pos = _random_position(rules, rng)
        need = rng.randrange(0, 130)
        py = _answers(Solver(**args), pos, need)  # type: ignore[arg-type]
        assert _answers(CompiledSolver(**args), pos, need) == py, (args, pos)  # type: ignore[arg-type]
    played = 0
    for s in _positions(name, 7, hands=6):
        if not supported(s) or sum(h.bit_count() for h in s.held) > 4 * len(s.active):
            continue
        me = s.to_act
        d = s.declarer if s.declarer >= 0 else me
        acts = [a for a in legal_actions(s, me) if a.verb is Verb.PLAY]
        need = s.contract - s.points[d] - s.decl[d]
        for maxside in ({d}, {me}):
            py_solver = solver_for(s, frozenset(maxside), kind=Kind.PYTHON)
            c_solver = solver_for(s, frozenset(maxside), kind=Kind.COMPILED)
            assert action_values(s, c_solver, acts) == action_values(s, py_solver, acts)
            assert action_reaches(s, c_solver, acts, need) == action_reaches(
                s, py_solver, acts, need)
            assert c_solver.nodes == py_solver.nodes
        played += 1
    assert played >= 5 or rules.stock


# ---- which solver runs: the setting, the fallback, the pool ---------------------------------

ROOT = Path(__file__).resolve().parents[2]
# A machine where the compiled solver cannot be loaded (not built: no C compiler at install).
_WITHOUT_COMPILED = "sys.modules['bot.ai._dds'] = None; "


def _run_bot(tmp_path: Path, prelude: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot run`` against a Discord that is not there: it logs its start, then
    gives up (exit 1)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    full = {**os.environ, "LOG_LEVEL": "INFO", "DISCORD_TOKEN": "x",
            "DATABASE_PATH": str(tmp_path / "v.db"),
            "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
            "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/gateway", **env}
    full.pop("DATABASE_URL", None)
    code = prelude + "from bot.__main__ import main; sys.exit(main(['run']))"
    return subprocess.run([sys.executable, "-c", "import sys; " + code], check=False, cwd=ROOT,
                          env=full, capture_output=True, text=True, timeout=120)


@needs_compiled
@pytest.mark.slow
def test_the_bot_says_at_start_which_solver_runs(tmp_path: Path) -> None:
    done = _run_bot(tmp_path)
    assert "the strong AI's double-dummy solver: compiled" in done.stderr, done.stderr
    done = _run_bot(tmp_path, TYSIAC_SOLVER="python")
    assert "the strong AI's double-dummy solver: python" in done.stderr, done.stderr


@pytest.mark.slow
def test_without_the_compiled_solver_the_bot_runs_the_python_one(tmp_path: Path) -> None:
    done = _run_bot(tmp_path, _WITHOUT_COMPILED)
    assert "the compiled one is not available" in done.stderr, done.stderr
    assert "the strong AI's double-dummy solver: python" in done.stderr, done.stderr
    done = _run_bot(tmp_path, _WITHOUT_COMPILED, TYSIAC_SOLVER="compiled")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith(
        "the compiled solver is not available here"), done.stderr


@pytest.mark.slow
def test_without_the_compiled_solver_the_tests_run_on_the_python_one() -> None:
    """The solver's tests where the compiled one cannot be loaded: they pass on the Python
    one, and the comparisons with the compiled one are skipped (not failed)."""
    code = (_WITHOUT_COMPILED + "import pytest; sys.exit(pytest.main(["
            "'tests/ai/test_solver.py', '-p', 'no:cacheprovider', '-rs', '-k', "
            "'(allows_exactly and russian-) or gives_the_python or late_positions']))")
    done = subprocess.run([sys.executable, "-c", "import sys; " + code], check=False, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the compiled solver is not built here" in done.stdout, done.stdout
    assert " passed" in done.stdout and " skipped" in done.stdout, done.stdout


def test_the_ai_pool_searches_with_the_solver_chosen_at_start() -> None:
    from bot.ai.pool import executor, shutdown
    from bot.ai.solver import active, use

    before = active()
    shutdown()
    try:
        use(Kind.PYTHON)
        assert executor().submit(active).result(timeout=60) is Kind.PYTHON
    finally:
        shutdown()
        use(before)


# ---- python -m bot bench solver -------------------------------------------------------------


@needs_compiled
@pytest.mark.slow
def test_bench_solver_prints_both_speeds_and_their_ratio(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    from bot.__main__ import main

    assert main(["bench", "solver", "--positions", "3", "--preset", "polish"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[1].startswith("first trick: compiled") and "ratio" in lines[1]
    assert lines[2].startswith("mid-hand: compiled") and "ratio" in lines[2]
    result = json.loads(lines[-1])
    assert result["preset"] == "polish" and result["same_answers"] is True
    # the same positions, so the ratio is the speeds' (rounded) quotient
    assert result["ratio"] == pytest.approx(
        result["fast_positions_per_s"] / result["python_positions_per_s"], rel=0.01)
    assert result["ratio"] > 3 and result["mid_ratio"] > 1
    assert result["nodes_per_position"] > result["mid_nodes_per_position"] > 0


@pytest.mark.slow
def test_bench_solver_without_the_compiled_solver_measures_the_python_one() -> None:
    code = (_WITHOUT_COMPILED + "from bot.__main__ import main; "
            "sys.exit(main(['bench', 'solver', '--positions', '1']))")
    done = subprocess.run([sys.executable, "-c", "import sys; " + code], check=False, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "the compiled solver is not available here" in done.stdout
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["fast_positions_per_s"] is None and result["ratio"] is None
    assert result["python_positions_per_s"] > 0


def test_bench_solver_refuses_an_unknown_preset_and_no_positions(
        capsys: pytest.CaptureFixture[str]) -> None:
    from bot.__main__ import main

    assert main(["bench", "solver", "--preset", "klondike"]) == 2
    assert "the presets are russian" in capsys.readouterr().err
    assert main(["bench", "solver", "--positions", "0"]) == 2
    assert "--positions must be 1 or more" in capsys.readouterr().err
