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


def after_auction(s: State, events: list[Event] | None) -> None:
    """The declarer is known: take the talon, or choose one of two, or go straight on."""
    s.leader = s.to_act = s.declarer
    if not s.rules.talons:
        s.phase = Phase.CONTRACT
        s.giveups = _open_giveups(s)
    elif len(s.rules.talons) > 1:
        s.phase = Phase.TALON
    else:
        take_talon(s, 0, events)


def hundred_concede_applies(s: State) -> bool:
    """Forehand's forced opening was not overbid (hundred_concede)."""
    return (
        s.rules.hundred_concede and s.declarer == s.forehand
        and s.winning_bid == opening_min(s)
        and all(p == s.forehand for p, n, _ in s.bids if n)
    )


def take_talon(s: State, index: int, events: list[Event] | None) -> None:
    r = s.rules
    d = s.declarer
    s.talon_index = index
    cards = s.talons[index]
    s.held[d] |= cards
    s.talon_shown = (
        not s.blind_win and r.talon_show_min_bid is not None
        and s.winning_bid >= r.talon_show_min_bid and not hundred_concede_applies(s)
    )
    if events is not None:
        events.append(TalonTaken(d, index, tuple(cards_of(cards)), s.talon_shown))
    s.phase = _CONTRACT if r.exchange is _NO_EXCHANGE else _EXCHANGE
    s.giveups = _open_giveups(s)


def apply_talon_choice(s: State, a: Action, events: list[Event] | None) -> None:
    if a.seat != s.declarer:
        raise RuleError("talon_declarer", a)
    if not 0 <= a.amount < len(s.talons):
        raise RuleError("talon_range", a, last=len(s.talons) - 1)
    take_talon(s, a.amount, events)


def receivers_left(s: State) -> list[int]:
    exchange = s.rules.exchange
    if exchange is _GIVE_ONE_EACH or exchange is _DISCARD_ONE_GIVE_ONE:
        d = s.declarer
        given = 0  # a mask of seats
        for _, t in s.gifts:
            given |= 1 << t
        return [p for p in s.active if p != d and not given >> p & 1]
    return []


def discards_left(s: State) -> int:
    exchange = s.rules.exchange
    if exchange is _DISCARD:
        return s.talons[s.talon_index].bit_count() - s.discards.bit_count()
    if exchange is _DISCARD_ONE_GIVE_ONE:
        return 1 - s.discards.bit_count()
    return 0


def legal_exchange(s: State, seat: int) -> list[Action]:
    out: list[Action] = []
    if seat == s.declarer:
        held = s.held[seat]
        for t in receivers_left(s):
            out += _card_moves(seat, Verb.GIVE, held, t)
        if discards_left(s):
            out += _card_moves(seat, Verb.DISCARD, held, -1)
        out += legal_giveups(s, seat)
    if claim_reason(s, seat) is not None:
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


def apply_give(s: State, a: Action, events: list[Event] | None) -> None:
    _check_exchange_move(s, a)
    left = receivers_left(s)
    if not left:
        raise RuleError("give_none", a)
    if a.target not in left:
        raise RuleError("give_to", a, seat_list=tuple(left))
    bit = 1 << a.card
    s.held[a.seat] ^= bit
    s.held[a.target] |= bit
    s.gifts = (*s.gifts, (a.card, a.target))
    if events is not None:
        face_up = s.rules.give_face_up or s.blind_win
        events.append(CardGiven(a.seat, a.target, a.card, face_up))
    _exchange_done_check(s)


def apply_discard(s: State, a: Action, events: list[Event] | None) -> None:
    _check_exchange_move(s, a)
    if not discards_left(s):
        raise RuleError("discard_none", a)
    bit = 1 << a.card
    s.held[a.seat] ^= bit
    s.discards |= bit
    if events is not None:
        events.append(CardDiscarded(a.seat, a.card))
    _exchange_done_check(s)


def _exchange_done_check(s: State) -> None:
    if not receivers_left(s) and not discards_left(s):
        s.phase = _CONTRACT


def legal_contract(s: State, seat: int) -> list[Action]:
    """Contract choices and give-ups; the leads are added by the caller."""
    if seat != s.declarer:
        return []
    lo = s.winning_bid
    if s.misere:
        return [act(seat, Verb.CONTRACT, amount=lo)]  # a mizère is neither raised nor given up
    hi = highest_allowed(s, seat, s.held[seat], after_talon(s)) if s.rules.contract_raise else lo
    r = s.rules
    hi = max(lo, hi)
    if r.bid_step_high is None:
        return [*_contracts(seat, lo, hi, r.bid_step), *legal_giveups(s, seat)]
    at = r.bid_step_high_from
    return [*_contracts(seat, lo, min(hi, at - 1), r.bid_step),
            *_contracts(seat, max(lo, at), hi, r.bid_step_high), *legal_giveups(s, seat)]


@functools.lru_cache(maxsize=4096)
def _contracts(seat: int, lo: int, hi: int, step: int) -> tuple[Action, ...]:
    return tuple(act(seat, Verb.CONTRACT, amount=n) for n in range(lo, hi + 1, step))


def after_talon(s: State) -> int:
    """The declarer's cards right after taking the talon (before giving or discarding)."""
    mask = s.held[s.declarer] | s.discards
    for c, _ in s.gifts:
        mask |= 1 << c
    return mask


