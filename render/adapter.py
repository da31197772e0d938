"""A thin, typed adapter from the engine's own types to the render views.

``table_view`` and ``hand_view`` read an ``Observation`` (``bot.game.observation``) and
nothing else: what a viewer may know is the observation's business (bot/game/observation.py), and
the public table is built only from the public parts of whatever observation it is given.
``sheet_view`` and ``summary_view`` read the ``HandResult`` of every hand of a match.

``render`` may import the pure ``bot.game`` modules, never discord, aiosqlite or asyncio.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.actions import Verb
from bot.game.cards import RK, RQ, SUITS, card, card_str, suit_of
from bot.game.dealing import seats_for_hand
from bot.game.observation import Observation, tally
from bot.game.rules import Barrel, MarriageValueMode, Rules, cards_after_exchange
from bot.game.scoring import on_any_barrel
from bot.game.state import HandEnd, HandResult, Phase
from render.labels import ENGLISH, Labels
from render.model import (
    HandView,
    SeatView,
    SheetCell,
    SheetRow,
    SheetView,
    SummaryPlayer,
    SummaryView,
    TableView,
)

# the Labels field of each phase's and each hand end's label
PHASE_LABELS: dict[Phase, str] = {
    Phase.DEALING: "phase_dealing",
    Phase.BIDDING: "phase_bidding",
    Phase.TALON: "phase_talon",
    Phase.EXCHANGE: "phase_exchange",
    Phase.CONTRACT: "phase_contract",
    Phase.PLAY: "phase_play",
    Phase.MATCH_OVER: "phase_match_over",
}
_END_LABELS: dict[HandEnd, str] = {
    HandEnd.PLAYED: "end_played",
    HandEnd.ROSPISAT: "end_rospisat",
    HandEnd.SPISAT: "end_spisat",
    HandEnd.CONCEDE: "end_conceded",
    HandEnd.THROWN_IN: "end_thrown_in",
    HandEnd.ANNULLED: "end_redeal",
}
_UNWRITTEN = (HandEnd.THROWN_IN, HandEnd.ANNULLED)


def suit_letter(suit: int) -> str | None:
    """Engine suit index (-1 = none) as a render suit letter, or None."""
    return SUITS[suit] if 0 <= suit < 4 else None


def _names(names: Sequence[str], n: int, labels: Labels = ENGLISH) -> list[str]:
    out = [str(x) for x in names[:n]]
    out += [labels.say(labels.seat, no=i + 1) for i in range(len(out), n)]
    return out


def phase_label(obs: Observation, labels: Labels = ENGLISH) -> str:
    """Short label of where the hand is: "Bidding", "Play · trick 3/7", "Hand over"…"""
    if obs.phase is Phase.DEALING:
        end = _END_LABELS[obs.last_result.end] if obs.last_result is not None else None
        label = str(getattr(labels, end)) if end else labels.phase_dealing
    elif obs.phase is Phase.PLAY:
        tricks = cards_after_exchange(obs.rules)
        label = labels.say(labels.play_trick, no=min(obs.trick_no + 1, tricks), of=tricks)
    else:
        label = str(getattr(labels, PHASE_LABELS[obs.phase]))
    if obs.golden and obs.phase not in (Phase.DEALING, Phase.MATCH_OVER):
        label += " · " + labels.golden
    return label


def _bid_label(amount: int, blind: bool, labels: Labels = ENGLISH) -> str:
    if amount == 0:
        return labels.passed
    return labels.say(labels.blind, amount=amount) if blind else str(amount)


def _talon_visible(obs: Observation) -> tuple[str, ...] | None:
    """The taken talon's cards if they were shown to everybody, else None."""
    if obs.talon is None or not obs.talon_shown:
        return None
    return tuple(card_str(c) for c in obs.talon)


