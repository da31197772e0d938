"""From the end of the auction to the first card: talon, exchange, contract, give-ups, redeals."""

from __future__ import annotations

import functools

from bot.game.actions import DISCARD_TABLE, GIVE_TABLE, Action, Verb, act, actions_for
from bot.game.cards import ALL_NINES, cards_of, mask_points
from bot.game.doubling import next_opponent
from bot.game.errors import Refusal, RuleError
from bot.game.events import CardDiscarded, CardGiven, ContractSet, Event, TalonTaken
from bot.game.limits import highest_allowed, opening_min
from bot.game.notes import note
from bot.game.rules import Barrel, Exchange, NinesRedeal
from bot.game.state import HandEnd, Phase, State

# Enum members bound once (on Python 3.11 a member read off its class costs several times
# a global); the exchange tests them at every move.
_GIVE_ONE_EACH, _DISCARD, _DISCARD_ONE_GIVE_ONE, _NO_EXCHANGE = (
    Exchange.GIVE_ONE_EACH, Exchange.DISCARD, Exchange.DISCARD_ONE_GIVE_ONE, Exchange.NONE)
_EXCHANGE, _CONTRACT, _PLAY = Phase.EXCHANGE, Phase.CONTRACT, Phase.PLAY
_ROSPISAT, _SPISAT, _CONCEDE = HandEnd.ROSPISAT, HandEnd.SPISAT, HandEnd.CONCEDE
_CLASSIC = Barrel.CLASSIC
_NINES_OFF, _ORIGINAL_ONLY = NinesRedeal.OFF, NinesRedeal.ORIGINAL_ONLY


def after_auction(state: State, events: list[Event] | None) -> None:
    """The declarer is known: take the talon, or choose one of two, or go straight on."""
    state.leader = state.to_act = state.declarer
    if not state.rules.talons:
        state.phase = Phase.CONTRACT
        state.giveups = _open_giveups(state)
    elif len(state.rules.talons) > 1:
        state.phase = Phase.TALON
    else:
        take_talon(state, 0, events)


def hundred_concede_applies(state: State) -> bool:
    """Forehand's forced opening was not overbid (hundred_concede)."""
    return (
        state.rules.hundred_concede and state.declarer == state.forehand
        and state.winning_bid == opening_min(state)
        and all(p == state.forehand for p, n, _ in state.bids if n)
    )


def take_talon(state: State, index: int, events: list[Event] | None) -> None:
    r = state.rules
    d = state.declarer
    state.talon_index = index
    cards = state.talons[index]
    state.held[d] |= cards
    state.talon_shown = (
        not state.blind_win and r.talon_show_min_bid is not None
        and state.winning_bid >= r.talon_show_min_bid and not hundred_concede_applies(state)
    )
    if events is not None:
        events.append(TalonTaken(d, index, tuple(cards_of(cards)), state.talon_shown))
    state.phase = _CONTRACT if r.exchange is _NO_EXCHANGE else _EXCHANGE
    state.giveups = _open_giveups(state)


def apply_talon_choice(state: State, action: Action, events: list[Event] | None) -> None:
    if action.seat != state.declarer:
        raise RuleError("talon_declarer", action)
    if not 0 <= action.amount < len(state.talons):
        raise RuleError("talon_range", action, last=len(state.talons) - 1)
    take_talon(state, action.amount, events)


def receivers_left(state: State) -> list[int]:
    exchange = state.rules.exchange
    if exchange is _GIVE_ONE_EACH or exchange is _DISCARD_ONE_GIVE_ONE:
        d = state.declarer
        given = 0  # a mask of seats
        for _, t in state.gifts:
            given |= 1 << t
        return [p for p in state.active if p != d and not given >> p & 1]
    return []


def discards_left(state: State) -> int:
    exchange = state.rules.exchange
    if exchange is _DISCARD:
        return state.talons[state.talon_index].bit_count() - state.discards.bit_count()
    if exchange is _DISCARD_ONE_GIVE_ONE:
        return 1 - state.discards.bit_count()
    return 0


def legal_exchange(state: State, seat: int) -> list[Action]:
    out: list[Action] = []
    if seat == state.declarer:
        held = state.held[seat]
        for t in receivers_left(state):
            out += _card_moves(seat, Verb.GIVE, held, t)
        if discards_left(state):
            out += _card_moves(seat, Verb.DISCARD, held, -1)
        out += legal_giveups(state, seat)
    if claim_reason(state, seat) is not None:
        out.append(act(seat, Verb.REDEAL))
    return out


