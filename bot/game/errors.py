"""The one error the engine raises for illegal input: a message key and its parameters.

The engine stays language-free: a ``RuleError`` names its rule by ``key`` and carries the
values the sentence needs in ``params``. What a value is follows from its parameter's name
(``param_kind``), so every reader can write it his way:

- ``card`` or ``*_card``: a card (an int of ``bot.game.cards``);
- ``seat`` or ``*_seat``: a seat number (written as the player's name);
- ``seat_list``: a tuple of seats ("Ada or Bob");
- ``suit`` or ``*_suit``: a suit index;
- ``phase``: a ``Phase`` value ("bidding"), the state of the hand;
- anything else: a number or a plain string, written as it is.

``ENGLISH`` keeps the engine's own sentences (third person, scenario notation such as
``AS``): scenario replays, logs and the tools reading them show these, unchanged. The
players read the catalogs of ``bot.i18n`` (``rule.<key>``) instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from bot.game.cards import SUIT_NAMES, card_str

if TYPE_CHECKING:
    from bot.game.actions import Action

Param = int | str | tuple[int, ...]
Refusal = tuple[str, dict[str, int]]
"""A refusal not raised yet: the key of a RuleError and its parameters."""

PHASE_TEXT = {
    "dealing": "the cards are not dealt yet",
    "bidding": "the auction is on",
    "talon": "the declarer is choosing a talon",
    "exchange": "the declarer is exchanging cards",
    "contract": "the declarer is about to set the contract or lead",
    "play": "the cards are being played",
    "match_over": "the match is over",
}

_MARRIAGE = "a marriage (king and queen of one suit) in hand"

# The engine's sentences, key -> template over the parameters (see the module docstring).
ENGLISH: dict[str, str] = {
    # whose turn
    "turn_bid": "it is {seat}'s turn to bid",
    "turn_play": "it is {seat}'s turn to play",
    "turn_double": "it is {seat}'s turn to double or pass",
    "turn_talon": "it is {seat}'s turn to choose a talon",
    "turn_exchange": "it is {seat}'s turn to exchange cards",
    "turn_contract": "it is {seat}'s turn to set the contract or lead",
    # the state of the hand
    "match_over": "the match is over",
    "not_dealt": "the cards are not dealt yet",
    "no_seat": "there is no seat {number}",
    "sits_out": "he sits out this hand",
    "malformed": "that is not a well-formed {verb} move",
    "not_a_card": "{number} is not a card of this deck",
    "auction_over_now": "the auction is over ({phase})",
    "not_now": "not now: {phase}",
    "contract_fixed": "the contract is already fixed at {amount}",
    "contract_after_exchange": "the contract is set after the exchange",
    "play_after_auction": "cards are played after the auction and the exchange; now {phase}",
    "double_when_now": ("a contract can be doubled only after it is fixed and before the first "
                        "lead; now {phase}"),
    "deal_between_hands": "cards are dealt only between hands; now {phase}",
    "jack_penalty_when": "a jack penalty happens only while dealing, with jack_bottom_reshuffle",
    "contra_fix_first": ("with contra, the declarer fixes his contract and the defenders may "
                         "double it before the first lead"),
    "contra_pending": "the defenders have not yet said whether they double",
    # the play
    "not_in_hand": "that card is not in his hand",
    "blind_only_bid": "only a bid can be blind",
    "misere_no_declaring": "a mizère is played without trump: nothing can be declared",
    "declare_on_lead": "declarations are made only when leading to a trick",
    "declare_first_lead": ("nothing can be declared on the first lead of the hand; a marriage "
                           "needs a lead after winning a trick"),
    "marriage_king_queen": "a marriage is declared by leading its king or queen",
    "marriage_pair": "a marriage needs the {pair_card} in hand as well",
    "aces_off": "four aces score nothing in this rule set",
    "aces_all": "four aces are declared by leading an ace while holding all four",
    "follow_and_beat": "he must follow suit ({led_suit}) and beat the trick when he can",
    "follow": "he must follow suit ({led_suit})",
    "must_trump": "without {led_suit} he must play a trump ({trump_suit})",
    "must_head": "he must play a card that heads the trick when he can",
    # the auction
    "silenced": "a player below {limit} is silenced and may only pass",
    "silenced_forced": "a silenced forehand may only make the forced opening bid of {lowest}",
    "blind_off": "blind bids are not allowed here",
    "blind_looked": "he has already looked at his cards",
    "misere_off": "this rule set has no mizère",
    "misere_value": "a mizère is bid at {value}",
    "misere_low": "a mizère ranks as {amount}, and the lowest bid now is {lowest}",
    "bid_flag": "a bid can only be marked blind or mizère",
    "bid_step": "bids go up in steps of {step}, so the lowest bid now is {lowest}",
    "bid_step_split": ("bids go up in steps of {step} below {high_from} and {step_high} from "
                       "{high_from}, so the lowest bid now is {lowest}"),
    "bid_cap_talon": "no bid may go above {cap} before the talon is seen",
    "barrel_bid": "a player on the barrel may not bid more than 120",
    "bid_needs_marriage": "a bid above {limit} needs " + _MARRIAGE,
    "bid_cap_marriages": "no one may bid more than 120 plus the marriages he holds ({cap})",
    "bid_max": "no hand can produce more than {max} points",
    "pass_after_auction": "a pass now only answers a contra: the auction is over",
    "forced_opening": "forehand must open the auction with at least {lowest}",
    # redeals
    "redeal_auction_off": "no redeal can be claimed during the auction in this rule set",
    "redeal_before_first_bid": "a redeal must be claimed before his first bid or pass",
    "redeal_nines_before_bids": "a redeal for nines must be claimed before anyone bids",
    "redeal_dealt_nines": "a redeal needs {nines_word} nines in the dealt hand",
    "redeal_marriage": "a hand with a marriage cannot claim a redeal",
    "redeal_not_qualified": "his hand does not qualify for a redeal",
    "redeal_exchange": ("only the declarer may claim a redeal now, for a poor talon, before his "
                        "first gift"),
    "redeal_after_off": "this rule set has no redeal claims after the exchange",
    "redeal_needs_nines": "a redeal needs {nines} nines in hand",
    "redeal_needs_nines_or_points": ("a redeal needs {nines} nines in hand or fewer than "
                                     "{below} card points"),
    "redeal_too_late": "a redeal can only be claimed before the first card is played",
    # contra
    "contra_off": "this rule set has no contra",
    "double_when": "a contract can be doubled only after it is fixed and before the first lead",
    "double_opponent": "only an opponent of the declarer may double the contract",
    "double_already": "the contract is already doubled",
    "redouble_declarer": "only the declarer may redouble",
    "redouble_nothing": "there is nothing to redouble: no defender has doubled",
    # the talon, the exchange, the contract
    "talon_declarer": "only the declarer chooses a talon",
    "talon_range": "the talons are numbered 0 to {last}",
    "exchange_declarer": "only the declarer exchanges cards",
    "give_none": "the declarer gives no (more) cards in this exchange",
    "give_to": "the card must go to {seat_list}",
    "discard_none": "no (more) cards are laid away in this exchange",
    "contract_declarer": "only the declarer sets the contract",
    "contract_range": ("the contract must be at least the winning bid ({lowest}) and go up in "
                       "steps of {step}"),
    "contract_range_split": ("the contract must be at least the winning bid ({lowest}) and go "
                             "up in steps of {step} below {high_from} and {step_high} from "
                             "{high_from}"),
    "misere_raise": "a mizère cannot be raised; it is {amount}",
    "raise_off": "the contract cannot be raised in this rule set; it is {amount}",
    "contract_needs_marriage": "a contract above {limit} needs " + _MARRIAGE,
    "contract_max": "the highest contract he may set is {max}",
    # giving up a hand
    "giveup_misere": "a mizère is played: it cannot be given up",
    "giveup_when": ("only the declarer may give up, after taking the talon and before the "
                    "contract"),
    "rospisat_off": "this rule set has no rospisat",
    "rospisat_barrel": "a player on the barrel may not declare rospisat",
    "rospisat_max": "each player may declare rospisat at most {max} times a match",
    "rospisat_max_bid": "rospisat is allowed only when the bid is at most {max}",
    "spisat_off": "this rule set has no spisat",
    "spisat_barrel": "a player on the barrel may not declare spisat",
    "spisat_max": "each player may declare spisat at most {max} times a match",
    "concede_when": "only forehand whose forced opening was not overbid may concede",
    # a deal or a match start given in full (scenarios, restored logs)
    "dealer_range": "the dealer must be one of the {count} seats",
    "partner_counters": ("partners share one score: the counters of {a_seat} and {c_seat}, "
                         "and of {b_seat} and {d_seat}, must be equal"),
    "deal_seats": "a deal must list {count} seats",
    "sitter_cards": "{seat} sits out this hand and gets no cards",
    "hand_size": "each active player gets {size} cards; {seat} got {got}",
    "talon_sizes": "the talons must hold {sizes} cards",
    "stock_size": "the stock must hold {size} cards",
    "dealt_twice": "a card is dealt twice",
    # the development tools
    "ai_illegal": "{level} chose an illegal action: {move}",
    "whole_deck_missing": "the deal must use the whole {deck} deck exactly (missing {missing})",
    "whole_deck_extra": ("the deal must use the whole {deck} deck exactly (not in this deck: "
                         "{extra})"),
    "whole_deck_both": ("the deal must use the whole {deck} deck exactly (missing {missing}; "
                        "not in this deck: {extra})"),
}

_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def param_kind(name: str) -> str:
    """What the parameter ``name`` holds: card, seat, seat_list, suit, phase or plain."""
    for kind in ("card", "seat", "suit"):
        if name == kind or name.endswith("_" + kind):
            return kind
    if name in ("seat_list", "phase"):
        return name
    return "plain"


class RuleError(Exception):
    """An illegal action: ``key`` names the rule that forbids it, ``params`` its values.

    ``message_for(names)`` gives the engine's English sentence, e.g.
    "Cid cannot bid 105: bids go up in steps of 10, so the lowest bid now is 110".
    """

    def __init__(self, key: str, action: Action | None = None, /, **params: Param) -> None:
        super().__init__(key)
        self.key = key
        self.action = action
        self.params: dict[str, Param] = params

    def reason_for(self, names: Sequence[str] | None = None) -> str:
        """The reason alone, with the seats it mentions named."""
        return english(self.key, self.params, names)

    @property
    def reason(self) -> str:
        return self.reason_for()

    def message_for(self, names: Sequence[str] | None = None) -> str:
        reason = self.reason_for(names)
        if self.action is None or self.action.seat < 0:
            return reason[:1].upper() + reason[1:]
        who = _name(names, self.action.seat)
        who = who[:1].upper() + who[1:]
        return f"{who} cannot {self.action.describe(names)}: {reason}"

    def __str__(self) -> str:
        return self.message_for()

    def __repr__(self) -> str:
        return f"RuleError({self.key!r}, {self.action!r}, **{self.params!r})"


def english(key: str, params: Mapping[str, Param], names: Sequence[str] | None = None) -> str:
    """The engine's sentence for ``key`` (the key itself where there is none)."""
    template = ENGLISH.get(key)
    if template is None:
        return key
    values: dict[str, object] = {}
    for name, value in params.items():
        values[name] = _english_value(name, value, names)
        if isinstance(value, int) and 0 <= value < len(_WORDS):
            values[name + "_word"] = _WORDS[value]
    return template.format(**values)


def _english_value(name: str, value: Param, names: Sequence[str] | None) -> object:
    kind = param_kind(name)
    if kind == "card" and isinstance(value, int):
        return card_str(value)
    if kind == "seat" and isinstance(value, int):
        return _name(names, value)
    if kind == "seat_list" and isinstance(value, tuple):
        return " or ".join(_name(names, p) for p in value)
    if kind == "suit" and isinstance(value, int):
        return SUIT_NAMES[value]
    if kind == "phase":
        return PHASE_TEXT.get(str(value), str(value))
    return value


def _name(names: Sequence[str] | None, seat: int) -> str:
    return names[seat] if names and 0 <= seat < len(names) else f"seat {seat}"
