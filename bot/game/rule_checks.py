"""What a rule set may hold: the range of each number, and the combinations of options a
game can be played with."""

from __future__ import annotations

from bot.game.options import (
    Barrel,
    DealtNines,
    Exchange,
    FourAcesEffect,
    Sitter,
    SitterBonus,
)
from bot.game.rule_fields import RuleFields


class RulesError(ValueError):
    """A rule set that names an unknown option, a wrong value or an impossible combination."""


ALLOWED_INTS: dict[str, tuple[int, ...]] = {  # whole-number options with few values
    "seats": (2, 3, 4),
    "bid_step": (5, 10),
    "rounding": (1, 5, 10),
    "nines_for_redeal": (3, 4),
    "sitter_ace_value": (40, 50),
    "sticks_count": (2, 3, 4, 5),
}


_CARD_POINTS = (0, 120)  # the card points of a deal
_BID = (0, 1000)  # a bid, a contract: far above what a hand can make (see Rules.max_bid)
_SCORE = (0, 1000)  # what one hand adds or takes
_TOTAL = (100, 10_000)  # a match's totals
_COUNT = (1, 100)  # hands, calls in a match
INT_RANGES: dict[str, tuple[int, int]] = {  # whole-number options: the values a game can use
    "hand_size": (1, 16),
    "talon_low_redeal_below": _CARD_POINTS,
    "hand_low_redeal_below": _CARD_POINTS,
    "predeal_low_redeal_below": _CARD_POINTS,
    "hand_low_redeal_max_bid": _BID,
    "min_bid": (1, 1000),
    "bid_step_high": (1, 100),
    "bid_step_high_from": _BID,
    "bid_cap_before_talon": _BID,
    "marriage_required_above": _BID,
    "show_marriage_above": _BID,
    "silence_below": (-10_000, 10_000),
    "misere_value": _BID,
    "talon_show_min_bid": _BID,
    "contra_factor": (1, 16),
    "redouble_factor": (1, 16),
    "rospisat_penalty": _SCORE,
    "rospisat_max": (0, 100),
    "rospisat_max_bid": _BID,
    "spisat_max": (0, 100),
    "four_aces_bonus": _SCORE,
    "last_trick_bonus": (0, 100),
    "zero_penalty": _SCORE,
    "target": _TOTAL,
    "reset_value": (1, 10_000),
    "sticks_penalty": _SCORE,
    "no_win_penalty": _SCORE,
    "no_win_hands": _COUNT,
    "barrel_at": (1, 10_000),
    "barrel_hands": _COUNT,
    "barrel_fall_penalty": _SCORE,
    "lock_at": (1, 10_000),
    "lock_no_trick_penalty": _SCORE,
    "sitter_bonus_cap": _SCORE,
}
TALON_RANGE = (1, 8)  # cards in one talon; at most MAX_TALONS talons
MAX_TALONS = 4
MARRIAGE_RANGE = _SCORE



def _validate_ranges(r: RuleFields) -> None:
    """Every number within what a game can use (a typed 99999999999 is refused here)."""
    for name, allowed in ALLOWED_INTS.items():
        value = getattr(r, name)
        if value not in allowed:
            raise RulesError(f"{name} must be one of {', '.join(map(str, allowed))}; got {value}")
    for name, (lo, hi) in INT_RANGES.items():
        value = getattr(r, name)
        if value is not None and not lo <= value <= hi:
            raise RulesError(f"{name} must be from {lo} to {hi}; got {value}")
    lo, hi = TALON_RANGE
    if len(r.talons) > MAX_TALONS or any(not lo <= t <= hi for t in r.talons):
        raise RulesError(f"talons must be at most {MAX_TALONS} talons of {lo} to {hi} cards")
    lo, hi = MARRIAGE_RANGE
    if any(not lo <= v <= hi for v in r.marriage_values):
        raise RulesError(f"marriage_values must be from {lo} to {hi} for each suit")


def validate(rules: RuleFields) -> None:
    """Raise RulesError for impossible values or combinations of options."""
    _validate_ranges(rules)
    _validate_deal(rules)
    _validate_play(rules)
    _validate_house(rules)


def _validate_deal(r: RuleFields) -> None:
    """The seats, the deck, the hands, the talons or stock, and the exchange fit together."""
    if r.seats == 4 and r.sitter is Sitter.NONE and not r.partnerships:
        raise RulesError("four seats need a sitter: set sitter to right_of_dealer, "
                         "opposite_dealer or dealer (or play in partnerships)")
    if r.seats != 4 and r.sitter is not Sitter.NONE:
        raise RulesError(f"sitter must be none unless four are seated (seats is {r.seats})")
    if r.hand_size < 1 or any(t < 1 for t in r.talons):
        raise RulesError("hand_size and every talon must hold at least one card")
    if r.stock != (not r.bidding):
        raise RulesError("bidding is false exactly in stock games: set stock and bidding together")
    if r.stock and r.talons:
        raise RulesError("a stock game has no talon: set talons to []")
    if r.stock and r.seats != 2:
        raise RulesError("stock games are for two players")
    spare = r.deck_size - r._active * r.hand_size - sum(r.talons)
    if r.stock and spare < 2:
        raise RulesError(f"a stock game needs cards left for the stock; {r.deck} leaves {spare}")
    if not r.stock and spare != 0:
        raise RulesError(
            f"the deck does not fit: {r.deck_size} cards ≠ {r._active} players × "
            f"{r.hand_size} + talons {sum(r.talons)}"
        )
    if (r.exchange is Exchange.NONE) != (not r.talons):
        raise RulesError("exchange must be none exactly when there is no talon")
    if r.exchange is Exchange.DISCARD_ONE_GIVE_ONE and r._active != 2:
        raise RulesError("exchange discard_one_give_one is a two-player exchange")
    for t in r.talons:
        declarer, other = _after_exchange(r, t)
        if declarer != other:
            raise RulesError(
                f"with a talon of {t} and exchange {r.exchange}, the declarer would hold "
                f"{declarer} cards and the others {other}: hands must be equal for play"
            )