def _card_moves(seat: int, verb: Verb, held: int, target: int) -> tuple[Action, ...]:
    table = GIVE_TABLE[seat][target] if verb is Verb.GIVE else DISCARD_TABLE[seat]
    return actions_for(table, held)


def _check_exchange_move(s: State, a: Action) -> None:
    if a.seat != s.declarer:
        raise RuleError("exchange_declarer", a)
    if not s.held[a.seat] >> a.card & 1:
        raise RuleError("not_in_hand", a, card=a.card)


def apply_give(state: State, action: Action, events: list[Event] | None) -> None:
    _check_exchange_move(state, action)
    left = receivers_left(state)
    if not left:
        raise RuleError("give_none", action)
    if action.target not in left:
        raise RuleError("give_to", action, seat_list=tuple(left))
    bit = 1 << action.card
    state.held[action.seat] ^= bit
    state.held[action.target] |= bit
    state.gifts = (*state.gifts, (action.card, action.target))
    if events is not None:
        face_up = state.rules.give_face_up or state.blind_win
        events.append(CardGiven(action.seat, action.target, action.card, face_up))
    _exchange_done_check(state)


def apply_discard(state: State, action: Action, events: list[Event] | None) -> None:
    _check_exchange_move(state, action)
    if not discards_left(state):
        raise RuleError("discard_none", action)
    bit = 1 << action.card
    state.held[action.seat] ^= bit
    state.discards |= bit
    if events is not None:
        events.append(CardDiscarded(action.seat, action.card))
    _exchange_done_check(state)


def _exchange_done_check(s: State) -> None:
    if not receivers_left(s) and not discards_left(s):
        s.phase = _CONTRACT


def legal_contract(state: State, seat: int) -> list[Action]:
    """Contract choices and give-ups; the leads are added by the caller."""
    if seat != state.declarer:
        return []
    lo = state.winning_bid
    if state.misere:
        return [act(seat, Verb.CONTRACT, amount=lo)]  # a mizère is neither raised nor given up
    hi = highest_allowed(state, seat, state.held[seat], after_talon(state)) if (
        state.rules.contract_raise) else lo
    r = state.rules
    hi = max(lo, hi)
    if r.bid_step_high is None:
        return [*_contracts(seat, lo, hi, r.bid_step), *legal_giveups(state, seat)]
    at = r.bid_step_high_from
    return [*_contracts(seat, lo, min(hi, at - 1), r.bid_step),
            *_contracts(seat, max(lo, at), hi, r.bid_step_high), *legal_giveups(state, seat)]


@functools.lru_cache(maxsize=4096)
def _contracts(seat: int, lo: int, hi: int, step: int) -> tuple[Action, ...]:
    return tuple(act(seat, Verb.CONTRACT, amount=n) for n in range(lo, hi + 1, step))


def after_talon(state: State) -> int:
    """The declarer's cards right after taking the talon (before giving or discarding)."""
    mask = state.held[state.declarer] | state.discards
    for c, _ in state.gifts:
        mask |= 1 << c
    return mask


def apply_contract(state: State, action: Action, events: list[Event] | None) -> None:
    r = state.rules
    if action.seat != state.declarer:
        raise RuleError("contract_declarer", action)
    if state.contract_fixed:
        raise RuleError("contract_fixed", action, amount=state.contract)
    n, lo = action.amount, state.winning_bid
    if n < lo or not r.is_bid_amount(n):
        steps = r.bid_steps()
        raise RuleError("contract_range_split" if "step_high" in steps else "contract_range",
                        action, lowest=lo, **steps)
    if n > lo:
        if state.misere:
            raise RuleError("misere_raise", action, amount=lo)
        if not r.contract_raise:
            raise RuleError("raise_off", action, amount=lo)
        hi = highest_allowed(state, action.seat, state.held[action.seat], after_talon(state))
        if n > hi:
            raise _raise_refusal(state, hi, action)
    state.contract = n
    state.contract_fixed = True
    if r.contra:
        # the opponents now say whether they double
        state.to_act = next_opponent(state, action.seat)
    else:
        state.phase = Phase.PLAY
    if events is not None:
        events.append(ContractSet(action.seat, n))


def _raise_refusal(s: State, hi: int, a: Action) -> RuleError:
    mra = s.rules.marriage_required_above
    if mra is not None and hi <= mra:
        return RuleError("contract_needs_marriage", a, limit=mra)
    return RuleError("contract_max", a, max=hi)


