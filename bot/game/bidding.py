"""The auction: forced opening, steps, passes, the marriage requirement, blind bids, silence."""

from __future__ import annotations

import functools

from bot.game.actions import PASSES, Action, Flag, Verb, act
from bot.game.cards import ALL_NINES, marriages_in
from bot.game.dealing import predeal_weak
from bot.game.doubling import apply_doubling_pass, doubling
from bot.game.errors import Refusal, RuleError
from bot.game.events import AllPassed, AuctionWon, BidMade, Event, MarriageShown, Passed
from bot.game.exchange import after_auction
from bot.game.limits import (
    auction_cap,
    forced_opening,
    highest_allowed,
    lowest_bid,
    marriage_value,
    on_lviv_barrel,
    opening_min,
    qualifies_high,
)
from bot.game.match import throw_in
from bot.game.notes import note
from bot.game.rules import DealtNines, Rules
from bot.game.state import Phase, State

# Enum members bound once (on Python 3.11 a member read off its class costs several times
# a global); the auction tests them at every bid.
_NO_FLAG, _BLIND, _MISERE = Flag.NONE, Flag.BLIND, Flag.MISERE
_BIDDING = Phase.BIDDING
_OFF = DealtNines.OFF


def legal_bidding(state: State, seat: int) -> list[Action]:
    """Bids and passes of the seat to act, plus a pre-bid redeal claim where allowed."""
    out: list[Action] = []
    if seat == state.to_act:
        forced = forced_opening(state, seat)
        if state.silenced >> seat & 1:
            out.append(act(seat, Verb.BID, amount=opening_min(state)) if forced else PASSES[seat])
        else:
            lo = lowest_bid(state)
            r = state.rules
            hi = highest_allowed(state, seat, state.held[seat])
            if r.bid_cap_before_talon is not None:
                hi = auction_cap(state, seat, state.held[seat])
            if r.bid_step_high is None:
                step = r.bid_step
                out += bid_range(seat, lo, hi, step, Flag.NONE)
                if state.blind >> seat & 1:
                    out += bid_range(seat, lo, hi, step, Flag.BLIND)
            else:
                out += two_step_range(r, seat, lo, hi, Flag.NONE)
                if state.blind >> seat & 1:
                    out += two_step_range(r, seat, lo, hi, Flag.BLIND)
            if r.misere and r.misere_value >= lo:
                out.append(act(seat, Verb.BID, amount=r.misere_value, flag=Flag.MISERE))
            if not forced:
                out.append(PASSES[seat])
    if predeal_claim_reason(state, seat):
        out.append(act(seat, Verb.REDEAL))
    return out


@functools.lru_cache(maxsize=4096)
def bid_range(seat: int, lo: int, hi: int, step: int, flag: Flag) -> tuple[Action, ...]:
    """The bids lo, lo+step, ..., hi (cached: the same ranges recur every hand)."""
    return tuple(act(seat, Verb.BID, amount=n, flag=flag) for n in range(lo, hi + 1, step))


def two_step_range(rules: Rules, seat: int, lo: int, hi: int, flag: Flag) -> tuple[Action, ...]:
    """The bids from lo to hi under bid_step_high: small steps below its threshold."""
    at = rules.bid_step_high_from
    high = rules.bid_step_high or rules.bid_step
    return (bid_range(seat, lo, min(hi, at - 1), rules.bid_step, flag)
            + bid_range(seat, max(lo, at), hi, high, flag))


def predeal_claims(rules: Rules) -> bool:
    """Whether these rules let a seat claim a redeal before bidding (dealt nines, weak hand)."""
    return rules.predeal_low_redeal_below is not None or rules.predeal_four_nines_redeal or (
        rules.dealt_four_nines is not _OFF or rules.dealt_three_nines is not _OFF)


