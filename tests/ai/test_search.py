"""The strong player's auction, raise and rospisat: the club player's, counting on its card play."""

from __future__ import annotations

import random

import pytest

from bot.ai.club import ClubPlayer
from bot.ai.search import RAISE_WORLDS, STRONG, SearchPlayer, most_made
from bot.ai.solver import action_reaches, action_values, solver_for
from bot.ai.valuation import contract_worth, hand_value
from bot.game.actions import Action, Verb
from bot.game.cards import to_mask
from bot.game.engine import apply_into, legal_actions
from bot.game.observation import Observation, observe
from bot.game.presets import PRESETS
from bot.game.state import Phase, State

from .selfplay import self_play


def _choices(phase: Phase, want: int, seed: int) -> list[Observation]:
    """Observations of ``phase`` met while club players play russian matches."""
    return self_play(PRESETS["russian"].rules, seed, want,
                     lambda s: observe(s, s.to_act) if s.phase is phase else None)


def _both(o: Observation, seed: int) -> tuple[Action, Action]:
    """What the strong and the club player choose, with the same dice."""
    strong = SearchPlayer(budget=0.01, raise_by="club").choose(o, random.Random(seed))
    return strong, ClubPlayer().choose(o, random.Random(seed))


def test_strong_bids_on_what_its_card_play_takes() -> None:
    open_bids = [o for o in _choices(Phase.BIDDING, 300, 1)
                 if any(a.verb is Verb.PASS for a in o.legal)]
    more = 0
    for i, o in enumerate(open_bids):
        strong, club = _both(o, i)
        if club.verb is Verb.BID:
            assert strong == club  # a club player's bid is the next step: strong bids it too
        more += strong.verb is Verb.BID and club.verb is Verb.PASS
    assert more >= 5


@pytest.mark.slow
def test_strong_passes_hopeless_hands_and_bids_strong_ones() -> None:
    first = [o for o in _choices(Phase.BIDDING, 400, 2)
             if o.high == o.rules.min_bid and any(a.verb is Verb.PASS for a in o.legal)]
    first.sort(key=lambda o: hand_value(o, to_mask(o.hand), with_talon=True))
    ai = SearchPlayer(budget=0.01)
    for o in first[:10]:
        assert ai.choose(o, random.Random(3)).verb is Verb.PASS
    for o in first[-5:]:
        assert ai.choose(o, random.Random(3)).verb is Verb.BID


@pytest.mark.slow
def test_strong_raises_higher_and_gives_up_less_often() -> None:
    contracts = _choices(Phase.CONTRACT, 150, 3)
    higher = gave_up = 0
    for i, o in enumerate(contracts):
        strong, club = _both(o, i)
        if strong.verb is not Verb.CONTRACT:
            assert club.verb is strong.verb  # it gives up only where the club player does
            continue
        if club.verb is Verb.CONTRACT:
            assert strong.amount >= club.amount
            higher += strong.amount > club.amount
        else:
            gave_up += 1
    assert higher >= 10 and gave_up >= 3


def test_the_strong_style_differs_from_the_club_players_only_by_its_card_play() -> None:
    assert STRONG.play_bonus > 0
    assert SearchPlayer().club.style == STRONG


def _late_defences() -> list[State]:
    """Defenders to play in the last tricks of club players' russian hands, where the card
    decides whether the contract is made."""

    def pick(s: State) -> State | None:
        d = s.declarer
        if s.phase is not Phase.PLAY or s.trick_no < 4 or s.to_act == d:
            return None
        plays = [a for a in legal_actions(s, s.to_act) if a.verb is Verb.PLAY]
        need = s.contract - s.points[d] - s.decl[d]
        reach = set(action_reaches(s, solver_for(s, frozenset({d})), plays, need))
        return s.copy() if len(reach) > 1 else None

    return self_play(PRESETS["russian"].rules, 6, 40, pick)


