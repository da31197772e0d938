"""Moving the match on after a hand: thrown-in and annulled hands, golden rounds, the dealer."""

from __future__ import annotations

from bot.game.events import DealerPenalized, Event, HandAnnulled, HandScored, MatchWon
from bot.game.notes import note
from bot.game.rules import Rules
from bot.game.state import HandEnd, HandResult, Match, Phase, State, evolve


def throw_in(state: State, events: list[Event] | None) -> None:
    """Everyone passed: no score, the deal passes on (option opening_bid_forced)."""
    n = state.rules.seats
    result = HandResult(
        end=HandEnd.THROWN_IN, dealer=state.match.dealer, declarer=-1, contract=0, complete=True,
        taken={}, marriages={}, delta=(0,) * n, totals=state.match.totals,
        notes=(note("thrown_in"),), hand_no=state.match.hand_no,
        sitter=state.sitter, golden=state.golden, barrel_hands=state.match.barrel_hands,
        dashes=state.match.dashes, sticks=state.match.sticks, no_wins=state.match.no_wins,
        penalties=(0,) * n,
    )
    m = after_scored_hand(state.rules, state.match, state.match.totals, made=False,
                          golden=state.golden)
    finish(state, m, result, events)


def annul(
    state: State, seat: int, reason: str, nines: bool, events: list[Event] | None, *,
    dealt: bool = False,
) -> None:
    """A redeal claim: nobody scores; the same dealer deals again (or pays and passes it on).

    ``dealt``: no claim, the deal itself annuls the hand (a mandatory nines redeal).
    """
    r = state.rules
    m = state.match
    n = r.seats
    totals = list(m.totals)
    barrel_hands = list(m.barrel_hands)
    delta = [0] * n
    notes = [note("dealt_annulled" if dealt else "claimed_annulled", who=seat, reason=reason)]
    count = m.nines_annuls + 1 if nines else 0
    dealer = m.dealer
    if r.nines_redeal_dealer_penalty and count >= 3:
        totals[dealer] -= 120
        delta[dealer] = -120
        if totals[dealer] != r.barrel_at:
            barrel_hands[dealer] = 0
        notes.append(note("dealer_penalty", who=dealer))
        if events is not None:
            events.append(DealerPenalized(dealer, 120, note("why.dealer_penalty")))
        dealer = (dealer + 1) % n
        count = 0
    m = evolve(m, totals=tuple(totals), barrel_hands=tuple(barrel_hands), dealer=dealer,
                nines_annuls=count)
    result = HandResult(
        end=HandEnd.ANNULLED, dealer=state.match.dealer, declarer=-1, contract=0, complete=True,
        taken={}, marriages={}, delta=tuple(delta), totals=m.totals, notes=tuple(notes),
        hand_no=state.match.hand_no, sitter=state.sitter, golden=state.golden,
        barrel_hands=m.barrel_hands, dashes=m.dashes, sticks=m.sticks, no_wins=m.no_wins,
        penalties=tuple(delta),
    )
    if events is not None:
        events.append(HandAnnulled(dealer))
    finish(state, m, result, events)


def after_scored_hand(
    rules: Rules, match: Match, totals: tuple[int, ...], *, made: bool, golden: bool,
    winners: tuple[int, ...] = (), notes: list[str] | None = None,
    barrel_hands: tuple[int, ...] | None = None, barrel_falls: tuple[int, ...] | None = None,
    dashes: tuple[int, ...] | None = None, rospisat_calls: tuple[int, ...] | None = None,
    spisat_calls: tuple[int, ...] | None = None, sticks: tuple[int, ...] | None = None,
    no_wins: tuple[int, ...] | None = None,
) -> Match:
    """The match after a scored hand: new counters, golden-round bookkeeping, next dealer."""
    golden_left, golden_made = match.golden_left, match.golden_made
    if barrel_hands is None:
        barrel_hands = match.barrel_hands
    if golden and golden_left > 0:
        golden_left -= 1
        golden_made = golden_made or made
        if golden_left == 0 and not golden_made and not winners:
            golden_left = rules.seats
            if notes is not None:
                notes.append(note("golden_again"))
            if rules.golden_round_reset:
                totals = (0,) * rules.seats
                barrel_hands = (0,) * rules.seats  # nobody is on the barrel at 0
                if notes is not None:
                    notes.append(note("golden_reset"))
        if golden_left == rules.seats:
            golden_made = False
    return Match(  # positional: the keyword call costs more, and it runs at every hand
        totals, barrel_hands, match.barrel_falls if barrel_falls is None else barrel_falls,
        match.dashes if dashes is None else dashes,
        match.rospisat_calls if rospisat_calls is None else rospisat_calls,
        match.spisat_calls if spisat_calls is None else spisat_calls,
        (match.dealer + 1) % rules.seats, match.hand_no, golden_left, golden_made, 0, winners,
        match.sticks if sticks is None else sticks, match.no_wins if no_wins is None else no_wins)


def finish(
    state: State, match: Match, result: HandResult, events: list[Event] | None,
    pending: list[Event] | None = None,
) -> None:
    state.match = match
    state.last_result = result
    state.to_act = -1
    state.phase = Phase.MATCH_OVER if match.winners else Phase.DEALING
    if events is not None:
        events += pending or ()
        events.append(HandScored(result))
        if match.winners:
            events.append(MatchWon(match.winners))
