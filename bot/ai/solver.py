"""A double-dummy solver: the best play of the remaining tricks with every hand face up.

The declarer plays against the defenders as a coalition: the search maximises the points the
declarer's side (``maxside``) takes from now on (card points of its tricks plus its
declarations) and the other side minimises them. It is alpha-beta over single cards with a
transposition table at the start of each trick, keyed by the cards still held, the leader,
the trump and (for marriages valued by order) how many were declared: the value of the rest
of a hand depends on nothing else. At a trick's start a position is cut when every card point
left and the side's marriages cannot reach the window (a make test from the second trick
searches a tenth of the positions). The trick-taking rules are the preset's (follow suit, the
trump when void, must-beat); ``tests/ai`` checks the moves against the engine's own.

Unsupported here (the caller plays on with club players instead): a stock still to draw
from and four aces that can still be declared.

Two implementations of the one search: ``Solver`` here, in Python, and ``CompiledSolver``, the
same search step for step in C (``bot/ai/_dds.c``, an optional extension built by the
install), some hundred times faster. ``solver_for`` builds the one chosen with ``use`` (the
entry point's setting ``TYSIAC_SOLVER``), by default the compiled one where it loads; the
Python one is the fallback where it cannot be built. Both give the same values and moves
(``tests/ai/test_solver.py`` compares them on random positions of every preset).
"""

from __future__ import annotations

import time
from enum import StrEnum
from types import ModuleType

from bot.game.actions import Action, Flag, Verb
from bot.game.cards import (
    ALL_ACES,
    CARD_POINTS,
    RANK_OF,
    RK,
    RQ,
    SUIT_OF,
    beats,
    marriage_count,
    mask_points,
)
from bot.game.limits import on_lviv_barrel
from bot.game.rules import MarriageValueMode, MustBeat, Rules
from bot.game.state import Phase, State
from bot.game.tricks import playable_mask

_ORDER_VALUES = (40, 60, 80, 100)
_INF = 10_000


def _load_compiled() -> tuple[ModuleType | None, str]:
    """The compiled search module, or None and why it is not there."""
    try:  # by its full name: ``from bot.ai import`` would make the package a cycle of this
        import bot.ai._dds
    except ImportError as exc:  # not built (no C compiler at install) or not loadable here
        return None, str(exc) or type(exc).__name__
    return bot.ai._dds, ""


_compiled, _missing = _load_compiled()


class Kind(StrEnum):
    """Which implementation of the search ``solver_for`` builds."""

    COMPILED = "compiled"  # bot/ai/_dds.c
    PYTHON = "python"  # ``Solver`` below


class Unavailable(RuntimeError):
    """The compiled solver was asked for where it is not built or cannot be loaded."""


# The implementation solver_for builds: one choice for the process (``use``).
_chosen = {"kind": Kind.COMPILED if _compiled is not None else Kind.PYTHON}


def compiled_available() -> bool:
    """Whether the compiled solver loads in this process."""
    return _compiled is not None


def use(kind: Kind | None) -> Kind:
    """Make ``solver_for`` build ``kind`` (None: the compiled one where it loads, else the
    Python one) and return the one in use; ``Unavailable`` if the compiled one is asked
    for and cannot be loaded."""
    if kind is Kind.COMPILED and _compiled is None:
        raise Unavailable(f"the compiled solver is not available here ({_missing}); "
                          "install a C compiler (Debian: gcc) and run `.venv/bin/pip "
                          "install -e .` again, or set TYSIAC_SOLVER=python")
    if kind is None:
        kind = Kind.COMPILED if _compiled is not None else Kind.PYTHON
    _chosen["kind"] = kind
    return kind


def active() -> Kind:
    """The implementation ``solver_for`` builds now."""
    return _chosen["kind"]


def describe(kind: Kind) -> str:
    """One line for the start-up: which solver runs, and why not the compiled one."""
    if kind is Kind.COMPILED:
        return "double-dummy solver: compiled (bot/ai/_dds.c)"
    if _compiled is None:
        return f"double-dummy solver: Python (the compiled one is not available: {_missing})"
    return "double-dummy solver: Python (chosen by TYSIAC_SOLVER)"


class Aborted(Exception):
    """The search used up its node allowance or passed its deadline."""


