"""AI levels: the offered levels, unknown names, every preset by every mix, privacy, time."""

from __future__ import annotations

import asyncio
import gc
import random
import time
import types

import pytest

from bot.ai import LEVELS, player
from bot.ai.arena import run
from bot.ai.club import ClubPlayer
from bot.ai.search import SearchPlayer
from bot.ai.worlds import Sampler, agrees
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply_into
from bot.game.observation import Observation, observe
from bot.game.presets import PRESETS
from bot.game.state import Phase, State


def test_offered_levels() -> None:
    assert LEVELS == ("easy", "normal", "strong")


def test_unknown_level_is_an_error_naming_the_levels() -> None:
    with pytest.raises(ValueError, match="easy, normal, strong"):
        player("grandmaster")
    with pytest.raises(ValueError, match="unknown AI level"):
        run(PRESETS["russian"].rules, ["normal", "normal", "hard"], hands=1)


def test_an_arena_seats_players_an_experiment_builds_under_names_of_its_own() -> None:
    built: list[str] = []

    def make(name: str) -> ClubPlayer:
        built.append(name)
        return ClubPlayer()

    entries = run(PRESETS["russian"].rules, ["variant", "normal", "normal"], hands=2, make=make)
    assert [e.level for e in entries] == ["variant", "normal", "normal"]
    assert "variant" in built and all(len(e.per_deal) == 2 for e in entries)


def _mixes(seats: int) -> list[list[str]]:
    mixes = [["strong", "normal", "easy", "normal"], ["easy", "simple", "random", "strong"],
             ["normal", "easy", "strong", "simple"]]
    return [m[:seats] for m in mixes]


@pytest.mark.parametrize("name", list(PRESETS))
@pytest.mark.slow
def test_every_preset_by_every_mix_plays_legal_actions(name: str) -> None:
    rules = PRESETS[name].rules
    for i, levels in enumerate(_mixes(rules.seats)):
        entries = run(rules, levels, hands=3, seed=i, budget=0.003)
        assert all(len(e.per_deal) == 3 for e in entries)
        assert sum(len(e.times) for e in entries) > 0


def _mid_hand(name: str, seed: int, phase: Phase, trick: int = 1) -> State:
    rng = random.Random(seed)
    rules = PRESETS[name].rules
    club = ClubPlayer()
    s = new_match(rules, 0)
    while True:
        if s.phase is Phase.MATCH_OVER:
            s = new_match(rules, 0)
        for move in random_deal(s, rng):
            s = apply_into(s, move, None)
        while s.phase not in (Phase.DEALING, Phase.MATCH_OVER):
            if s.phase is phase and (phase is not Phase.PLAY or s.trick_no >= trick):
                return s
            s = apply_into(s, club.choose(observe(s, s.to_act), rng), None)


def _references_a_state(obj: object) -> bool:
    seen: set[int] = set()
    todo = [obj]
    while todo:
        x = todo.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        if isinstance(x, State):
            return True
        if isinstance(x, type | types.ModuleType):
            continue  # shared code, not the observation's data (a test may cache a state)
        todo += gc.get_referents(x)
    return False


def _swap_hidden(s: State, me: int) -> State:
    """Another state that looks the same to ``me``: two other seats swap a card of a suit."""
    others = [p for p in s.active if p != me]
    a, b = others[0], others[-1]
    t = s.copy()
    for suit in range(4):
        ca = [c for c in range(suit * 8, suit * 8 + 8) if t.held[a] >> c & 1]
        cb = [c for c in range(suit * 8, suit * 8 + 8) if t.held[b] >> c & 1]
        if ca and cb:
            t.held[a] ^= 1 << ca[0] | 1 << cb[0]
            t.held[b] ^= 1 << ca[0] | 1 << cb[0]
            return t
    raise AssertionError("no suit to swap")


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_a_player_cannot_reach_the_hidden_state(level: str) -> None:
    s = _mid_hand("russian", 3, Phase.PLAY, trick=3)  # late enough to solve quickly
    me = s.to_act
    o = observe(s, me)
    assert isinstance(o, Observation) and not _references_a_state(o)
    twin = _swap_hidden(s, me)
    assert twin.held != s.held and observe(twin, me) == o
    ai = SearchPlayer(budget=5.0, max_worlds=3) if level == "strong" else player(level)
    ai2 = SearchPlayer(budget=5.0, max_worlds=3) if level == "strong" else player(level)
    assert ai.choose(o, random.Random(9)) == ai2.choose(observe(twin, me), random.Random(9))


@pytest.mark.parametrize("name", list(PRESETS))
def test_sampled_worlds_offer_the_seat_its_own_choices(name: str) -> None:
    rng = random.Random(4)
    for phase in (Phase.BIDDING, Phase.PLAY):
        if phase is Phase.BIDDING and not PRESETS[name].rules.bidding:
            continue
        s = _mid_hand(name, 2, phase)
        o = observe(s, s.to_act)
        sampler = Sampler(o)
        for _ in range(5):
            w = sampler.world(rng)
            assert w is not None and agrees(o, w)
            # the seat's own cards are its own; the others' are drawn from the unseen ones
            assert w.held[s.to_act] == s.held[s.to_act]


def test_strong_respects_its_budget() -> None:
    s = _mid_hand("russian", 5, Phase.PLAY)
    o = observe(s, s.to_act)
    ai = SearchPlayer(budget=0.05)
    t0 = time.perf_counter()
    a = ai.choose(o, random.Random(1))
    assert time.perf_counter() - t0 < 0.1
    assert a in o.legal


@pytest.mark.slow
def test_strong_decides_in_the_process_pool() -> None:
    from bot.ai.pool import shutdown
    from bot.tables._thinking import choose_off_loop

    s = _mid_hand("russian", 6, Phase.PLAY)
    o = observe(s, s.to_act)
    try:
        a = asyncio.run(choose_off_loop("strong", o, random.Random(1), budget=0.02))
    finally:
        shutdown()
    assert a in o.legal


@pytest.mark.slow
def test_the_pool_thinks_below_the_bots_priority() -> None:
    """A search takes only the CPU the answering processes leave (fails at equal priority)."""
    import os

    from bot.ai.pool import AI_NICENESS, executor, shutdown

    try:
        worker = executor().submit(os.nice, 0).result(timeout=60)
        policy = (executor().submit(os.sched_getscheduler, 0).result(timeout=60)
                  if hasattr(os, "SCHED_IDLE") else None)
    finally:
        shutdown()
    assert worker >= min(19, os.nice(0) + AI_NICENESS)  # 19 is the lowest priority
    if policy is not None:  # Linux: it runs only when no other process wants the core
        assert policy == os.SCHED_IDLE