def giveup_refusal(state: State, seat: int, kind: HandEnd) -> Refusal | None:
    """Why the declarer may not give up the hand this way now (a RuleError key and its
    parameters), or None if he may."""
    r = state.rules
    if state.misere:
        return "giveup_misere", {}
    phase = state.phase
    if (phase is not _EXCHANGE and phase is not _CONTRACT) or seat != state.declarer or (
        state.contract_fixed or (not state.talons and kind is not _CONCEDE)
    ):
        return "giveup_when", {}
    on_barrel = r.barrel is _CLASSIC and state.match.totals[seat] == r.barrel_at
    if kind is _ROSPISAT:
        if not r.rospisat:
            return "rospisat_off", {}
        if on_barrel:
            return "rospisat_barrel", {}
        if r.rospisat_max is not None and state.match.rospisat_calls[seat] >= r.rospisat_max:
            return "rospisat_max", {"max": r.rospisat_max}
        if r.rospisat_max_bid is not None and state.winning_bid > r.rospisat_max_bid:
            return "rospisat_max_bid", {"max": r.rospisat_max_bid}
        return None
    if kind is _SPISAT:
        if r.spisat_max <= 0:
            return "spisat_off", {}
        if on_barrel:
            return "spisat_barrel", {}
        if state.match.spisat_calls[seat] >= r.spisat_max:
            return "spisat_max", {"max": r.spisat_max}
        return None
    if not hundred_concede_applies(state):
        return "concede_when", {}
    return None


_GIVEUPS = ((Verb.ROSPISAT, HandEnd.ROSPISAT), (Verb.SPISAT, HandEnd.SPISAT),
            (Verb.CONCEDE, HandEnd.CONCEDE))


def legal_giveups(state: State, seat: int) -> tuple[Action, ...]:
    return state.giveups if seat == state.declarer else ()


def _open_giveups(s: State) -> tuple[Action, ...]:
    # Every condition of a give-up is fixed once the declarer holds the talon, so the
    # list is worked out once a hand rather than at every legal_actions call.
    r = s.rules
    if (not r.rospisat and r.spisat_max <= 0 and not r.hundred_concede) or s.misere:
        return ()
    d = s.declarer
    return tuple(act(d, v) for v, kind in _GIVEUPS if giveup_refusal(s, d, kind) is None)


def giveup_kind(verb: Verb) -> HandEnd:
    return dict(_GIVEUPS)[verb]


def before_first_card(state: State) -> bool:
    return state.phase is _CONTRACT or (
        state.phase is _PLAY and state.trick_no == 0 and not state.trick and state.rules.bidding)


def claim_reason(state: State, seat: int) -> tuple[str, tuple[int, ...], bool] | None:
    """(reason, cards shown, is a nines claim) if ``seat`` may claim a redeal now."""
    r = state.rules
    if seat not in state.active:
        return None
    if state.phase is _EXCHANGE:
        if seat != state.declarer or state.gifts or state.discards:
            return None
        below = r.talon_low_redeal_below
        if below is None and not r.talon_two_nines_redeal:
            return None
        talon = state.talons[state.talon_index]
        if below is not None and mask_points(talon) < below and (
            not r.talon_low_redeal_min_bid_only or state.winning_bid == opening_min(state)
        ):
            return note("why.talon_low", below=below), tuple(cards_of(talon)), False
        if r.talon_two_nines_redeal and (talon & ALL_NINES).bit_count() >= 2:
            return note("why.talon_nines"), tuple(cards_of(talon)), False
        return None
    if not before_first_card(state):
        return None
    held = state.held[seat]
    if r.four_nines_redeal is not _NINES_OFF:
        nines = held & ALL_NINES
        if r.four_nines_redeal is _ORIGINAL_ONLY:
            nines &= state.dealt[seat]
        if nines.bit_count() >= r.nines_for_redeal:
            return note("why.nines", nines=4 if r.nines_for_redeal == 4 else 3), tuple(
                cards_of(nines)), True
    below = r.hand_low_redeal_below
    if below is not None and mask_points(held) < below and (
        r.hand_low_redeal_max_bid is None or state.max_bid_by[seat] <= r.hand_low_redeal_max_bid
    ):
        return note("why.hand_low", below=below), tuple(cards_of(held)), False
    return None


def redeal_refusal(state: State) -> Refusal:
    r = state.rules
    if state.phase is Phase.EXCHANGE:
        return "redeal_exchange", {}
    if before_first_card(state):
        if r.four_nines_redeal is NinesRedeal.OFF and r.hand_low_redeal_below is None:
            return "redeal_after_off", {}
        need = r.nines_for_redeal
        if r.hand_low_redeal_below is not None:
            return "redeal_needs_nines_or_points", {"nines": need,
                                                     "below": r.hand_low_redeal_below}
        return "redeal_needs_nines", {"nines": need}
    return "redeal_too_late", {}
