"""Scoring a hand and moving the match on: the pipeline of RULES.md §2.15, in its exact order."""

from __future__ import annotations

from bot.game.cards import ALL_ACES, marriages_in, mask_points
from bot.game.events import (
    ClimbedBarrel,
    DashGiven,
    DealerPenalized,
    Event,
    HandAnnulled,
    HandScored,
    LeftBarrel,
    MatchWon,
)
from bot.game.rules import (
    Barrel,
    BarrelConflict,
    DeclarerScores,
    DiscardsCountFor,
    FinalTie,
    RospisatAward,
    Rules,
    SitterBonus,
)
from bot.game.state import HandEnd, HandResult, Match, Phase, State, evolve


def round_nearest(x: int, u: int) -> int:
    """Nearest multiple of u; exactly halfway goes up (RULES.md §1.5)."""
    q, r = divmod(x, u)
    return (q + 1) * u if 2 * r >= u else q * u


def round_up_half(amount: int, u: int) -> int:
    """round_up(amount / 2, u) without floats."""
    return -(-amount // (2 * u)) * u if u > 1 else -(-amount // 2)


def reaches_target(rules: Rules, total: int) -> bool:
    return total > rules.target if rules.target_exceed else total >= rules.target


def on_classic_barrel(rules: Rules, total: int) -> bool:
    return rules.barrel is Barrel.CLASSIC and total == rules.barrel_at


def on_any_barrel(rules: Rules, total: int) -> bool:
    if rules.barrel is Barrel.CLASSIC:
        return total == rules.barrel_at
    return rules.barrel is Barrel.LVIV and rules.barrel_at <= total < rules.target


def is_locked(rules: Rules, total: int) -> bool:
    return rules.lock_at is not None and rules.lock_at <= total < rules.target


def raw_points(s: State) -> dict[int, int]:
    """Card points plus declarations per active player, before rounding (``taken``)."""
    r = s.rules
    raw = {}
    for p in s.active:
        decl = s.decl[p]
        if r.declarations_need_trick and s.won[p] == 0:
            decl = 0
        raw[p] = s.points[p] + decl
    d = s.declarer
    if d >= 0:
        if r.discards_count_for is DiscardsCountFor.DECLARER:
            raw[d] += mask_points(s.discards)
        if (r.slam_claims_talons and s.contract == 120 and s.won[d] == s.trick_no
                and not any(p == d for p, suit, _ in s.decl_log if suit >= 0)):
            raw[d] = 120
    return raw


def sitter_bonus(s: State) -> int:
    r = s.rules
    if s.sitter < 0 or r.sitter_bonus is SitterBonus.NONE or not s.talons:
        return 0
    talon = s.talons[0]
    marriages = sum(r.marriage_values[m] for m in marriages_in(talon))
    if r.sitter_bonus is SitterBonus.ACES_MARRIAGE:
        bonus = r.sitter_ace_value * (talon & ALL_ACES).bit_count() + marriages
    else:
        bonus = round_nearest(mask_points(talon), r.rounding) + marriages
    if r.sitter_bonus_cap is not None:
        bonus = min(bonus, r.sitter_bonus_cap)
    return bonus


def throw_in(s: State, events: list[Event] | None) -> None:
    """Everyone passed: no score, the deal passes on (D17)."""
    n = s.rules.seats
    result = HandResult(
        end=HandEnd.THROWN_IN, dealer=s.match.dealer, declarer=-1, contract=0, complete=True,
        taken={}, marriages={}, delta=(0,) * n, totals=s.match.totals,
        notes=("everyone passed: the hand is thrown in",), hand_no=s.match.hand_no,
        sitter=s.sitter, golden=s.golden, barrel_hands=s.match.barrel_hands,
        dashes=s.match.dashes, penalties=(0,) * n,
    )
    m = _after_scored_hand(s.rules, s.match, s.match.totals, made=False, golden=s.golden)
    _finish(s, m, result, events)


def annul(s: State, seat: int, reason: str, nines: bool, events: list[Event] | None) -> None:
    """A redeal claim: nobody scores; the same dealer deals again (or pays and passes it on)."""
    r = s.rules
    m = s.match
    n = r.seats
    totals = list(m.totals)
    barrel_hands = list(m.barrel_hands)
    delta = [0] * n
    notes = [f"{{{seat}}} claimed a redeal ({reason}): the hand is annulled"]
    count = m.nines_annuls + 1 if nines else 0
    dealer = m.dealer
    if r.nines_redeal_dealer_penalty and count >= 3:
        totals[dealer] -= 120
        delta[dealer] = -120
        if totals[dealer] != r.barrel_at:
            barrel_hands[dealer] = 0
        notes.append(f"{{{dealer}}} loses 120: three nines redeals in a row; the deal passes on")
        if events is not None:
            events.append(DealerPenalized(dealer, 120, "three nines redeals in a row"))
        dealer = (dealer + 1) % n
        count = 0
    m = evolve(m, totals=tuple(totals), barrel_hands=tuple(barrel_hands), dealer=dealer,
                nines_annuls=count)
    result = HandResult(
        end=HandEnd.ANNULLED, dealer=s.match.dealer, declarer=-1, contract=0, complete=True,
        taken={}, marriages={}, delta=tuple(delta), totals=m.totals, notes=tuple(notes),
        hand_no=s.match.hand_no, sitter=s.sitter, golden=s.golden,
        barrel_hands=m.barrel_hands, dashes=m.dashes, penalties=tuple(delta),
    )
    if events is not None:
        events.append(HandAnnulled(dealer))
    _finish(s, m, result, events)


def score_giveup(s: State, kind: HandEnd, events: list[Event] | None) -> None:
    """Rospisat, spisat or the 100 concession: the hand is scored without play."""
    r = s.rules
    n = r.seats
    d = s.declarer
    base = [0] * n
    bid = s.winning_bid
    if kind is HandEnd.ROSPISAT:
        award = 60
        if r.rospisat_award is RospisatAward.HALF_BID_UP5:
            award = round_up_half(bid, 5)
        elif r.rospisat_award is RospisatAward.HALF_BID_UP10:
            award = round_up_half(bid, 10)
        for p in s.active:
            if p != d:
                base[p] = award
    elif kind is HandEnd.SPISAT:
        base[d] = -bid
    else:
        base[d] = -bid
        for p in s.active:
            if p != d:
                base[p] = round_up_half(bid, r.rounding)
    _pipeline(s, kind, base, None, None, events)


def score_played_hand(s: State, events: list[Event] | None) -> None:
    r = s.rules
    n = r.seats
    raw = raw_points(s)
    base = [0] * n
    d = s.declarer
    made: bool | None = None
    for p in s.active:
        if p == d:
            continue
        if r.barrel_exact_points and r.barrel is Barrel.LVIV and on_any_barrel(
            r, s.match.totals[p]
        ):
            base[p] = raw[p]
        else:
            base[p] = round_nearest(raw[p], r.rounding)
    if d >= 0:
        made = raw[d] >= s.contract
        if not made:
            base[d] = -s.contract
        elif r.declarer_scores is DeclarerScores.POINTS_TAKEN:
            base[d] = round_nearest(raw[d], r.rounding)
        else:
            base[d] = s.contract
    _pipeline(s, HandEnd.PLAYED, base, raw, made, events)


# The pipeline is long because RULES.md §2.15 fixes one order for every step; keeping the
# steps in one function makes that order visible.
def _pipeline(
    s: State, end: HandEnd, base: list[int], raw: dict[int, int] | None, made: bool | None,
    out: list[Event] | None,
) -> None:
    r = s.rules
    m = s.match
    n = r.seats
    d = s.declarer
    start = m.totals
    notes: list[str] = []
    events: list[Event] = []
    # 2. multiplier
    mult = (2 if s.golden else 1) * (2 if s.blind_win else 1)
    # 3. base deltas (+ sitter bonus), multiplied
    if s.sitter >= 0:
        base[s.sitter] = sitter_bonus(s)
    deltas = [b * mult for b in base]
    # 4. suppression
    at = r.barrel_at
    classic = r.barrel is Barrel.CLASSIC
    lock = r.lock_at
    for p in range(n):
        t = start[p]
        if p != d and ((classic and t == at) or (lock is not None and lock <= t < r.target) or (
            p == s.sitter and on_any_barrel(r, t)
        )):
            deltas[p] = 0
    # 5. counter penalties (not multiplied)
    dashes = list(m.dashes)
    pen = [0] * n
    ros = list(m.rospisat_calls)
    spis = list(m.spisat_calls)
    if end is HandEnd.PLAYED and raw is not None:
        for p in s.active:
            if p == d:
                continue
            if r.zero_penalty > 0 and raw[p] == 0 and not on_any_barrel(r, start[p]):
                dashes[p] += 1
                events.append(DashGiven(p, dashes[p]))
                notes.append(f"{{{p}}} took nothing: a dash ({dashes[p]} of 3)")
                if dashes[p] >= 3:
                    deltas[p] -= r.zero_penalty
                    pen[p] -= r.zero_penalty
                    dashes[p] = 0
                    notes.append(f"{{{p}}} loses {r.zero_penalty} for a third dash")
            if r.lock_no_trick_penalty and is_locked(r, start[p]) and s.won[p] == 0:
                deltas[p] -= r.lock_no_trick_penalty
                pen[p] -= r.lock_no_trick_penalty
                notes.append(f"{{{p}}} is locked and took no trick: −{r.lock_no_trick_penalty}")
    if end is HandEnd.ROSPISAT:
        ros[d] += 1
        notes.append(f"{{{d}}} declared rospisat")
        if r.rospisat_penalty and ros[d] % 3 == 0:
            deltas[d] -= r.rospisat_penalty
            pen[d] -= r.rospisat_penalty
            notes.append(f"{{{d}}} loses {r.rospisat_penalty} for a third rospisat")
    elif end is HandEnd.SPISAT:
        spis[d] += 1
        notes.append(f"{{{d}}} declared spisat")
    elif end is HandEnd.CONCEDE:
        notes.append(f"{{{d}}} conceded the forced {s.winning_bid}")
    if end is HandEnd.PLAYED and d >= 0:
        notes.insert(0, f"{{{d}}} {'made' if made else 'failed'} {s.contract}")
    if mult > 1:
        notes.append(f"every amount of this hand counts {mult} times")
    # 6. provisional totals
    new = [start[p] + deltas[p] for p in range(n)]
    # 7. barrel transitions
    bh = list(m.barrel_hands)
    falls = list(m.barrel_falls)
    top = r.target + 1 if r.target_exceed else r.target
    if classic and (at in start or any(at <= x < top for x in new)):
        _classic_barrel(s, end, made, start, new, bh, falls, notes, events)
    elif r.barrel is Barrel.LVIV:
        for p in range(n):
            if start[p] < r.barrel_at and r.barrel_at <= new[p] < r.target:
                new[p] = r.barrel_at
                events.append(ClimbedBarrel(p))
                notes.append(f"{{{p}}} climbed onto the barrel")
    # 9. 555
    if r.reset_at_555:
        for p in range(n):
            if new[p] == 555:
                new[p] = 0
                notes.append(f"{{{p}}} hit exactly 555 and goes back to 0")
    # 10. winner
    winners = _winners(r, d, new)
    golden_made = bool(made) and d >= 0
    m2 = _after_scored_hand(r, m, tuple(new), made=golden_made, golden=s.golden,
                            winners=winners, notes=notes, barrel_hands=tuple(bh),
                            barrel_falls=tuple(falls), dashes=tuple(dashes),
                            rospisat_calls=tuple(ros), spisat_calls=tuple(spis))
    for w in winners:
        notes.append(f"{{{w}}} wins the match" if len(winners) == 1 else
                     f"{{{w}}} shares the win")
    fell = tuple(e.seat for e in events if isinstance(e, LeftBarrel) and e.fell) if (
        events) else ()
    marriages: dict[int, tuple[int, ...]] = {}
    for p, suit, _ in s.decl_log:
        if suit >= 0:
            marriages[p] = (*marriages.get(p, ()), suit)
    result = HandResult(
        end=end, dealer=m.dealer, declarer=d, contract=s.contract if d >= 0 else 0,
        complete=True, taken=dict(raw) if raw is not None else {}, marriages=marriages,
        delta=tuple(m2.totals[p] - start[p] for p in range(n)), totals=m2.totals,
        notes=tuple(notes), made=made, multiplier=mult, winners=winners,
        aces=tuple(p for p, suit, _ in s.decl_log if suit < 0),
        hand_no=m.hand_no, sitter=s.sitter, golden=s.golden, barrel_hands=m2.barrel_hands,
        dashes=m2.dashes, penalties=tuple(pen),
        climbed=tuple(p for p in range(n) if p not in fell and any(
            isinstance(e, ClimbedBarrel) and e.seat == p for e in events)) if events else (),
        fell=fell,
    )
    _finish(s, m2, result, out, events)


def _classic_barrel(
    s: State, end: HandEnd, made: bool | None, start: tuple[int, ...], new: list[int],
    bh: list[int], falls: list[int], notes: list[str], events: list[Event],
) -> None:
    r = s.rules
    d = s.declarer
    at = r.barrel_at
    fall_to = at - 120

    def fall(p: int) -> None:
        falls[p] += 1
        bh[p] = 0
        new[p] = 0 if r.barrel_third_fall_reset and falls[p] % 3 == 0 else fall_to
        events.append(LeftBarrel(p, new[p], fell=True))
        notes.append(f"{{{p}}} fell off the barrel to {new[p]}")

    def in_zone(x: int) -> bool:
        return at <= x <= r.target if r.target_exceed else at <= x < r.target

    newcomers: list[int] = []
    stayed: list[int] = []
    for p in range(r.seats):
        if start[p] == at:
            if p == s.sitter:
                stayed.append(p)
                continue
            if p == d and not (end is HandEnd.PLAYED and made):
                bh[p] = 0
                events.append(LeftBarrel(p, new[p], fell=False))
                notes.append(f"{{{p}}} is off the barrel")
                continue
            if p == d and reaches_target(r, new[p]):
                continue
            new[p] = at
            bh[p] += 1
            if bh[p] >= r.barrel_hands:
                fall(p)
            else:
                stayed.append(p)
        elif in_zone(new[p]):
            new[p] = at
            bh[p] = 0
            newcomers.append(p)
            events.append(ClimbedBarrel(p))
            notes.append(f"{{{p}}} climbed onto the barrel")
    if not newcomers:
        return
    if r.barrel_conflict is BarrelConflict.ALL_FALL and (len(newcomers) > 1 or stayed):
        for p in newcomers:
            fall(p)
    elif r.barrel_conflict is BarrelConflict.NEWCOMER_KNOCKS_OFF:
        for p in stayed:
            fall(p)


def _winners(r: Rules, d: int, new: list[int]) -> tuple[int, ...]:
    reached = [p for p in range(r.seats) if reaches_target(r, new[p])]
    if not reached:
        return ()
    if d >= 0 and d in reached and r.declarer_wins_ties:
        return (d,)
    top = max(new[p] for p in reached)
    tied = tuple(p for p in reached if new[p] == top)
    if len(tied) > 1 and r.final_tie is FinalTie.PLAY_ON:
        return ()
    return tied


def _after_scored_hand(
    r: Rules, m: Match, totals: tuple[int, ...], *, made: bool, golden: bool,
    winners: tuple[int, ...] = (), notes: list[str] | None = None,
    barrel_hands: tuple[int, ...] | None = None, barrel_falls: tuple[int, ...] | None = None,
    dashes: tuple[int, ...] | None = None, rospisat_calls: tuple[int, ...] | None = None,
    spisat_calls: tuple[int, ...] | None = None,
) -> Match:
    """The match after a scored hand: new counters, golden-round bookkeeping, next dealer."""
    golden_left, golden_made = m.golden_left, m.golden_made
    if barrel_hands is None:
        barrel_hands = m.barrel_hands
    if golden and golden_left > 0:
        golden_left -= 1
        golden_made = golden_made or made
        if golden_left == 0 and not golden_made and not winners:
            golden_left = r.seats
            if notes is not None:
                notes.append("no golden contract was made: another golden round follows")
            if r.golden_round_reset:
                totals = (0,) * r.seats
                barrel_hands = (0,) * r.seats  # nobody is on the barrel at 0
                if notes is not None:
                    notes.append("all totals go back to 0 for the new golden round")
        if golden_left == r.seats:
            golden_made = False
    return Match(
        totals=totals, barrel_hands=barrel_hands,
        barrel_falls=m.barrel_falls if barrel_falls is None else barrel_falls,
        dashes=m.dashes if dashes is None else dashes,
        rospisat_calls=m.rospisat_calls if rospisat_calls is None else rospisat_calls,
        spisat_calls=m.spisat_calls if spisat_calls is None else spisat_calls,
        dealer=(m.dealer + 1) % r.seats, hand_no=m.hand_no, golden_left=golden_left,
        golden_made=golden_made, nines_annuls=0, winners=winners)


def _finish(
    s: State, m: Match, result: HandResult, events: list[Event] | None,
    pending: list[Event] | None = None,
) -> None:
    s.match = m
    s.last_result = result
    s.to_act = -1
    s.phase = Phase.MATCH_OVER if m.winners else Phase.DEALING
    if events is not None:
        events += pending or ()
        events.append(HandScored(result))
        if m.winners:
            events.append(MatchWon(m.winners))
