"""The closed value sets of the rule options (RULES.md §3), one enum per option."""

from __future__ import annotations

from enum import StrEnum


class Sitter(StrEnum):
    NONE = "none"
    RIGHT_OF_DEALER = "right_of_dealer"
    OPPOSITE_DEALER = "opposite_dealer"
    DEALER = "dealer"


class Deck(StrEnum):
    NINE_ACE = "9-A"
    TEN_ACE = "10-A"
    SEVEN_ACE = "7-A"


class NinesRedeal(StrEnum):
    AFTER_EXCHANGE = "after_exchange"
    ORIGINAL_ONLY = "original_only"
    OFF = "off"


class Exchange(StrEnum):
    GIVE_ONE_EACH = "give_one_each"
    DISCARD = "discard"
    DISCARD_ONE_GIVE_ONE = "discard_one_give_one"
    NONE = "none"


class DiscardsCountFor(StrEnum):
    DECLARER = "declarer"
    NOBODY = "nobody"


class RospisatAward(StrEnum):
    FIXED60 = "fixed60"
    HALF_BID_UP5 = "half_bid_up5"
    HALF_BID_UP10 = "half_bid_up10"


class MarriageValueMode(StrEnum):
    BY_SUIT = "by_suit"
    BY_ORDER = "by_order"


class FourAcesEffect(StrEnum):
    NONE = "none"
    NO_TRUMP = "no_trump"


class MustBeat(StrEnum):
    NONE = "none"
    FOLLOW = "follow"
    ALWAYS = "always"


class DeclarerScores(StrEnum):
    CONTRACT = "contract"
    POINTS_TAKEN = "points_taken"


class FinalTie(StrEnum):
    SHARED = "shared"
    PLAY_ON = "play_on"


class Barrel(StrEnum):
    CLASSIC = "classic"
    LVIV = "lviv"
    NONE = "none"


class BarrelConflict(StrEnum):
    ALLOW = "allow"
    ALL_FALL = "all_fall"
    NEWCOMER_KNOCKS_OFF = "newcomer_knocks_off"


class SitterBonus(StrEnum):
    NONE = "none"
    ACES_MARRIAGE = "aces_marriage"
    CARD_POINTS_MARRIAGE = "card_points_marriage"
