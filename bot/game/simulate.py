"""Random legal play, for speed measurements and the invariant tests."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.game.actions import (
    DISCARD_TABLE,
    GIVE_TABLE,
    PASSES,
    Action,
    Deal,
    Flag,
    Verb,
    act,
    actions_for,
)
from bot.game.bidding import predeal_claim_reason, predeal_claims, two_step_range
from bot.game.cards import (
    RA,
    RK,
    RQ,
    beats,
    card,
    marriages_in,
    mask_points,
    points_of,
    rank_of,
    suit_of,
)
from bot.game.dealing import apply_deal, new_match, random_deal
from bot.game.engine import apply_into, apply_trusted, legal_actions
from bot.game.events import Event
from bot.game.exchange import claim_reason, discards_left, legal_contract, receivers_left
from bot.game.limits import auction_cap, forced_opening, highest_allowed, lowest_bid
from bot.game.rules import Rules
from bot.game.state import Phase, State
from bot.game.tricks import apply_play, legal_card_mask, legal_plays, plays_of, winning_card

Policy = Callable[[State, list[Action], random.Random], Action]

# Enum members bound once (on Python 3.11 a member read off its class costs several times
# a global); the loops below test them at every move.
_BIDDING, _EXCHANGE, _CONTRACT, _PLAY = Phase.BIDDING, Phase.EXCHANGE, Phase.CONTRACT, Phase.PLAY
_DEALING, _MATCH_OVER = Phase.DEALING, Phase.MATCH_OVER
_BID, _PLAY_VERB = Verb.BID, Verb.PLAY
_CONTRA, _REDOUBLE = Verb.CONTRA, Verb.REDOUBLE
_NO_FLAG = Flag.NONE


def random_policy(state: State, legal: list[Action], rng: random.Random) -> Action:
    """A uniformly random legal action, except that amounts lean low.

    Uniform bids would climb to hundreds and fail every time, so matches would never
    end; passing half the time and preferring the lowest bids keeps hands plausible.
    """
    phase = state.phase
    if phase is _PLAY:
        return legal[int(rng.random() * len(legal))]
    if phase is _BIDDING:
        # legal_bidding lists the bids first, then pass / redeal claims.
        k = 0
        while k < len(legal) and legal[-1 - k].verb is not _BID:
            k += 1
        nbids = len(legal) - k
        if k and (not nbids or rng.random() < 0.55):
            return legal[-1 - int(rng.random() * k)]
        return legal[min(int(rng.expovariate(1.0)), nbids - 1)]
    if phase is _CONTRACT:
        # legal_actions lists contracts, then give-ups, then leads (and a redeal claim).
        first_play = next((i for i, a in enumerate(legal) if a.verb is _PLAY_VERB), -1)
        if first_play < 0:  # contra: the contract comes first, then pass / double
            if state.contract_fixed:
                return legal[int(rng.random() * len(legal))]
            return legal[min(int(rng.expovariate(1.5)), len(legal) - 1)]
        r = rng.random()
        if r < 0.8 or first_play == 0:
            return legal[first_play + int(rng.random() * (len(legal) - first_play))]
        giveups = [a for a in legal[:first_play] if a.verb is not Verb.CONTRACT]
        if giveups and r > 0.94:
            return rng.choice(giveups)
        return legal[min(int(rng.expovariate(1.5)), first_play - 1 - len(giveups))]
    return legal[int(rng.random() * len(legal))]


def random_move(state: State, rng: random.Random) -> Action:
    """``random_policy(state, legal_actions(state), rng)`` without building the legal list.

    The same action from the same RNG state (a test checks it); the auction and exchange
    offer dozens of actions of which one is used, and listing them was a fifth of a hand.
    """
    seat = state.to_act
    phase = state.phase
    contra = state.rules.contra
    if phase is _BIDDING and not (state.silenced >> seat & 1 or state.blind):
        return _random_bid(state, seat, rng)
    if phase is _EXCHANGE and seat == state.declarer:
        return _random_exchange(state, seat, rng)
    if phase is _CONTRACT and contra:
        move = _random_doubling(state, seat, rng)
        if move is not None:
            return move
    if phase is _CONTRACT and seat == state.declarer and not contra:
        return _random_contract(state, seat, rng)
    return random_policy(state, legal_actions(state), rng)


def _random_bid(s: State, seat: int, rng: random.Random) -> Action:
    """legal_bidding drawn from: the bids lo..hi, a mizère, then a pass unless forced, then
    a claim."""
    r = s.rules
    lo = lowest_bid(s)
    hi = highest_allowed(s, seat, s.held[seat]) if r.bid_cap_before_talon is None else (
        auction_cap(s, seat, s.held[seat]))
    step = r.bid_step
    bids: tuple[Action, ...] | None = None
    if r.bid_step_high is None:
        nbids = (hi - lo) // step + 1 if hi >= lo else 0
    else:
        bids = two_step_range(r, seat, lo, hi, _NO_FLAG)
        nbids = len(bids)
    forced = forced_opening(s, seat)
    misere = 0
    if not predeal_claims(r) and not r.misere:
        if not forced and (not nbids or rng.random() < 0.55):
            return PASSES[seat]
    else:  # as random_policy draws among the pass and the claim
        misere = 1 if r.misere and r.misere_value >= lo else 0
        tail = [] if forced else [PASSES[seat]]
        if predeal_claim_reason(s, seat):
            tail.append(act(seat, Verb.REDEAL))
        if not nbids + misere and not tail:
            return random_policy(s, legal_actions(s), rng)
        if tail and (not nbids + misere or rng.random() < 0.55):
            return tail[-1 - int(rng.random() * len(tail))]
    i = min(int(rng.expovariate(1.0)), nbids + misere - 1)
    if i == nbids and misere:
        return act(seat, _BID, amount=r.misere_value, flag=Flag.MISERE)
    return act(seat, _BID, amount=lo + step * i) if bids is None else bids[i]


def _random_exchange(s: State, seat: int, rng: random.Random) -> Action:
    """The declarer's gift or discard of any card, a give-up or a claim, all equally likely."""
    held = s.held[seat]
    ncards = held.bit_count()
    receivers = receivers_left(s)
    discards = 1 if discards_left(s) else 0
    claim = claim_reason(s, seat) is not None
    total = ncards * (len(receivers) + discards) + len(s.giveups) + claim
    i = int(rng.random() * total)
    k, j = divmod(i, ncards)
    # the j-th card in card order, as the tables list a hand's moves
    if k < len(receivers):
        return actions_for(GIVE_TABLE[seat][receivers[k]], held)[j]
    if k < len(receivers) + discards:
        return actions_for(DISCARD_TABLE[seat], held)[j]
    i -= ncards * (len(receivers) + discards)
    return s.giveups[i] if i < len(s.giveups) else act(seat, Verb.REDEAL)


