"""What one seat (or a spectator) may know: the only view of a state that leaves the engine.

Players, AIs and images get an ``Observation``, never the ``State``: what a seat may
know is decided here and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.game.actions import Action
from bot.game.cards import RK, RQ, card, cards_of, sorted_for_display
from bot.game.engine import legal_actions
from bot.game.rules import Rules
from bot.game.scoring import is_locked, on_any_barrel
from bot.game.state import HandEnd, HandResult, Phase, State


@dataclass(frozen=True, slots=True)
class Observation:
    """A seat's view of the match. ``seat`` is None for the public (spectator) view."""

    rules: Rules
    seat: int | None
    phase: Phase
    to_act: int
    hand_no: int
    dealer: int
    forehand: int
    sitter: int
    active: tuple[int, ...]
    golden: bool
    # match
    totals: tuple[int, ...]
    barrel_hands: tuple[int, ...]
    dashes: tuple[int, ...]
    rospisat_calls: tuple[int, ...]
    on_barrel: tuple[bool, ...]
    locked: tuple[bool, ...]
    winners: tuple[int, ...]
    # cards
    hand: tuple[int, ...]  # own cards, display order; () for spectators and the sitter
    hand_sizes: tuple[int, ...]
    # auction
    bids: tuple[tuple[int, int, bool], ...]  # (seat, amount or 0 = pass, blind)
    high: int
    high_bidder: int
    passed: tuple[int, ...]
    shown_marriages: tuple[tuple[int, int], ...]
    # talon, exchange, contract
    declarer: int
    winning_bid: int
    contract: int
    contract_fixed: bool
    talon_sizes: tuple[int, ...]
    talon_index: int
    talon: tuple[int, ...] | None  # the taken talon's cards, if this viewer may know them
    talon_shown: bool
    gifts: tuple[tuple[int, int], ...]  # (card or -1 if hidden, receiver)
    received: tuple[int, ...]  # cards this seat received in the exchange
    discards: tuple[int, ...]  # known only to the declarer
    discard_count: int
    claims: tuple[tuple[int, str, tuple[int, ...]], ...]
    # play
    trump: int
    trick: tuple[tuple[int, int], ...]
    trick_no: int
    leader: int
    last_trick: tuple[tuple[int, int], ...]
    last_winner: int
    # every card played to a trick this hand, in order: everyone at the table saw them
    played: tuple[tuple[int, int], ...]
    tricks_won: tuple[int, ...]
    taken: tuple[int, ...]  # card points plus declarations so far, per seat (public)
    declarations: tuple[tuple[int, int, int], ...]  # (seat, suit or -1 for aces, value)
    stock_size: int
    stock_bottom: int  # exposed bottom card, or -1
    drawn: tuple[int, ...]  # cards this seat drew from the stock
    legal: tuple[Action, ...]
    last_result: HandResult | None
    doubled: int = 0  # option contra: 1 doubled, 2 redoubled
    misere: bool = False  # the high bid or the contract is a mizère
    sticks: tuple[int, ...] = ()  # house-rule counters, per seat
    no_wins: tuple[int, ...] = ()

    def known_cards(self) -> set[int]:
        """Every card this observation shows anywhere (used by the privacy tests)."""
        out = set(self.hand) | set(self.received) | set(self.discards) | set(self.drawn)
        out |= {c for c, _ in self.gifts if c >= 0}
        out |= set(self.talon or ())
        for _, _, shown in self.claims:
            out |= set(shown)
        for _, suit in self.shown_marriages:
            out |= {card(RK, suit), card(RQ, suit)}
        out |= {c for _, c in self.trick} | {c for _, c in self.last_trick}
        out |= {c for _, c in self.played}
        if self.stock_bottom >= 0:
            out.add(self.stock_bottom)
        return out


