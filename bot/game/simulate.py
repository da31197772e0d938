"""Random legal play, for speed measurements and the invariant tests."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from bot.game.actions import Action, Verb
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply_into, legal_actions
from bot.game.events import Event
from bot.game.rules import Rules
from bot.game.state import Phase, State
from bot.game.tricks import apply_play, legal_plays


def random_policy(state: State, legal: list[Action], rng: random.Random) -> Action:
    """A uniformly random legal action, except that amounts lean low.

    Uniform bids would climb to hundreds and fail every time, so matches would never
    end; passing half the time and preferring the lowest bids keeps hands plausible.
    """
    phase = state.phase
    if phase is Phase.PLAY:
        return legal[int(rng.random() * len(legal))]
    if phase is Phase.BIDDING:
        # legal_bidding lists the bids first, then pass / redeal claims.
        k = 0
        while k < len(legal) and legal[-1 - k].verb is not Verb.BID:
            k += 1
        nbids = len(legal) - k
        if k and (not nbids or rng.random() < 0.55):
            return legal[-1 - int(rng.random() * k)]
        return legal[min(int(rng.expovariate(1.0)), nbids - 1)]
    if phase is Phase.CONTRACT:
        plays = [a for a in legal if a.verb is Verb.PLAY]
        if plays and rng.random() < 0.8:
            return rng.choice(plays)
        contracts = [a for a in legal if a.verb is Verb.CONTRACT]
        rest = [a for a in legal if a.verb not in (Verb.PLAY, Verb.CONTRACT)]
        if rest and rng.random() < 0.3:
            return rng.choice(rest)
        return contracts[min(int(rng.expovariate(1.5)), len(contracts) - 1)]
    return legal[int(rng.random() * len(legal))]


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


def play_hand(state: State, rng: random.Random, events: list[Event] | None = None) -> tuple[
        State, int]:
    """Deal and play one hand at random; (state after it, actions taken)."""
    s = state.copy()
    for move in random_deal(s, rng):
        s = apply_into(s, move, events, inplace=True)
    n = 0
    rand = rng.random
    while True:
        phase = s.phase
        if phase is Phase.PLAY and (s.trick or s.trick_no):
            # Mid-play the legal actions are the legal cards (plus declarations on a lead):
            # call the trick functions directly rather than through the dispatchers.
            legal = legal_plays(s, s.to_act)
            apply_play(s, legal[int(rand() * len(legal))], events)
        elif phase is Phase.DEALING or phase is Phase.MATCH_OVER:
            return s, n
        else:
            s = apply_into(s, random_policy(s, legal_actions(s), rng), events, inplace=True)
        n += 1


def simulate(rules: Rules, *, hands: int = 0, matches: int = 0, seed: int = 0,
             max_hands_per_match: int = 2000) -> SimStats:
    """Play ``hands`` random hands (a new match whenever one ends), or ``matches`` matches."""
    rng = random.Random(seed)
    state = new_match(rules, dealer=rng.randrange(rules.seats))
    played = done = unfinished = actions = 0
    in_match = 0
    t0 = time.perf_counter()
    while (hands and played < hands) or (matches and done + unfinished < matches):
        state, n = play_hand(state, rng)
        played += 1
        in_match += 1
        actions += n
        if state.phase is Phase.MATCH_OVER or in_match >= max_hands_per_match:
            if state.phase is Phase.MATCH_OVER:
                done += 1
            else:
                unfinished += 1
            state = new_match(rules, dealer=rng.randrange(rules.seats))
            in_match = 0
    return SimStats(played, done, unfinished, time.perf_counter() - t0, actions)
