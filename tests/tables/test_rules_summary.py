"""The rules summary groups options by the phase of play, each phase with a heading."""

from __future__ import annotations

from bot.game.options import OPTION_GROUPS
from bot.game.presets import PRESETS
from bot.game.rules import OPTION_NAMES
from bot.i18n import has
from bot.tables._catalog import OTHER_PHASE, PHASE_KEYS, rules_summary


def test_every_group_has_a_phase_with_a_heading():
    assert {title for title, _ in OPTION_GROUPS} == set(PHASE_KEYS)
    for key in (*PHASE_KEYS.values(), OTHER_PHASE):
        assert has(f"rules.phase.{key}"), key


def test_changed_options_under_their_phases_in_order_of_play():
    rules = PRESETS["russian"].rules.with_options(barrel="none", bid_step=10,
                                                  four_nines_redeal="off",
                                                  jack_bottom_reshuffle=True)
    summary = rules_summary("russian", rules)
    assert [phase for phase, _ in summary.by_phase] == ["redeal", "bidding", "barrel"]
    redeal, bidding, barrel = (rows for _, rows in summary.by_phase)
    # in the order the phase lists them, whatever the order of the rules' fields
    assert [name for name, _, _ in redeal] == ["jack_bottom_reshuffle", "four_nines_redeal"]
    assert bidding == (("bid_step", "10",
                        "Bids and raised contracts go up in multiples of this."),)
    assert barrel[0][:2] == ("barrel", "none")  # a plain word, not JSON's "none"
    every = [name for _, rows in summary.options_by_phase for name, _ in rows]
    assert sorted(every) == sorted(OPTION_NAMES)
    assert rules_summary("russian", PRESETS["russian"].rules).by_phase == ()
