"""Card play: leads and declarations, following (suit, trump, must-beat), tricks, stock draws."""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.actions import PLAY_TABLE, PLAYS_ACES, PLAYS_MARRIAGE, Action, Flag
from bot.game.cards import (
    ALL_ACES,
    BEATERS,
    CARD_POINTS,
    RA,
    RANK_MASK,
    RK,
    RQ,
    SUIT_MASK,
    SUIT_OF,
    card,
    rank_of,
    suit_of,
)
from bot.game.errors import Refusal, RuleError
from bot.game.events import (
    CardDrawn,
    CardPlayed,
    Event,
    FourAcesDeclared,
    MarriageDeclared,
    TrickWon,
    TrumpChanged,
)
from bot.game.limits import on_lviv_barrel
from bot.game.rules import FourAcesEffect, MarriageTrump, MarriageValueMode, MustBeat
from bot.game.scoring import score_played_hand
from bot.game.state import Phase, State

_ORDER_VALUES = (40, 60, 80, 100)
# Enum members bound once: on Python 3.11 reading a member off its class (Phase.PLAY) costs
# several times a global (EnumType.__getattr__ defeats the attribute cache), and these are
# read at every card.
_CONTRACT = Phase.CONTRACT
_NONE, _MARRIAGE, _ACES = Flag.NONE, Flag.MARRIAGE, Flag.ACES
_ALWAYS, _FOLLOW = MustBeat.ALWAYS, MustBeat.FOLLOW
_KINGS = RANK_MASK[RK]
_QUEENS = RANK_MASK[RQ]


def may_declare_now(state: State) -> bool:
    """Declarations need a lead after a won trick, or any lead with marriage_on_first_lead."""
    return state.trick_no > 0 or state.rules.marriage_on_first_lead


def legal_card_mask(state: State, seat: int) -> int:
    """Mask of the cards ``seat`` may play now (options must_trump_when_void, must_beat)."""
    hand = state.held[seat]
    trick = state.trick
    if not trick or state.stock_pos < len(state.stock):
        return hand  # a lead, or free play while a stock lasts
    r = state.rules
    return playable_mask(hand, trick, state.trump, r.must_trump_when_void, r.must_beat)


def playable_mask(hand: int, trick: Sequence[tuple[int, int]], trump: int,
                  must_trump: bool, must_beat: MustBeat) -> int:
    """The cards of ``hand`` that may follow ``trick``: its suit, else trump where one must
    trump, and of those the ones that beat the trick where one must beat (the one place of
    the following rules; an AI's solver calls it on its own deals)."""
    if not trick:
        return hand
    follow = hand & SUIT_MASK[SUIT_OF[trick[0][1]]]
    if follow:
        cand = follow
    elif must_trump and trump >= 0 and hand & SUIT_MASK[trump]:
        cand = hand & SUIT_MASK[trump]
    else:
        cand = hand
    if must_beat is _ALWAYS or (must_beat is _FOLLOW and follow):
        beaters = cand & BEATERS[trump][winning_card(trick, trump)]
        if beaters:
            cand = beaters
    return cand


def winning_card(trick: Sequence[tuple[int, int]], trump: int) -> int:
    """The card heading a trick of (seat, card) pairs so far (trump -1: no trump)."""
    best = trick[0][1]
    over = BEATERS[trump]
    for _, c in trick[1:]:
        if over[best] >> c & 1:
            best = c
    return best


def legal_plays(state: State, seat: int) -> list[Action]:
    """The cards and declarations ``seat`` may play now (none when it is not his turn)."""
    if seat != state.to_act:
        return []
    mask = legal_card_mask(state, seat)
    out = list(plays_of(seat, mask))
    if not state.trick and may_declare_now(state) and not state.misere:
        out += _declarations(state, seat, mask)
    return out


def plays_of(seat: int, mask: int) -> tuple[Action, ...]:
    """The play actions of ``seat`` for the cards of ``mask``."""
    t = PLAY_TABLE[seat]
    return t[0][mask & 255] + t[1][mask >> 8 & 255] + t[2][mask >> 16 & 255] + t[3][mask >> 24]


def _declarations(s: State, seat: int, hand: int) -> list[Action]:
    if not hand & _KINGS & (hand & _QUEENS) << 1 and not (
            s.rules.four_aces_bonus is not None and hand & ALL_ACES == ALL_ACES):
        return []
    out = []
    for suit in range(4):
        k, q = card(RK, suit), card(RQ, suit)
        if hand >> k & 1 and hand >> q & 1:
            out.append(PLAYS_MARRIAGE[seat][q])
            out.append(PLAYS_MARRIAGE[seat][k])
    if s.rules.four_aces_bonus is not None and hand & ALL_ACES == ALL_ACES:
        out += [PLAYS_ACES[seat][card(RA, suit)] for suit in range(4)]
    return out


def _check_play(s: State, a: Action) -> None:
    seat, c = a.seat, a.card
    if seat != s.to_act:
        raise RuleError("turn_play", a, seat=s.to_act)
    hand = s.held[seat]
    if not hand >> c & 1:
        raise RuleError("not_in_hand", a, card=c)
    if a.flag is Flag.NONE or a.flag is Flag.BLIND:
        if a.flag is Flag.BLIND:
            raise RuleError("blind_only_bid", a)
    elif s.misere:
        raise RuleError("misere_no_declaring", a)
    elif s.trick:
        raise RuleError("declare_on_lead", a)
    elif not may_declare_now(s):
        raise RuleError("declare_first_lead", a)
    elif a.flag is Flag.MARRIAGE:
        rank = rank_of(c)
        other = c + 1 if rank == RQ else c - 1
        if rank not in (RQ, RK):
            raise RuleError("marriage_king_queen", a)
        if not hand >> other & 1:
            raise RuleError("marriage_pair", a, pair_card=other)
    elif a.flag is Flag.ACES:
        if s.rules.four_aces_bonus is None:
            raise RuleError("aces_off", a)
        if rank_of(c) != RA or hand & ALL_ACES != ALL_ACES:
            raise RuleError("aces_all", a)
    if s.trick and not legal_card_mask(s, seat) >> c & 1:
        key, params = _follow_refusal(s, seat)
        raise RuleError(key, a, **params)