def predeal_claim_reason(state: State, seat: int) -> str | None:
    """Why ``seat`` may claim a redeal before bidding now, or None."""
    r = state.rules
    if not predeal_claims(r):
        return None
    if seat not in state.active or state.acted >> seat & 1:
        return None
    nines = (state.held[seat] & ALL_NINES).bit_count()
    if state.high_bidder < 0 and r.dealt_nines(nines) is DealtNines.OPTIONAL:
        return note("why.nines", nines=nines)  # dealt_four_nines, dealt_three_nines
    if r.predeal_low_redeal_below is None and not r.predeal_four_nines_redeal:
        return None
    return predeal_weak(r, state.held[seat])


def check_bid(state: State, action: Action) -> None:
    """Raise RuleError if the bid is illegal."""
    seat, n, rules = action.seat, action.amount, state.rules
    if seat != state.to_act:
        raise RuleError("turn_bid", action, seat=state.to_act)
    forced = forced_opening(state, seat)
    lo = lowest_bid(state)
    if state.silenced >> seat & 1:
        if not forced:
            raise RuleError("silenced", action, limit=rules.silence_below or 0)
        if n != lo:
            raise RuleError("silenced_forced", action, lowest=lo)
    flag = action.flag
    if flag is _BLIND and not state.blind >> seat & 1:
        raise RuleError("blind_off" if not rules.blind_bidding else "blind_looked", action)
    if flag is _MISERE:
        _check_misere(rules, action, lo)
        return  # a fixed contract: no marriage or cap applies
    if flag is not _NO_FLAG and flag is not _BLIND:
        raise RuleError("bid_flag", action)
    _check_amount(state, action, lo)


def _check_misere(rules: Rules, a: Action, lo: int) -> None:
    """A mizère bid: allowed, of the mizère's value, not below the lowest bid."""
    if not rules.misere:
        raise RuleError("misere_off", a)
    if a.amount != rules.misere_value:
        raise RuleError("misere_value", a, value=rules.misere_value)
    if a.amount < lo:
        raise RuleError("misere_low", a, amount=a.amount, lowest=lo)


def _check_amount(s: State, a: Action, lo: int) -> None:
    """An ordinary bid's amount: a step from the lowest, under every cap, with the marriage
    a high bid needs."""
    seat, n, rules = a.seat, a.amount, s.rules
    if n < lo or (n % rules.bid_step if rules.bid_step_high is None
                  else not rules.is_bid_amount(n)):
        steps = rules.bid_steps()
        raise RuleError("bid_step_split" if "step_high" in steps else "bid_step", a,
                        lowest=lo, **steps)
    cap = rules.bid_cap_before_talon
    if cap is not None and n > cap:
        raise RuleError("bid_cap_talon", a, cap=cap)
    if on_lviv_barrel(rules, s.match.totals[seat]) and n > 120:
        raise RuleError("barrel_bid", a)
    mask = s.held[seat]
    for limit in (rules.marriage_required_above, rules.show_marriage_above):
        if limit is not None and n > limit and not qualifies_high(rules, mask):
            raise RuleError("bid_needs_marriage", a, limit=limit)
    if rules.bid_cap_by_marriages:
        cap = 120 + sum(marriage_value(rules, m) for m in marriages_in(mask))
        if n > cap:
            raise RuleError("bid_cap_marriages", a, cap=cap)
    if n > rules.max_bid:
        raise RuleError("bid_max", a, max=rules.max_bid)


def apply_bid(
    state: State, action: Action, events: list[Event] | None, *, trusted: bool = False
) -> None:
    """A bid. ``trusted``: the caller took ``action`` from the legal actions just now."""
    if not trusted:
        check_bid(state, action)
    seat, n = action.seat, action.amount
    blind = action.flag is _BLIND
    bit = 1 << seat
    show_above = state.rules.show_marriage_above
    first_high = (show_above is not None and n > show_above
                  and not any(p == seat for p, _ in state.shown_marriages))
    state.high, state.high_bidder, state.high_blind = n, seat, blind
    state.misere = action.flag is _MISERE
    state.acted |= bit
    if not blind:
        state.blind &= ~bit
    if n > state.max_bid_by[seat]:
        mb = list(state.max_bid_by)
        mb[seat] = n
        state.max_bid_by = tuple(mb)
    state.bids = (*state.bids, (seat, n, blind))
    if events is not None:
        events.append(BidMade(seat, n, blind, state.misere))
    if first_high:
        suits = marriages_in(state.held[seat])
        if suits:  # four aces may stand in for a marriage: then nothing is shown
            suit = min(suits, key=lambda x: (marriage_value(state.rules, x), x))
            state.shown_marriages = (*state.shown_marriages, (seat, suit))
            if events is not None:
                events.append(MarriageShown(seat, suit))
    _next_bidder(state, seat, events)


