"""Sampled worlds: full states that agree with everything one seat knows.

A world is built from the observation only: the seat's own cards, what it saw (a shown
talon, gifts, shown marriages, every played card), and what play revealed (voids, cards a
seat would have had to play). The hidden cards are dealt at random within those limits.
The search plays on these states with the engine; the real state is never used.
"""

from __future__ import annotations

import random

from bot.ai.memory import Memory, recall
from bot.game.actions import Verb, act
from bot.game.cards import RK, RQ, cards_of, marriages_in, to_mask
from bot.game.dealing import new_match
from bot.game.engine import legal_actions
from bot.game.exchange import giveup_refusal
from bot.game.limits import qualifies_high
from bot.game.observation import Observation
from bot.game.rules import FourAcesEffect
from bot.game.state import HandEnd, Match, Phase, State

_GIVEUPS = ((Verb.ROSPISAT, HandEnd.ROSPISAT), (Verb.SPISAT, HandEnd.SPISAT),
            (Verb.CONCEDE, HandEnd.CONCEDE))


class Sampler:
    """Deals the cards one seat cannot see, again and again, within what it knows."""

    def __init__(self, o: Observation, memory: Memory | None = None) -> None:
        self.o = o
        me = o.seat
        if me is None:
            raise ValueError("a spectator has no hand to search from")
        self.me = me
        self.mem = memory or recall(o)
        out = self.mem.played | to_mask(o.hand)
        if me == o.declarer:
            out |= to_mask(o.discards)
        self.unknown = o.rules.deck_mask & ~out
        self.locs = locs = _locations(o, me)
        self.ok = sum(size for _, _, size in locs) == self.unknown.bit_count()
        hand_loc = {idx: j for j, (kind, idx, _) in enumerate(locs) if kind == "hand"}
        allowed = _allowed_places(o, me, self.mem, self.unknown, locs, hand_loc)
        # Seats that bid above the marriage limit hold a marriage (checked by rejection).
        self.need_marriage = [
            p for p in hand_loc if o.phase is Phase.BIDDING and any(
                q == p and _needs_marriage(o, amount) for q, amount, _ in o.bids)]
        self.hand_loc = hand_loc
        self.allowed = allowed
        # Most constrained first, so that a random pass rarely dead-ends.
        self.order = sorted(allowed, key=lambda c: bin(allowed[c]).count("1"))

    def deal(self, rng: random.Random) -> list[int] | None:
        """One random placement of the unknown cards: a mask per location (None: stuck)."""
        if not self.ok:
            return None
        sizes = [size for _, _, size in self.locs]
        for attempt in range(30):
            strict = attempt < 25
            left = sizes[:]
            masks = [0] * len(sizes)
            cards = self.order if strict else list(self.allowed)
            if not strict:
                rng.shuffle(cards)
            stuck = False
            for c in cards:
                a = self.allowed[c] if strict else (1 << len(sizes)) - 1
                total = 0
                for j in range(len(sizes)):
                    if a >> j & 1:
                        total += left[j]
                if total == 0:
                    stuck = True
                    break
                x = rng.random() * total
                for j in range(len(sizes)):
                    if a >> j & 1 and left[j]:
                        x -= left[j]
                        if x < 0:
                            break
                left[j] -= 1
                masks[j] |= 1 << c
            if stuck:
                continue
            if strict and self.need_marriage and attempt < 20 and not all(
                    qualifies_high(self.o.rules, masks[self.hand_loc[p]])
                    for p in self.need_marriage):
                continue
            return masks
        return None

    def world(self, rng: random.Random) -> State | None:
        """A full state that agrees with the observation (None if none was found)."""
        masks = self.deal(rng)
        if masks is None:
            return None
        return build_state(self.o, self.locs, masks, rng)


Location = tuple[str, int, int]  # (kind, index, size): a hand, the discards, a talon, the stock


def _locations(o: Observation, me: int) -> list[Location]:
    """Where the cards ``me`` cannot see lie: ('hand', seat), ('discards', declarer),
    ('talon', i), ('stock', 0), each with its number of cards."""
    locs: list[Location] = []
    for p in o.active:
        if p != me:
            locs.append(("hand", p, o.hand_sizes[p]))
    if me != o.declarer and o.discard_count:
        locs.append(("discards", o.declarer, o.discard_count))
    for i, size in enumerate(o.talon_sizes):
        if i != o.talon_index:
            locs.append(("talon", i, size))
    if o.stock_size:
        locs.append(("stock", 0, o.stock_size))
    return locs


