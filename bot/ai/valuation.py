"""What the club player's hands are worth: the style that sets its habits, the points a
hand counts on in the auction and as the declarer, what a contract adds to a total, and
which contract to name (the club player, the beginner and the strong player's bidding)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from bot.game.barrel import reaches_target
from bot.game.cards import (
    R10,
    RA,
    RANK_OF,
    RANK_POINTS,
    SUIT_MASK,
    SUIT_OF,
    card,
    cards_of,
    marriage_cards,
    marriages_in,
    mask_points,
    to_mask,
)
from bot.game.observation import Observation
from bot.game.rules import Barrel, Deck

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
