"""Independent checks of the rules' invariants on a state and the events that led to it."""

from __future__ import annotations

from bot.game import events as ev
from bot.game.cards import RK, RQ, cards_of, mask_points
from bot.game.rules import Barrel, Exchange, cards_after_exchange
from bot.game.scoring import is_locked
from bot.game.state import Phase, State


def in_hand(s: State) -> bool:
    return s.phase not in (Phase.DEALING, Phase.MATCH_OVER)


def check_cards(s: State) -> None:
    """Conservation: every card of the deck is in exactly one place."""
    r = s.rules
    places = [s.held[p] for p in range(r.seats)]
    places += [t for i, t in enumerate(s.talons) if i != s.talon_index]
    places += [s.discards, s.played]
    stock = 0
    for c in s.stock[s.stock_pos:]:
        stock |= 1 << c
    places.append(stock)
    union = 0
    total = 0
    for m in places:
        assert not union & m, f"card in two places: {cards_of(union & m)}"
        union |= m
        total += m.bit_count()
    assert union == r.deck_mask and total == r.deck_size
    if s.sitter >= 0:
        assert s.held[s.sitter] == 0


def check_turn(s: State) -> None:
    """One seat to act, an active one, and it always has a legal action."""
    from bot.game.engine import legal_actions

    if in_hand(s):
        assert s.to_act in s.active
        assert legal_actions(s), f"no legal action in {s.phase}"
    else:
        assert s.to_act == -1


def check_equal_hands(s: State) -> None:
    """Equal hands before each trick (after the draws in stock games)."""
    if s.phase is Phase.PLAY and not s.trick:
        sizes = {s.held[p].bit_count() for p in s.active}
        assert len(sizes) == 1, sizes


def check_match(s: State, before: State | None) -> None:
    """Totals, barrel, counters, lock, winner."""
    r = s.rules
    m = s.match
    for p in range(r.seats):
        t = m.totals[p]
        if r.rounding == 5 and not r.barrel_exact_points and r.bid_step == 5:
            assert t % 5 == 0, t
        if r.rounding == 10 and r.bid_step == 10 and r.sitter_bonus.value != "card_points_marriage":
            assert t % 10 == 0, t
        assert 0 <= m.dashes[p] <= 2
        if r.partnerships:  # one score, one barrel and one set of counters per partnership
            q = (p + 2) % 4
            assert (t, m.barrel_hands[p], m.dashes[p], m.sticks[p]) == (
                m.totals[q], m.barrel_hands[q], m.dashes[q], m.sticks[q])
        assert 0 <= m.sticks[p] < r.sticks_count
        assert 0 <= m.no_wins[p] < r.no_win_hands
        if r.rospisat_max is not None:
            assert m.rospisat_calls[p] <= r.rospisat_max
        if r.barrel is Barrel.CLASSIC and not m.winners:
            upper = r.target + 1 if r.target_exceed else r.target
            assert not r.barrel_at < t < upper, f"{t} inside the barrel zone"
            assert 0 <= m.barrel_hands[p] < r.barrel_hands
            if t != r.barrel_at:
                assert m.barrel_hands[p] == 0
    for w in m.winners:
        t = m.totals[w]
        assert t > r.target if r.target_exceed else t >= r.target
    res = s.last_result
    if before is not None and res is not None and before.match is not m and r.lock_at:
        for p in range(r.seats):
            if p != res.declarer and is_locked(r, before.match.totals[p]) and (
                    r.lock_no_trick_penalty == 0):
                assert res.delta[p] == 0


class HandTracker:
    """Follows the events of one hand and checks tricks, trumps and points."""

    def __init__(self, s: State) -> None:
        self.rules = s.rules
        self.active = s.active
        self.trump = -1
        self.tricks = 0
        self.leader = -1
        self.declared_suits: set[int] = set()
        self.decl_points: dict[int, int] = {}
        self.bids: list[int] = []

    def on_events(self, before: State, events: list[object]) -> None:
        r = self.rules
        for e in events:
            if isinstance(e, ev.BidMade):
                assert e.amount % r.bid_step == 0
                assert not self.bids or e.amount > self.bids[-1]
                self.bids.append(e.amount)
            elif isinstance(e, ev.MarriageDeclared):
                assert e.suit not in self.declared_suits
                self.declared_suits.add(e.suit)
            elif isinstance(e, ev.TrumpChanged):
                self.trump = e.suit
            elif isinstance(e, ev.TrickWon):
                self._trick(before, e)

    def _trick(self, before: State, e: ev.TrickWon) -> None:
        seats = [p for p, _ in e.cards]
        k = len(self.active)
        assert len(seats) == k and len(set(seats)) == k, "one card per active player"
        i = self.active.index(seats[0])
        assert seats == [self.active[(i + j) % k] for j in range(k)], "clockwise order"
        if self.tricks == 0:
            first = before.declarer if before.rules.bidding else before.forehand
            assert seats[0] == first, "trick 1 led by the declarer / forehand"
        else:
            assert seats[0] == self.leader, "the winner leads the next trick"
        led = e.cards[0][1] >> 3
        trumps = [c for _, c in e.cards if self.trump >= 0 and c >> 3 == self.trump]
        best = max(trumps) if trumps else max(c for _, c in e.cards if c >> 3 == led)
        assert e.seat == next(p for p, c in e.cards if c == best), "trick winner"
        assert e.points == mask_points(sum(1 << c for _, c in e.cards))
        self.tricks += 1
        self.leader = e.seat

    def on_hand_end(self, s: State, last_in_hand: State) -> None:
        """After a played hand: trick count and card points."""
        res = s.last_result
        assert res is not None
        if res.end.value != "played":
            return
        r = self.rules
        assert self.tricks == cards_after_exchange(r)
        h = last_in_hand
        won = sum(h.points)
        out_of_play = sum(mask_points(t) for i, t in enumerate(h.talons) if i != h.talon_index)
        assert won + mask_points(h.discards) + out_of_play == 120
        if r.exchange in (Exchange.GIVE_ONE_EACH, Exchange.NONE) and not r.stock:
            assert mask_points(h.discards) == 0
        for p, suit, _ in h.decl_log:
            if suit >= 0:
                del p
                assert suit in self.declared_suits


def allowed_knowledge(s: State, seat: int) -> set[int]:
    """Cards ``seat`` may know (see Observation), worked out from the state directly."""
    r = s.rules
    known = set(cards_of(s.held[seat] | s.played))
    if s.talon_index >= 0:
        talon = set(cards_of(s.talons[s.talon_index]))
        if s.talon_shown or seat == s.declarer:
            known |= talon
    if seat == s.declarer:
        known |= set(cards_of(s.discards))
        known |= {c for c, _ in s.gifts}
    known |= {c for c, to in s.gifts if to == seat or r.give_face_up or s.blind_win}
    for _, _, shown in s.claims:
        known |= set(cards_of(shown))
    for _, suit in s.shown_marriages:
        known |= {suit * 8 + RK, suit * 8 + RQ}
    if r.stock_bottom_exposed and s.stock:
        known.add(s.stock[-1])
    known |= {c for p, c in s.drawn if p == seat}
    return known
