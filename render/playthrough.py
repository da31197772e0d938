"""Seeded engine games for the samples and the tests: states at telling moments of a hand,
and the results of a whole simulated match.

Everything here is deterministic for a given preset and seed (``random.Random(seed)`` drives
both the shuffles and ``greedy_policy``).
"""

from __future__ import annotations

import random

from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply_into, legal_actions
from bot.game.rules import Rules
from bot.game.simulate import greedy_policy, play_hand
from bot.game.state import HandEnd, HandResult, Phase, State

POINTS = ("bidding", "talon", "exchange", "contract", "mid_trick", "lead", "after_hand")
"""Snapshot names, in the order they happen in a hand (each present only if it happens)."""


def snapshots(
    rules: Rules, seed: int = 1, *, skip: int = 2, max_hands: int = 40
) -> dict[str, State]:
    """States of one played hand after ``skip`` whole hands (so the totals are not all 0).

    ``bidding`` is the last moment of the auction (every bid so far on the table),
    ``talon``/``exchange``/``contract`` the first moment of those phases, ``mid_trick`` the
    third trick with one card still to come, ``lead`` the moment after the second trick
    (the won trick still shown), ``after_hand`` the hand scored. A hand that is thrown in
    or annulled is skipped and the next one is used.
    """
    rng = random.Random(seed)
    state = new_match(rules, dealer=rng.randrange(rules.seats))
    for _ in range(skip):
        state, _n = play_hand(state, rng, policy=greedy_policy)
        if state.phase is Phase.MATCH_OVER:
            state = new_match(rules, dealer=rng.randrange(rules.seats))
    for _ in range(max_hands):
        out = _one_hand(state, rng)
        last = out.get("after_hand")
        if (
            last is not None
            and last.last_result is not None
            and (last.last_result.end is HandEnd.PLAYED)
        ):
            return out
        state = (
            last
            if last is not None and last.phase is Phase.DEALING
            else new_match(rules, dealer=rng.randrange(rules.seats))
        )
    raise RuntimeError("no played hand in a seeded game")  # pragma: no cover


def _one_hand(state: State, rng: random.Random) -> dict[str, State]:
    out: dict[str, State] = {}
    s = state
    for move in random_deal(s, rng):
        s = apply_into(s, move, None)
    while s.phase not in (Phase.DEALING, Phase.MATCH_OVER):
        phase = s.phase
        active = len(s.active)
        if phase is Phase.BIDDING:
            out["bidding"] = s
        elif phase is Phase.TALON:
            out.setdefault("talon", s)
        elif phase is Phase.EXCHANGE:
            out.setdefault("exchange", s)
        elif phase is Phase.CONTRACT:
            out.setdefault("contract", s)
        elif phase is Phase.PLAY:
            if s.trick_no == 2 and len(s.trick) == active - 1:
                out.setdefault("mid_trick", s)
            if s.trick_no == 2 and not s.trick:
                out.setdefault("lead", s)
        s = apply_into(s, greedy_policy(s, legal_actions(s), rng), None)
    out["after_hand"] = s
    return out


def match_results(rules: Rules, seed: int = 1, *, max_hands: int = 300) -> list[HandResult]:
    """The ``HandResult`` of every hand of one whole simulated match (greedy players)."""
    rng = random.Random(seed)
    state = new_match(rules, dealer=rng.randrange(rules.seats))
    results: list[HandResult] = []
    while state.phase is not Phase.MATCH_OVER and len(results) < max_hands:
        state, _n = play_hand(state, rng, policy=greedy_policy)
        if state.last_result is not None:
            results.append(state.last_result)
    return results
