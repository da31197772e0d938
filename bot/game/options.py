"""The rule options described: one enum per closed value set, a sentence per option.

``docs/rules.md`` is generated from these descriptions and the ``Rules`` defaults
(``python -m bot presets --markdown``), so a new option gets its sentence here.
"""

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
    DECLARER_PAYS_HALF = "declarer_pays_half"
    DECLARER_PAYS_SPLIT = "declarer_pays_split"


class DealtNines(StrEnum):
    OFF = "off"
    OPTIONAL = "optional"
    MANDATORY = "mandatory"


class MarriageTrump(StrEnum):
    AT_ONCE = "at_once"
    NEXT_TRICK = "next_trick"


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


# The options by topic, in the order docs/rules.md lists them; a test checks that every
# option of ``Rules`` appears exactly once.
OPTION_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Table and deal", (
        "seats", "sitter", "deck", "hand_size", "talons", "stock", "stock_bottom_exposed")),
    ("Deal and redeal", (
        "jack_bottom_reshuffle", "four_nines_redeal", "nines_for_redeal",
        "nines_redeal_dealer_penalty", "talon_low_redeal_below", "talon_low_redeal_min_bid_only",
        "talon_two_nines_redeal", "hand_low_redeal_below", "hand_low_redeal_max_bid",
        "predeal_low_redeal_below", "predeal_four_nines_redeal", "dealt_four_nines",
        "dealt_three_nines")),
    ("Bidding", (
        "bidding", "min_bid", "bid_step", "bid_step_high", "bid_step_high_from",
        "opening_bid_forced", "dealer_forced_bid", "bid_cap_before_talon",
        "marriage_required_above",
        "show_marriage_above", "bid_cap_by_marriages", "golden_round", "golden_round_reset",
        "silence_below", "blind_bidding", "contract_raise", "misere", "misere_value")),
    ("Talon and exchange", (
        "talon_show_min_bid", "exchange", "discards_count_for", "give_face_up",
        "hundred_concede", "slam_claims_talons", "contra", "contra_factor", "redouble_factor")),
    ("Giving up a hand: rospisat (bomba) and spisat", (
        "rospisat", "rospisat_award", "rospisat_penalty", "rospisat_max", "rospisat_max_bid",
        "spisat_max")),
    ("Declarations", (
        "marriage_values", "marriage_value_mode", "marriage_on_first_lead", "marriage_trump",
        "four_aces_bonus",
        "four_aces_effect", "declarations_need_trick")),
    ("Card play", ("must_trump_when_void", "must_beat")),
    ("Scoring and the end of a match", (
        "declarer_scores", "rounding", "round_before_make", "last_trick_bonus", "zero_penalty",
        "target", "target_exceed", "reset_at_555", "reset_value", "reset_negative",
        "declarer_wins_ties", "final_tie")),
    ("Sticks and no-win streaks", (
        "sticks_penalty", "sticks_count", "sticks_in_a_row", "sticks_declarer",
        "no_win_penalty", "no_win_hands", "no_win_in_a_row")),
    ("Barrel and lock", (
        "barrel", "barrel_at", "barrel_hands", "barrel_fall_penalty", "barrel_conflict",
        "barrel_third_fall_reset",
        "barrel_exact_points", "lock_at", "lock_no_trick_penalty")),
    ("Four at the table", (
        "sitter_bonus", "sitter_ace_value", "sitter_bonus_cap", "partnerships")),
)

