"""The club player (``normal``) and the beginner (``easy``): rules of thumb, no search.

The club player counts sure tricks and marriages to bid, keeps its marriages together and
leads to declare them, follows with the cheapest card that wins for good, remembers every
played card and the voids play revealed, and leans its bidding on the match score. The
beginner is the same player with a beginner's habits: it bids only what it can count, forgets
what was played, leads its aces at once and now and then plays a card without thinking.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from bot.ai.memory import Memory, recall
from bot.game.actions import Action, Flag, Verb
from bot.game.barrel import reaches_target
from bot.game.cards import (
    R10,
    RA,
    RANK_OF,
    RANK_POINTS,
    RK,
    RQ,
    SUIT_MASK,
    SUIT_OF,
    beats,
    card,
    cards_of,
    marriage_cards,
    marriages_in,
    mask_points,
    to_mask,
)
from bot.game.observation import Observation
from bot.game.rules import Barrel, Deck, DiscardsCountFor
from bot.game.state import Phase

_ORDER = (40, 60, 80, 100)
# The fitted estimate is unbiased; counting on 15 points less (a risk margin for the raise
# and the rospisat) played best against simple over 3,000 duplicate deals (seeds 3 and 7).
ESTIMATE_SHIFT = -15
# How far what a declarer takes strays from declarer_estimate (its residual sd is 32-38
# points): the raise weighs each contract's chance against what it wins and loses.
ESTIMATE_SPREAD = 35


@dataclass(frozen=True, slots=True)
class Style:
    """What separates the beginner from the club player."""

    remembers: bool = True
    margin: int = 0  # points kept in reserve when bidding
    raises: bool = True
    aces_first: bool = False
    blunder: float = 0.0  # chance to play a card without thinking
    match_aware: bool = True
    rospisat_gap: int = 40  # give up when the hand counts this much below the bid
    # Hand value beyond the bid before outbidding someone, off the barrel and the lock (three
    # players, 24 cards). A defender scores every point he takes and the declarer loses his
    # bid when he fails, so letting the opener play paid better than outbidding him in every
    # band of hand value up to 80 over the bid (8,200 russian and 7,500 polish bidding
    # choices, each played out both ways against simple). 80 would leave the beginner, as
    # the forced opener, failing 40% of its polish contracts; 20 keeps it under 35%.
    compete: int = 20
    # Points a better card player takes beyond the club player with the same cards: the
    # strong player bids, raises and gives up counting on them.
    play_bonus: int = 0


NORMAL = Style()
EASY = Style(remembers=False, margin=25, raises=False, aces_first=True, blunder=0.04,
             match_aware=False, compete=0)


def marriage_worth(o: Observation, suit: int, already: int = 0) -> int:
    r = o.rules
    if r.marriage_value_mode.value == "by_order":
        return _ORDER[min(already, 3)]
    return r.marriage_values[suit]


def hand_value(o: Observation, hand: int, *, with_talon: bool, played: int | None = None) -> int:
    """Points a declarer can count on with these cards (sure tricks, marriages, a talon);
    ``played``: the cards out of play (default: every card played this hand)."""
    r = o.rules
    k = len(o.active)
    if played is None:
        played = to_mask(c for _, c in o.played)
    out = r.deck_mask & ~hand & ~played
    suits = marriages_in(hand)
    trump = max(suits, key=lambda s: marriage_worth(o, s)) if suits else -1
    pts = 0
    sure = 0
    for suit in range(4):
        mine = hand & SUIT_MASK[suit]
        if not mine:
            continue
        theirs = out & SUIT_MASK[suit]
        cards = sorted(cards_of(mine), reverse=True)
        top = 0
        for c in cards:  # a run from the top of what is still out wins for sure
            if any(x > c for x in cards_of(theirs)):
                break
            top += 1
            theirs &= ~(1 << c)
        n_theirs = (out & SUIT_MASK[suit]).bit_count()
        runs = min(top, n_theirs // (k - 1) + (1 if suit == trump else 0)) if n_theirs else top
        if suit == trump:
            runs = max(runs, top if top else 0)
            long = len(cards) - top
            if len(cards) >= 4:
                runs += max(0, long - 1)
        for c in cards[:runs]:
            pts += RANK_POINTS[RANK_OF[c]]
        sure += runs
    avg_other = (mask_points(out) / max(1, out.bit_count())) if out else 0
    pts += int(sure * (k - 1) * avg_other * 0.8)
    if suits and (sure > 0 or r.marriage_on_first_lead):
        vals = sorted((marriage_worth(o, s, i) for i, s in enumerate(suits)), reverse=True)
        pts += vals[0] + sum(int(v * 0.6) for v in vals[1:])
    if with_talon and r.talons:
        pts += 5 * max(r.talons) + (10 if not suits else 0)
    return pts


def gift_cost(hand: int) -> Callable[[int], int]:
    """How dear each card of ``hand`` is to give away (the cheapest goes first): its points,
    a marriage's king and queen, an ace, and the length of its suit (short suits go first:
    voids let trumps in)."""
    keep = marriage_cards(hand)
    counts = [(hand & SUIT_MASK[s]).bit_count() for s in range(4)]

    def cost(c: int) -> int:
        return (RANK_POINTS[RANK_OF[c]] + (100 if c in keep else 0)
                + (30 if RANK_OF[c] == RA else 0) + counts[SUIT_OF[c]])

    return cost


def contract_worth(o: Observation, amount: int, seat: int | None = None) -> int:
    """What making ``amount`` adds to the declarer's total: below the target the barrel
    keeps a climber at its foot, and a player on the classic barrel gains only by winning."""
    r = o.rules
    me = o.seat if seat is None else seat
    if me is None or r.barrel is Barrel.NONE:
        return amount
    total = o.totals[me]
    if reaches_target(r, total + amount):
        return amount
    if r.barrel is Barrel.CLASSIC and total == r.barrel_at:
        return 0
    if total < r.barrel_at <= total + amount:
        return r.barrel_at - total
    return amount


def _chance(margin: float) -> float:
    """The chance that a normal deviate with the estimate's spread stays above ``-margin``."""
    return 0.5 * (1.0 + math.erf(margin / (ESTIMATE_SPREAD * math.sqrt(2.0))))


