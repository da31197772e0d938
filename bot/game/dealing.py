"""Starting a match and dealing a hand: seats, the canonical dealing order, seeded shuffles."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from bot.game.actions import Deal, JackPenalty, Move
from bot.game.cards import (
    ALL_NINES,
    DECK_CARDS,
    RANK_MASK,
    RJ,
    cards_of,
    marriages_in,
    mask_points,
    mask_str,
    rank_of,
)
from bot.game.errors import RuleError
from bot.game.events import CardsDealt, DealerPenalized, Event, HandStarted
from bot.game.match import annul
from bot.game.notes import note
from bot.game.rules import DealtNines, Deck, Rules, Sitter
from bot.game.state import Match, Phase, State, evolve

# Enum members bound once (on Python 3.11 a member read off its class costs several times
# a global); every deal reads them.
_BIDDING, _PLAY = Phase.BIDDING, Phase.PLAY
_NINES_OFF = DealtNines.OFF


def seats_for_hand(rules: Rules, dealer: int) -> tuple[int, int, tuple[int, ...]]:
    """(forehand, sitter or -1, active seats clockwise from forehand) for this dealer."""
    n = rules.seats
    sitter = -1
    if n == 4 and rules.sitter is not Sitter.NONE:
        sitter = {
            Sitter.RIGHT_OF_DEALER: (dealer - 1) % 4,
            Sitter.OPPOSITE_DEALER: (dealer + 2) % 4,
            Sitter.DEALER: dealer,
        }[rules.sitter]
    active = tuple(p for p in ((dealer + i) % n for i in range(1, n + 1)) if p != sitter)
    return active[0], sitter, active


def new_match(
    rules: Rules,
    dealer: int = 0,
    *,
    totals: Mapping[int, int] | None = None,
    barrel: Mapping[int, int] | None = None,
    dashes: Mapping[int, int] | None = None,
    rospisat: Mapping[int, int] | None = None,
    barrel_falls: Mapping[int, int] | None = None,
    spisat: Mapping[int, int] | None = None,
    sticks: Mapping[int, int] | None = None,
    no_win: Mapping[int, int] | None = None,
) -> State:
    """A match waiting for its first deal; the mappings set counters per seat (default 0)."""
    n = rules.seats
    if not 0 <= dealer < n:
        raise RuleError("dealer_range", count=n)

    def per_seat(m: Mapping[int, int] | None) -> tuple[int, ...]:
        out = tuple((m or {}).get(p, 0) for p in range(n))
        if rules.partnerships and out[:2] != out[2:]:
            raise RuleError("partner_counters", a_seat=0, b_seat=1, c_seat=2, d_seat=3)
        return out

    match = Match(
        totals=per_seat(totals), barrel_hands=per_seat(barrel), barrel_falls=per_seat(barrel_falls),
        dashes=per_seat(dashes), rospisat_calls=per_seat(rospisat), spisat_calls=per_seat(spisat),
        dealer=dealer, golden_left=n if rules.golden_round else 0,
        sticks=per_seat(sticks), no_wins=per_seat(no_win),
    )
    s = State.__new__(State)
    s.rules = rules
    s.match = match
    s.last_result = None
    _reset_hand(s, dealer)
    s.phase = Phase.DEALING
    s.to_act = -1
    return s


def _seating(rules: Rules, dealer: int) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
    """seats_for_hand plus each seat's next active seat, worked out once per rule set."""
    key = ("seating", dealer)
    got = rules.memo.get(key)
    if got is None:
        forehand, sitter, active = seats_for_hand(rules, dealer)
        nxt = [-1] * rules.seats
        for i, p in enumerate(active):
            nxt[p] = active[(i + 1) % len(active)]
        got = rules.memo[key] = (forehand, sitter, active, tuple(nxt))
    assert isinstance(got, tuple)
    return got


def _reset_hand(s: State, dealer: int) -> None:
    n = s.rules.seats
    s.forehand, s.sitter, s.active, s.next_seat = _seating(s.rules, dealer)
    s.golden = s.match.golden_left > 0
    s.silenced = 0
    s.held = [0] * n
    s.dealt = (0,) * n
    s.talons = ()
    s.stock = ()
    s.stock_pos = 0
    s.drawn = ()
    s.high = 0
    s.high_bidder = -1
    s.high_blind = False
    s.misere = False
    s.passed = 0
    s.acted = 0
    s.blind = 0
    s.max_bid_by = (0,) * n
    s.bids = ()
    s.shown_marriages = ()
    s.claims = ()
    s.declarer = -1
    s.winning_bid = 0
    s.blind_win = False
    s.talon_index = -1
    s.talon_shown = False
    s.gifts = ()
    s.discards = 0
    s.contract = 0
    s.contract_fixed = False
    s.doubled = 0
    s.giveups = ()
    s.leader = -1
    s.trick = ()
    s.trick_no = 0
    s.won = [0] * n
    s.points = [0] * n
    s.decl = [0] * n
    s.decl_log = ()
    s.trump = -1
    s.pending_trump = -1
    s.trump_locked = False
    s.marriages_declared = 0
    s.played = 0
    s.history = ()
    s.last_trick = ()
    s.last_winner = -1


