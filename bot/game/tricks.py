"""Card play: leads and declarations, following (suit, trump, must-beat), tricks, stock draws."""

from __future__ import annotations

from bot.game.actions import PLAY_TABLE, PLAYS_ACES, PLAYS_MARRIAGE, Action, Flag
from bot.game.cards import (
    ALL_ACES,
    RA,
    RANK_MASK,
    RANK_POINTS,
    RK,
    RQ,
    SUIT_MASK,
    card_str,
)
from bot.game.errors import RuleError
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
from bot.game.rules import FourAcesEffect, MarriageValueMode, MustBeat
from bot.game.scoring import score_played_hand
from bot.game.state import Phase, State

_ORDER_VALUES = (40, 60, 80, 100)
_POINTS = RANK_POINTS
_KINGS = RANK_MASK[RK]
_QUEENS = RANK_MASK[RQ]


def may_declare_now(s: State) -> bool:
    """Declarations need a lead after a won trick, or any lead with marriage_on_first_lead."""
    return s.trick_no > 0 or s.rules.marriage_on_first_lead


def legal_card_mask(s: State, seat: int) -> int:
    """Mask of the cards ``seat`` may play to the current trick (RULES.md §3.7)."""
    hand = s.held[seat]
    trick = s.trick
    if not trick:
        return hand
    if s.stock_pos < len(s.stock):
        return hand  # free play while a stock lasts
    r = s.rules
    led = trick[0][1] >> 3
    trump = s.trump
    follow = hand & SUIT_MASK[led]
    if follow:
        cand = follow
    elif r.must_trump_when_void and trump >= 0 and hand & SUIT_MASK[trump]:
        cand = hand & SUIT_MASK[trump]
    else:
        cand = hand
    mb = r.must_beat
    if mb is MustBeat.ALWAYS or (mb is MustBeat.FOLLOW and follow):
        best = _winning_card(trick, trump)
        bs = best >> 3
        beaters = cand & SUIT_MASK[bs] & ~((2 << best) - 1)
        if trump >= 0 and bs != trump:
            beaters |= cand & SUIT_MASK[trump]
        if beaters:
            cand = beaters
    return cand


def _winning_card(trick: tuple[tuple[int, int], ...], trump: int) -> int:
    best = trick[0][1]
    for _, c in trick[1:]:
        if (c >> 3 == best >> 3 and c > best) or (c >> 3 == trump and best >> 3 != trump):
            best = c
    return best


def trick_winner(trick: tuple[tuple[int, int], ...], trump: int) -> int:
    best = _winning_card(trick, trump)
    for p, c in trick:
        if c == best:
            return p
    raise AssertionError("winning card not in trick")


def legal_plays(s: State, seat: int) -> list[Action]:
    if seat != s.to_act:
        return []
    mask = legal_card_mask(s, seat)
    out = list(plays_of(seat, mask))
    if not s.trick and (s.trick_no > 0 or s.rules.marriage_on_first_lead):
        out += _declarations(s, seat, mask)
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
        k, q = suit * 8 + RK, suit * 8 + RQ
        if hand >> k & 1 and hand >> q & 1:
            out.append(PLAYS_MARRIAGE[seat][q])
            out.append(PLAYS_MARRIAGE[seat][k])
    if s.rules.four_aces_bonus is not None and hand & ALL_ACES == ALL_ACES:
        out += [PLAYS_ACES[seat][suit * 8 + RA] for suit in range(4)]
    return out


def _check_play(s: State, a: Action) -> None:
    seat, c = a.seat, a.card
    if seat != s.to_act:
        raise RuleError("it is {0}'s turn to play", a, (s.to_act,))
    hand = s.held[seat]
    if not hand >> c & 1:
        raise RuleError("that card is not in his hand", a)
    if a.flag is Flag.NONE or a.flag is Flag.BLIND:
        if a.flag is Flag.BLIND:
            raise RuleError("only a bid can be blind", a)
    elif s.trick:
        raise RuleError("declarations are made only when leading to a trick", a)
    elif not may_declare_now(s):
        raise RuleError("nothing can be declared on the first lead of the hand; a marriage "
                        "needs a lead after winning a trick", a)
    elif a.flag is Flag.MARRIAGE:
        rank = c & 7
        other = c + 1 if rank == RQ else c - 1
        if rank not in (RQ, RK):
            raise RuleError("a marriage is declared by leading its king or queen", a)
        if not hand >> other & 1:
            raise RuleError(f"a marriage needs the {card_str(other)} in hand as well", a)
    elif a.flag is Flag.ACES:
        if s.rules.four_aces_bonus is None:
            raise RuleError("four aces score nothing in this rule set", a)
        if c & 7 != RA or hand & ALL_ACES != ALL_ACES:
            raise RuleError("four aces are declared by leading an ace while holding all four", a)
    if s.trick and not legal_card_mask(s, seat) >> c & 1:
        raise RuleError(_follow_refusal(s, seat), a)


