from __future__ import annotations

import pytest

from bot.game.actions import Verb
from bot.game.engine import legal_actions
from bot.game.errors import RuleError
from bot.game.state import Phase
from tests.game.helpers import W0_DEAL, hand, run


def test_forehand_must_open_and_cannot_pass() -> None:
    s, names = hand(W0_DEAL)
    assert s.to_act == 1  # B, left of dealer A
    assert all(a.verb is Verb.BID for a in legal_actions(s))
    with pytest.raises(RuleError) as err:
        run(s, names, "B pass")
    assert err.value.message_for(names) == (
        "B cannot pass: forehand must open the auction with at least 100")


def test_step_and_lowest_bid_named_in_the_refusal() -> None:
    s, names = hand(W0_DEAL)
    s, _ = run(s, names, "B bid 110")
    with pytest.raises(RuleError) as err:
        run(s, names, "C bid 112")
    assert err.value.message_for(names) == (
        "C cannot bid 112: bids go up in steps of 5, so the lowest bid now is 115")
    offered = [a.amount for a in legal_actions(s) if a.verb is Verb.BID]
    assert offered[0] == 115 and all(n % 5 == 0 for n in offered)


def test_bids_above_120_need_a_marriage() -> None:
    s, names = hand(W0_DEAL)
    s, _ = run(s, names, "B bid 100")
    # C holds K♠ Q♠: may go above 120; A holds K♣ Q♣ too.
    s, _ = run(s, names, "C bid 125")
    assert max(a.amount for a in legal_actions(s) if a.verb is Verb.BID) > 120
    s2, names2 = hand({**W0_DEAL, "A": ["AC", "10C", "KC", "9C", "9H", "JH", "10S"],
                       "B": ["AH", "10H", "KH", "QH", "QC", "JC", "AS"]})
    s2, _ = run(s2, names2, "B bid 100", "C pass")
    with pytest.raises(RuleError, match="a bid above 120 needs a marriage"):
        run(s2, names2, "A bid 125")
    assert max(a.amount for a in legal_actions(s2) if a.verb is Verb.BID) == 120


def test_two_passes_end_the_auction_and_the_talon_is_shown() -> None:
    s, names = hand(W0_DEAL)
    s, events = run(s, names, "B bid 100", "C bid 105", "A pass", "B bid 120", "C pass")
    assert (s.phase, s.declarer, s.winning_bid) == (Phase.EXCHANGE, 1, 120)
    assert s.talon_shown and any(type(e).__name__ == "TalonTaken" for e in events)
    with pytest.raises(RuleError, match="the auction is over"):
        run(s, names, "A bid 130")


def test_not_your_turn_names_whose_turn_it_is() -> None:
    s, names = hand(W0_DEAL)
    with pytest.raises(RuleError) as err:
        run(s, names, "C bid 100")
    assert err.value.message_for(names) == "C cannot bid 100: it is B's turn to bid"


def test_opening_not_forced_and_everyone_passes_throws_in() -> None:
    s, names = hand(W0_DEAL, preset="german_house")
    s, _ = run(s, names, "B pass", "C pass", "A pass")
    assert s.phase is Phase.DEALING
    assert s.last_result is not None and s.last_result.end.value == "thrown_in"
    assert s.match.dealer == 1  # the deal passes to the left


def test_silenced_player_may_only_pass() -> None:
    s, names = hand(W0_DEAL, options={"silence_below": -150}, totals={"C": -200})
    s, _ = run(s, names, "B bid 100")
    assert [a.verb for a in legal_actions(s)] == [Verb.PASS]
    with pytest.raises(RuleError, match="silenced"):
        run(s, names, "C bid 105")
