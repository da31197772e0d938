from __future__ import annotations

import pytest

from bot.game.actions import Flag, Verb
from bot.game.cards import card_str
from bot.game.engine import legal_actions
from bot.game.errors import RuleError
from tests.game.helpers import W0_DEAL, hand, run

W0_START = ["B bid 100", "C bid 105", "A pass", "B bid 120", "C pass",
            "B give 9C C", "B give JC A", "B contract 140"]


def legal_cards(s):  # type: ignore[no-untyped-def]
    return sorted(card_str(a.card) for a in legal_actions(s) if a.verb is Verb.PLAY)


def test_no_marriage_on_the_first_lead_in_russian() -> None:
    s, names = hand(W0_DEAL)
    s, _ = run(s, names, *W0_START)
    assert not any(a.flag is Flag.MARRIAGE for a in legal_actions(s))
    with pytest.raises(RuleError, match="nothing can be declared on the first lead"):
        run(s, names, "B play QH marriage")


def test_marriage_after_winning_a_trick_makes_trump() -> None:
    s, names = hand(W0_DEAL)
    s, _ = run(s, names, *W0_START, "B play AH", "C play 9C", "A play 9H")
    assert any(a.flag is Flag.MARRIAGE and card_str(a.card) == "QH" for a in legal_actions(s))
    s, events = run(s, names, "B play QH marriage")
    assert s.trump == 2 and s.decl[1] == 100
    assert [type(e).__name__ for e in events][:3] == [
        "MarriageDeclared", "TrumpChanged", "CardPlayed"]


def test_must_follow_suit() -> None:
    s, names = hand(W0_DEAL)
    s, _ = run(s, names, *W0_START, "B play AH", "C play 9C", "A play 9H",
               "B play QH marriage", "C play 9S")
    assert legal_cards(s) == ["JH"]
    with pytest.raises(RuleError) as err:
        run(s, names, "A play AC")
    assert err.value.message_for(names) == "A cannot play AC: he must follow suit (hearts)"


def test_polish_must_head_the_trick_when_following() -> None:
    deal = {"A": ["AH", "KH", "KC", "QC", "9S", "JS", "10S"],
            "B": ["JH", "AD", "10D", "KD", "QD", "9D", "JD"],
            "C": ["10H", "9H", "AC", "10C", "JC", "9C", "AS"],
            "talon": ["QH", "QS", "KS"]}
    s, names = hand(deal, preset="polish")
    s, _ = run(s, names, "B bid 100", "C pass", "A pass", "B give 9D C", "B give JD A",
               "B contract 100", "B play JH")
    assert legal_cards(s) == ["10H"]
    with pytest.raises(RuleError) as err:
        run(s, names, "C play 9H")
    assert err.value.message_for(names) == (
        "C cannot play 9H: he must follow suit (hearts) and beat the trick when he can")
    s, _ = run(s, names, "C play 10H")
    assert legal_cards(s) == ["AH"]  # A must head the 10 with the ace