def _validate_play(r: RuleFields) -> None:
    """The auction, the barrel or lock, the declarations and the target agree."""
    if r.min_bid <= 0 or r.min_bid % r.bid_step:
        raise RulesError(f"min_bid must be a positive multiple of bid_step ({r.bid_step})")
    if r.barrel is not Barrel.NONE and r.lock_at is not None:
        raise RulesError("choose a barrel or a lock (lock_at), not both")
    if r.barrel is not Barrel.NONE and not 0 < r.barrel_at < r.target:
        raise RulesError("barrel_at must lie below the target")
    if r.lock_at is not None and not 0 < r.lock_at < r.target:
        raise RulesError("lock_at must lie below the target")
    if r.barrel_hands < 1:
        raise RulesError("barrel_hands must be at least 1")
    if r.four_aces_effect is FourAcesEffect.NO_TRUMP and r.four_aces_bonus is None:
        raise RulesError("four_aces_effect no_trump needs four_aces_bonus")
    if r.hundred_concede and not r.opening_bid_forced:
        raise RulesError("hundred_concede answers the forced opening: it needs opening_bid_forced")
    if not r.bidding and (r.golden_round or r.blind_bidding or r.rospisat or r.spisat_max):
        raise RulesError("golden rounds, blind bids, rospisat and spisat need an auction")
    if r.target <= 0:
        raise RulesError("target must be positive")


def _validate_house(r: RuleFields) -> None:
    """The house-rule options (docs/rules-decisions.md, "House rules")."""
    high = r.bid_step_high
    if high is not None and (high <= r.bid_step or high % r.bid_step
                             or r.bid_step_high_from % high
                             or r.bid_step_high_from <= r.min_bid):
        raise RulesError(
            "bid_step_high must be a larger multiple of bid_step, and bid_step_high_from a "
            "multiple of it above min_bid")
    opening = max(120, r.min_bid) if r.golden_round else r.min_bid
    if not r.is_bid_amount(opening):
        raise RulesError(f"the opening bid {opening} must be a multiple of the bid step there")
    if r.bid_cap_before_talon is not None and r.bid_cap_before_talon < opening:
        raise RulesError(f"bid_cap_before_talon must be at least the opening bid ({opening})")
    if r.dealer_forced_bid and (not r.bidding or r.hundred_concede):
        raise RulesError("dealer_forced_bid needs an auction and cannot be combined with "
                         "hundred_concede (it answers forehand's forced opening)")
    if r.dealer_forced_bid and r.sitter is Sitter.DEALER:
        raise RulesError("dealer_forced_bid needs a dealer who plays: the sitter cannot be "
                         "the dealer")
    for name in ("sticks_penalty", "no_win_penalty", "last_trick_bonus", "barrel_fall_penalty"):
        if getattr(r, name) < 0:
            raise RulesError(f"{name} must be 0 or more")
    if (r.dealt_four_nines is not DealtNines.OFF or r.dealt_three_nines is not DealtNines.OFF) \
            and not r.bidding:
        raise RulesError("dealt_four_nines and dealt_three_nines are claimed before the auction: "
                         "they need one")
    if r.contra and not (r.bidding and 1 <= r.contra_factor <= r.redouble_factor):
        raise RulesError("contra needs an auction, and 1 ≤ contra_factor ≤ redouble_factor")
    if r.misere and not (r.bidding and r.misere_value >= r.min_bid
                         and r.is_bid_amount(r.misere_value)):
        raise RulesError("misere needs an auction, and misere_value must be a bid amount of at "
                         "least min_bid")
    if r.partnerships and (r.seats != 4 or r.golden_round or r.nines_redeal_dealer_penalty
                           or r.jack_bottom_reshuffle or r.sitter_bonus is not SitterBonus.NONE):
        raise RulesError("partnerships need four seats, and no golden round, dealer penalty "
                         "or sitter bonus (a partnership shares one score)")
    if r.no_win_hands < 1:
        raise RulesError("no_win_hands must be at least 1")
    if r.reset_value <= 0:
        raise RulesError("reset_value must be positive")


def _after_exchange(r: RuleFields, talon: int) -> tuple[int, int]:
    """Cards held by the declarer and by each other player once the exchange is done."""
    h = r.hand_size
    if r.exchange is Exchange.GIVE_ONE_EACH:
        return h + talon - (r._active - 1), h + 1
    if r.exchange is Exchange.DISCARD:
        return h, h
    if r.exchange is Exchange.DISCARD_ONE_GIVE_ONE:
        return h + talon - 2, h + 1
    return h, h


def cards_after_exchange(rules: RuleFields) -> int:
    """Hand size at the first trick (the number of tricks in a hand)."""
    if rules.stock:
        return rules.hand_size + rules.stock_size // 2
    return _after_exchange(rules, rules.talons[0])[1] if rules.talons else rules.hand_size