def _random_doubling(s: State, seat: int, rng: random.Random) -> Action | None:
    """With contra: legal_doubling (a pass, then a contra or redouble), or the declarer's
    contracts; then a claim. None for a defender before the contract is fixed."""
    claim = claim_reason(s, seat) is not None
    if s.contract_fixed:
        i = int(rng.random() * (2 + claim))
        if i == 0:
            return PASSES[seat]
        if i == 1:
            return act(seat, _REDOUBLE if seat == s.declarer else _CONTRA)
        return act(seat, Verb.REDEAL)
    if seat == s.declarer:
        contracts = legal_contract(s, seat)
        i = min(int(rng.expovariate(1.5)), len(contracts) + claim - 1)
        return contracts[i] if i < len(contracts) else act(seat, Verb.REDEAL)
    return None


def _random_contract(s: State, seat: int, rng: random.Random) -> Action:
    """The declarer names a contract, gives up, or (most often) leads at once."""
    contracts = legal_contract(s, seat)
    tail = legal_plays(s, seat)
    if claim_reason(s, seat) is not None:
        tail.append(act(seat, Verb.REDEAL))
    x = rng.random()
    if x < 0.8:
        return tail[int(rng.random() * len(tail))]
    giveups = s.giveups
    if giveups and x > 0.94:
        return rng.choice(giveups)
    return contracts[min(int(rng.expovariate(1.5)), len(contracts) - 1 - len(giveups))]