def apply_contract(s: State, a: Action, events: list[Event] | None) -> None:
    r = s.rules
    if a.seat != s.declarer:
        raise RuleError("contract_declarer", a)
    if s.contract_fixed:
        raise RuleError("contract_fixed", a, amount=s.contract)
    n, lo = a.amount, s.winning_bid
    if n < lo or not r.is_bid_amount(n):
        steps = r.bid_steps()
        raise RuleError("contract_range_split" if "step_high" in steps else "contract_range", a,
                        lowest=lo, **steps)
    if n > lo:
        if s.misere:
            raise RuleError("misere_raise", a, amount=lo)
        if not r.contract_raise:
            raise RuleError("raise_off", a, amount=lo)
        hi = highest_allowed(s, a.seat, s.held[a.seat], after_talon(s))
        if n > hi:
            raise _raise_refusal(s, hi, a)
    s.contract = n
    s.contract_fixed = True
    if r.contra:
        s.to_act = next_opponent(s, a.seat)  # the opponents now say whether they double
    else:
        s.phase = Phase.PLAY
    if events is not None:
        events.append(ContractSet(a.seat, n))


def _raise_refusal(s: State, hi: int, a: Action) -> RuleError:
    mra = s.rules.marriage_required_above
    if mra is not None and hi <= mra:
        return RuleError("contract_needs_marriage", a, limit=mra)
    return RuleError("contract_max", a, max=hi)


def giveup_refusal(s: State, seat: int, kind: HandEnd) -> Refusal | None:
    """Why the declarer may not give up the hand this way now (a RuleError key and its
    parameters), or None if he may."""
    r = s.rules
    if s.misere:
        return "giveup_misere", {}
    if (s.phase is not _EXCHANGE and s.phase is not _CONTRACT) or seat != s.declarer or (
        s.contract_fixed or (not s.talons and kind is not _CONCEDE)
    ):
        return "giveup_when", {}
    on_barrel = r.barrel is _CLASSIC and s.match.totals[seat] == r.barrel_at
    if kind is _ROSPISAT:
        if not r.rospisat:
            return "rospisat_off", {}
        if on_barrel:
            return "rospisat_barrel", {}
        if r.rospisat_max is not None and s.match.rospisat_calls[seat] >= r.rospisat_max:
            return "rospisat_max", {"max": r.rospisat_max}
        if r.rospisat_max_bid is not None and s.winning_bid > r.rospisat_max_bid:
            return "rospisat_max_bid", {"max": r.rospisat_max_bid}
        return None
    if kind is _SPISAT:
        if r.spisat_max <= 0:
            return "spisat_off", {}
        if on_barrel:
            return "spisat_barrel", {}
        if s.match.spisat_calls[seat] >= r.spisat_max:
            return "spisat_max", {"max": r.spisat_max}
        return None
    if not hundred_concede_applies(s):
        return "concede_when", {}
    return None


_GIVEUPS = ((Verb.ROSPISAT, HandEnd.ROSPISAT), (Verb.SPISAT, HandEnd.SPISAT),
            (Verb.CONCEDE, HandEnd.CONCEDE))


def legal_giveups(s: State, seat: int) -> tuple[Action, ...]:
    return s.giveups if seat == s.declarer else ()


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


def before_first_card(s: State) -> bool:
    return s.phase is _CONTRACT or (
        s.phase is _PLAY and s.trick_no == 0 and not s.trick and s.rules.bidding)


def claim_reason(s: State, seat: int) -> tuple[str, tuple[int, ...], bool] | None:
    """(reason, cards shown, is a nines claim) if ``seat`` may claim a redeal now."""
    r = s.rules
    if seat not in s.active:
        return None
    if s.phase is _EXCHANGE:
        if seat != s.declarer or s.gifts or s.discards:
            return None
        below = r.talon_low_redeal_below
        if below is None and not r.talon_two_nines_redeal:
            return None
        talon = s.talons[s.talon_index]
        if below is not None and mask_points(talon) < below and (
            not r.talon_low_redeal_min_bid_only or s.winning_bid == opening_min(s)
        ):
            return note("why.talon_low", below=below), tuple(cards_of(talon)), False
        if r.talon_two_nines_redeal and (talon & ALL_NINES).bit_count() >= 2:
            return note("why.talon_nines"), tuple(cards_of(talon)), False
        return None
    if not before_first_card(s):
        return None
    held = s.held[seat]
    if r.four_nines_redeal is not _NINES_OFF:
        nines = held & ALL_NINES
        if r.four_nines_redeal is _ORIGINAL_ONLY:
            nines &= s.dealt[seat]
        if nines.bit_count() >= r.nines_for_redeal:
            return note("why.nines", nines=4 if r.nines_for_redeal == 4 else 3), tuple(
                cards_of(nines)), True
    below = r.hand_low_redeal_below
    if below is not None and mask_points(held) < below and (
        r.hand_low_redeal_max_bid is None or s.max_bid_by[seat] <= r.hand_low_redeal_max_bid
    ):
        return note("why.hand_low", below=below), tuple(cards_of(held)), False
    return None


def redeal_refusal(s: State) -> Refusal:
    r = s.rules
    if s.phase is Phase.EXCHANGE:
        return "redeal_exchange", {}
    if before_first_card(s):
        if r.four_nines_redeal is NinesRedeal.OFF and r.hand_low_redeal_below is None:
            return "redeal_after_off", {}
        need = r.nines_for_redeal
        if r.hand_low_redeal_below is not None:
            return "redeal_needs_nines_or_points", {"nines": need,
                                                     "below": r.hand_low_redeal_below}
        return "redeal_needs_nines", {"nines": need}
    return "redeal_too_late", {}