def table_view(
    obs: Observation,
    names: Sequence[str],
    *,
    title: str | None = None,
    talon_label: str = "prikup",
    labels: Labels = ENGLISH,
) -> TableView:
    """The public table as ``obs`` shows it.

    Only public facts are used, even from a seat's own observation: totals and marks, bids,
    the contract, card counts, the current trick (or, between tricks and after the hand,
    the trick just won), the trump, the talon while it lies face down and, once taken, its
    cards only if they were shown to everybody, and the stock with its exposed bottom card.
    ``talon_label`` is the preset's name for the talon, drawn in ``labels``' words.
    """
    r = obs.rules
    phase = obs.phase
    bidding = phase is Phase.BIDDING
    after = obs.last_result if phase in (Phase.DEALING, Phase.MATCH_OVER) else None
    seats = _seat_views(obs, _names(names, r.seats, labels), after, labels)
    trick, winner = _shown_trick(obs, after)
    talon, piles, backs = _talon_shown(obs)
    declarer = obs.declarer if obs.declarer >= 0 else None
    stock_on = r.stock and obs.stock_size > 0 and phase is Phase.PLAY
    return TableView(
        seats=seats,
        trick=tuple((p, card_str(c)) for p, c in trick),
        last_trick_winner=winner,
        trump=suit_letter(obs.trump),
        contract=obs.contract if declarer is not None and obs.contract else None,
        declarer=declarer,
        made=after.made if after is not None and declarer is not None else None,
        talon=talon,
        talon_backs=backs,
        talon_piles=piles,
        talon_label=labels.talon(talon_label),
        stock=obs.stock_size if stock_on else 0,
        stock_bottom=card_str(obs.stock_bottom) if stock_on and obs.stock_bottom >= 0 else None,
        phase=phase_label(obs, labels),
        hand_number=obs.hand_no,
        target=r.target,
        title=title or "",
        high_bid=obs.high if bidding and obs.high > 0 else None,
        labels=labels,
    )


def _seat_views(obs: Observation, who: list[str], after: HandResult | None,
                labels: Labels) -> tuple[SeatView, ...]:
    """Each seat's plate: total and marks, its last call in the auction, the cards it
    holds, the points taken in play or (``after`` a hand) the hand's change."""
    r = obs.rules
    last_bid: dict[int, str] = {}
    if obs.phase is Phase.BIDDING:
        for seat, amount, blind in obs.bids:
            last_bid[seat] = _bid_label(amount, blind, labels)
    count = tally(obs) if obs.phase is Phase.PLAY else None
    return tuple(
        SeatView(
            name=who[p],
            total=obs.totals[p],
            is_dealer=p == (after.dealer if after is not None else obs.dealer),
            is_declarer=p == obs.declarer and obs.declarer >= 0,
            is_sitter=p == obs.sitter,
            is_turn=p == obs.to_act,
            on_barrel=obs.on_barrel[p] and r.barrel is not Barrel.NONE,
            barrel_hands=obs.barrel_hands[p] if r.barrel is Barrel.CLASSIC else 0,
            barrel_limit=r.barrel_hands if r.barrel is Barrel.CLASSIC else 0,
            dashes=obs.dashes[p] if r.zero_penalty > 0 else 0,
            locked=obs.locked[p],
            bid=last_bid.get(p),
            hand_count=obs.hand_sizes[p],
            delta=after.delta[p] if after is not None and after.end not in _UNWRITTEN else None,
            taken=count.of(p) if count is not None else None,
        )
        for p in range(r.seats)
    )


def _shown_trick(obs: Observation,
                 after: HandResult | None) -> tuple[tuple[tuple[int, int], ...], int | None]:
    """The trick on the table and who won it: the current one, or between tricks (and
    after the hand) the one just won."""
    if not obs.trick and obs.last_trick and (obs.phase is Phase.PLAY or after is not None):
        return obs.last_trick, obs.last_winner
    return obs.trick, None


def _talon_shown(obs: Observation) -> tuple[tuple[str, ...] | None, tuple[int, ...], int]:
    """The talon as everybody sees it: its cards once shown, else its backs (and piles,
    where there are several talons) while it lies face down."""
    if obs.talon_index < 0:
        if obs.phase in (Phase.BIDDING, Phase.TALON) and obs.talon_sizes:
            piles = obs.talon_sizes if len(obs.talon_sizes) > 1 else ()
            return None, piles, sum(obs.talon_sizes)
        return None, (), 0
    if obs.phase in (Phase.EXCHANGE, Phase.CONTRACT):
        return _talon_visible(obs), (), 0
    return None, (), 0