def declarer_estimate(o: Observation, hand: int) -> int:
    """The points a declarer takes with ``hand`` once the talon is his (three players, a
    24-card deck): a linear fit of what club players took in self-play, 8,565 russian hands
    (R² 0.63 against 0.52 for :func:`hand_value`, residual sd 32 points, on a third held
    out). Features: card points, the marriages, aces, tens (bare ones count against), ace
    and ten together, the longest suit, voids and the length of the best marriage's suit."""
    suits = marriages_in(hand)
    vals = sorted((marriage_worth(o, s) for s in suits), reverse=True)
    lens = [(hand & SUIT_MASK[s]).bit_count() for s in range(4)]
    trump = max(suits, key=lambda s: marriage_worth(o, s)) if suits else -1
    aces = tens = tenaces = bare_tens = 0
    for s in range(4):
        ace, ten = hand >> card(RA, s) & 1, hand >> card(R10, s) & 1
        aces += ace
        tens += ten
        tenaces += ace & ten
        bare_tens += int(bool(ten and not ace and lens[s] <= 2))
    est = (-71.3 + 1.71 * mask_points(hand) + 0.98 * (vals[0] if vals else 0)
           + 0.53 * sum(vals[1:]) + 15.3 * aces - 3.8 * tens + 2.3 * tenaces
           + 3.3 * max(lens) + 15.7 * lens.count(0) + 3.5 * (lens[trump] if trump >= 0 else 0)
           - 6.0 * bare_tens)
    return int(est)


def fitted(o: Observation) -> bool:
    """Three players and 24 cards: what ``declarer_estimate`` and ``compete`` were fitted on."""
    return len(o.active) == 3 and o.rules.deck is Deck.NINE_ACE


def urge(o: Observation, seat: int | None, style: Style) -> int:
    """How much the match score pushes ``seat`` to bid more (or less)."""
    if not style.match_aware or seat is None:
        return 0
    r = o.rules
    out = 0
    for p in o.active:
        if p != seat and (o.on_barrel[p] or o.totals[p] >= r.target - 120):
            out += 10  # take the contract from a player about to win
    if o.on_barrel[seat]:
        out += 10
    if o.locked[seat]:
        out += 10
    return out


def bid_value(o: Observation, hand: int, style: Style, played: int | None = None) -> int:
    """What a bidder of ``style`` counts on with ``hand`` and the talon to come."""
    return hand_value(o, hand, with_talon=True, played=played) + style.play_bonus - style.margin