def check_deal(rules: Rules, dealer: int, deal: Deal) -> None:
    """Raise RuleError unless the deal fits the rules exactly (sizes, sitter, whole deck)."""
    _, sitter, active = seats_for_hand(rules, dealer)
    if len(deal.hands) != rules.seats:
        raise RuleError("deal_seats", count=rules.seats)
    for p in range(rules.seats):
        have = deal.hands[p].bit_count()
        if p == sitter and have:
            raise RuleError("sitter_cards", seat=p)
        if p in active and have != rules.hand_size:
            raise RuleError("hand_size", size=rules.hand_size, seat=p, got=have)
    if tuple(t.bit_count() for t in deal.talons) != rules.talons:
        raise RuleError("talon_sizes", sizes=str(list(rules.talons)))
    if len(deal.stock) != rules.stock_size:
        raise RuleError("stock_size", size=rules.stock_size)
    everything = 0
    count = 0
    for m in (*deal.hands, *deal.talons):
        everything |= m
        count += m.bit_count()
    for c in deal.stock:
        everything |= 1 << c
    count += len(deal.stock)
    if count != everything.bit_count():
        raise RuleError("dealt_twice")
    if everything != rules.deck_mask:
        missing = mask_str(rules.deck_mask & ~everything)
        extra = mask_str(everything & ~rules.deck_mask)
        key = "whole_deck_" + ("both" if missing and extra else "missing" if missing else "extra")
        raise RuleError(key, deck=str(rules.deck), missing=missing, extra=extra)


def apply_deal(
    state: State, deal: Deal, events: list[Event] | None, *, trusted: bool = False
) -> None:
    """Start the hand in ``state`` (a copy) with these cards.

    ``trusted``: the deal came from ``canonical_deal`` just now, so it needs no check.
    """
    rules = state.rules
    dealer = state.match.dealer
    if not trusted:
        check_deal(rules, dealer, deal)
    state.match = evolve(state.match, hand_no=state.match.hand_no + 1)
    _reset_hand(state, dealer)
    state.held = list(deal.hands)
    state.dealt = deal.hands
    state.talons = deal.talons
    state.stock = deal.stock
    if rules.silence_below is not None:
        state.silenced = sum(1 << p for p in state.active
                             if state.match.totals[p] < rules.silence_below)
    if rules.blind_bidding:
        state.blind = sum(1 << p for p in state.active)
    if rules.bidding:
        state.phase = _BIDDING
        state.to_act = state.forehand
    else:
        state.phase = _PLAY
        state.contract_fixed = True
        state.leader = state.to_act = state.forehand
    if events is not None:
        events.append(HandStarted(state.match.hand_no, dealer, state.forehand, state.sitter,
                                  state.golden))
        for p in state.active:
            events.append(CardsDealt(p, tuple(cards_of(state.held[p]))))
    if rules.dealt_four_nines is not _NINES_OFF or rules.dealt_three_nines is not _NINES_OFF:
        for p in state.active:
            nines = state.held[p] & ALL_NINES
            if rules.dealt_nines(nines.bit_count()) is DealtNines.MANDATORY:
                # The hand is annulled as it is dealt: nobody has to claim it.
                reason = note("why.nines", nines=nines.bit_count())
                state.claims = ((p, reason, nines),)
                annul(state, p, reason, True, events, dealt=True)
                return



def apply_jack_penalty(state: State, events: list[Event] | None) -> None:
    """Third jack at the bottom in a row: the dealer loses 120 and the deal passes on."""
    m = state.match
    dealer = m.dealer
    totals = list(m.totals)
    totals[dealer] -= 120
    barrel_hands = list(m.barrel_hands)
    if totals[dealer] != state.rules.barrel_at:
        barrel_hands[dealer] = 0
    nxt = (dealer + 1) % state.rules.seats
    state.match = evolve(m, totals=tuple(totals), barrel_hands=tuple(barrel_hands),
                             dealer=nxt, nines_annuls=0)
    _reset_hand(state, nxt)
    if events is not None:
        events.append(DealerPenalized(dealer, 120, note("why.jacks")))


def canonical_deal(rules: Rules, dealer: int, deck: list[int]) -> Deal:
    """Deal a shuffled deck (deck[0] on top) in the fixed order of ``_deal_by_order``."""
    key = ("pattern", dealer)
    dest = rules.memo.get(key)
    if dest is None:
        dest = rules.memo[key] = _pattern(rules, dealer)
    assert isinstance(dest, tuple)
    n = rules.seats
    masks = [0] * (n + len(rules.talons))
    stock = []
    for c, d in zip(deck, dest, strict=True):
        if d < 0:
            stock.append(c)
        else:
            masks[d] |= 1 << c
    return Deal(tuple(masks[:n]), tuple(masks[n:]), tuple(stock))


