"""The engine's API: ``legal_actions`` and ``apply`` (of actions and of the chance moves that deal).

OpenSpiel's split: a state, the legal actions of the seat to act, and ``apply`` returning
a new state plus the events the action caused. Illegal input raises ``RuleError`` and
leaves the given state untouched (``apply`` works on a copy).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.game.actions import Action, Deal, Flag, JackPenalty, Move, Verb
from bot.game.bidding import apply_bid, apply_pass, claim_predeal_redeal, legal_bidding
from bot.game.dealing import apply_deal, apply_jack_penalty
from bot.game.doubling import (
    apply_contra,
    apply_redouble,
    doubling,
    legal_doubling,
)
from bot.game.errors import RuleError
from bot.game.events import Event, GaveUp, RedealClaimed
from bot.game.exchange import (
    apply_contract,
    apply_discard,
    apply_give,
    apply_talon_choice,
    claim_reason,
    giveup_kind,
    giveup_refusal,
    legal_contract,
    legal_exchange,
    redeal_refusal,
)
from bot.game.scoring import annul, score_giveup
from bot.game.state import Phase, State
from bot.game.tricks import apply_play, legal_plays


def legal_actions(state: State, seat: int | None = None) -> list[Action]:
    """Every legal action of ``seat`` (default: the seat to act); empty at chance nodes."""
    s = state
    p = s.to_act if seat is None else seat
    if p < 0:
        return []
    phase = s.phase
    if phase is Phase.PLAY:
        out = legal_plays(s, p)
        if s.trick_no == 0 and not s.trick and s.rules.bidding and claim_reason(
                s, p) is not None:
            out.append(Action(p, Verb.REDEAL))
        return out
    if phase is Phase.BIDDING:
        return legal_bidding(s, p)
    if phase is Phase.CONTRACT:
        if s.contract_fixed:
            out = legal_doubling(s, p)
        elif s.rules.contra:
            out = legal_contract(s, p)  # the contract is fixed first, for the defenders
        else:
            out = legal_contract(s, p) + legal_plays(s, p)
        if claim_reason(s, p) is not None:
            out.append(Action(p, Verb.REDEAL))
        return out
    if phase is Phase.EXCHANGE:
        return legal_exchange(s, p)
    if phase is Phase.TALON and p == s.declarer:
        return [Action(p, Verb.TALON, amount=i) for i in range(len(s.talons))]
    return []


# Enum members bound once (on Python 3.11 a member read off its class costs several times
# a global): every move passes here.
_PLAY_VERB, _PLAY, _BID = Verb.PLAY, Phase.PLAY, Verb.BID


def apply(state: State, action: Move) -> tuple[State, list[Event]]:
    """A new state and the events of ``action``; RuleError (state unchanged) if illegal."""
    events: list[Event] = []
    return apply_into(state, action, events), events


def apply_into(
    state: State, action: Move, events: list[Event] | None, *, inplace: bool = False
) -> State:
    """``apply`` that appends events to a list of the caller's (or skips them: None).

    ``inplace=True`` changes ``state`` itself, for simulations that own their state and
    only apply legal actions (an illegal one may then leave it half changed).
    """
    s = state if inplace else state.copy()
    if type(action) is Action:
        if (action.verb is _PLAY_VERB and s.phase is _PLAY and action.amount == 0
                and action.target == -1 and 0 <= action.card < 32):
            apply_play(s, action, events)  # the hot path: no phase checks needed
        else:
            _apply_action(s, action, events)
    elif isinstance(action, Deal):
        if state.phase is not Phase.DEALING:
            raise RuleError("deal_between_hands", phase=state.phase.value)
        apply_deal(s, action, events)
    elif isinstance(action, JackPenalty):
        if state.phase is not Phase.DEALING or not state.rules.jack_bottom_reshuffle:
            raise RuleError("jack_penalty_when")
        apply_jack_penalty(s, events)
    else:  # pragma: no cover - typing guards this
        raise TypeError(f"not a move: {action!r}")
    return s


def apply_trusted(state: State, action: Action, events: list[Event] | None) -> None:
    """Apply in place an action taken from ``state``'s legal actions just now (simulations).

    The checks of a move's shape, phase and bid are skipped: they cannot fail for a
    legal action, and a random simulation applies a few dozen a hand.
    """
    v = action.verb
    if v is _BID:
        apply_bid(state, action, events, trusted=True)
        return
    if v is _PLAY_VERB:  # the lead that fixes the contract
        apply_play(state, action, events, trusted=True)
        return
    handler = _HANDLERS.get(v)
    if handler is None:  # a give-up: its refusals are part of applying it
        _apply_action(state, action, events)
    else:
        handler(state, action, events)


_BY_PHASE = {
    Verb.BID: (Phase.BIDDING,),
    Verb.PASS: (Phase.BIDDING, Phase.CONTRACT),
    Verb.CONTRA: (Phase.CONTRACT,),
    Verb.REDOUBLE: (Phase.CONTRACT,),
    Verb.TALON: (Phase.TALON,),
    Verb.GIVE: (Phase.EXCHANGE,),
    Verb.DISCARD: (Phase.EXCHANGE,),
    Verb.CONTRACT: (Phase.CONTRACT,),
    Verb.PLAY: (Phase.CONTRACT, Phase.PLAY),
}


_NONE = frozenset({Flag.NONE})
# verb -> (takes a card, takes a target seat, takes an amount, allowed flags)
_SHAPES: dict[Verb, tuple[bool, bool, bool, frozenset[Flag]]] = {
    Verb.BID: (False, False, True, frozenset({Flag.NONE, Flag.BLIND, Flag.MISERE})),
    Verb.PASS: (False, False, False, _NONE),
    Verb.REDEAL: (False, False, False, _NONE),
    Verb.TALON: (False, False, True, _NONE),
    Verb.GIVE: (True, True, False, _NONE),
    Verb.DISCARD: (True, False, False, _NONE),
    Verb.CONTRACT: (False, False, True, _NONE),
    Verb.ROSPISAT: (False, False, False, _NONE),
    Verb.SPISAT: (False, False, False, _NONE),
    Verb.CONCEDE: (False, False, False, _NONE),
    Verb.CONTRA: (False, False, False, _NONE),
    Verb.REDOUBLE: (False, False, False, _NONE),
    Verb.PLAY: (True, False, False, frozenset({Flag.NONE, Flag.MARRIAGE, Flag.ACES})),
}


def _apply_action(s: State, a: Action, events: list[Event] | None) -> None:
    v = a.verb
    phases = _BY_PHASE.get(v)
    shape = _SHAPES[v]
    if (
        (phases is None and s.phase in _NO_MOVES) or (phases is not None and s.phase not in phases)
        or a.seat not in s.active or (a.card >= 0) is not shape[0]
        or (a.target >= 0) is not shape[1] or (a.amount != 0 and not shape[2])
        or a.flag not in shape[3] or (a.card >= 0 and not s.rules.deck_mask >> a.card & 1)
    ):
        _refuse(s, a)
    handler = _HANDLERS.get(v)
    if handler is not None:
        handler(s, a, events)
        return
    kind = giveup_kind(v)
    refusal = giveup_refusal(s, a.seat, kind)
    if refusal is not None:
        raise RuleError(refusal[0], a, **refusal[1])
    if events is not None:
        events.append(GaveUp(a.seat, kind))
    score_giveup(s, kind, events)


def _refuse(s: State, a: Action) -> None:
    """Raise the RuleError for a move that fails the quick checks of _apply_action."""
    if s.phase is Phase.MATCH_OVER:
        raise RuleError("match_over", a)
    if s.phase is Phase.DEALING:
        raise RuleError("not_dealt", a)
    if not 0 <= a.seat < s.rules.seats:
        raise RuleError("no_seat", a, number=a.seat)
    if a.seat not in s.active:
        raise RuleError("sits_out", a)
    v = a.verb
    shape = _SHAPES[v]
    if (a.card >= 0) != shape[0] or (a.target >= 0) != shape[1] or (
            a.amount != 0 and not shape[2]) or a.flag not in shape[3]:
        raise RuleError("malformed", a, verb=v.value)
    if a.card >= 32 or (a.card >= 0 and not s.rules.deck_mask >> a.card & 1):
        raise RuleError("not_a_card", a, number=a.card)
    key, params = _wrong_phase(s, v)
    raise RuleError(key, a, **params)


_NO_MOVES = (Phase.DEALING, Phase.MATCH_OVER)
def _play(s: State, a: Action, events: list[Event] | None) -> None:
    if s.phase is Phase.CONTRACT and s.rules.contra:
        raise RuleError("contra_fix_first" if not s.contract_fixed else "contra_pending", a)
    apply_play(s, a, events)


_HANDLERS: dict[Verb, Callable[[State, Action, list[Event] | None], None]] = {
    Verb.PLAY: _play,
    Verb.BID: apply_bid,
    Verb.PASS: apply_pass,
    Verb.CONTRA: apply_contra,
    Verb.REDOUBLE: apply_redouble,
    Verb.GIVE: apply_give,
    Verb.DISCARD: apply_discard,
    Verb.CONTRACT: apply_contract,
    Verb.TALON: apply_talon_choice,
}


def _wrong_phase(s: State, v: Verb) -> tuple[str, dict[str, int | str]]:
    now: dict[str, int | str] = {"phase": s.phase.value}
    if v in (Verb.BID, Verb.PASS):
        return ("auction_over_now" if s.declarer >= 0 else "not_now"), now
    if v is Verb.CONTRACT and s.contract_fixed:
        return "contract_fixed", {"amount": s.contract}
    if v is Verb.CONTRACT and s.phase in (Phase.EXCHANGE, Phase.TALON):
        return "contract_after_exchange", {}
    if v is Verb.PLAY:
        return "play_after_auction", now
    if v in (Verb.CONTRA, Verb.REDOUBLE):
        return "double_when_now", now
    return "not_now", now


_TURN_KEYS = {Phase.BIDDING: "turn_bid", Phase.TALON: "turn_talon",
              Phase.EXCHANGE: "turn_exchange", Phase.CONTRACT: "turn_contract",
              Phase.PLAY: "turn_play"}


def turn_refusal(state: State, action: Action | None = None) -> RuleError:
    """The refusal of ``action`` made out of turn: whose turn it is, with the verb of the
    phase ("it is Ada's turn to bid" in an auction, "... to play" in the play)."""
    key = "turn_double" if doubling(state) else _TURN_KEYS.get(state.phase, "turn_play")
    return RuleError(key, action, seat=state.to_act)


def _apply_redeal(s: State, a: Action, events: list[Event] | None) -> None:
    if s.phase is Phase.BIDDING:
        reason = claim_predeal_redeal(s, a)
        shown: tuple[int, ...] = ()
        nines = "nines" in reason
    else:
        claim = claim_reason(s, a.seat)
        if claim is None:
            key, params = redeal_refusal(s)
            raise RuleError(key, a, **params)
        reason, shown, nines = claim
    s.claims = (*s.claims, (a.seat, reason, sum(1 << c for c in shown)))
    if events is not None:
        events.append(RedealClaimed(a.seat, reason, shown))
    annul(s, a.seat, reason, nines, events)


_HANDLERS[Verb.REDEAL] = _apply_redeal


def to_act(state: State) -> int:
    """The seat to act, or -1 at a chance node (dealing) or after the match."""
    return state.to_act
