"""The running count of a hand (``tally``): computed from the public observation only."""

from __future__ import annotations

import random

import pytest

from bot.game.cards import points_of
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply_into, legal_actions
from bot.game.observation import observe, tally
from bot.game.presets import PRESETS
from bot.game.simulate import greedy_policy
from bot.game.state import HandEnd, Phase


@pytest.mark.parametrize("preset", ["russian", "russian4", "polish2_bidding", "polish2_stock",
                                    "german_house"])
def test_the_count_adds_the_public_tricks_and_declarations_up(preset):
    rules = PRESETS[preset].rules
    rng = random.Random(5)
    hands = declared = 0
    state = new_match(rules, dealer=0)
    while hands < 6 and state.phase is not Phase.MATCH_OVER:
        for move in random_deal(state, rng):
            state = apply_into(state, move, None)
        while state.phase not in (Phase.DEALING, Phase.MATCH_OVER):
            if state.phase is Phase.PLAY:
                public = observe(state, None)
                t = tally(public)
                assert t is not None and not t.final
                assert all(observe(state, p) and tally(observe(state, p)) == t
                           for p in state.active)  # every seat counts the same
                tricks = sum(points_of(c) for c in [c for _, c in public.played][
                    :len(public.played) - len(public.trick)])
                decl = sum(v for p, _, v in public.declarations
                           if not rules.declarations_need_trick or public.tricks_won[p])
                declared += bool(public.declarations)
                assert sum(points for _, points in t.taken) == tricks + decl
                assert [p for p, _ in t.taken] == sorted(state.active)
                if public.declarer >= 0:
                    assert t.declarer == public.declarer
                    assert t.contract == (public.contract or public.winning_bid)
            else:
                assert tally(observe(state, None)) is None
            state = apply_into(state, greedy_policy(state, legal_actions(state), rng), None)
        res = state.last_result
        after = tally(observe(state, None))
        if res is not None and res.end is HandEnd.PLAYED and res.taken:
            assert after is not None and after.final
            assert dict(after.taken) == res.taken and after.declarer == res.declarer
        else:
            assert after is None
        hands += 1
    assert hands == 6 or state.phase is Phase.MATCH_OVER
    if preset == "russian":
        assert declared  # marriages were declared in these hands, and counted
