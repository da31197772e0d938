"""English rule messages: the engine's refusals (``rule.*``), the moves (``act.*``: what
follows "you cannot"; ``event.*``: the confirmation to the mover) and community words.

``rule.<key>`` speaks to the player who tried the move; ``rule.<key>.other`` (where the
reason is about him) speaks of him to anyone else. Parameters: see ``bot.game.errors``;
every reason may also use ``{talon}``, the preset's word for the talon.
"""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    # ---- frames ----------------------------------------------------------------------------
    "rule.you_cannot": "You cannot {action}: {reason}.",
    "rule.they_cannot": "{name} cannot {action}: {reason}.",
    "rule.plain": "{reason}.",
    "word.or": "or",
    # ---- the talon, by preset -------------------------------------------------------------
    "word.talon.talon": "talon",
    "word.talon.prikup": "prikup",
    "word.talon.musik": "musik",
    "word.talon.kitty": "kitty",
    "word.talon_no": "{talon} {no}",
    "word.talon_title": "{talon}",
    "word.talon_cards": "{talon}: {cards}",
    "word.action": "{action}",
    "word.phase.talon": "choosing a {talon}",
    # ---- moves, as they follow "you cannot" -----------------------------------------------
    "act.bid": "bid {amount}",
    "act.bid_blind": "bid {amount} blind",
    "act.bid_misere": "bid a mizère ({amount})",
    "act.pass": "pass",
    "act.redeal": "claim a redeal",
    "act.talon": "take {talon} {no}",
    "act.give": "give {card} to {to}",
    "act.discard": "discard {card}",
    "act.contract": "set the contract at {amount}",
    "act.rospisat": "declare rospisat",
    "act.spisat": "declare spisat",
    "act.concede": "concede the hand",
    "act.contra": "double the contract (contra)",
    "act.redouble": "redouble the contract",
    "act.play": "play {card}",
    "act.play_marriage": "play {card} with a marriage",
    "act.play_aces": "play {card} declaring four aces",
    # ---- moves, confirmed to the player who made them -------------------------------------
    "event.bid": "You bid {amount}.",
    "event.bid_blind": "You bid {amount} blind.",
    "event.bid_misere": "You bid a mizère ({amount}).",
    "event.pass": "You pass.",
    "event.redeal": "You claim a redeal.",
    "event.talon": "You take {talon} {no}.",
    "event.give": "You give {card} to {to}.",
    "event.discard": "You discard {card}.",
    "event.contract": "You set the contract at {amount}.",
    "event.rospisat": "You declare rospisat.",
    "event.spisat": "You declare spisat.",
    "event.concede": "You concede the hand.",
    "event.contra": "You double the contract (contra).",
    "event.redouble": "You redouble the contract.",
    "event.play": "You play {card}.",
    "event.play_marriage": "You play {card} and declare the marriage.",
    "event.play_aces": "You play {card} and declare four aces.",
    # ---- what the hand is doing ("now ...") ------------------------------------------------
    "rule.phase.dealing": "the cards are not dealt yet",
    "rule.phase.bidding": "the auction is on",
    "rule.phase.talon": "the declarer is choosing a {talon}",
    "rule.phase.exchange": "the declarer is exchanging cards",
    "rule.phase.contract": "the declarer is about to set the contract or lead",
    "rule.phase.play": "the cards are being played",
    "rule.phase.match_over": "the match is over",
    # ---- whose turn ------------------------------------------------------------------------
    "rule.turn_bid": "it is {seat}'s turn to bid",
    "rule.turn_play": "it is {seat}'s turn to play",
    "rule.turn_double": "it is {seat}'s turn to double or pass",
    "rule.turn_talon": "it is {seat}'s turn to choose a {talon}",
    "rule.turn_exchange": "it is {seat}'s turn to exchange cards",
    "rule.turn_contract": "it is {seat}'s turn to set the contract or lead",
    # ---- the state of the hand -------------------------------------------------------------
    "rule.match_over": "the match is over",
    "rule.not_dealt": "the cards are not dealt yet",
    "rule.no_seat": "there is no seat {number}",
    "rule.sits_out": "you sit out this hand",
    "rule.sits_out.other": "they sit out this hand",
    "rule.malformed": "that is not a well-formed {verb} move",
    "rule.not_a_card": "{number} is not a card of this deck",
    "rule.auction_over_now": "the auction is over ({phase})",
    "rule.not_now": "not now: {phase}",
    "rule.contract_fixed": "the contract is already fixed at {amount}",
    "rule.contract_after_exchange": "the contract is set after the exchange",
    "rule.play_after_auction": "cards are played after the auction and the exchange; now {phase}",
    "rule.double_when_now": ("a contract can be doubled only after it is fixed and before the "
                             "first lead; now {phase}"),
    "rule.deal_between_hands": "cards are dealt only between hands; now {phase}",
    "rule.jack_penalty_when": "a jack penalty happens only while dealing",
    "rule.contra_fix_first": ("with contra, the declarer first fixes the contract, and the "
                              "defenders may double it before the first lead"),
    "rule.contra_pending": "the defenders have not yet said whether they double",
    # ---- the play --------------------------------------------------------------------------
    "rule.not_in_hand": "it is not in your hand",
    "rule.not_in_hand.other": "that card is not in their hand",
    "rule.blind_only_bid": "only a bid can be blind",
    "rule.misere_no_declaring": "a mizère is played without trump: nothing can be declared",
    "rule.declare_on_lead": "declarations are made only when leading to a trick",
    "rule.declare_first_lead": ("nothing can be declared on the first lead of the hand; a "
                                "marriage needs a lead after winning a trick"),
    "rule.marriage_king_queen": "a marriage is declared by leading its king or queen",
    "rule.marriage_pair": "a marriage needs {pair_card} in hand as well",
    "rule.aces_off": "four aces score nothing in this rule set",
    "rule.aces_all": "four aces are declared by leading an ace while holding all four",
    "rule.follow_and_beat": "you must follow suit ({led_suit}) and beat the trick when you can",
    "rule.follow_and_beat.other": ("they must follow suit ({led_suit}) and beat the trick when "
                                   "they can"),
    "rule.follow": "you must follow suit ({led_suit})",
    "rule.follow.other": "they must follow suit ({led_suit})",
    "rule.must_trump": "without {led_suit} you must play a trump ({trump_suit})",
    "rule.must_trump.other": "without {led_suit} they must play a trump ({trump_suit})",
    "rule.must_head": "you must play a card that heads the trick when you can",
    "rule.must_head.other": "they must play a card that heads the trick when they can",
    # ---- the auction -----------------------------------------------------------------------
    "rule.silenced": "a player below {limit} is silenced and may only pass",
    "rule.silenced_forced": "a silenced forehand may only make the forced opening bid of {lowest}",
    "rule.blind_off": "blind bids are not allowed here",
    "rule.blind_looked": "you have already looked at your cards",
    "rule.blind_looked.other": "they have already looked at their cards",
    "rule.misere_off": "this rule set has no mizère",
    "rule.misere_value": "a mizère is bid at {value}",
    "rule.misere_low": "a mizère ranks as {amount}, and the lowest bid now is {lowest}",
    "rule.bid_flag": "a bid can only be marked blind or mizère",
    "rule.bid_step": "bids go up in steps of {step}, so the lowest bid now is {lowest}",
    "rule.bid_step_split": ("bids go up in steps of {step} below {high_from} and {step_high} "
                            "from {high_from}, so the lowest bid now is {lowest}"),
    "rule.bid_cap_talon": "no bid may go above {cap} before the {talon} is seen",
    "rule.barrel_bid": "a player on the barrel may not bid more than 120",
    "rule.bid_needs_marriage": ("a bid above {limit} needs a marriage (king and queen of one "
                                "suit) in hand"),
    "rule.bid_cap_marriages": "you may bid at most 120 plus the marriages you hold ({cap})",
    "rule.bid_cap_marriages.other": ("they may bid at most 120 plus the marriages they hold "
                                     "({cap})"),
    "rule.bid_max": "no hand can produce more than {max} points",
    "rule.pass_after_auction": "a pass now only answers a contra: the auction is over",
    "rule.forced_opening": "forehand must open the auction with at least {lowest}",
    # ---- redeals ---------------------------------------------------------------------------
    "rule.redeal_auction_off": "no redeal can be claimed during the auction in this rule set",
    "rule.redeal_before_first_bid": "a redeal must be claimed before your first bid or pass",
    "rule.redeal_before_first_bid.other": "a redeal must be claimed before the first bid or pass",
    "rule.redeal_nines_before_bids": "a redeal for nines must be claimed before anyone bids",
    "rule.redeal_dealt_nines": "a redeal needs {nines} nines in the dealt hand",
    "rule.redeal_marriage": "a hand with a marriage cannot claim a redeal",
    "rule.redeal_not_qualified": "your hand does not qualify for a redeal",
    "rule.redeal_not_qualified.other": "their hand does not qualify for a redeal",
    "rule.redeal_exchange": ("only the declarer may claim a redeal now, for a poor {talon}, "
                             "before giving a card"),
    "rule.redeal_after_off": "this rule set has no redeal claims after the exchange",
    "rule.redeal_needs_nines": "a redeal needs {nines} nines in hand",
    "rule.redeal_needs_nines_or_points": ("a redeal needs {nines} nines in hand or fewer than "
                                          "{below} card points"),
    "rule.redeal_too_late": "a redeal can only be claimed before the first card is played",
    # ---- contra ----------------------------------------------------------------------------
    "rule.contra_off": "this rule set has no contra",
    "rule.double_when": ("a contract can be doubled only after it is fixed and before the first "
                         "lead"),
    "rule.double_opponent": "only an opponent of the declarer may double the contract",
    "rule.double_already": "the contract is already doubled",
    "rule.redouble_declarer": "only the declarer may redouble",
    "rule.redouble_nothing": "there is nothing to redouble: no defender has doubled",
    # ---- the talon, the exchange, the contract --------------------------------------------
    "rule.talon_declarer": "only the declarer chooses a {talon}",
    "rule.talon_range": "there is no such {talon}",
    "rule.exchange_declarer": "only the declarer exchanges cards",
    "rule.give_none": "the declarer gives no (more) cards in this exchange",
    "rule.give_to": "the card must go to {seat_list}",
    "rule.discard_none": "no (more) cards are laid away in this exchange",
    "rule.contract_declarer": "only the declarer sets the contract",
    "rule.contract_range": ("the contract must be at least the winning bid ({lowest}) and go "
                            "up in steps of {step}"),
    "rule.contract_range_split": ("the contract must be at least the winning bid ({lowest}) and "
                                  "go up in steps of {step} below {high_from} and {step_high} "
                                  "from {high_from}"),
    "rule.misere_raise": "a mizère cannot be raised; it is {amount}",
    "rule.raise_off": "the contract cannot be raised in this rule set; it is {amount}",
    "rule.contract_needs_marriage": ("a contract above {limit} needs a marriage (king and queen "
                                     "of one suit) in hand"),
    "rule.contract_max": "the highest contract you may set is {max}",
    "rule.contract_max.other": "the highest contract they may set is {max}",
    # ---- giving up a hand ------------------------------------------------------------------
    "rule.giveup_misere": "a mizère is played: it cannot be given up",
    "rule.giveup_when": ("only the declarer may give up, after taking the {talon} and before "
                         "the contract"),
    "rule.rospisat_off": "this rule set has no rospisat",
    "rule.rospisat_barrel": "a player on the barrel may not declare rospisat",
    "rule.rospisat_max": ("each player may declare rospisat at most "
                          "{max, plural, one{once} other{# times}} a match"),
    "rule.rospisat_max_bid": "rospisat is allowed only when the bid is at most {max}",
    "rule.spisat_off": "this rule set has no spisat",
    "rule.spisat_barrel": "a player on the barrel may not declare spisat",
    "rule.spisat_max": ("each player may declare spisat at most "
                        "{max, plural, one{once} other{# times}} a match"),
    "rule.concede_when": "only forehand whose forced opening was not overbid may concede",
    # ---- a deal or a match start given in full ---------------------------------------------
    "rule.dealer_range": "the dealer must be one of the {count} seats",
    "rule.partner_counters": ("partners share one score: the counters of {a_seat} and "
                              "{c_seat}, and of {b_seat} and {d_seat}, must be equal"),
    "rule.deal_seats": "a deal must list {count} seats",
    "rule.sitter_cards": "{seat} sits out this hand and gets no cards",
    "rule.hand_size": ("each active player gets {size, plural, one{# card} other{# cards}}; "
                       "{seat} got {got}"),
    "rule.talon_sizes": "the {talon} must hold {sizes} cards",
    "rule.stock_size": "the stock must hold {size, plural, one{# card} other{# cards}}",
    "rule.dealt_twice": "a card is dealt twice",
    "rule.whole_deck_missing": "the deal must use the whole {deck} deck (missing {missing})",
    "rule.whole_deck_extra": "the deal must use the whole {deck} deck (not in it: {extra})",
    "rule.whole_deck_both": ("the deal must use the whole {deck} deck (missing {missing}; not "
                             "in it: {extra})"),
    "rule.ai_illegal": "{level} chose an illegal action: {move}",
}
