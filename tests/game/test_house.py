"""House rules where the question is who may act (the scenario files pin the numbers)."""

from __future__ import annotations

import pytest

from bot.game.actions import Verb
from bot.game.engine import legal_actions
from bot.game.errors import RuleError
from tests.game.helpers import hand, run

FOUR = {"seats": 4, "partnerships": True, "hand_size": 6, "talons": [], "exchange": "none",
        "contra": True}
DEAL4 = {"A": ["AC", "10C", "KC", "QC", "9H", "JH"], "B": ["AH", "10H", "KH", "QH", "9C", "JC"],
         "C": ["AD", "10D", "KD", "JD", "9S", "QS"], "D": ["KS", "AS", "10S", "JS", "QD", "9D"]}


def test_only_the_declarers_opponents_may_double_in_partnerships() -> None:
    s, names = hand(DEAL4, names="ABCD", options=FOUR)
    s, _ = run(s, names, "B bid 100", "C pass", "D pass", "A pass", "B contract 100")
    assert s.to_act == 2  # C, B's left-hand opponent, speaks first
    s, _ = run(s, names, "C pass")
    assert s.to_act == 0  # D, B's partner, is skipped: A speaks next
    with pytest.raises(RuleError, match="only an opponent of the declarer"):
        run(s, names, "D contra")
    s, _ = run(s, names, "A contra")
    assert {a.verb for a in legal_actions(s)} == {Verb.PASS, Verb.REDOUBLE}


def test_dealer_forced_bid_lets_forehand_pass() -> None:
    s, names = hand({"A": ["AC", "10C", "KC", "QC", "9H", "JH", "10S"],
                     "B": ["AH", "10H", "KH", "QH", "9C", "JC", "AS"],
                     "C": ["AD", "10D", "KD", "JD", "9S", "QS", "KS"],
                     "talon": ["QD", "9D", "JS"]}, options={"dealer_forced_bid": True})
    assert any(a.verb is Verb.PASS for a in legal_actions(s))
    s, _ = run(s, names, "B pass", "C pass", "A pass")
    assert (s.declarer, s.contract) == (0, 100)