def apply_pass(state: State, action: Action, events: list[Event] | None) -> None:
    """A pass in the auction, or (option contra) a defender's or declarer's "no double"."""
    if state.phase is not _BIDDING:
        if not doubling(state):
            raise RuleError("pass_after_auction", action)
        apply_doubling_pass(state, action, events)
        return
    seat = action.seat
    if seat != state.to_act:
        raise RuleError("turn_bid", action, seat=state.to_act)
    if forced_opening(state, seat):
        raise RuleError("forced_opening", action, lowest=opening_min(state))
    bit = 1 << seat
    state.passed |= bit
    state.acted |= bit
    state.blind &= ~bit
    state.bids = (*state.bids, (seat, 0, False))
    if events is not None:
        events.append(Passed(seat))
    _next_bidder(state, seat, events)


def _next_bidder(s: State, seat: int, events: list[Event] | None) -> None:
    passed = s.passed
    remaining = [p for p in s.active if not passed >> p & 1]
    if not remaining:
        if events is not None:
            events.append(AllPassed(s.match.dealer))
        if s.rules.dealer_forced_bid:
            _dealer_forced(s, events)
        else:
            throw_in(s, events)
        return
    if len(remaining) == 1 and s.high_bidder == remaining[0]:
        s.declarer = s.high_bidder
        s.winning_bid = s.contract = s.high
        s.blind_win = s.high_blind
        if events is not None:
            events.append(AuctionWon(s.declarer, s.high, s.high_blind))
        after_auction(s, events)
        return
    p = s.next_seat[seat]
    while passed >> p & 1:
        p = s.next_seat[p]
    s.to_act = p


def _dealer_forced(s: State, events: list[Event] | None) -> None:
    # The dealer speaks last, so he is the last active seat (dealer_forced_bid).
    d = s.active[-1]
    s.declarer = s.high_bidder = d
    s.high = s.winning_bid = s.contract = opening_min(s)
    s.high_blind = s.blind_win = False
    if events is not None:
        events.append(AuctionWon(d, s.high, False))
    after_auction(s, events)


def claim_predeal_redeal(state: State, action: Action) -> str:
    """Check a pre-bid redeal claim; return its reason."""
    reason = predeal_claim_reason(state, action.seat)
    if reason is None:
        key, params = _predeal_refusal(state, action.seat)
        raise RuleError(key, action, **params)
    return reason


def _predeal_refusal(s: State, seat: int) -> Refusal:
    r = s.rules
    nines_rule = (r.dealt_four_nines is not DealtNines.OFF
                  or r.dealt_three_nines is not DealtNines.OFF)
    if r.predeal_low_redeal_below is None and not r.predeal_four_nines_redeal and not nines_rule:
        return "redeal_auction_off", {}
    if s.acted >> seat & 1:
        return "redeal_before_first_bid", {}
    if nines_rule and not r.predeal_four_nines_redeal and r.predeal_low_redeal_below is None:
        if s.high_bidder >= 0:
            return "redeal_nines_before_bids", {}
        need = 3 if r.dealt_three_nines is not DealtNines.OFF else 4
        return "redeal_dealt_nines", {"nines": need}
    if marriages_in(s.held[seat]):
        return "redeal_marriage", {}
    return "redeal_not_qualified", {}


__all__ = ["Phase", "apply_bid", "apply_pass", "legal_bidding"]