@pytest.mark.slow
def test_a_strong_defender_plays_to_defeat_the_contract_or_for_his_points() -> None:
    """Judged on the real deal: "fail" defeats more contracts, "own" takes more points."""
    fail = SearchPlayer(budget=5.0, max_worlds=12)
    own = SearchPlayer(budget=5.0, max_worlds=12, defence="own")
    defeats = {"fail": 0, "own": 0}
    points = {"fail": 0, "own": 0}
    for i, s in enumerate(_late_defences()):
        me, d = s.to_act, s.declarer
        o = observe(s, me)
        need = s.contract - s.points[d] - s.decl[d]
        for name, ai in (("fail", fail), ("own", own)):
            a = ai.choose(o, random.Random(i))
            if a.verb is not Verb.PLAY:
                continue
            defeats[name] += not action_reaches(s, solver_for(s, frozenset({d})), [a], need)[0]
            points[name] += action_values(s, solver_for(s, frozenset({me})), [a])[0]
    assert defeats["fail"] > defeats["own"]
    assert points["own"] > points["fail"]


def test_strong_stops_once_it_has_enough_worlds() -> None:
    """Late in a hand the sampler deals the same few worlds again and again: past
    ENOUGH_WORLDS more of them change nothing, so a long budget is not spent on them (without
    the cap the 8 s this budget allows solve thousands)."""
    from bot.ai.search import ENOUGH_WORLDS

    late = [o for o in _choices(Phase.PLAY, 200, 4)
            if len(o.hand) == 3 and len([a for a in o.legal if a.seat == o.to_act]) > 1][:3]
    assert late
    for i, o in enumerate(late):
        ai = SearchPlayer(budget=10.0)
        assert ai.choose(o, random.Random(i)) in o.legal
        assert ai.last_worlds == ENOUGH_WORLDS


def _contracts(want: int, seed: int) -> list[State]:
    """Declarers about to name their contract in club players' russian hands (the truth)."""
    return self_play(PRESETS["russian"].rules, seed, want,
                     lambda s: s.copy() if s.phase is Phase.CONTRACT else None)


def _amounts(s: State) -> list[int]:
    return sorted(a.amount for a in legal_actions(s, s.declarer) if a.verb is Verb.CONTRACT)


def test_the_raise_finds_the_most_the_declarer_makes_double_dummy() -> None:
    for s in _contracts(6, 7):
        d = s.declarer
        first = min((a for a in legal_actions(s, d) if a.verb is Verb.CONTRACT),
                    key=lambda a: a.amount)
        play = apply_into(s, first, None)
        solver = solver_for(play, frozenset({d}))
        total = play.points[d] + play.decl[d] + solver.value(
            list(play.held), play.trick, play.to_act, play.trump, play.marriages_declared,
            solver.may_declare_first)
        amounts = _amounts(s)
        most = max((c for c in amounts if c <= total), default=0)
        assert most_made(s, first, amounts, float("inf")) == most


@pytest.mark.slow
def test_strong_raises_to_what_solved_worlds_make_and_scores_more_on_the_real_deals() -> None:
    """Judged on the real deal double dummy (+C made, -C failed), the contract of the best
    expected score over solved sampled worlds beats the club player's estimate."""
    ai = SearchPlayer(budget=60.0, max_worlds=RAISE_WORLDS)
    gain = changed = 0
    for i, s in enumerate(_contracts(16, 11)):
        o = observe(s, s.declarer)
        club = ClubPlayer(STRONG).choose(o, random.Random(i))
        strong = ai.choose(o, random.Random(i))
        if club.verb is not Verb.CONTRACT:
            assert strong == club  # giving up stays the club player's decision
            continue
        assert ai.last_worlds == RAISE_WORLDS
        most = most_made(s, club, _amounts(s), float("inf"))

        def score(amount: int, o: Observation = o, most: int = most) -> int:
            return contract_worth(o, amount) if most >= amount else -amount

        gain += score(strong.amount) - score(club.amount)
        changed += strong != club
    assert changed >= 5
    assert gain > 0


@pytest.mark.slow
def test_strong_keeps_the_club_players_contract_when_too_few_worlds_are_solved() -> None:
    ai = SearchPlayer(budget=60.0, max_worlds=RAISE_WORLDS - 1)
    for i, s in enumerate(_contracts(8, 11)):
        o = observe(s, s.declarer)
        assert ai.choose(o, random.Random(i)) == ClubPlayer(STRONG).choose(o, random.Random(i))