OPTION_DOCS: dict[str, str] = {
    # table and deal
    "seats": "How many players sit at the table; with four, one of them sits out each hand "
             "(except with partnerships and sitter none).",
    "sitter": "Who sits out a hand when four are seated: nobody (fewer seats), the player to "
              "the dealer's right, the one opposite him, or the dealer himself.",
    "deck": "The cards in play: 24 (nine to ace), 20 (ten to ace) or 32 (seven to ace).",
    "hand_size": "Cards dealt to each active player.",
    "talons": "Sizes of the face-down talons (prikup, musik); empty for no talon, two numbers "
              "for the two-talon forms.",
    "stock": "The undealt cards form a stock both players draw from after each trick; such "
             "games have no talon and no auction.",
    "stock_bottom_exposed": "The last card of the stock lies face up for everyone to see.",
    # deal and redeal
    "jack_bottom_reshuffle": "A jack at the bottom of the shuffled deck means a reshuffle, and "
                             "the third jack in a row costs the dealer 120 and passes the deal.",
    "four_nines_redeal": "When a player holding the nines may have the hand annulled: with his "
                         "cards after the exchange, only with the cards first dealt to him, or "
                         "never.",
    "nines_for_redeal": "How many nines that claim needs (four, or three in some groups).",
    "nines_redeal_dealer_penalty": "A dealer whose hand is annulled for nines three times in a "
                                   "row loses 120 and passes the deal.",
    "talon_low_redeal_below": "The declarer may annul the hand when the talon holds fewer card "
                              "points than this (null: off).",
    "talon_low_redeal_min_bid_only": "That low-talon claim is only open to a declarer who "
                                     "won with the lowest bid.",
    "talon_two_nines_redeal": "The declarer may annul the hand when the talon holds two "
                              "nines or more.",
    "hand_low_redeal_below": "After the exchange, a player whose cards hold fewer card points "
                             "than this may annul the hand (null: off).",
    "hand_low_redeal_max_bid": "That low-hand claim is only open to a player who bid no more "
                               "than this in the auction (null: no limit).",
    "predeal_low_redeal_below": "Before his first bid, a player without a marriage whose dealt "
                                "cards hold fewer card points than this may annul the hand.",
    "predeal_four_nines_redeal": "Before his first bid, a player without a marriage who was "
                                 "dealt four nines may annul the hand.",
    "dealt_four_nines": "Four nines in a dealt hand, before any bid: nothing, a redeal its "
                        "holder may claim (optional), or an automatic redeal (mandatory).",
    "dealt_three_nines": "The same for three nines or more in a dealt hand; with both on, the "
                         "stronger of the two applies to four nines.",
    # bidding
    "bidding": "Whether there is an auction at all (only the stock games have none).",
    "min_bid": "The lowest bid.",
    "bid_step": "Bids and raised contracts go up in multiples of this.",
    "bid_step_high": "From bid_step_high_from on, bids and raised contracts go up in multiples "
                     "of this instead (null: one step for every bid).",
    "bid_step_high_from": "The bid from which bid_step_high applies (200: 5s below 200, 10s "
                          "from 200).",
    "opening_bid_forced": "The first player to speak must bid; otherwise he may pass, and a "
                          "hand that everyone passes is thrown in.",
    "dealer_forced_bid": "When every player passes, the dealer must play the lowest bid "
                         "(бовт) instead of the hand being thrown in; forehand may then pass.",
    "bid_cap_before_talon": "No bid in the auction may go above this, whatever the hand holds; "
                            "the raise after the talon is not capped by it (null: off).",
    "marriage_required_above": "Bidding (or raising the contract) above this needs a marriage "
                               "in hand, or four aces where they count (null: no limit).",
    "show_marriage_above": "A bid above this needs a marriage, and the bidder's first such bid "
                           "shows his lowest marriage to the table (null: off).",
    "bid_cap_by_marriages": "Nobody may bid or contract for more than 120 plus the marriages "
                            "in his hand.",
    "golden_round": "The match opens with a golden round: each seat deals once, bids start at "
                    "120 and every score is doubled; it repeats until a declarer makes his "
                    "contract.",
    "golden_round_reset": "Before a golden round repeats, every total goes back to 0.",
    "silence_below": "A player whose total is below this may only pass, except for the forced "
                     "opening bid (null: off).",
    "blind_bidding": "A player who has not looked at his cards may bid blind; a hand won with "
                     "a blind bid scores double and its gifts are shown.",
    "contract_raise": "The declarer may raise his contract above the winning bid after the "
                      "exchange.",
    "misere": "A player may bid a mizère: a contract, ranked as a bid of misere_value, to take "
              "no trick, played without trump or declarations.",
    "misere_value": "What a mizère is worth, won or lost, and where it ranks in the auction.",
    # talon and exchange
    "talon_show_min_bid": "The talon is shown to everyone when the winning bid is at least "
                          "this (0: always; null: never).",
    "exchange": "What the declarer does with the talon's cards: give one to each opponent, lay "
                "the same number away, lay one away and give one, or nothing.",
    "discards_count_for": "Whether the card points laid away count for the declarer or for "
                          "nobody.",
    "give_face_up": "Cards given in the exchange are shown to both opponents.",
    "hundred_concede": "A forced opening of 100 that nobody overbids may be conceded after "
                       "seeing the talon: the declarer loses 100 and each opponent gets 50.",
    "slam_claims_talons": "A declarer who contracts for exactly 120 and takes every trick "
                          "without a marriage is credited with all 120 card points.",
    "contra": "After the declarer fixes his contract and before the first lead, a defender "
              "may double it (contra) and the declarer may then redouble.",
    "contra_factor": "How many times a doubled contract counts, won or lost.",
    "redouble_factor": "How many times a redoubled contract counts, won or lost.",
    # rospisat, spisat
    "rospisat": "The declarer may give up the hand after seeing the talon (rospisat, bomba); "
                "each opponent is paid instead.",
    "rospisat_award": "What a rospisat pays: 60 to each opponent, or half the winning bid "
                      "rounded up to a multiple of 5 or of 10; or the declarer loses the bid "
                      "and each opponent gets half of it, or the bid shared among them.",
    "rospisat_penalty": "What the declarer loses on his third, sixth, ... rospisat (0: "
                        "nothing).",
    "rospisat_max": "The most rospisats one player may call in a match (null: no limit).",
    "rospisat_max_bid": "Rospisat is only allowed when the winning bid is at most this "
                        "(null: no limit).",
    "spisat_max": "How many times a player may call spisat, a give-up that costs the declarer "
                  "his bid and pays the opponents nothing.",
    # declarations
    "marriage_values": "Points for the king and queen of each suit declared together.",
    "marriage_value_mode": "Marriages score by their suit, or by the order they are declared "
                           "in the hand (40, 60, 80, 100).",
    "marriage_on_first_lead": "A marriage may be declared on the very first lead of the hand, "
                              "not only after winning a trick.",
    "marriage_trump": "A declared marriage makes its suit trump at once (for the trick it "
                      "leads) or from the next trick on.",
    "four_aces_bonus": "Points for declaring all four aces on a lead (null: off).",
    "four_aces_effect": "Whether declaring four aces removes the trump for the rest of the "
                        "hand.",
    "declarations_need_trick": "A player who wins no trick scores nothing for his "
                               "declarations.",
    # card play
    "must_trump_when_void": "A player who cannot follow suit must play a trump if he has one.",
    "must_beat": "When a player must play a card that takes the lead of the trick if he has "
                 "one: never, when following suit, or always.",
    # scoring and end
    "declarer_scores": "A declarer who makes his contract scores the contract, or the points "
                       "he took (rounded).",
    "rounding": "The unit points are rounded to (halves go up); 1 scores exact points.",
    "round_before_make": "The declarer's points are rounded before they are compared with the "
                         "contract, so 118 makes 120.",
    "last_trick_bonus": "Points added to the taker of the last trick of a played hand (0: "
                        "none).",
    "zero_penalty": "What every third hand a defender ends with no points at all (a dash) "
                    "costs him (0: dashes are not kept).",
    "target": "The total that wins the match.",
    "target_exceed": "The target must be passed, not just reached.",
    "reset_at_555": "A total of exactly 555 (reset_value) after a hand goes back to 0.",
    "reset_value": "The total that reset_at_555 sends back to 0 (555; some tables use 550).",
    "reset_negative": "With reset_at_555, a total of exactly minus that number goes back to 0 "
                      "as well.",
    "declarer_wins_ties": "When the declarer and others reach the target in one hand, the "
                          "declarer wins.",
    "final_tie": "When players other than the declarer tie at the top, they share the win, or "
                 "another hand is played.",
    # sticks and no-win streaks
    "sticks_penalty": "What every sticks_count-th stick costs; a player gets a stick for a "
                      "played hand in which he took no trick (0: sticks are not kept).",
    "sticks_count": "How many sticks cost sticks_penalty (2 to 5).",
    "sticks_in_a_row": "Only sticks in consecutive played hands count: a trick taken clears "
                       "them.",
    "sticks_declarer": "The declarer gets a stick too when he takes no trick.",
    "no_win_penalty": "What a player loses after no_win_hands scored hands without a win (a "
                      "made contract, or positive points as a defender); 0: not kept.",
    "no_win_hands": "How many hands without a win cost no_win_penalty.",
    "no_win_in_a_row": "Only hands without a win in a row count: a win clears the count.",
    # barrel and lock
    "barrel": "The waiting zone below the target: the classic barrel (three hands to win from "
              "it), the Lviv barrel (stay as long as you like), or none.",
    "barrel_at": "The total at which a player is put on the barrel.",
    "barrel_hands": "Hands a player may spend on the classic barrel before he falls off.",
    "barrel_fall_penalty": "How far a player falls below the classic barrel when he falls off "
                           "(120, 240; 0: he stays on it and his barrel hands start again).",
    "barrel_conflict": "What happens when a second player reaches the barrel: both stay, "
                       "nobody gets on, or the newcomer knocks the other off.",
    "barrel_third_fall_reset": "A player's third fall from the barrel sends his total to 0.",
    "barrel_exact_points": "On a Lviv barrel, defenders score their exact points, unrounded.",
    "lock_at": "Instead of a barrel, a player at or above this total scores only as the "
               "declarer (null: off).",
    "lock_no_trick_penalty": "What a locked defender who wins no trick loses (0: nothing).",
    # four at the table
    "sitter_bonus": "What the player sitting out earns from the talon: nothing, its aces and "
                    "marriage, or its card points and marriage.",
    "sitter_ace_value": "Points the sitter earns per ace in the talon.",
    "sitter_bonus_cap": "The most the sitter can earn in one hand (null: no limit).",
    "partnerships": "Four players in two fixed partnerships across the table (seats 1 and 3, "
                    "2 and 4) with one score each; the dealer sits out, or with sitter none "
                    "all four play.",
}
