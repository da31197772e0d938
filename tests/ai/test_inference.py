"""Sampled worlds weighed by the other seats' bids and contract (``bot.ai.inference``)."""

from __future__ import annotations

import random
import statistics

import pytest

from bot.ai.inference import Inference
from bot.ai.valuation import hand_value
from bot.ai.worlds import Sampler, agrees
from bot.game.cards import marriages_in
from bot.game.observation import Observation, observe
from bot.game.presets import PRESETS
from bot.game.state import Phase, State

from .selfplay import self_play


def _leads(name: str, want: int, seed: int) -> list[tuple[State, Observation]]:
    """(the real state, the view of the seat to act) at the start of each trick, club play."""
    return self_play(PRESETS[name].rules, seed, want,
                     lambda s: (s.copy(), observe(s, s.to_act))
                     if s.phase is Phase.PLAY and not s.trick else None)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_real_deal_is_as_likely_as_can_be_among_club_players(name: str) -> None:
    # Every seat is a club player, so the real cards explain every bid and contract exactly;
    # a wrong reconstruction of who held what at the auction would weigh them down.
    positions = _leads(name, 60, 3)
    inferring = 0
    for s, o in positions:
        inference = Inference(o)
        inferring += bool(inference.bounds) or inference.contract
        assert inference.weight(s) == 1.0, (o.bids, o.contract)
    if PRESETS[name].rules.stock_size:  # hands change with the draws: nothing to infer
        assert not inferring
    else:
        assert inferring > len(positions) // 2


def _first_trick(name: str, want: int, seed: int) -> list[tuple[State, Observation]]:
    """The first defender to play in each hand, with the real state."""
    return self_play(PRESETS[name].rules, seed, want,
                     lambda s: (s.copy(), observe(s, s.to_act))
                     if s.phase is Phase.PLAY and len(s.history) == 1 else None)


def _weighed(positions: list[tuple[State, Observation]], measure: object,
             seed: int) -> tuple[float, float]:
    """The mean of ``measure(o, inference, world)`` over sampled worlds: plain, weighted."""
    rng = random.Random(seed)
    plain: list[float] = []
    weighted = total = 0.0
    for _, o in positions:
        inference = Inference(o)
        sampler = Sampler(o)
        for _ in range(30):
            world = sampler.world(rng)
            if world is None or not agrees(o, world):
                continue
            x = measure(o, inference, world)  # type: ignore[operator]
            w = inference.weight(world)
            plain.append(x)
            weighted += w * x
            total += w
    return statistics.fmean(plain), weighted / total


def test_a_raised_contract_makes_a_marriage_in_the_declarers_hand_likelier() -> None:
    # The club player raises mostly on a marriage (sampled plainly, 40% of these declarers
    # hold one; weighed by their raise, nearer 60%).
    raised = [(s, o) for s, o in _first_trick("russian", 60, 5)
              if o.contract > o.winning_bid]
    assert len(raised) >= 10

    def married(o: Observation, inference: Inference, world: State) -> float:
        d = o.declarer
        return float(bool(marriages_in(world.held[d] | inference.played_by[d])))

    plain, weighted = _weighed(raised, married, 1)
    assert weighted > plain + 0.1


@pytest.mark.slow
def test_a_pass_makes_the_passers_weak_hands_likelier() -> None:
    passed = [(s, o) for s, o in _first_trick("russian", 60, 6)
              if any(p != o.seat and p != o.declarer for p in o.passed)]
    assert len(passed) >= 20

    def passers_value(o: Observation, inference: Inference, world: State) -> float:
        p = next(p for p in o.passed if p not in (o.seat, o.declarer))
        return float(hand_value(o, inference.auction_hand(world, p), with_talon=True,
                                played=0))

    plain, weighted = _weighed(passed, passers_value, 2)
    assert weighted < plain - 3
