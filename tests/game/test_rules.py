from __future__ import annotations

import json

import pytest

from bot.game.presets import PRESETS, preset, rules_for
from bot.game.rules import OPTION_NAMES, Rules, RulesError, cards_after_exchange


def test_defaults_are_the_russian_preset() -> None:
    assert Rules() == preset("russian")
    r = Rules()
    assert (r.min_bid, r.bid_step, r.barrel_at, r.rounding, r.marriage_values) == (
        100, 5, 880, 5, (60, 80, 100, 40))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_round_trips_through_json(name: str) -> None:
    rules = preset(name)
    text = json.dumps(rules.to_json())
    assert Rules.from_json(json.loads(text)) == rules
    assert set(rules.to_json()) == set(OPTION_NAMES)


def test_presets_differ_from_russian_as_rules_md_says() -> None:
    polish = preset("polish")
    assert (polish.bid_step, polish.must_beat.value, polish.lock_at, polish.barrel.value,
            polish.rospisat_max, polish.marriage_on_first_lead) == (10, "always", 900, "none", 2,
                                                                   True)
    assert preset("german1001_3").marriage_values == (100, 40, 60, 80)
    assert preset("russeln").marriage_values == (40, 80, 100, 60)
    assert preset("tausendundeins2").target == 1001
    assert [cards_after_exchange(preset(n)) for n in ("russian", "polish2_bidding", "elwood2",
                                                       "polish2_stock", "german1001_3")] == [
        8, 10, 10, 12, 6]


def test_unknown_option_is_named_with_a_suggestion() -> None:
    with pytest.raises(RulesError, match=r"unknown option .bid_stp.*bid_step"):
        rules_for("russian", {"bid_stp": 10})


@pytest.mark.parametrize(("options", "fragment"), [
    ({"bid_step": 7}, "bid_step must be one of 5, 10"),
    ({"seats": 4}, "four seats need a sitter"),
    ({"sitter": "dealer"}, "sitter must be none"),
    ({"hand_size": 8}, "the deck does not fit"),
    ({"lock_at": 900}, "choose a barrel or a lock"),
    ({"min_bid": 103}, "multiple of bid_step"),
    ({"four_aces_effect": "no_trump"}, "needs four_aces_bonus"),
    ({"must_beat": "sometimes"}, "must_beat must be one of none, follow, always"),
    ({"rospisat": "yes"}, "rospisat must be true or false"),
    ({"exchange": "none"}, "exchange must be none exactly when there is no talon"),
    ({"exchange": "discard_one_give_one"}, "two-player exchange"),
    ({"marriage_values": {"H": 100}}, "all four suits"),
])
def test_impossible_rules_are_refused_readably(options: dict[str, object], fragment: str) -> None:
    with pytest.raises(RulesError, match=fragment):
        rules_for("russian", options)


def test_unknown_preset_lists_the_presets() -> None:
    with pytest.raises(RulesError, match="russian, russian4, polish"):
        preset("klondike")


def test_every_number_option_has_a_range_and_outside_it_is_refused() -> None:
    """Each whole-number option takes a bounded set of values; one past either end is
    refused with the range (JSON-typed values, as /table option sends them)."""
    from bot.game.rules import ALLOWED_INTS, INT_RANGES

    base = Rules()
    numeric = [k for k, v in base.to_json().items()
               if v is None or (isinstance(v, int) and not isinstance(v, bool))]
    assert set(numeric) <= set(INT_RANGES) | set(ALLOWED_INTS)
    for name, (lo, hi) in INT_RANGES.items():
        for bad in (lo - 1, hi + 1, 10 ** 30, 1e30):
            with pytest.raises(RulesError, match=f"from {lo} to {hi}"):
                base.with_options(**{name: bad})
