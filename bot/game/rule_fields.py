"""The fields of a rule set: every option under its exact name and default (docs/rules.md),
and the values the engine derives from them."""

from __future__ import annotations

from dataclasses import dataclass, field

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

# Marriage values are kept as a tuple in suit order C, D, H, S for the hot path;
# JSON shows them as {"C": 60, "D": 80, "H": 100, "S": 40}.
MarriageValues = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class RuleFields:
    """Every option of a rule set under its exact name and default, and the values derived
    from them; ``Rules`` is the validated value built on it."""

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
    # derived, not options: filled in by Rules.__post_init__
    _active: int = field(default=0, init=False, repr=False, compare=False)
    _deck_mask: int = field(default=0, init=False, repr=False, compare=False)
    _max_bid: int = field(default=0, init=False, repr=False, compare=False)
    # Derived tables (dealing patterns) memoized per rule set; hashing a Rules for an
    # lru_cache would cost more than the lookup saves.
    memo: dict[object, object] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False)

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

    def floor_bid(self, amount: int) -> int:
        """The highest bid amount (a multiple of the step in force there) not above ``amount``."""
        high = self.bid_step_high
        if high is not None and amount >= self.bid_step_high_from:
            return amount - amount % high
        return amount - amount % self.bid_step

    def is_bid_amount(self, amount: int) -> bool:
        """Whether ``amount`` is a multiple of the bid step in force there (bid_step, _high)."""
        high = self.bid_step_high
        if high is not None and amount >= self.bid_step_high_from:
            return amount % high == 0
        return amount % self.bid_step == 0

    def next_bid(self, amount: int) -> int:
        """The lowest bid amount above the bid ``amount``."""
        nxt = amount + self.bid_step
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