def _allowed_places(o: Observation, me: int, mem: Memory, unknown: int,
                    locs: list[Location], hand_loc: dict[int, int]) -> dict[int, int]:
    """Each unknown card's possible locations, a bit per location: not where play showed it
    cannot be, the taken talon and seen gifts where they went, shown marriages' cards with
    the seat that showed them."""
    every = (1 << len(locs)) - 1
    allowed = dict.fromkeys(cards_of(unknown), every)
    disc_loc = next((j for j, (kind, _, _) in enumerate(locs) if kind == "discards"), -1)
    for p, j in hand_loc.items():
        for c in cards_of(mem.forbidden[p] & unknown):
            allowed[c] &= ~(1 << j)
    hidden_receivers = [to for c, to in o.gifts if c < 0 and to != me]
    d = o.declarer
    # The talon the declarer took: in his hand, his discards, or a hidden gift.
    if o.talon is not None and d != me and d >= 0:
        where = 0
        if d in hand_loc:
            where |= 1 << hand_loc[d]
        if disc_loc >= 0:
            where |= 1 << disc_loc
        for to in hidden_receivers:
            if to in hand_loc:
                where |= 1 << hand_loc[to]
        for c in o.talon:
            if c in allowed:
                allowed[c] &= where or every
    for c, to in o.gifts:
        if c >= 0 and c in allowed and to in hand_loc:
            allowed[c] &= 1 << hand_loc[to]
    _place_shown_marriages(o, allowed, hand_loc, disc_loc, hidden_receivers)
    return allowed


def _place_shown_marriages(o: Observation, allowed: dict[int, int], hand_loc: dict[int, int],
                           disc_loc: int, hidden_receivers: list[int]) -> None:
    """A shown marriage's king and queen stay with the seat that showed it (the declarer's
    may have gone to his discards or a hidden gift)."""
    d = o.declarer
    for p, suit in o.shown_marriages:
        if p in hand_loc:
            where = 1 << hand_loc[p]
            if p == d and disc_loc >= 0:
                where |= 1 << disc_loc
            for to in hidden_receivers if p == d else ():
                if to in hand_loc:
                    where |= 1 << hand_loc[to]
            for c in (suit * 8 + RK, suit * 8 + RQ):
                if c in allowed and allowed[c] & where:
                    allowed[c] &= where


def _needs_marriage(o: Observation, amount: int) -> bool:
    r = o.rules
    return any(limit is not None and amount > limit
               for limit in (r.marriage_required_above, r.show_marriage_above))


def build_state(o: Observation, locs: list[Location], masks: list[int],
                rng: random.Random) -> State:
    """The engine state of one sampled placement of the hidden cards."""
    r = o.rules
    n = r.seats
    s = new_match(r, o.dealer)
    s.match = Match(
        totals=o.totals, barrel_hands=o.barrel_hands, barrel_falls=(0,) * n, dashes=o.dashes,
        rospisat_calls=o.rospisat_calls, spisat_calls=(0,) * n, dealer=o.dealer,
        hand_no=o.hand_no, golden_left=n if o.golden else 0)
    held, talons, discards, stock = _placed_cards(o, locs, masks, rng)
    s.held = held
    s.dealt = tuple(held)
    s.talons = tuple(talons)
    s.stock = tuple(stock)
    s.stock_pos = 0
    s.phase = o.phase
    s.to_act = o.to_act
    s.golden = o.golden
    _restore_auction(s, o)
    _restore_exchange(s, o, held, discards, rng)
    _restore_play(s, o)
    if o.phase in (Phase.EXCHANGE, Phase.CONTRACT) and o.declarer >= 0:
        d = o.declarer
        s.giveups = tuple(act(d, v) for v, kind in _GIVEUPS
                          if giveup_refusal(s, d, kind) is None) if (
            r.rospisat or r.spisat_max > 0 or r.hundred_concede) else ()
    return s