def greedy_policy(state: State, legal: list[Action], rng: random.Random) -> Action:
    """A simple player for whole matches: bids on strength, declares, wins tricks when it can.

    Random play makes most contracts fail, so totals drift below zero and matches never
    end; this stays cheap and random where it has no reason to choose.
    """
    s = state
    me = s.to_act
    phase = s.phase
    hand = s.held[me]
    rules = s.rules
    if phase is Phase.BIDDING:
        bids = [a for a in legal if a.verb is Verb.BID and a.flag is Flag.NONE]
        others = [a for a in legal if a.verb is Verb.PASS]
        strength = mask_points(hand) + sum(rules.marriage_values[m] for m in marriages_in(hand))
        strength += 25 + rng.randrange(-10, 11)
        if bids and (not others or strength >= bids[0].amount):
            return bids[0]
        misere = [a for a in legal if a.flag is Flag.MISERE]
        if misere and strength < 70 and rng.random() < 0.5:
            return misere[0]
        return others[0] if others else legal[0]
    if phase is Phase.EXCHANGE:
        moves = [a for a in legal if a.verb in (Verb.GIVE, Verb.DISCARD)]
        if moves:
            keep = _marriage_cards(hand)
            return min(moves, key=lambda a: (a.card in keep, points_of(a.card), rng.random()))
        return legal[0]
    if phase is Phase.CONTRACT or (phase is Phase.PLAY and not s.trick):
        leads = [a for a in legal if a.verb is Verb.PLAY]
        if not leads:  # contra: fix the lowest contract, sometimes double
            contracts = [a for a in legal if a.verb is Verb.CONTRACT]
            if contracts:
                return contracts[0]
            doubles = [a for a in legal if a.verb in (Verb.CONTRA, Verb.REDOUBLE)]
            return doubles[0] if doubles and rng.random() < 0.3 else legal[0]
        declared = [a for a in leads if a.flag is not Flag.NONE]
        if declared:
            return max(declared, key=lambda a: rules.marriage_values[suit_of(a.card)])
        aces = [a for a in leads if rank_of(a.card) == RA]
        return rng.choice(aces or leads)
    if phase is Phase.PLAY:
        trump = s.trump
        best = winning_card(s.trick, trump)
        winners = [a for a in legal if a.verb is Verb.PLAY and beats(a.card, best, trump)]
        if winners and rng.random() < 0.8:
            return max(winners, key=lambda a: rank_of(a.card))
        return min(legal, key=lambda a: (points_of(a.card), rng.random()))
    return rng.choice(legal)


def _marriage_cards(hand: int) -> set[int]:
    out = set()
    for suit in marriages_in(hand):
        out |= {card(RK, suit), card(RQ, suit)}
    return out


POLICIES = {"random": random_policy, "greedy": greedy_policy}


@dataclass(frozen=True, slots=True)
class SimStats:
    hands: int
    matches: int
    unfinished: int
    seconds: float
    actions: int

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0


def play_hand(state: State, rng: random.Random, events: list[Event] | None = None, *,
              policy: Policy = random_policy, inplace: bool = False) -> tuple[State, int]:
    """Deal and play one hand with ``policy``; (state after it, actions taken).

    ``inplace=True`` plays it in ``state`` itself, for a caller that keeps no earlier state.
    """
    s = state if inplace else state.copy()
    for move in random_deal(s, rng):
        if isinstance(move, Deal):
            apply_deal(s, move, events, trusted=True)
        else:
            s = apply_into(s, move, events, inplace=True)
    n = 0
    rand = rng.random
    randomly = policy is random_policy
    while True:
        phase = s.phase
        if phase is _PLAY and randomly and (s.trick or s.trick_no):
            # Mid-play the legal actions are the legal cards (plus declarations on a lead):
            # call the trick functions directly rather than through the dispatchers, card
            # after card to the end of the hand.
            while s.phase is _PLAY:
                seat = s.to_act
                if s.trick:  # following: the legal cards, no declarations possible
                    choices: Sequence[Action] = plays_of(seat, legal_card_mask(s, seat))
                else:
                    choices = legal_plays(s, seat)
                apply_play(s, choices[int(rand() * len(choices))], events, trusted=True)
                n += 1
            continue
        if phase is _DEALING or phase is _MATCH_OVER:
            return s, n
        if randomly:
            apply_trusted(s, random_move(s, rng), events)
        else:
            s = apply_into(s, policy(s, legal_actions(s), rng), events, inplace=True)
        n += 1


def simulate(rules: Rules, *, hands: int = 0, matches: int = 0, seed: int = 0,
             max_hands_per_match: int = 2000, policy: str = "random") -> SimStats:
    """Play ``hands`` hands (a new match whenever one ends), or ``matches`` whole matches."""
    choose = POLICIES[policy]
    rng = random.Random(seed)
    state = new_match(rules, dealer=rng.randrange(rules.seats))
    played = done = unfinished = actions = 0
    in_match = 0
    t0 = time.perf_counter()
    while (hands and played < hands) or (matches and done + unfinished < matches):
        state, n = play_hand(state, rng, policy=choose, inplace=True)
        played += 1
        in_match += 1
        actions += n
        if state.phase is _MATCH_OVER or in_match >= max_hands_per_match:
            if state.phase is _MATCH_OVER:
                done += 1
            else:
                unfinished += 1
            state = new_match(rules, dealer=rng.randrange(rules.seats))
            in_match = 0
    return SimStats(played, done, unfinished, time.perf_counter() - t0, actions)
