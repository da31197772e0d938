"""The rules summary groups options by the phase of play, each phase with a heading."""

from __future__ import annotations

import pytest

from bot.game.options import OPTION_GROUPS
from bot.game.presets import PRESETS
from bot.game.rules import OPTION_NAMES
from bot.i18n import LANGUAGES, has
from bot.tables._catalog import OTHER_PHASE, PHASE_KEYS, rules_digest, rules_summary


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


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_reads_as_five_sentences_in_every_language(preset):
    digest = rules_digest(preset, PRESETS[preset].rules)
    assert len(digest) == 5
    for lang in LANGUAGES:
        for line in digest:
            text = line.localize(lang)
            assert not text[0].islower() and text.endswith(".") and "{" not in text, (lang, text)
            assert "digest." not in text, (lang, text)  # a key with no message


def test_the_digest_follows_the_options_not_the_preset():
    rules = PRESETS["russian"].rules.with_options(barrel_at=200, min_bid=80, target=500)
    text = " ".join(line.localize("en") for line in rules_digest("russian", rules))
    assert "from 200 on the barrel" in text and "Bids from 80 " in text
    assert "played to 500" in text and "880" not in text and "1000" not in text
