"""Property tests: the rules' invariants over random hands of every preset."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.game.actions import Action, Deal, Flag, Verb, act
from bot.game.cards import parse_card
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply, legal_actions
from bot.game.errors import RuleError
from bot.game.observation import observe, observe_public
from bot.game.presets import PRESETS, rules_for
from bot.game.rules import Rules
from bot.game.simulate import greedy_policy, random_policy
from bot.game.state import Phase, State
from tests.game.invariants import (
    HandTracker,
    allowed_knowledge,
    check_cards,
    check_equal_hands,
    check_match,
    check_turn,
    in_hand,
)

PRESET_NAMES = sorted(PRESETS)

# Options that combine with the russian preset, to reach the rarer rules as well.
RUSSIAN_VARIANTS: list[dict[str, Any]] = [
    {"golden_round": True, "golden_round_reset": True},
    {"blind_bidding": True},
    {"silence_below": -150},
    {"barrel_conflict": "all_fall", "barrel_third_fall_reset": True},
    {"barrel_conflict": "newcomer_knocks_off"},
    {"reset_at_555": True, "target_exceed": True},
    {"rospisat_max": 1, "spisat_max": 1, "rospisat_award": "half_bid_up5"},
    {"hundred_concede": True, "talon_show_min_bid": 130},
    {"jack_bottom_reshuffle": True, "nines_for_redeal": 3, "nines_redeal_dealer_penalty": True},
    {"talon_low_redeal_below": 5, "talon_two_nines_redeal": True, "hand_low_redeal_below": 14,
     "hand_low_redeal_max_bid": 100},
    {"predeal_low_redeal_below": 18, "predeal_four_nines_redeal": True, "bid_step": 10,
     "rounding": 10},
    {"four_aces_bonus": 200, "four_aces_effect": "no_trump", "marriage_value_mode": "by_order"},
    {"give_face_up": True, "four_nines_redeal": "original_only", "must_beat": "always"},
    {"barrel": "lviv", "barrel_at": 900, "barrel_exact_points": True},
    {"marriage_required_above": None, "show_marriage_above": 130, "bid_cap_by_marriages": True},
    {"declarations_need_trick": True, "must_trump_when_void": False, "must_beat": "follow"},
    # house rules (docs/rules-decisions.md, "House rules"), each on at least once
    {"dealer_forced_bid": True, "golden_round": True, "blind_bidding": True},
    {"bid_step_high": 10, "bid_step_high_from": 150, "bid_cap_before_talon": 135},
    {"bid_step_high": 10, "marriage_required_above": None, "silence_below": -100},
    {"rospisat_award": "declarer_pays_split", "round_before_make": True},
    {"rospisat_award": "declarer_pays_half", "declarer_scores": "points_taken",
     "round_before_make": True},
    {"sticks_penalty": 120, "sticks_count": 2, "sticks_in_a_row": True,
     "sticks_declarer": False, "no_win_penalty": 120, "no_win_hands": 1},
    {"sticks_penalty": 60, "sticks_count": 5, "no_win_penalty": 60, "no_win_in_a_row": True,
     "reset_at_555": True, "reset_value": 550, "reset_negative": True},
    {"barrel_fall_penalty": 240, "last_trick_bonus": 10, "marriage_trump": "next_trick"},
    {"dealt_four_nines": "mandatory", "dealt_three_nines": "optional",
     "nines_redeal_dealer_penalty": True, "nines_for_redeal": 3},
    {"dealt_four_nines": "optional", "dealt_three_nines": "mandatory", "golden_round": True},
    {"contra": True, "contra_factor": 3, "redouble_factor": 6, "rospisat_award": "fixed60",
     "hand_low_redeal_below": 20},
    {"contra": True, "declarer_scores": "points_taken", "golden_round": True},
    {"misere": True, "contra": True, "rospisat_award": "declarer_pays_half"},
    {"misere": True, "misere_value": 150, "sticks_penalty": 120, "bid_cap_before_talon": 120,
     "marriage_on_first_lead": True, "four_aces_bonus": 200},
    {"barrel_fall_penalty": 0, "marriage_trump": "next_trick", "four_aces_bonus": 200,
     "four_aces_effect": "no_trump", "marriage_on_first_lead": True},
]
ALL_RULES: list[tuple[str, Rules]] = [(n, PRESETS[n].rules) for n in PRESET_NAMES] + [
    (f"russian+{sorted(v)}", rules_for("russian", v)) for v in RUSSIAN_VARIANTS
] + [("russian4+card_points", rules_for("russian4", {"sitter_bonus": "card_points_marriage",
                                                      "sitter": "opposite_dealer"})),
      ("russian4+partnerships", rules_for("russian4", {
          "partnerships": True, "sitter": "dealer", "sitter_bonus": "none",
          "sticks_penalty": 120, "no_win_penalty": 120, "reset_at_555": True})),
      ("four_play_partnerships", rules_for("russian", {
          "seats": 4, "partnerships": True, "hand_size": 6, "talons": [], "exchange": "none",
          "contra": True, "misere": True, "barrel_conflict": "all_fall"})),
      ("russian4+house", rules_for("russian4", {
          "dealer_forced_bid": True, "rospisat_award": "declarer_pays_split",
          "sticks_penalty": 120, "no_win_penalty": 120, "contra": True}))]


def start_totals(rules: Rules, rng: random.Random) -> dict[int, int]:
    """Totals near the interesting thresholds (barrel, lock, target), never inside the zone."""
    unit = 10 if rules.bid_step == 10 else 5
    out = {}
    for p in range(rules.seats):
        t = rng.choice([0, 0, 300, rules.target - 150, rules.barrel_at - 40, rules.barrel_at,
                        (rules.lock_at or 0) + 20, 540])
        t -= t % unit
        if rules.barrel.value == "classic" and rules.barrel_at < t < rules.target:
            t = rules.barrel_at
        out[p] = out[p - 2] if rules.partnerships and p >= 2 else t
    return out


def play_checked(rules: Rules, seed: int, hands: int, greedy: bool = False) -> None:
    """Play ``hands`` hands with every invariant checked after every move."""
    rng = random.Random(seed)
    totals = start_totals(rules, rng) if rng.random() < 0.5 else None
    dealer = rng.randrange(rules.seats)
    s = new_match(rules, dealer=dealer, totals=totals)
    history = []
    policy = greedy_policy if greedy else random_policy
    for _ in range(hands):
        if s.phase is Phase.MATCH_OVER:
            break
        for move in random_deal(s, rng):
            s, _ = apply(s, move)
            history.append(move)
        if in_hand(s):
            assert all(s.held[p].bit_count() == rules.hand_size for p in s.active)
            assert tuple(t.bit_count() for t in s.talons) == rules.talons
        tracker = HandTracker(s)
        last_in_hand = s
        while in_hand(s):
            check_cards(s)
            check_turn(s)
            check_equal_hands(s)
            check_privacy(s)
            legal = legal_actions(s)
            action = policy(s, legal, rng)
            before = s
            s, events = apply(s, action)
            history.append(action)
            tracker.on_events(before, events)
            last_in_hand = before if not in_hand(s) else s
            check_match(s, before)
        tracker.on_hand_end(s, _played_out(last_in_hand, s))
    # Replaying the moves rebuilds exactly the same state
    replayed = new_match(rules, dealer=dealer, totals=totals)
    for move in history:
        replayed, _ = apply(replayed, move)
    assert replayed == s


def _played_out(before_last: State, after: State) -> State:
    """The hand's final card state: the last move's state with the last trick added."""
    s = before_last.copy()
    if after.phase in (Phase.DEALING, Phase.MATCH_OVER) and after.last_result is not None:
        s.points = after.points[:]
        s.played = after.played
        s.held = after.held[:]
        s.trick = ()
        s.discards = after.discards
    return s


def check_privacy(s: State) -> None:
    """An observation shows only cards its seat may know; spectators only public ones."""
    for seat in range(s.rules.seats):
        obs = observe(s, seat)
        extra = obs.known_cards() - allowed_knowledge(s, seat)
        assert not extra, f"seat {seat} sees {extra}"
        assert set(obs.hand) == {c for c in range(32) if s.held[seat] >> c & 1}
    public = observe_public(s).known_cards()
    nobody = -1
    assert not public - allowed_knowledge(s, nobody) - {c for c in range(32) if s.played >> c & 1}


@pytest.mark.parametrize(("name", "rules"), ALL_RULES, ids=[n for n, _ in ALL_RULES])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
@pytest.mark.slow
def test_invariants_random_play(name: str, rules: Rules, seed: int) -> None:
    play_checked(rules, seed, hands=3)


@pytest.mark.parametrize(("name", "rules"), ALL_RULES, ids=[n for n, _ in ALL_RULES])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
@pytest.mark.slow
def test_invariants_greedy_play(name: str, rules: Rules, seed: int) -> None:
    play_checked(rules, seed, hands=6, greedy=True)


def _random_action(s: State, rng: random.Random) -> Action:
    seat = rng.randrange(s.rules.seats)
    verb = rng.choice(list(Verb))
    return act(seat, verb, card=rng.randrange(32), amount=rng.randrange(0, 300, 5),
               target=rng.randrange(-1, s.rules.seats), flag=rng.choice(list(Flag)))


@pytest.mark.parametrize("name", PRESET_NAMES)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_illegal_actions_change_nothing(name: str, seed: int) -> None:
    """An illegal action raises RuleError and leaves the state exactly as it was."""
    rules = PRESETS[name].rules
    rng = random.Random(seed)
    s = new_match(rules, dealer=0)
    for move in random_deal(s, rng):
        s, _ = apply(s, move)
    for _ in range(60):
        if not in_hand(s):
            break
        legal = set(legal_actions(s))
        for seat in range(rules.seats):
            legal |= set(legal_actions(s, seat))
        snapshot = s.copy()
        bad = _random_action(s, rng)
        if bad not in legal:
            with pytest.raises(RuleError) as info:
                apply(s, bad)
            assert info.value.message_for(["A", "B", "C", "D"][: rules.seats])
            assert s == snapshot
        s, _ = apply(s, random_policy(s, legal_actions(s), rng))


def test_legal_actions_are_all_accepted() -> None:
    """Every action legal_actions offers is accepted by apply (spot check, every preset)."""
    for name in PRESET_NAMES:
        rules = PRESETS[name].rules
        rng = random.Random(7)
        s = new_match(rules)
        for move in random_deal(s, rng):
            s, _ = apply(s, move)
        for _ in range(40):
            if not in_hand(s):
                break
            for a in legal_actions(s):
                apply(s, a)
            s, _ = apply(s, random_policy(s, legal_actions(s), rng))


def test_deal_rejected_when_not_a_partition() -> None:
    rules = PRESETS["russian"].rules
    s = new_match(rules)
    good = random_deal(s, random.Random(1))[-1]
    assert isinstance(good, Deal)
    twice = Deal((good.hands[0], good.hands[0], good.hands[2]), good.talons)
    with pytest.raises(RuleError):
        apply(s, twice)
    with pytest.raises(RuleError):
        apply(s, Deal(good.hands, (good.talons[0] | 1 << parse_card("7S"),)))