def _marriage_suits(hand: Sequence[int]) -> list[int]:
    held = set(hand)
    return [s for s in range(4) if card(RK, s) in held and card(RQ, s) in held]


def _hand_note(obs: Observation, labels: Labels = ENGLISH) -> str:
    me = obs.seat
    if me is None:
        return ""
    if me == obs.sitter:
        return labels.note_sitting_out
    if me != obs.to_act or not obs.legal:
        return ""
    phase = obs.phase
    if phase is Phase.BIDDING:
        return labels.your_bid
    if phase is Phase.TALON:
        return labels.note_talon
    if phase is Phase.EXCHANGE:
        verbs = {a.verb for a in obs.legal}
        if Verb.GIVE in verbs:
            return labels.note_give if Verb.DISCARD not in verbs else labels.note_give_or_discard
        return labels.note_discard
    if phase is Phase.CONTRACT:
        return labels.note_contract
    if obs.trick and obs.stock_size:
        return labels.note_free_play
    if obs.trick:
        led = suit_of(obs.trick[0][1])
        held = {suit_of(c) for c in obs.hand}
        return labels.your_turn if led not in held else str(
            getattr(labels, f"follow_{SUITS[led]}"))
    return labels.your_lead


def hand_view(obs: Observation, name: str, labels: Labels = ENGLISH) -> HandView:
    """One seat's own hand from that seat's observation (a spectator's has no cards).

    ``legal`` is the set of cards the seat may play now (from ``obs.legal``), or None when
    it is not playing a card, so that nothing is dimmed. Cards received in the exchange,
    and the talon's cards for the declarer, are marked new until the first trick is won;
    in a stock game the card drawn last is marked new.
    """
    r = obs.rules
    hand = obs.hand
    plays = {a.card for a in obs.legal if a.verb is Verb.PLAY}
    legal = frozenset(card_str(c) for c in plays) if plays else None
    new: set[int] = set()
    if obs.trick_no == 0:
        new |= set(obs.received)
        if obs.seat is not None and obs.seat == obs.declarer:
            new |= set(obs.talon or ())
    if obs.drawn:
        new.add(obs.drawn[-1])
    suits = _marriage_suits(hand)
    values: tuple[tuple[str, int], ...] = ()
    if r.marriage_value_mode is MarriageValueMode.BY_SUIT:
        values = tuple((SUITS[s], r.marriage_values[s]) for s in suits)
    return HandView(
        cards=tuple(card_str(c) for c in hand),
        legal=legal,
        new_cards=frozenset(card_str(c) for c in new if c in hand),
        marriages=frozenset(SUITS[s] for s in suits),
        marriage_values=values,
        trump=suit_letter(obs.trump),
        name=name,
        note=_hand_note(obs, labels),
        labels=labels,
    )


def _penalties(result: HandResult, n: int) -> list[int]:
    """Penalties of this hand per seat (dashes, rospisat, lock, dealer penalties)."""
    return list(result.penalties) if result.penalties else [0] * n


def _fell(result: HandResult, p: int) -> bool:
    return p in result.fell


def sheet_view(
    results: Sequence[HandResult],
    names: Sequence[str],
    rules: Rules,
    *,
    title: str = "",
    labels: Labels = ENGLISH,
) -> SheetView:
    """The paper score sheet of a match from the ``HandResult`` of each hand, in order.

    Hands that were thrown in (everyone passed) or annulled by a redeal claim are not
    written, as on paper, unless they cost somebody a penalty (three nines redeals in a
    row): then the row shows the penalty. Rows are numbered as written.

    A dealer's penalty between hands (three jacks at the bottom) has no ``HandResult``: it
    shows only as a jump in the next written total.

    Barrel strokes are counted here from the totals: a classic barrel total circled on the
    hand it is reached and one stroke more for each hand spent on it; a sitter's hand does
    not count. Dashes are the defenders' raw zeros (``result.taken``) off the barrel when the
    rules count them; penalties and falls come from ``result.penalties`` / ``result.fell``.
    """
    n = rules.seats
    who = tuple(_names(names, n, labels))
    rows: list[SheetRow] = []
    strokes = [0] * n
    for res in results:
        penalties = _penalties(res, n)
        if res.end in _UNWRITTEN and not any(penalties):
            continue
        start = [res.totals[p] - res.delta[p] for p in range(n)]
        sitter = seats_for_hand(rules, res.dealer)[1]
        cells = []
        for p in range(n):
            strokes[p] = _barrel_strokes(rules, strokes[p], start[p], res.totals[p],
                                         p == sitter)
            cells.append(_sheet_cell(rules, res, p, start[p], strokes[p], penalties[p],
                                     sitter))
        rows.append(SheetRow(hand=len(rows) + 1, cells=tuple(cells), dealer=res.dealer))
    winners = frozenset(results[-1].winners) if results else frozenset()
    return SheetView(players=who, rows=tuple(rows), winner=winners, title=title, labels=labels)