def _follow_refusal(s: State, seat: int) -> str:
    hand = s.held[seat]
    led = s.trick[0][1] >> 3
    trump = s.trump
    r = s.rules
    names = ("clubs", "diamonds", "hearts", "spades")
    if hand & SUIT_MASK[led] and not s.stock_pos < len(s.stock):
        legal = legal_card_mask(s, seat)
        if legal & SUIT_MASK[led] != hand & SUIT_MASK[led]:
            return f"he must follow suit ({names[led]}) and beat the trick when he can"
        return f"he must follow suit ({names[led]})"
    if r.must_trump_when_void and trump >= 0 and hand & SUIT_MASK[trump]:
        return f"without {names[led]} he must play a trump ({names[trump]})"
    return "he must play a card that heads the trick when he can"


def apply_play(
    s: State, a: Action, events: list[Event] | None, *, trusted: bool = False
) -> None:
    """Play a card. ``trusted``: the caller took ``a`` from the legal actions just now."""
    seat, c = a.seat, a.card
    # Fast check for the common case (an ordinary card of the player to act); anything
    # else goes through the full check with its readable refusals.
    # legal ⊆ hand ⊆ deck, so a card that passes this test is a card of the deck.
    if not trusted and (a.flag is not Flag.NONE or seat != s.to_act or not (
        (legal_card_mask(s, seat) if s.trick else s.held[seat]) >> c & 1
    )):
        _check_play(s, a)
    if s.phase is Phase.CONTRACT:
        s.contract_fixed = True
        s.phase = Phase.PLAY
    bit = 1 << c
    s.held[seat] ^= bit
    s.played |= bit
    if a.flag is Flag.MARRIAGE:
        _declare_marriage(s, seat, c >> 3, events)
    elif a.flag is Flag.ACES:
        _declare_aces(s, seat, events)
    trick = s.trick = (*s.trick, (seat, c))
    s.history = (*s.history, (seat, c))
    if events is not None:
        events.append(CardPlayed(seat, c, s.trick_no))
    if len(trick) < len(s.active):
        s.to_act = s.next_seat[seat]
        return
    _finish_trick(s, events)
    if not s.held[s.leader]:
        score_played_hand(s, events)


def _declare_marriage(s: State, seat: int, suit: int, events: list[Event] | None) -> None:
    r = s.rules
    if r.marriage_value_mode is MarriageValueMode.BY_ORDER:
        value = _ORDER_VALUES[min(s.marriages_declared, 3)]
    else:
        value = r.marriage_values[suit]
    if on_lviv_barrel(r, s.match.totals[seat]):
        value = 0  # D10: declared, sets trump, scores nothing
    s.marriages_declared += 1
    s.decl[seat] += value
    s.decl_log = (*s.decl_log, (seat, suit, value))
    if events is not None:
        events.append(MarriageDeclared(seat, suit, value))
    if not s.trump_locked and s.trump != suit:
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
    pts = _POINTS[best & 7]
    for p, c in trick[1:]:
        pts += _POINTS[c & 7]
        if (c >> 3 == best >> 3 and c > best) or (c >> 3 == trump and best >> 3 != trump):
            w, best = p, c
    s.won[w] += 1
    s.points[w] += pts
    if events is not None:
        events.append(TrickWon(w, trick, pts, s.trick_no))
    s.last_trick = trick
    s.last_winner = w
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
            card = s.stock[pos]
            s.held[p] |= 1 << card
            s.drawn = (*s.drawn, (p, card))
            s.stock_pos = pos + 1
            if events is not None:
                events.append(CardDrawn(p, card, exposed and pos == last))