def _pattern(rules: Rules, dealer: int) -> tuple[int, ...]:
    """Where each deck position goes: a seat, seats + talon index, or -1 for the stock."""
    size = rules.deck_size
    deal = _deal_by_order(rules, dealer, list(range(size)))
    dest = [-1] * size
    for p, m in enumerate((*deal.hands, *deal.talons)):
        for i in cards_of(m):
            dest[i] = p
    return tuple(dest)


def _deal_by_order(rules: Rules, dealer: int, deck: list[int]) -> Deal:
    # Written as the physical procedure; run once per (rules, dealer) to build a pattern.
    _, _, active = seats_for_hand(rules, dealer)
    dealt = _Dealt(deck, [0] * rules.seats, [0] * len(rules.talons))
    if rules.stock:
        _deal_stock_game(rules, active, dealt)
        return Deal(tuple(dealt.hands), (), tuple(deck[dealt.pos:]))
    if len(rules.talons) >= 2:
        _deal_two_talons(rules, active, dealt)
    else:
        t = rules.talons[0] if rules.talons else 0
        for r in range(rules.hand_size):
            for i, p in enumerate(active):
                dealt.give(p)
                if i == 1 and r < t:
                    dealt.give(0, talon=True)
    return Deal(tuple(dealt.hands), tuple(dealt.talons))


# Mutable on purpose: the deal in progress, card by card off the top of ``deck``.
@dataclass(slots=True)
class _Dealt:
    deck: list[int]
    hands: list[int]
    talons: list[int]
    pos: int = 0

    def give(self, target: int, k: int = 1, talon: bool = False) -> None:
        """The next ``k`` cards to a hand (or to talon ``target``)."""
        for c in self.deck[self.pos:self.pos + k]:
            if talon:
                self.talons[target] |= 1 << c
            else:
                self.hands[target] |= 1 << c
        self.pos += k


def _deal_stock_game(rules: Rules, active: tuple[int, ...], dealt: _Dealt) -> None:
    """Two players with a stock: packets of 3, 2, 3 for eight cards (or threes from a
    32-card deck), else one by one; the rest is the stock."""
    h = rules.hand_size
    a, b = active
    if h == 8 or rules.deck is Deck.SEVEN_ACE:
        packets = (3, 2, 3) if h == 8 else (3,) * (h // 3)
        for k in packets:
            dealt.give(a, k)
            dealt.give(b, k)
    else:
        for _ in range(h):
            dealt.give(a)
            dealt.give(b)


def _deal_two_talons(rules: Rules, active: tuple[int, ...], dealt: _Dealt) -> None:
    """Two players and two talons or more: in twos when every talon has two cards, else
    one by one with a card to each talon still short."""
    a, b = active[0], active[-1]
    h = rules.hand_size
    if all(t == 2 for t in rules.talons):
        for r in range(h // 2):
            dealt.give(a, 2)
            dealt.give(b, 2)
            if r < len(dealt.talons):
                dealt.give(r, 2, talon=True)
    else:
        for r in range(h):
            dealt.give(a)
            dealt.give(b)
            if r < max(rules.talons):
                for i, size in enumerate(rules.talons):
                    if r < size:
                        dealt.give(i, talon=True)


def random_deal(state: State, rng: random.Random) -> list[Move]:
    """The chance moves for the next hand from a seeded RNG (jack penalties, then the deal)."""
    rules = state.rules
    deck = list(DECK_CARDS[rules.deck])
    moves: list[Move] = []
    dealer = state.match.dealer
    jacks = 0
    rand = rng.random
    while True:
        # Sorting by random keys is an unbiased shuffle and, done in C, twice as fast as
        # random.shuffle (it runs once a hand in every simulation).
        deck.sort(key=lambda _: rand())
        if rules.jack_bottom_reshuffle and rank_of(deck[-1]) == RJ:
            jacks += 1
            if jacks == 3:
                moves.append(JackPenalty())
                dealer = (dealer + 1) % rules.seats
                jacks = 0
            continue
        moves.append(canonical_deal(rules, dealer, deck))
        return moves




def predeal_weak(rules: Rules, mask: int) -> str | None:
    """Why a dealt hand allows the Polish pre-bid redeal, or None."""
    if marriages_in(mask):
        return None
    below = rules.predeal_low_redeal_below
    if below is not None and mask_points(mask) < below:
        return note("why.dealt_low", below=below)
    if rules.predeal_four_nines_redeal and (mask & RANK_MASK[2]).bit_count() == 4:
        return note("why.dealt_nines")
    return None