def _barrel_strokes(rules: Rules, strokes: int, start: int, total: int, sitting: bool) -> int:
    """A seat's barrel strokes after a hand that took it from ``start`` to ``total``: a
    classic barrel is circled on the hand it is reached and gets one stroke more for each
    hand spent on it (not a hand the seat sat out)."""
    if not on_any_barrel(rules, total):
        return 0
    if rules.barrel is not Barrel.CLASSIC:
        return 1
    if not on_any_barrel(rules, start):
        return 1
    if not sitting:
        return min(strokes + 1, rules.barrel_hands)
    return strokes


def _sheet_cell(rules: Rules, res: HandResult, p: int, start: int, strokes: int,
                penalty: int, sitter: int) -> SheetCell:
    """Seat ``p``'s cell of the hand's row."""
    declarer = p == res.declarer and res.end not in _UNWRITTEN
    dash = (
        res.end is HandEnd.PLAYED
        and rules.zero_penalty > 0
        and p != res.declarer
        and res.taken.get(p) == 0
        and not on_any_barrel(rules, start)
    )
    made: bool | None = None
    if declarer and res.end is not HandEnd.ROSPISAT:
        made = bool(res.made) if res.end is HandEnd.PLAYED else False
    return SheetCell(
        total=res.totals[p],
        delta=res.delta[p],
        contract=res.contract if declarer and res.contract else None,
        made=made,
        barrel=strokes,
        barrel_fell=_fell(res, p),
        dash=dash,
        rospisat=declarer and res.end is HandEnd.ROSPISAT,
        penalty=penalty,
        sitter=p == sitter,
    )


def summary_view(
    results: Sequence[HandResult],
    names: Sequence[str],
    rules: Rules,
    *,
    title: str = "",
    duration_minutes: int | None = None,
    rating_changes: Sequence[int] | None = None,
    labels: Labels = ENGLISH,
) -> SummaryView:
    """The end-of-match summary: final totals, contracts made and failed, the best contract
    made, and the running totals of every scored hand (thrown-in and annulled hands are
    left out of the chart and the hand count)."""
    n = rules.seats
    who = _names(names, n, labels)
    made = [0] * n
    failed = [0] * n
    best = [0] * n
    history: list[tuple[int, ...]] = []
    for res in results:
        if res.end in _UNWRITTEN:
            continue
        history.append(tuple(res.totals))
        d = res.declarer
        if d < 0 or res.end is HandEnd.ROSPISAT:
            continue
        if res.end is HandEnd.PLAYED and res.made:
            made[d] += 1
            best[d] = max(best[d], res.contract)
        else:
            failed[d] += 1
    totals = tuple(results[-1].totals) if results else (0,) * n
    players = tuple(
        SummaryPlayer(
            name=who[p],
            total=totals[p],
            contracts_made=made[p],
            contracts_failed=failed[p],
            best_contract=best[p] or None,
            rating_change=rating_changes[p] if rating_changes is not None else None,
        )
        for p in range(n)
    )
    return SummaryView(
        players=players,
        winner=frozenset(results[-1].winners) if results else frozenset(),
        history=tuple(history),
        title=title,
        hands=len(history),
        duration_minutes=duration_minutes,
        target=rules.target,
        barrel_at=rules.barrel_at if rules.barrel is not Barrel.NONE else None,
        labels=labels,
    )