def bid_limit(o: Observation, seat: int | None, value: int, style: Style) -> int:
    """The highest bid a club player of ``style`` in ``seat`` makes with a hand worth
    ``value`` (its :func:`bid_value`), before its noise."""
    limit = value + urge(o, seat, style)
    if fitted(o) and seat is not None and not (o.on_barrel[seat] or o.locked[seat]):
        limit -= style.compete
    return limit


def declarer_value(o: Observation, hand: int, style: Style, played: int | None = None) -> int:
    """What a declarer of ``style`` counts on with the talon in hand."""
    if fitted(o):
        return declarer_estimate(o, hand) + ESTIMATE_SHIFT + style.play_bonus
    return hand_value(o, hand, with_talon=False, played=played) + style.play_bonus


def contract_choice(o: Observation, seat: int | None, value: int, amounts: list[int]) -> int:
    """The contract a raising club player in ``seat`` names among ``amounts`` when it counts
    on ``value`` (its declarer value less its margin)."""
    if fitted(o):
        # +C when made, -C when failed: the best contract lies well under the estimate
        # (2,600 russian hands each played out at every contract: 8.5 points a decision
        # better than raising to the estimate less 25, most of it on the barrel).
        expect = value - ESTIMATE_SHIFT

        def gain(amount: int) -> tuple[float, int]:
            p = _chance(expect - amount)
            return (p * contract_worth(o, amount, seat) - (1 - p) * amount, -amount)

        return max(amounts, key=gain)
    ok = [a for a in amounts if a <= value - 10]
    return max(ok) if ok else min(amounts)


class ClubPlayer:
    """A rules-of-thumb player; ``style`` makes it the club player or the beginner."""

    def __init__(self, style: Style = NORMAL) -> None:
        self.style = style

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        o = observation
        legal = [a for a in o.legal if a.seat == o.to_act] or list(o.legal)
        if not legal:
            raise ValueError("no legal action to choose from")
        phase = o.phase
        if phase is Phase.BIDDING:
            return self._bid(o, legal, rng)
        if phase is Phase.TALON:
            return legal[int(rng.random() * len(legal))]
        if phase is Phase.EXCHANGE:
            return self._exchange(o, legal, rng)
        if phase is Phase.CONTRACT:
            contract = self._contract(o, legal)
            if contract is not None:
                return contract
        claims = [a for a in legal if a.verb is Verb.REDEAL]
        if claims and o.declarer == o.seat and self._weak(o):
            return claims[0]
        plays = [a for a in legal if a.verb is Verb.PLAY]
        if not plays:
            return next((a for a in legal if a.verb is not Verb.REDEAL), legal[0])
        if self.style.blunder and rng.random() < self.style.blunder:
            return rng.choice([a for a in plays if a.flag is Flag.NONE] or plays)
        return CardSituation(o, self.style).play(plays, rng)

    # ---- auction ------------------------------------------------------------------------
    def _bid(self, o: Observation, legal: list[Action], rng: random.Random) -> Action:
        bids = [a for a in legal if a.verb is Verb.BID and a.flag is Flag.NONE]
        passes = [a for a in legal if a.verb is Verb.PASS]
        claims = [a for a in legal if a.verb is Verb.REDEAL]
        hand = to_mask(o.hand)
        value = bid_value(o, hand, self.style)
        if claims and value < o.rules.min_bid - 20:
            return claims[0]
        noise = rng.randrange(-3, 4)
        if bids and not passes:
            return bids[0]
        limit = bid_limit(o, o.seat, value, self.style) + noise
        ok = [a for a in bids if a.amount <= limit]
        if not ok or not passes:
            return passes[0] if passes else (bids[0] if bids else legal[0])
        # The next step: a club player does not jump.
        return ok[0]

    def _weak(self, o: Observation) -> bool:
        hand = to_mask(o.hand)
        value = self._declarer_value(o, hand)
        return value < o.contract - 10

    def _declarer_value(self, o: Observation, hand: int) -> int:
        """What the declarer counts on with the talon in hand."""
        return declarer_value(o, hand, self.style)

    # ---- exchange and contract ----------------------------------------------------------
    def _exchange(self, o: Observation, legal: list[Action], rng: random.Random) -> Action:
        moves = [a for a in legal if a.verb in (Verb.GIVE, Verb.DISCARD)]
        claims = [a for a in legal if a.verb is Verb.REDEAL]
        if claims and self._weak(o):
            return claims[0]
        if not moves:
            return legal[0]
        hand = to_mask(o.hand)
        keep = marriage_cards(hand)
        worth = gift_cost(hand)
        to_self = o.rules.discards_count_for is DiscardsCountFor.DECLARER

        def cost(a: Action) -> tuple[float, float]:
            c = a.card
            guarded = RANK_OF[c] == RA or (hand >> card(RA, SUIT_OF[c]) & 1 and RANK_OF[c] >= RK)
            if a.verb is Verb.DISCARD and to_self and not guarded and c not in keep:
                # points laid away count for the declarer
                return (-RANK_POINTS[RANK_OF[c]], rng.random())
            return (worth(c), rng.random())

        return min(moves, key=cost)

    def _contract(self, o: Observation, legal: list[Action]) -> Action | None:
        contracts = [a for a in legal if a.verb is Verb.CONTRACT]
        hand = to_mask(o.hand)
        value = self._declarer_value(o, hand) - self.style.margin
        ros = [a for a in legal if a.verb in (Verb.ROSPISAT, Verb.SPISAT)]
        if ros and value + self.style.rospisat_gap < o.winning_bid:
            me = o.seat
            third = me is not None and o.rules.rospisat_penalty and (
                o.rospisat_calls[me] % 3 == 2)
            if not third or value + 60 < o.winning_bid:
                return ros[0]
        concede = [a for a in legal if a.verb is Verb.CONCEDE]
        if concede and value < o.winning_bid - 30:
            return concede[0]
        if not contracts:
            return None
        if not self.style.raises:
            return min(contracts, key=lambda a: a.amount)
        amount = contract_choice(o, o.seat, value, [a.amount for a in contracts])
        return next(a for a in contracts if a.amount == amount)


