"""The double-dummy solver: the engine's card rules, exact values, and the strong player's use."""

from __future__ import annotations

import random
import time

import pytest

from bot.ai.club import ClubPlayer
from bot.ai.search import SearchPlayer
from bot.ai.solver import action_reaches, action_values, solver_for, supported
from bot.game.actions import Flag, Verb
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply_into, legal_actions
from bot.game.observation import observe
from bot.game.presets import PRESETS
from bot.game.state import Phase, State
from bot.game.tricks import legal_card_mask

_PLAYED = [name for name, p in PRESETS.items() if not p.rules.stock]


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


@pytest.mark.parametrize("name", _PLAYED)
def test_the_solver_allows_exactly_the_engines_cards_and_marriages(name: str) -> None:
    for s in _positions(name, 11):
        if not supported(s):
            continue
        solver = solver_for(s, frozenset({max(s.declarer, 0)}))
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


@pytest.mark.parametrize(("name", "hands"), [("russian", 4), ("polish", 4),
                                             ("german_house", 10), ("polish2_bidding", 4)])
def test_solved_values_are_the_best_play_the_engine_allows(name: str, hands: int) -> None:
    checked = 0
    for s in _positions(name, 5, hands=hands):
        d = s.declarer
        if d < 0 or not supported(s) or len(s.trick) + sum(
                h.bit_count() for h in s.held) > 3 * len(s.active):
            continue  # the last three tricks at most: the brute force stays quick
        acts = [a for a in legal_actions(s, s.to_act) if a.verb is Verb.PLAY]
        solver = solver_for(s, frozenset({d}))
        now = s.points[d] + s.decl[d]
        values = action_values(s, solver, acts)
        for a, v in zip(acts, values, strict=True):
            assert now + v == _brute(apply_into(s, a, None), d), a.describe()
        need = s.contract - now
        assert action_reaches(s, solver_for(s, frozenset({d})), acts, need) == [
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