class Solver:
    """Double-dummy values of one deal's remaining tricks for the side in ``maxside``."""

    def __init__(self, rules: Rules, order: tuple[int, ...], maxside: frozenset[int],
                 marriage_values: tuple[tuple[int, ...], ...], *,
                 may_declare_first: bool = False, trump_locked: bool = False,
                 node_limit: int = 1 << 62, deadline: float = float("inf")) -> None:
        self.rules = rules
        self.order = order  # seats in playing order (clockwise), the active ones only
        self.k = len(order)
        self.nxt = {p: order[(i + 1) % self.k] for i, p in enumerate(order)}
        self.maxside = maxside
        self.mvals = marriage_values  # per seat, per suit (0 where it scores nothing)
        self.top_marriage = [_ORDER_VALUES[-1] if rules.marriage_value_mode is
                             MarriageValueMode.BY_ORDER else max(v) for v in marriage_values]
        self.by_order = rules.marriage_value_mode is MarriageValueMode.BY_ORDER
        self.may_declare_first = may_declare_first
        self.trump_locked = trump_locked  # four aces made it no-trump for good
        self.must_beat = rules.must_beat
        self.must_trump = rules.must_trump_when_void
        self.tt: dict[tuple[object, ...], tuple[int, int]] = {}
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = deadline  # time.perf_counter() value to stop at

    # ---- rules ------------------------------------------------------------------------
    def legal(self, hand: int, trick: tuple[tuple[int, int], ...], trump: int) -> int:
        """Mask of the cards that may be played to ``trick`` from ``hand``."""
        return playable_mask(hand, trick, trump, must_trump=self.must_trump,
                             must_beat=self.must_beat)

    def moves(self, hand: int, trick: tuple[tuple[int, int], ...], trump: int,
              declare: bool) -> list[tuple[int, int]]:
        """(card, marriage suit or -1) pairs: the cards, and marriage leads when allowed."""
        mask = self.legal(hand, trick, trump)
        out = []
        m = mask
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            out.append((c, -1))
        if declare and not trick:
            for s in range(4):
                k, q = s * 8 + RK, s * 8 + RQ
                if hand >> k & 1 and hand >> q & 1:
                    out.append((q, s))
                    out.append((k, s))
        return out

    # ---- search -----------------------------------------------------------------------
    def value(self, hands: list[int], trick: tuple[tuple[int, int], ...], seat: int,
              trump: int, ndecl: int, declare: bool, alpha: int = -_INF,
              beta: int = _INF) -> int:
        """Points ``maxside`` takes from here on (the current trick included)."""
        self.nodes += 1
        if self.nodes > self.node_limit or (
                not self.nodes & 255 and time.perf_counter() > self.deadline):
            raise Aborted
        if not trick:
            if not hands[seat]:
                return 0
            if beta <= 0:
                return 0  # no side loses points it has taken
            # The most the side could still take: every card left and its marriages.
            left = 0
            for h in hands:
                left |= h
            most = mask_points(left)
            for p in self.maxside:
                most += marriage_count(hands[p]) * self.top_marriage[p]
            if most <= alpha:
                return most
            key = (*hands, seat, trump, ndecl if self.by_order else 0, declare)
            lo, hi = self.tt.get(key, (-_INF, _INF))
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            a0, b0 = max(alpha, lo), min(beta, hi)
            v = self._search(hands, trick, seat, trump, ndecl, declare, a0, b0)
            if v <= a0:
                hi = v
            elif v >= b0:
                lo = v
            else:
                lo = hi = v
            self.tt[key] = (lo, hi)
            return v
        return self._search(hands, trick, seat, trump, ndecl, declare, alpha, beta)

    def _search(self, hands: list[int], trick: tuple[tuple[int, int], ...], seat: int,
                trump: int, ndecl: int, declare: bool, alpha: int, beta: int) -> int:
        maximise = seat in self.maxside
        hand = hands[seat]
        ms = self.moves(hand, trick, trump, declare)
        if len(ms) > 1:
            ms.sort(key=lambda m: self._order_key(m, trick, trump, maximise))
        best = -_INF if maximise else _INF
        for c, suit in ms:
            v = self.after(hands, trick, seat, trump, ndecl, declare, c, suit, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def after(self, hands: list[int], trick: tuple[tuple[int, int], ...], seat: int,
              trump: int, ndecl: int, declare: bool, c: int, suit: int,
              alpha: int = -_INF, beta: int = _INF) -> int:
        """The value once ``seat`` plays ``c`` (declaring the marriage of ``suit`` if >= 0)."""
        gain = 0
        if suit >= 0:
            val = _ORDER_VALUES[min(ndecl, 3)] if self.by_order else self.mvals[seat][suit]
            if seat in self.maxside:
                gain = val
            ndecl += 1
            if not self.trump_locked:
                trump = suit
        hands[seat] ^= 1 << c
        t = (*trick, (seat, c))
        try:
            if len(t) < self.k:
                return gain + self.value(hands, t, self.nxt[seat], trump, ndecl, declare,
                                         alpha - gain, beta - gain)
            w, best = t[0]
            pts = CARD_POINTS[best]
            for p, x in t[1:]:
                pts += CARD_POINTS[x]
                if beats(x, best, trump):
                    w, best = p, x
            if w in self.maxside:
                gain += pts
            return gain + self.value(hands, (), w, trump, ndecl, True, alpha - gain, beta - gain)
        finally:
            hands[seat] ^= 1 << c

    def _order_key(self, m: tuple[int, int], trick: tuple[tuple[int, int], ...], trump: int,
                   maximise: bool) -> tuple[int, int]:
        c, suit = m
        if suit >= 0:
            return (-2, -c)
        if not trick:
            return (0, -(RANK_OF[c]) - (8 if SUIT_OF[c] == trump else 0))
        best_seat, best = trick[0]
        for p, x in trick[1:]:
            if beats(x, best, trump):
                best_seat, best = p, x
        wins = beats(c, best, trump)
        if wins:
            return (0, CARD_POINTS[c] + (20 if SUIT_OF[c] == trump else 0))
        friend = (best_seat in self.maxside) == maximise
        return (1, -CARD_POINTS[c] if friend else CARD_POINTS[c])


_BEAT_CODES = {MustBeat.NONE: 0, MustBeat.FOLLOW: 1, MustBeat.ALWAYS: 2}  # as in _dds.c


class CompiledSolver:
    """``Solver``'s search in C (``bot/ai/_dds.c``): the same interface, values and moves."""

    def __init__(self, rules: Rules, order: tuple[int, ...], maxside: frozenset[int],
                 marriage_values: tuple[tuple[int, ...], ...], *,
                 may_declare_first: bool = False, trump_locked: bool = False,
                 node_limit: int = 1 << 62, deadline: float = float("inf")) -> None:
        if _compiled is None:
            raise Unavailable(f"the compiled solver is not available here ({_missing})")
        self.rules = rules
        self.order = order
        self.k = len(order)
        self.maxside = maxside
        self.mvals = marriage_values
        self.by_order = rules.marriage_value_mode is MarriageValueMode.BY_ORDER
        self.top_marriage = [_ORDER_VALUES[-1] if self.by_order else max(v)
                             for v in marriage_values]
        self.may_declare_first = may_declare_first
        self.trump_locked = trump_locked
        self.must_beat = rules.must_beat
        self.must_trump = rules.must_trump_when_void
        self.deadline = deadline
        self._search = _compiled.Search(
            len(marriage_values), order, sum(1 << p for p in maxside), marriage_values,
            self.top_marriage, self.by_order, trump_locked, _BEAT_CODES[rules.must_beat],
            self.must_trump)
        self._search.node_limit = node_limit

    @property
    def nodes(self) -> int:
        """Positions searched so far (``Solver.nodes``)."""
        n: int = self._search.nodes
        return n

    @nodes.setter
    def nodes(self, n: int) -> None:
        self._search.nodes = n

    @property
    def node_limit(self) -> int:
        """Positions the search may visit before it gives up (``Aborted``)."""
        n: int = self._search.node_limit
        return n

    @node_limit.setter
    def node_limit(self, n: int) -> None:
        self._search.node_limit = n

    def legal(self, hand: int, trick: tuple[tuple[int, int], ...], trump: int) -> int:
        """Mask of the cards that may be played to ``trick`` from ``hand``."""
        mask: int = self._search.legal(hand, trick, trump)
        return mask

    def moves(self, hand: int, trick: tuple[tuple[int, int], ...], trump: int,
              declare: bool) -> list[tuple[int, int]]:
        """(card, marriage suit or -1) pairs: the cards, and marriage leads when allowed."""
        out: list[tuple[int, int]] = self._search.moves(hand, trick, trump, declare)
        return out

    def value(self, hands: list[int], trick: tuple[tuple[int, int], ...], seat: int,
              trump: int, ndecl: int, declare: bool, alpha: int = -_INF,
              beta: int = _INF) -> int:
        """Points ``maxside`` takes from here on (the current trick included)."""
        v: int | None = self._search.value(hands, trick, seat, trump, ndecl, declare, alpha,
                                           beta, self.deadline - time.perf_counter())
        if v is None:
            raise Aborted
        return v

    def after(self, hands: list[int], trick: tuple[tuple[int, int], ...], seat: int,
              trump: int, ndecl: int, declare: bool, c: int, suit: int,
              alpha: int = -_INF, beta: int = _INF) -> int:
        """The value once ``seat`` plays ``c`` (declaring the marriage of ``suit`` if >= 0)."""
        v: int | None = self._search.after(hands, trick, seat, trump, ndecl, declare, c, suit,
                                           alpha, beta, self.deadline - time.perf_counter())
        if v is None:
            raise Aborted
        return v


DoubleDummy = Solver | CompiledSolver


def supported(s: State) -> bool:
    """The solver can play this position (no stock to draw from, no four aces to declare)."""
    r = s.rules
    if s.stock_pos < len(s.stock):
        return False
    return r.four_aces_bonus is None or not any(
        h & ALL_ACES == ALL_ACES for h in s.held)


def solver_for(s: State, maxside: frozenset[int], node_limit: int = 1 << 62,
               deadline: float = float("inf"), kind: Kind | None = None) -> DoubleDummy:
    """A solver for the deal of ``s`` (its rules, seats and marriage values): ``kind``, by
    default the one chosen with ``use``."""
    r = s.rules
    order = []
    p = s.active[0]
    for _ in s.active:
        order.append(p)
        p = s.next_seat[p]
    mvals = tuple(
        (0, 0, 0, 0) if on_lviv_barrel(r, s.match.totals[p]) else tuple(r.marriage_values)
        for p in range(r.seats))
    make = CompiledSolver if (kind or _chosen["kind"]) is Kind.COMPILED else Solver
    return make(r, tuple(order), maxside, mvals, may_declare_first=r.marriage_on_first_lead,
                trump_locked=s.trump_locked, node_limit=node_limit, deadline=deadline)


def _plays(s: State, solver: DoubleDummy,
           actions: list[Action]) -> list[tuple[list[int], int, int, int]]:
    """(hands, seat, card, marriage suit or -1) of each play, for ``Solver.after``."""
    if s.phase not in (Phase.PLAY, Phase.CONTRACT) or any(
            a.verb is not Verb.PLAY for a in actions):
        raise ValueError("the solver plays cards only")
    hands = list(s.held)
    return [(hands, a.seat, a.card, SUIT_OF[a.card] if a.flag is Flag.MARRIAGE else -1)
            for a in actions]


def _declare(s: State, solver: DoubleDummy) -> bool:
    return s.trick_no > 0 or solver.may_declare_first


def action_values(s: State, solver: DoubleDummy, actions: list[Action]) -> list[int]:
    """Each play's value (points ``solver.maxside`` takes from now on) in the deal ``s``."""
    declare = _declare(s, solver)
    return [solver.after(hands, s.trick, seat, s.trump, s.marriages_declared, declare,
                         card, suit) for hands, seat, card, suit in _plays(s, solver, actions)]


def action_reaches(s: State, solver: DoubleDummy, actions: list[Action], need: int) -> list[bool]:
    """Whether ``maxside`` still takes at least ``need`` more points after each play."""
    declare = _declare(s, solver)
    return [solver.after(hands, s.trick, seat, s.trump, s.marriages_declared, declare, card,
                         suit, need - 1, need) >= need
            for hands, seat, card, suit in _plays(s, solver, actions)]
