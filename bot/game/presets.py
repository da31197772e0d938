"""The presets (docs/rules.md): named ``Rules`` values, given as their differences from russian."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.game.rules import Rules, RulesError


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    title: str
    description: str
    rules: Rules
    talon_name: str = "talon"  # what its players call the talon: prikup, musik, kitty


_POLISH: dict[str, Any] = {
    "bid_step": 10, "marriage_on_first_lead": True, "must_beat": "always", "rounding": 10,
    "zero_penalty": 0, "barrel": "none", "lock_at": 900, "rospisat_penalty": 0,
    "rospisat_max": 2,
}
_FOUR_POLISH: dict[str, Any] = {
    "seats": 4, "sitter": "dealer", "sitter_bonus": "aces_marriage", "sitter_ace_value": 50,
}
_GERMAN: dict[str, Any] = {
    "bid_step": 10, "opening_bid_forced": False, "marriage_on_first_lead": True,
    "must_beat": "follow", "rounding": 10, "zero_penalty": 0, "barrel": "none", "lock_at": 900,
    "rospisat_penalty": 0, "rospisat_max": 3, "rospisat_max_bid": 120, "four_aces_bonus": 200,
    "four_aces_effect": "no_trump",
}
_TWO_HAND_BASE: dict[str, Any] = {
    "seats": 2, "zero_penalty": 0, "barrel": "none", "rospisat": False, "four_nines_redeal": "off",
}

_DEFS: list[tuple[str, str, str, dict[str, Any]]] = [
    ("russian", "Russian 1000 (Тысяча)",
     "Three players, prikup of 3, bids from 100 in 5s, barrel at 880, dashes, rospisat.", {}),
    ("russian4", "Russian 1000 for four",
     "Russian rules with four seated: the player right of the dealer sits out and scores the "
     "prikup's aces and marriage.",
     {"seats": 4, "sitter": "right_of_dealer", "sitter_bonus": "aces_marriage",
      "sitter_ace_value": 40}),
    ("polish", "Polish Tysiąc",
     "Three players, musik of 3, bids in 10s, marriages on any lead, must head the trick, "
     "locked at 900, bomba twice.", _POLISH),
    ("polish4", "Polish Tysiąc for four",
     "Polish rules with four seated: the dealer sits out and scores the musik's aces (50) "
     "and marriage.", {**_POLISH, **_FOUR_POLISH}),
    ("german_house", "German Tysiąc house rules",
     "Three players, bids in 10s (opening may pass), must beat when following, four aces 200, "
     "locked at 900, bomb up to 3 times.", _GERMAN),
    ("german_house4", "German Tysiąc house rules for four",
     "German house rules with four seated: the dealer sits out and scores the talon's aces "
     "(50) and marriage, at most 150.", {**_GERMAN, **_FOUR_POLISH, "sitter_bonus_cap": 150}),
    ("polish2_bidding", "Tysiąc licytowany for two",
     "Two players, 10 cards each, two musiks of 2: the declarer picks one and lays away 2.",
     {**_TWO_HAND_BASE, "hand_size": 10, "talons": [2, 2], "exchange": "discard",
      "discards_count_for": "nobody", "bid_step": 10, "marriage_on_first_lead": True,
      "must_beat": "always", "rounding": 10, "slam_claims_talons": True}),
    ("elwood2", "Elwood's two-player 1000",
     "Two players, 9 cards each, two kitties of 3: expose one, discard one and give one; "
     "bids from 85.",
     {**_TWO_HAND_BASE, "hand_size": 9, "talons": [3, 3], "exchange": "discard_one_give_one",
      "discards_count_for": "nobody", "min_bid": 85}),
    ("polish2_stock", "Tysiąc dobierany (two, with a stock)",
     "Two players, 6 cards each and a stock of 12: free play while it lasts, then follow suit; "
     "everyone scores his own points.",
     {**_TWO_HAND_BASE, "hand_size": 6, "talons": [], "stock": True, "bidding": False,
      "exchange": "none", "marriage_on_first_lead": True, "must_beat": "none", "rounding": 1,
      "rospisat_penalty": 0, "final_tie": "play_on"}),
    ("german1001_3", "1001 for three",
     "Three players, 20 cards, talon of 2 laid away for the declarer, bids from 40, declarer "
     "scores the points he takes, first over 1000.",
     {"deck": "10-A", "hand_size": 6, "talons": [2], "talon_show_min_bid": None,
      "exchange": "discard", "discards_count_for": "declarer", "min_bid": 40, "bid_step": 10,
      "opening_bid_forced": False, "marriage_required_above": None, "contract_raise": False,
      "marriage_values": {"C": 100, "S": 80, "H": 60, "D": 40}, "marriage_on_first_lead": True,
      "must_trump_when_void": False, "declarer_scores": "points_taken", "rounding": 10,
      "zero_penalty": 0, "barrel": "none", "rospisat": False, "four_nines_redeal": "off",
      "target_exceed": True}),
    ("russeln", "Russeln (Melk, Austria)",
     "Three players, 8 cards each and no talon, bids in 10s from 10, head the trick, "
     "declarer scores the points he takes.",
     {"hand_size": 8, "talons": [], "exchange": "none", "min_bid": 10, "bid_step": 10,
      "opening_bid_forced": False, "marriage_required_above": None, "contract_raise": False,
      "marriage_values": {"H": 100, "D": 80, "S": 60, "C": 40}, "marriage_on_first_lead": True,
      "must_trump_when_void": False, "must_beat": "always", "declarer_scores": "points_taken",
      "rounding": 10, "zero_penalty": 0, "barrel": "none", "rospisat": False,
      "four_nines_redeal": "off"}),
    ("tausendundeins2", "Tausendundeins (Hülsemann's two-hand 1001)",
     "Two players, 8 cards each and a stock of 8: free play while it lasts, then follow, trump "
     "and head; declarations need a trick; first to 1001.",
     {**_TWO_HAND_BASE, "hand_size": 8, "talons": [], "stock": True, "bidding": False,
      "exchange": "none", "marriage_values": {"C": 100, "S": 80, "H": 60, "D": 40},
      "marriage_on_first_lead": True, "must_trump_when_void": True, "must_beat": "always",
      "declarations_need_trick": True, "rounding": 1, "target": 1001, "final_tie": "play_on",
      "rospisat_penalty": 0}),
    ("russian_online", "Russian 1000 as played online",
     "Russian rules with the house rules of online tables: the dealer's forced 100, bids in 10s "
     "from 200, no bid above 120 before the prikup, rospisat paid by the declarer, sticks, "
     "no-win streaks, ±555.",
     {"dealer_forced_bid": True, "bid_step_high": 10, "bid_step_high_from": 200,
      "bid_cap_before_talon": 120, "rospisat_award": "declarer_pays_half",
      "round_before_make": True, "sticks_penalty": 120, "sticks_count": 3,
      "sticks_declarer": True, "no_win_penalty": 120, "no_win_hands": 3,
      "reset_at_555": True, "reset_value": 555, "reset_negative": True}),
]

# What each community calls the talon (drawn beside it, named in messages).
_TALON_NAMES = {"russian": "prikup", "russian4": "prikup", "russian_online": "prikup",
                "polish": "musik", "polish4": "musik", "polish2_bidding": "musik",
                "polish2_stock": "musik", "elwood2": "kitty"}

PRESETS: dict[str, Preset] = {
    name: Preset(name, title, desc, Rules.from_json(opts), _TALON_NAMES.get(name, "talon"))
    for name, title, desc, opts in _DEFS
}


def preset(name: str) -> Rules:
    """The rule set of a preset; RulesError naming the presets for an unknown name."""
    try:
        return PRESETS[name].rules
    except KeyError:
        raise RulesError(
            f"unknown preset {name!r}; the presets are {', '.join(PRESETS)}"
        ) from None


def rules_for(preset_name: str, options: dict[str, Any] | None = None) -> Rules:
    """A preset with single options overridden, as in a scenario file."""
    base = preset(preset_name)
    return Rules.from_json(options or {}, base=base) if options else base
