"""A replayed hand as the viewer's steps: every move once, the cards leaving the hands,
the score of the scored hand, names escaped."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.game.cards import cards_of
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply, legal_actions
from bot.game.events import CardPlayed, HandScored
from bot.game.presets import PRESETS
from bot.game.serialize import move_to_json
from bot.game.state import Phase
from bot.store import MatchInfo
from bot.tables import PublicHand
from bot.tables._hands import NoSuchHand, count_deals, hand_replay
from bot.web._steps import steps_of

RULES = PRESETS["russian"].rules


def _moves(hands: int, seed: int = 4) -> list[dict]:
    """Random legal moves of ``hands`` whole hands (and the deal of one more)."""
    rng = random.Random(seed)
    state, out, scored = new_match(RULES, 0), [], 0
    while scored < hands:
        moves = random_deal(state, rng) if state.phase is Phase.DEALING else [
            rng.choice(legal_actions(state))]
        for move in moves:
            state, events = apply(state, move)
            out.append(move_to_json(move))
            scored += sum(isinstance(e, HandScored) for e in events)
    out.append(move_to_json(random_deal(state, rng)[0]))  # a hand that is not over
    return out


def _public(replay, names=("Ann", "Bob", "Cid")) -> PublicHand:
    info = MatchInfo(1, 1, 1, 1, "russian", "russian", 0.0, 0.0, names, (None,) * 3,
                     (0, 0, 0), (), False)
    return PublicHand(info, names, RULES, replay)


def test_each_move_is_a_step_and_the_last_shows_the_score():
    moves = _moves(3)
    replay = hand_replay(RULES, 0, moves, 2)
    assert replay.hand_no == 2 and replay.hands == 4 == count_deals(moves)
    first = replay.steps[0]
    dealt = sum(len(cards_of(m)) for m in first.held) + sum(
        len(cards_of(m)) for m in replay.talons)
    assert dealt == 24  # the whole deck: three hands of 7 and the talon
    plays = [s for s in replay.steps if any(isinstance(e, CardPlayed) for e in s.events)]
    for before, after in itertools.pairwise(plays):  # a card leaves a hand each time
        assert sum(map(int.bit_count, after.held)) == sum(map(int.bit_count, before.held)) - 1
    views = steps_of(_public(replay), lambda c: f"/img/{c}.png", "en")
    assert len(views) == len(replay.steps)
    assert "deals hand" in views[0].caption
    last = views[-1]
    assert [d for _, d, _ in last.score] == list(replay.result.delta)
    assert [tot for _, _, tot in last.score] == list(replay.result.totals)


def test_an_unfinished_or_made_up_hand_is_no_hand():
    moves = _moves(2)
    assert count_deals(moves) == 3
    for no in (0, 3, 4, -1):  # hand 3 is dealt but not over
        with pytest.raises(NoSuchHand):
            hand_replay(RULES, 0, moves, no)
    with pytest.raises(NoSuchHand):  # a damaged log
        hand_replay(RULES, 0, [*moves[:5], {"seat": 9, "verb": "fly"}, *moves[5:]], 1)


def test_names_are_escaped_in_captions():
    replay = hand_replay(RULES, 0, _moves(1), 1)
    views = steps_of(_public(replay, ("<script>x</script>", "Bob & Co", "Cid")),
                     lambda c: "/img/x.png", "en")
    html = "".join(str(v.caption) for v in views)
    assert "<script>" not in html and "&lt;script&gt;" in html and "Bob &amp; Co" in html


def test_the_replay_names_the_talon_as_discord_does():
    replay = hand_replay(RULES, 0, _moves(1), 1)
    for loc, word in (("en", "Prikup"), ("ru", "Прикуп"), ("pl", "Musik")):
        views = steps_of(_public(replay), lambda c: "/img/x.png", loc)
        labels = {v.middle_label for v in views if v.middle and not v.middle[0][0]}
        assert labels == {word}, labels
    views = steps_of(_public(replay), lambda c: "/img/x.png", "en")
    captions = " ".join(str(v.caption) for v in views)
    assert "takes the prikup" in captions and "talon" not in captions.lower()
