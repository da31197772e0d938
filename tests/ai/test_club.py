"""The club player's card play: defenders in 1000 score each for himself."""

from __future__ import annotations

import random

from bot.ai.club import ClubPlayer, declarer_estimate
from bot.game.cards import (
    R9,
    R10,
    RA,
    RJ,
    RK,
    RQ,
    beats,
    card,
    points_of,
    rank_of,
    suit_of,
    to_mask,
)
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply_into
from bot.game.observation import Observation, observe
from bot.game.presets import rules_for
from bot.game.state import Phase
from bot.game.tricks import winning_card


def _last_to_play(rules_name: str, options: dict[str, object] | None,
                  want: int) -> list[Observation]:
    """Observations of the last player of a trick, the trick headed by another defender
    (or, with partnerships, by the player's partner) and some legal card beating it."""
    rules = rules_for(rules_name, options)
    club = ClubPlayer()
    rng = random.Random(5)
    found: list[Observation] = []
    s = new_match(rules, 0)
    while len(found) < want:
        if s.phase is Phase.MATCH_OVER:
            s = new_match(rules, 0)
        for move in random_deal(s, rng):
            s = apply_into(s, move, None)
        while s.phase not in (Phase.DEALING, Phase.MATCH_OVER):
            me = s.to_act
            if s.phase is Phase.PLAY and len(s.trick) == len(s.active) - 1 and me != s.declarer:
                best = winning_card(s.trick, s.trump)
                head = next(p for p, c in s.trick if c == best)
                ally = (head % 2 == me % 2) if rules.partnerships else head != s.declarer
                o = observe(s, me)
                if ally and any(beats(a.card, best, s.trump) for a in o.legal):
                    found.append(o)
            s = apply_into(s, club.choose(observe(s, s.to_act), rng), None)
    return found


def test_a_defender_takes_over_the_other_defenders_trick_when_he_can() -> None:
    """The other defender's points are not mine: as the last to play, I take the trick."""
    rng = random.Random(1)
    for o in _last_to_play("russian", None, 40):
        best = winning_card(o.trick, o.trump)
        assert beats(ClubPlayer().choose(o, rng).card, best, o.trump), o.trick


def test_a_partners_trick_gets_points() -> None:
    """With partnerships the partner's trick is ours: the last player adds a counting card
    (not a nine) when he holds one he does not need (no ace, trump or marriage card)."""
    rng = random.Random(1)
    options = {"seats": 4, "partnerships": True, "hand_size": 6, "talons": [],
               "exchange": "none"}
    checked = 0
    for o in _last_to_play("russian", options, 60):
        spare = [a for a in o.legal if rank_of(a.card) in (RJ, RQ, RK, R10)
                 and suit_of(a.card) != o.trump and not _in_marriage(o, a.card)]
        if not spare:
            continue
        checked += 1
        assert points_of(ClubPlayer().choose(o, rng).card) > 0, o.trick
    assert checked >= 5


def _in_marriage(o: Observation, c: int) -> bool:
    other = card(RQ if rank_of(c) == RK else RK, suit_of(c))
    return rank_of(c) in (RK, RQ) and other in o.hand


def test_the_declarer_estimate_values_what_takes_tricks() -> None:
    """An ace for a nine, a marriage completed or a void made each raise the estimate."""
    rules = rules_for("russian")
    o = next(iter(_last_to_play("russian", None, 1)))  # any observation of these rules
    assert o.rules == rules
    spades = [card(r, 3) for r in (R9, RJ, RQ)]
    base = to_mask([*spades, card(R9, 0), card(RJ, 0), card(R9, 1), card(RJ, 1), card(R9, 2)])
    ace = base & ~(1 << card(R9, 3)) | 1 << card(RA, 3)
    married = base & ~(1 << card(RJ, 3)) | 1 << card(RK, 3)
    void = base & ~(1 << card(R9, 2)) | 1 << card(RK, 1)
    est = declarer_estimate(o, base)
    assert declarer_estimate(o, ace) > est
    assert declarer_estimate(o, married) > est + 40  # a marriage of ♠ is worth 40
    assert declarer_estimate(o, void) > est
