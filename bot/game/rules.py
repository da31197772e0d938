"""The ``Rules`` value: every rule option under its exact name and default (docs/rules.md)."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, get_type_hints

from bot.game.cards import DECKS, SUITS
from bot.game.options import (
    Barrel,
    BarrelConflict,
    DealtNines,
    Deck,
    DeclarerScores,
    DiscardsCountFor,
    Exchange,
    FinalTie,
    FourAcesEffect,
    MarriageTrump,
    MarriageValueMode,
    MustBeat,
    NinesRedeal,
    RospisatAward,
    Sitter,
    SitterBonus,
)

__all__ = [
    "ALLOWED_INTS",
    "INT_RANGES",
    "OPTION_NAMES",
    "Barrel",
    "BarrelConflict",
    "DealtNines",
    "Deck",
    "DeclarerScores",
    "DiscardsCountFor",
    "Exchange",
    "FinalTie",
    "FourAcesEffect",
    "MarriageTrump",
    "MarriageValueMode",
    "MarriageValues",
    "MustBeat",
    "NinesRedeal",
    "RospisatAward",
    "Rules",
    "RulesError",
    "Sitter",
    "SitterBonus",
    "cards_after_exchange",
    "parse_option",
    "validate",
]


class RulesError(ValueError):
    """A rule set that names an unknown option, a wrong value or an impossible combination."""


# Marriage values are kept as a tuple in suit order C, D, H, S for the hot path;
# JSON shows them as {"C": 60, "D": 80, "H": 100, "S": 40}.
MarriageValues = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Rules:
    """One complete rule set. Presets are named values of this type (docs/rules.md)."""

    # 3.1 table and deal structure
    seats: int = 3
    sitter: Sitter = Sitter.NONE
    deck: Deck = Deck.NINE_ACE
    hand_size: int = 7
    talons: tuple[int, ...] = (3,)
    stock: bool = False
    stock_bottom_exposed: bool = False
    # 3.2 deal and redeal
    jack_bottom_reshuffle: bool = False
    four_nines_redeal: NinesRedeal = NinesRedeal.AFTER_EXCHANGE
    nines_for_redeal: int = 4
    nines_redeal_dealer_penalty: bool = False
    talon_low_redeal_below: int | None = None
    talon_low_redeal_min_bid_only: bool = False
    talon_two_nines_redeal: bool = False
    hand_low_redeal_below: int | None = None
    hand_low_redeal_max_bid: int | None = None
    predeal_low_redeal_below: int | None = None
    predeal_four_nines_redeal: bool = False
    dealt_four_nines: DealtNines = DealtNines.OFF
    dealt_three_nines: DealtNines = DealtNines.OFF
    # 3.3 bidding
    bidding: bool = True
    min_bid: int = 100
    bid_step: int = 5
    bid_step_high: int | None = None
    bid_step_high_from: int = 200
    opening_bid_forced: bool = True
    dealer_forced_bid: bool = False
    bid_cap_before_talon: int | None = None
    marriage_required_above: int | None = 120
    show_marriage_above: int | None = None
    bid_cap_by_marriages: bool = False
    golden_round: bool = False
    golden_round_reset: bool = False
    silence_below: int | None = None
    blind_bidding: bool = False
    contract_raise: bool = True
    misere: bool = False
    misere_value: int = 120
    # 3.4 talon and exchange
    talon_show_min_bid: int | None = 0
    exchange: Exchange = Exchange.GIVE_ONE_EACH
    discards_count_for: DiscardsCountFor = DiscardsCountFor.NOBODY
    give_face_up: bool = False
    hundred_concede: bool = False
    slam_claims_talons: bool = False
    contra: bool = False
    contra_factor: int = 2
    redouble_factor: int = 4
    # 3.5 rospisat, bomba, spisat
    rospisat: bool = True
    rospisat_award: RospisatAward = RospisatAward.FIXED60
    rospisat_penalty: int = 120
    rospisat_max: int | None = None
    rospisat_max_bid: int | None = None
    spisat_max: int = 0
    # 3.6 declarations
    marriage_values: MarriageValues = (60, 80, 100, 40)
    marriage_value_mode: MarriageValueMode = MarriageValueMode.BY_SUIT
    marriage_on_first_lead: bool = False
    marriage_trump: MarriageTrump = MarriageTrump.AT_ONCE
    four_aces_bonus: int | None = None
    four_aces_effect: FourAcesEffect = FourAcesEffect.NONE
    declarations_need_trick: bool = False
    # 3.7 card play
    must_trump_when_void: bool = True
    must_beat: MustBeat = MustBeat.NONE
    # 3.8 scoring and end of match
    declarer_scores: DeclarerScores = DeclarerScores.CONTRACT
    rounding: int = 5
    round_before_make: bool = False
    last_trick_bonus: int = 0
    zero_penalty: int = 120
    target: int = 1000
    target_exceed: bool = False
    reset_at_555: bool = False
    reset_value: int = 555
    reset_negative: bool = False
    declarer_wins_ties: bool = True
    final_tie: FinalTie = FinalTie.SHARED
    # sticks (болты) and no-win streaks
    sticks_penalty: int = 0
    sticks_count: int = 3
    sticks_in_a_row: bool = False
    sticks_declarer: bool = True
    no_win_penalty: int = 0
    no_win_hands: int = 3
    no_win_in_a_row: bool = False
    # 3.9 barrel and lock
    barrel: Barrel = Barrel.CLASSIC
    barrel_at: int = 880
    barrel_hands: int = 3
    barrel_fall_penalty: int = 120
    barrel_conflict: BarrelConflict = BarrelConflict.ALLOW
    barrel_third_fall_reset: bool = False
    barrel_exact_points: bool = False
    lock_at: int | None = None
    lock_no_trick_penalty: int = 0
    # 3.10 four players
    sitter_bonus: SitterBonus = SitterBonus.NONE
    sitter_ace_value: int = 40
    sitter_bonus_cap: int | None = None
    partnerships: bool = False
    # derived, not options: filled in by __post_init__
    _active: int = field(default=0, init=False, repr=False, compare=False)
    _deck_mask: int = field(default=0, init=False, repr=False, compare=False)
    _max_bid: int = field(default=0, init=False, repr=False, compare=False)
    # Derived tables (dealing patterns) memoized per rule set; hashing a Rules for an
    # lru_cache would cost more than the lookup saves.
    memo: dict[object, object] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        active = 4 if self.seats == 4 and self.sitter is Sitter.NONE else min(self.seats, 3)
        object.__setattr__(self, "_active", active)
        object.__setattr__(self, "_deck_mask", DECKS.get(str(self.deck), 0))
        validate(self)
        top = 120 + self.max_declarations + self.last_trick_bonus
        object.__setattr__(self, "_max_bid", self.floor_bid(top))

    # ---- derived values the engine asks often -------------------------------------
    @property
    def deck_mask(self) -> int:
        return self._deck_mask

    @property
    def deck_size(self) -> int:
        return self._deck_mask.bit_count()

    @property
    def stock_size(self) -> int:
        return self.deck_size - self._active * self.hand_size - sum(self.talons)

    @property
    def max_declarations(self) -> int:
        """Most declaration points one hand can produce (all marriages, four aces)."""
        marriages = 280 if self.marriage_value_mode is MarriageValueMode.BY_ORDER else sum(
            self.marriage_values
        )
        return marriages + (self.four_aces_bonus or 0)

    @property
    def max_bid(self) -> int:
        """Highest bid or contract the engine accepts: every point a hand can produce."""
        return self._max_bid

    def dealt_nines(self, nines: int) -> DealtNines:
        """What a dealt hand with this many nines allows (dealt_four_nines, _three_nines)."""
        levels = [self.dealt_four_nines] if nines >= 4 else []
        if nines >= 3:
            levels.append(self.dealt_three_nines)
        if DealtNines.MANDATORY in levels:
            return DealtNines.MANDATORY
        return DealtNines.OPTIONAL if DealtNines.OPTIONAL in levels else DealtNines.OFF

    def floor_bid(self, n: int) -> int:
        """The highest bid amount (a multiple of the step in force there) not above n."""
        high = self.bid_step_high
        if high is not None and n >= self.bid_step_high_from:
            return n - n % high
        return n - n % self.bid_step

    def is_bid_amount(self, n: int) -> bool:
        """Whether n is a multiple of the bid step in force at n (options bid_step, _high)."""
        high = self.bid_step_high
        if high is not None and n >= self.bid_step_high_from:
            return n % high == 0
        return n % self.bid_step == 0

    def next_bid(self, n: int) -> int:
        """The lowest bid amount above the bid n."""
        nxt = n + self.bid_step
        high = self.bid_step_high
        if high is not None and nxt >= self.bid_step_high_from:
            return -(-nxt // high) * high
        return nxt

    def bid_steps(self) -> dict[str, int]:
        """The steps as refusal parameters: ``step``, and ``step_high``/``high_from`` where
        the step changes."""
        if self.bid_step_high is None:
            return {"step": self.bid_step}
        return {"step": self.bid_step, "step_high": self.bid_step_high,
                "high_from": self.bid_step_high_from}

    def with_options(self, **options: Any) -> Rules:
        """A copy with some options changed, validated like JSON input."""
        data = self.to_json()
        data.update(options)
        return Rules.from_json(data)

    # ---- JSON -----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Every option under its name, JSON-ready."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name.startswith("_") or f.name == "memo":
                continue
            value = getattr(self, f.name)
            if f.name == "marriage_values":
                value = dict(zip(SUITS, value, strict=True))
            elif f.name == "talons":
                value = list(value)
            elif isinstance(value, StrEnum):
                value = value.value
            out[f.name] = value
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)

    @classmethod
    def from_json(cls, data: dict[str, Any], base: Rules | None = None) -> Rules:
        """Options over ``base`` (default: the russian defaults); unknown names are an error."""
        if not isinstance(data, dict):
            raise RulesError("rules must be a JSON object of option names and values")
        values: dict[str, Any] = {}
        if base is not None:
            values = {f.name: getattr(base, f.name) for f in fields(base) if f.init}
        for name, raw in data.items():
            values[name] = parse_option(name, raw)
        try:
            return cls(**values)
        except TypeError as exc:  # pragma: no cover - guarded by parse_option
            raise RulesError(str(exc)) from exc

    @classmethod
    def loads(cls, text: str) -> Rules:
        return cls.from_json(json.loads(text))


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Rules) if f.init)
_HINTS = get_type_hints(Rules)



def parse_option(name: str, raw: Any) -> Any:
    """Check and convert one option value from JSON (or a string typed by a player)."""
    if name not in OPTION_NAMES:
        close = difflib.get_close_matches(name, OPTION_NAMES, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise RulesError(f"unknown option {name!r}{hint}")
    hint = _HINTS[name]
    default = Rules.__dataclass_fields__[name].default
    if name == "marriage_values":
        return _parse_marriage_values(raw)
    if name == "talons":
        if not isinstance(raw, list | tuple) or not all(_is_int(x) for x in raw):
            raise RulesError("talons must be a list of whole numbers, e.g. [3] or [2, 2] or []")
        return tuple(int(x) for x in raw)
    if isinstance(default, StrEnum):
        enum_type = type(default)
        allowed = [e.value for e in enum_type]
        if raw not in allowed:
            raise RulesError(f"{name} must be one of {', '.join(allowed)}; got {raw!r}")
        return enum_type(raw)
    if isinstance(default, bool):
        if not isinstance(raw, bool):
            raise RulesError(f"{name} must be true or false; got {raw!r}")
        return raw
    optional = "None" in str(hint)
    if raw is None:
        if optional:
            return None
        raise RulesError(f"{name} must be a whole number, not null")
    if not _is_int(raw):
        what = "a whole number"
        if name in INT_RANGES:
            what += " from {} to {}".format(*INT_RANGES[name])
        raise RulesError(f"{name} must be {what}{' or null' if optional else ''}; got {raw!r}")
    return int(raw)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _parse_marriage_values(raw: Any) -> MarriageValues:
    if isinstance(raw, list | tuple) and len(raw) == 4 and all(_is_int(x) for x in raw):
        return (int(raw[0]), int(raw[1]), int(raw[2]), int(raw[3]))
    if isinstance(raw, dict):
        keys = {str(k).upper(): v for k, v in raw.items()}
        if set(keys) == set(SUITS) and all(_is_int(v) for v in keys.values()):
            return (keys["C"], keys["D"], keys["H"], keys["S"])
    raise RulesError(
        'marriage_values must give all four suits, e.g. {"H": 100, "D": 80, "C": 60, "S": 40}'
    )


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


def _validate_ranges(r: Rules) -> None:
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


def validate(r: Rules) -> None:
    """Raise RulesError for impossible values or combinations of options."""
    _validate_ranges(r)
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
    _validate_house(r)


def _validate_house(r: Rules) -> None:
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


def _after_exchange(r: Rules, talon: int) -> tuple[int, int]:
    """Cards held by the declarer and by each other player once the exchange is done."""
    h = r.hand_size
    if r.exchange is Exchange.GIVE_ONE_EACH:
        return h + talon - (r._active - 1), h + 1
    if r.exchange is Exchange.DISCARD:
        return h, h
    if r.exchange is Exchange.DISCARD_ONE_GIVE_ONE:
        return h + talon - 2, h + 1
    return h, h


def cards_after_exchange(r: Rules) -> int:
    """Hand size at the first trick (the number of tricks in a hand)."""
    if r.stock:
        return r.hand_size + r.stock_size // 2
    return _after_exchange(r, r.talons[0])[1] if r.talons else r.hand_size