def _follow_refusal(s: State, seat: int) -> Refusal:
    hand = s.held[seat]
    led = suit_of(s.trick[0][1])
    trump = s.trump
    r = s.rules
    if hand & SUIT_MASK[led] and not s.stock_pos < len(s.stock):
        legal = legal_card_mask(s, seat)
        if legal & SUIT_MASK[led] != hand & SUIT_MASK[led]:
            return "follow_and_beat", {"led_suit": led}
        return "follow", {"led_suit": led}
    if r.must_trump_when_void and trump >= 0 and hand & SUIT_MASK[trump]:
        return "must_trump", {"led_suit": led, "trump_suit": trump}
    return "must_head", {}


def apply_play(
    state: State, action: Action, events: list[Event] | None, *, trusted: bool = False
) -> None:
    """Play a card. ``trusted``: the caller took ``action`` from the legal actions just now."""
    seat, c, flag = action.seat, action.card, action.flag
    # Fast check for the common case (an ordinary card of the player to act); anything
    # else goes through the full check with its readable refusals.
    # legal ⊆ hand ⊆ deck, so a card that passes this test is a card of the deck.
    if not trusted and (flag is not _NONE or seat != state.to_act or not (
        (legal_card_mask(state, seat) if state.trick else state.held[seat]) >> c & 1
    )):
        _check_play(state, action)
    if state.phase is _CONTRACT:
        state.contract_fixed = True
        state.phase = Phase.PLAY
    bit = 1 << c
    state.held[seat] ^= bit
    state.played |= bit
    if flag is not _NONE:
        if flag is _MARRIAGE:
            _declare_marriage(state, seat, suit_of(c), events)
        elif flag is _ACES:
            _declare_aces(state, seat, events)
    played = (seat, c)
    trick = state.trick = (*state.trick, played)
    state.history = (*state.history, played)
    if events is not None:
        events.append(CardPlayed(seat, c, state.trick_no))
    if len(trick) < len(state.active):
        state.to_act = state.next_seat[seat]
        return
    _finish_trick(state, events)
    if not state.held[state.leader]:
        score_played_hand(state, events)


def _declare_marriage(s: State, seat: int, suit: int, events: list[Event] | None) -> None:
    r = s.rules
    if r.marriage_value_mode is MarriageValueMode.BY_ORDER:
        value = _ORDER_VALUES[min(s.marriages_declared, 3)]
    else:
        value = r.marriage_values[suit]
    if on_lviv_barrel(r, s.match.totals[seat]):
        value = 0  # Lviv barrel: declared, sets trump, scores nothing
    s.marriages_declared += 1
    s.decl[seat] += value
    s.decl_log = (*s.decl_log, (seat, suit, value))
    if events is not None:
        events.append(MarriageDeclared(seat, suit, value))
    if not s.trump_locked and s.trump != suit:
        if r.marriage_trump is MarriageTrump.NEXT_TRICK:
            s.pending_trump = suit  # the trick it leads keeps the old trump
            return
        s.trump = suit
        if events is not None:
            events.append(TrumpChanged(suit))


def _declare_aces(s: State, seat: int, events: list[Event] | None) -> None:
    r = s.rules
    value = r.four_aces_bonus or 0
    s.decl[seat] += value
    s.decl_log = (*s.decl_log, (seat, -1, value))
    if events is not None:
        events.append(FourAcesDeclared(seat, value))
    if r.four_aces_effect is FourAcesEffect.NO_TRUMP:
        s.trump_locked = True
        if s.trump != -1:
            s.trump = -1
            if events is not None:
                events.append(TrumpChanged(-1))


def _finish_trick(s: State, events: list[Event] | None) -> None:
    trick = s.trick
    trump = s.trump
    w, best = trick[0]
    pts = CARD_POINTS[best]
    over = BEATERS[trump]
    for p, c in trick[1:]:
        pts += CARD_POINTS[c]
        if over[best] >> c & 1:
            w, best = p, c
    s.won[w] += 1
    s.points[w] += pts
    if events is not None:
        events.append(TrickWon(w, trick, pts, s.trick_no))
    s.last_trick = trick
    s.last_winner = w
    if s.pending_trump >= 0:
        if not s.trump_locked:
            s.trump = s.pending_trump
            if events is not None:
                events.append(TrumpChanged(s.trump))
        s.pending_trump = -1
    s.trick = ()
    s.trick_no += 1
    s.leader = s.to_act = w
    if s.stock_pos < len(s.stock):
        exposed = s.rules.stock_bottom_exposed
        last = len(s.stock) - 1
        k = len(s.active)
        i = s.active.index(w)
        for j in range(k):
            p = s.active[(i + j) % k]
            pos = s.stock_pos
            top = s.stock[pos]
            s.held[p] |= 1 << top
            s.drawn = (*s.drawn, (p, top))
            s.stock_pos = pos + 1
            if events is not None:
                events.append(CardDrawn(p, top, exposed and pos == last))