class CardSituation:
    """One card decision: what is out, who is on whose side, what wins for good."""

    def __init__(self, o: Observation, style: Style) -> None:
        self.o = o
        self.style = style
        me = o.seat
        assert me is not None
        self.me = me
        self.hand = to_mask(o.hand)
        r = o.rules
        if style.remembers:
            self.mem: Memory | None = recall(o)
            gone = self.mem.played
        else:
            self.mem = None
            gone = to_mask(c for _, c in o.trick)
        self.out = r.deck_mask & ~self.hand & ~gone  # cards someone else may still hold
        d = o.declarer
        self.friends = {me}
        # Partners share one score; defenders of a contract share only its defeat.
        self.one_score = r.partnerships
        if r.partnerships:
            self.friends = {p for p in o.active if p % 2 == me % 2}
        elif d >= 0 and me != d:
            self.friends = {p for p in o.active if p != d}
        self.trump = o.trump

    def void(self, p: int, suit: int) -> bool:
        return self.mem is not None and bool(self.mem.voids[p] >> suit & 1)

    def may_hold(self, p: int, c: int) -> bool:
        return bool(self.out >> c & 1) and not (
            self.mem is not None and self.mem.forbidden[p] >> c & 1)

    def can_beat(self, p: int, best: int, led: int) -> bool:
        """Seat ``p`` may hold a card that beats ``best`` in a trick led in ``led``."""
        bs = SUIT_OF[best]
        for c in cards_of(self.out & SUIT_MASK[bs]):
            if c > best and self.may_hold(p, c):
                return True
        t = self.trump
        if t >= 0 and bs != t and self.void(p, led):
            return any(self.may_hold(p, c) for c in cards_of(self.out & SUIT_MASK[t]))
        return False

    def holds_top(self, c: int) -> bool:
        """No one else may hold a higher card of its suit."""
        return not any(x > c for x in cards_of(self.out & SUIT_MASK[SUIT_OF[c]]))

    def play(self, plays: list[Action], rng: random.Random) -> Action:
        o = self.o
        if o.trick:
            return self.follow(plays, rng)
        return self.lead(plays, rng)

    def lead(self, plays: list[Action], rng: random.Random) -> Action:
        o = self.o
        aces = [a for a in plays if a.flag is Flag.ACES]
        if aces:
            return aces[0]
        marriages = [a for a in plays if a.flag is Flag.MARRIAGE]
        plain = [a for a in plays if a.flag is Flag.NONE]
        if self.style.aces_first:
            bare = [a for a in plain if RANK_OF[a.card] == RA]
            if bare:
                return bare[0]
        if marriages:
            return max(marriages, key=lambda a: (marriage_worth(o, SUIT_OF[a.card]),
                                                 RANK_OF[a.card] == RQ))
        keep = marriage_cards(self.hand)
        opponents = [p for p in o.active if p not in self.friends]
        # who may take a lead from me: the opponents, and a defender playing for his points
        rivals = opponents if self.one_score else [p for p in o.active if p != self.me]
        t = self.trump
        # Pull trumps with the top trump while an opponent may still have one.
        if t >= 0:
            tops = [a for a in plain if SUIT_OF[a.card] == t and self.holds_top(a.card)
                    and a.card not in keep]
            if tops and any(any(self.may_hold(p, c) for c in cards_of(self.out & SUIT_MASK[t]))
                            for p in opponents) and o.declarer == self.me:
                return max(tops, key=lambda a: a.card)
        winners = []
        for a in plain:
            c = a.card
            if c in keep or not self.holds_top(c):
                continue
            if any(self.can_beat(p, c, SUIT_OF[c]) for p in rivals):
                continue
            winners.append(a)
        if winners:
            return max(winners, key=lambda a: (RANK_POINTS[RANK_OF[a.card]], rng.random()))
        # Nothing wins for sure: give away as little as possible, from a suit where an
        # opponent cannot ruff and where the cards are not needed for a marriage.
        def cost(a: Action) -> tuple[int, int, float]:
            c = a.card
            ruffed = t >= 0 and SUIT_OF[c] != t and any(self.void(p, SUIT_OF[c]) for p in opponents)
            pts = RANK_POINTS[RANK_OF[c]] + (50 if c in keep else 0)
            if RANK_OF[c] == RA:
                pts += 20
            return (pts + (8 if ruffed else 0), SUIT_OF[c] == t, rng.random())
        return min(plain or plays, key=cost)

    def follow(self, plays: list[Action], rng: random.Random) -> Action:
        o = self.o
        trick = o.trick
        led = SUIT_OF[trick[0][1]]
        t = self.trump
        best_seat, best = trick[0]
        for p, c in trick[1:]:
            if beats(c, best, t):
                best_seat, best = p, c
        k = len(o.active)
        order = list(o.active)
        i = order.index(self.me)
        later = [order[(i + j) % k] for j in range(1, k - len(trick))]
        later_foes = [p for p in later if p not in self.friends]
        keep = marriage_cards(self.hand)

        def cheap(a: Action) -> tuple[int, int, float]:
            c = a.card
            return (RANK_POINTS[RANK_OF[c]] + (40 if c in keep else 0)
                    + (15 if RANK_OF[c] == RA else 0), SUIT_OF[c] == t, rng.random())

        winners = [a for a in plays if beats(a.card, best, t)]
        sure = [a for a in winners if not any(self.can_beat(p, a.card, led) for p in later_foes)]

        def cheapest(a: Action) -> tuple[bool, int, int, bool]:
            c = a.card
            return (SUIT_OF[c] == t, RANK_POINTS[RANK_OF[c]], RANK_OF[c], c in keep)

        if best_seat in self.friends and not self.one_score:
            # Defenders score each for himself: a trick the other defender wins is better
            # taken over when mine for sure (its points then count for me), or left cheaply.
            return min(sure, key=cheapest) if sure else min(plays, key=cheap)
        if best_seat in self.friends:
            safe = not any(self.can_beat(p, best, led) for p in later_foes)
            if safe:  # a partner takes it: add points that are not needed later
                def smear(a: Action) -> tuple[int, float]:
                    c = a.card
                    pts = RANK_POINTS[RANK_OF[c]]
                    if c in keep or (SUIT_OF[c] == t and t >= 0) or (
                            RANK_OF[c] == RA and not self.style.aces_first):
                        pts = -pts - 1
                    return (pts, rng.random())
                return max(plays, key=smear)
            return min(plays, key=cheap)
        if sure:
            return min(sure, key=cheapest)
        if winners and sum(RANK_POINTS[RANK_OF[c]] for _, c in trick) >= 10:
            return min(winners, key=lambda a: (a.card in keep, RANK_POINTS[RANK_OF[a.card]]))
        return min(plays, key=cheap)