def _placed_cards(o: Observation, locs: list[Location], masks: list[int],
                  rng: random.Random) -> tuple[list[int], list[int], int, list[int]]:
    """The hands, talons, discards and stock of a placement, with the seat's own cards."""
    me = o.seat
    assert me is not None
    held = [0] * o.rules.seats
    held[me] = to_mask(o.hand)
    talons = [0] * len(o.talon_sizes)
    discards = to_mask(o.discards) if me == o.declarer else 0
    stock: list[int] = []
    for (kind, idx, _), m in zip(locs, masks, strict=True):
        if kind == "hand":
            held[idx] = m
        elif kind == "discards":
            discards = m
        elif kind == "talon":
            talons[idx] = m
        else:
            stock = cards_of(m)
            rng.shuffle(stock)
            if o.stock_bottom >= 0 and o.stock_bottom in stock:
                stock.remove(o.stock_bottom)
                stock.append(o.stock_bottom)
    if 0 <= o.talon_index < len(talons):
        if o.talon is not None:
            talons[o.talon_index] = to_mask(o.talon)
        else:  # cards of the right count from the declarer's side
            pool = cards_of(held[o.declarer] | discards)
            talons[o.talon_index] = to_mask(pool[: o.talon_sizes[o.talon_index]])
    return held, talons, discards, stock


def _restore_auction(s: State, o: Observation) -> None:
    """The auction as the observation shows it: bids, passes, blind bids, silenced seats."""
    r = o.rules
    if r.silence_below is not None:
        s.silenced = sum(1 << p for p in s.active if o.totals[p] < r.silence_below)
    s.bids = o.bids
    s.high, s.high_bidder = o.high, o.high_bidder
    s.high_blind = any(p == o.high_bidder and a == o.high and b for p, a, b in o.bids)
    s.passed = sum(1 << p for p in o.passed)
    s.acted = to_mask(p for p, _, _ in o.bids)
    if r.blind_bidding and o.phase is Phase.BIDDING:
        looked = {p for p, a, b in o.bids if not b}
        s.blind = sum(1 << p for p in s.active if p not in looked)
    mb = [0] * r.seats
    for p, a, _ in o.bids:
        mb[p] = max(mb[p], a)
    s.max_bid_by = tuple(mb)


def _restore_exchange(s: State, o: Observation, held: list[int], discards: int,
                      rng: random.Random) -> None:
    """The talon and the exchange: the declarer, shown marriages and claims, the gifts (a
    face-down one not seen is any card its receiver holds or played), the contract."""
    s.shown_marriages = o.shown_marriages
    s.claims = tuple((p, why, to_mask(shown)) for p, why, shown in o.claims)
    s.declarer = o.declarer
    s.winning_bid = o.winning_bid
    s.blind_win = o.declarer >= 0 and s.high_blind
    s.talon_index = o.talon_index
    s.talon_shown = o.talon_shown
    gifts = []
    for c, to in o.gifts:
        if c < 0:  # a face-down gift I did not see: any card its receiver holds or played
            pool = cards_of(held[to]) or [x for p, x in o.played if p == to]
            c = pool[int(rng.random() * len(pool))] if pool else 0
        gifts.append((c, to))
    s.gifts = tuple(gifts)
    s.discards = discards
    s.contract = o.contract
    s.contract_fixed = o.contract_fixed


def _restore_play(s: State, o: Observation) -> None:
    """The card play so far: tricks, declarations and their points, trump, the last trick."""
    r = o.rules
    s.leader = o.leader
    s.trick = o.trick
    s.trick_no = o.trick_no
    s.won = list(o.tricks_won)
    decl = [0] * r.seats
    for p, _, v in o.declarations:
        decl[p] += v
    s.decl = decl
    s.points = [o.taken[p] - decl[p] for p in range(r.seats)]
    s.decl_log = o.declarations
    s.trump = o.trump
    s.trump_locked = r.four_aces_effect is FourAcesEffect.NO_TRUMP and any(
        suit < 0 for _, suit, _ in o.declarations)
    s.marriages_declared = sum(1 for _, suit, _ in o.declarations if suit >= 0)
    s.played = to_mask(c for _, c in o.played)
    s.history = o.played
    s.last_trick = o.last_trick
    s.last_winner = o.last_winner
    s.last_result = o.last_result


def agrees(o: Observation, s: State) -> bool:
    """The world offers the seat exactly the actions the observation does."""
    return set(legal_actions(s, o.seat)) == set(o.legal)


def has_marriage(mask: int) -> bool:
    return bool(marriages_in(mask))