def observe(state: State, seat: int | None) -> Observation:
    """The view of ``seat`` (None: a spectator, who sees only what is public)."""
    s = state
    r = s.rules
    m = s.match
    n = r.seats
    dealt = s.phase is not Phase.DEALING or s.last_result is not None
    me = seat if seat is not None and 0 <= seat < n else None
    hand = tuple(sorted_for_display(s.held[me])) if me is not None else ()
    declarer_view = me is not None and me == s.declarer
    face_up = r.give_face_up or s.blind_win
    talon: tuple[int, ...] | None = None
    if s.talon_index >= 0 and (s.talon_shown or declarer_view):
        talon = tuple(cards_of(s.talons[s.talon_index]))
    gifts = tuple(
        (c if face_up or (me is not None and me in (s.declarer, to)) else -1, to)
        for c, to in s.gifts
    )
    received = tuple(c for c, to in s.gifts if to == me) if me is not None else ()
    # Public: card points of won tricks and declarations (never the declarer's discards).
    taken = [s.points[p] + s.decl[p] for p in range(n)]
    exposed = -1
    if r.stock_bottom_exposed and s.stock and s.stock_pos < len(s.stock):
        exposed = s.stock[-1]
    return Observation(
        rules=r, seat=me, phase=s.phase, to_act=s.to_act, hand_no=m.hand_no,
        dealer=m.dealer, forehand=s.forehand, sitter=s.sitter, active=s.active,
        golden=s.golden, totals=m.totals, barrel_hands=m.barrel_hands, dashes=m.dashes,
        rospisat_calls=m.rospisat_calls,
        on_barrel=tuple(on_any_barrel(r, t) for t in m.totals),
        locked=tuple(is_locked(r, t) for t in m.totals), winners=m.winners,
        hand=hand, hand_sizes=tuple(h.bit_count() for h in s.held) if dealt else (0,) * n,
        bids=s.bids, high=s.high, high_bidder=s.high_bidder,
        passed=tuple(p for p in range(n) if s.passed >> p & 1),
        shown_marriages=s.shown_marriages, declarer=s.declarer, winning_bid=s.winning_bid,
        contract=s.contract, contract_fixed=s.contract_fixed,
        talon_sizes=tuple(t.bit_count() for t in s.talons), talon_index=s.talon_index,
        talon=talon, talon_shown=s.talon_shown, gifts=gifts, received=received,
        discards=tuple(cards_of(s.discards)) if declarer_view else (),
        discard_count=s.discards.bit_count(),
        claims=tuple((p, why, tuple(cards_of(mask))) for p, why, mask in s.claims),
        trump=s.trump, trick=s.trick, trick_no=s.trick_no, leader=s.leader,
        last_trick=s.last_trick, last_winner=s.last_winner,
        played=s.history, tricks_won=tuple(s.won),
        taken=tuple(taken), declarations=s.decl_log,
        stock_size=len(s.stock) - s.stock_pos, stock_bottom=exposed,
        drawn=tuple(c for p, c in s.drawn if p == me) if me is not None else (),
        legal=tuple(legal_actions(s, me)) if me is not None else (),
        last_result=s.last_result, doubled=s.doubled, misere=s.misere, sticks=m.sticks,
        no_wins=m.no_wins,
    )


@dataclass(frozen=True, slots=True)
class Tally:
    """The points each active seat has taken so far in the hand being played, as everyone
    at the table can count them: the cards of the tricks won (played face up) and the
    declarations made; ``final``: the hand is over and these are its raw points as scored
    (the laid-away cards and bonuses in)."""

    declarer: int  # -1: none (a stock game)
    contract: int  # what the declarer plays for (0 without a declarer)
    taken: tuple[tuple[int, int], ...]  # (seat, points), the active seats in seat order
    final: bool = False

    def of(self, seat: int) -> int | None:
        """The points of ``seat``; None for a seat that does not play this hand."""
        return next((points for p, points in self.taken if p == seat), None)


def tally(obs: Observation) -> Tally | None:
    """The running count of the hand ``obs`` shows: during play the public count, after a
    played hand its result's; None before the play and after a hand not played out."""
    r = obs.rules
    if obs.phase is Phase.PLAY:
        declared = [0] * r.seats
        for p, _, value in obs.declarations:
            declared[p] += value
        taken = []
        for p in sorted(obs.active):
            points = obs.taken[p]
            if r.declarations_need_trick and obs.tricks_won[p] == 0:
                points -= declared[p]  # a declaration counts once its player takes a trick
            taken.append((p, points))
        contract = obs.contract or obs.winning_bid if obs.declarer >= 0 else 0
        return Tally(obs.declarer, contract, tuple(taken))
    res = obs.last_result
    if (obs.phase in (Phase.DEALING, Phase.MATCH_OVER) and res is not None
            and res.end is HandEnd.PLAYED and res.taken):
        return Tally(res.declarer, res.contract if res.declarer >= 0 else 0,
                     tuple(sorted(res.taken.items())), final=True)
    return None


def observe_public(state: State) -> Observation:
    """The spectators' view."""
    return observe(state, None)
