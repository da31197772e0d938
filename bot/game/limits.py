"""How high a seat may bid or contract: openings, steps, marriages, barrel and cap limits."""

from __future__ import annotations

from bot.game.cards import ALL_ACES, has_marriage, marriages_in
from bot.game.rules import Barrel, Rules
from bot.game.state import State


def opening_min(state: State) -> int:
    """The lowest opening bid of this hand (120 in a golden hand)."""
    return opening_bid(state.rules, state.golden)


def opening_bid(rules: Rules, golden: bool) -> int:
    """The lowest opening bid under ``rules``, in a golden hand or not."""
    return max(120, rules.min_bid) if golden else rules.min_bid


def lowest_bid(state: State) -> int:
    if state.high_bidder < 0:
        return opening_min(state)
    r = state.rules
    return state.high + r.bid_step if r.bid_step_high is None else r.next_bid(state.high)


_LVIV = Barrel.LVIV  # bound once: an Enum member read off its class is slow on 3.11


def on_lviv_barrel(rules: Rules, total: int) -> bool:
    return rules.barrel is _LVIV and rules.barrel_at <= total < rules.target


def qualifies_high(rules: Rules, mask: int) -> bool:
    """Holds a marriage (or four aces where they count) for bids above the limit."""
    if has_marriage(mask):
        return True
    return rules.four_aces_bonus is not None and mask & ALL_ACES == ALL_ACES


def highest_allowed(state: State, seat: int, mask: int, cap_mask: int | None = None) -> int:
    """Highest bid or contract this seat may name with these cards.

    ``cap_mask`` is the hand that bid_cap_by_marriages looks at (for a contract: the
    hand right after taking the talon); by default the same cards.
    """
    rules = state.rules
    top = rules.max_bid
    if on_lviv_barrel(rules, state.match.totals[seat]):
        top = min(top, 120)
    if not qualifies_high(rules, mask):
        for limit in (rules.marriage_required_above, rules.show_marriage_above):
            if limit is not None and limit < top:
                top = limit
    if rules.bid_cap_by_marriages:
        capped = mask if cap_mask is None else cap_mask
        top = min(top, 120 + sum(marriage_value(rules, m) for m in marriages_in(capped)))
    # Inline for the one-step default: this runs at every bid.
    return top - top % rules.bid_step if rules.bid_step_high is None else rules.floor_bid(top)


def marriage_value(rules: Rules, suit: int) -> int:
    return rules.marriage_values[suit]


def auction_cap(state: State, seat: int, mask: int) -> int:
    """Highest bid in the auction: highest_allowed, then bid_cap_before_talon."""
    hi = highest_allowed(state, seat, mask)
    cap = state.rules.bid_cap_before_talon
    return hi if cap is None or cap >= hi else state.rules.floor_bid(cap)


def forced_opening(state: State, seat: int) -> bool:
    r = state.rules
    return (r.opening_bid_forced and not r.dealer_forced_bid and seat == state.forehand
            and not state.acted >> seat & 1)
