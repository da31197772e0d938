"""A sample match for the score sheet and the summary: a possible Russian match, played
out hand by hand from a seeded random source (totals and barrel as the rules allow, not
every detail)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from render.model import SheetCell, SheetRow, SheetView, SummaryPlayer, SummaryView


@dataclass(frozen=True)
class _Hand:
    """One sample hand's declarer, sitter and contract."""

    number: int
    declarer: int
    sitter: int | None
    rospisat: bool
    contract: int
    made: bool


@dataclass
class _Players:
    """Each player's running numbers in the sample match."""

    n: int
    totals: list[int] = field(init=False)
    dashes: list[int] = field(init=False)
    barrel: list[int] = field(init=False)
    made: list[int] = field(init=False)
    failed: list[int] = field(init=False)
    best: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.totals, self.dashes, self.barrel = [0] * self.n, [0] * self.n, [0] * self.n
        self.made, self.failed, self.best = [0] * self.n, [0] * self.n, [0] * self.n


def _deal(rng: random.Random, n: int, number: int) -> _Hand:
    """Who declares what in hand ``number`` (four players: the dealer's seat sits out)."""
    declarer = rng.randrange(n)
    sitter = (number % n) if n == 4 else None
    if declarer == sitter:
        declarer = (declarer + 1) % n
    rospisat = rng.random() < 0.06
    contract = rng.choice((100, 105, 110, 120, 130, 140, 160))
    made = rng.random() < 0.7
    return _Hand(number, declarer, sitter, rospisat, contract, made)


def _delta(rng: random.Random, players: _Players, hand: _Hand, p: int) -> int:
    """What player ``p`` scores in the hand (the declarer's contract is counted)."""
    if p == hand.sitter:
        return 0
    if p == hand.declarer:
        if hand.rospisat:
            return 0
        players.made[p] += hand.made
        players.failed[p] += not hand.made
        players.best[p] = max(players.best[p], hand.contract if hand.made else 0)
        return hand.contract if hand.made else -hand.contract
    return 60 if hand.rospisat else rng.choice((0, 5, 15, 20, 35, 40, 55, 70))


def _dash(players: _Players, hand: _Hand, p: int, delta: int) -> tuple[bool, int]:
    """A defender who took nothing gets a dash; the third costs 120 (the penalty)."""
    dash = p not in (hand.declarer, hand.sitter) and delta == 0 and not players.barrel[p]
    if not dash:
        return False, 0
    players.dashes[p] += 1
    if players.dashes[p] == 3:
        players.dashes[p] = 0
        return True, -120
    return True, 0


def _add(players: _Players, hand: _Hand, p: int, delta: int) -> bool:
    """Add ``delta`` to the total, with the barrel at 880; True if ``p`` fell off it."""
    tot, barrel = players.totals, players.barrel
    tot[p] += delta
    if tot[p] >= 1000 and p != hand.declarer:
        tot[p] = 880  # only the declarer can go out; a defender stops at 880
    if 880 <= tot[p] < 1000:
        tot[p] = 880
        barrel[p] += 1
        if barrel[p] > 3:
            tot[p], barrel[p] = 760, 0
            return True
    else:
        barrel[p] = 0
    return False


def _cell(rng: random.Random, players: _Players, hand: _Hand, p: int) -> SheetCell:
    """Player ``p``'s cell of the hand's row."""
    delta = _delta(rng, players, hand, p)
    dash, penalty = _dash(players, hand, p, delta)
    if players.barrel[p] and p != hand.declarer:
        delta = 0
    fell = _add(players, hand, p, delta + penalty)
    declares = p == hand.declarer
    return SheetCell(
        total=players.totals[p],
        delta=delta,
        contract=hand.contract if declares else None,
        made=(None if hand.rospisat else hand.made) if declares else None,
        barrel=players.barrel[p],
        barrel_fell=fell,
        dash=dash,
        rospisat=hand.rospisat and declares,
        penalty=penalty,
        sitter=p == hand.sitter,
    )


def match_sheet(players: tuple[str, ...], hands_count: int = 45,
                seed: int = 7) -> tuple[SheetView, SummaryView]:
    """A possible Russian match of ``players``: it ends, with a winner, on the hand a
    declarer reaches 1000; a shorter sample is a match still going on, without a winner."""
    rng = random.Random(seed)
    n = len(players)
    state = _Players(n)
    rows, history = [], []
    for number in range(1, hands_count + 1):
        hand = _deal(rng, n, number)
        cells = tuple(_cell(rng, state, hand, p) for p in range(n))
        rows.append(SheetRow(hand=number, cells=cells, dealer=(number - 1) % n))
        history.append(tuple(state.totals))
        if max(state.totals) >= 1000:
            break  # the match is won: no hand after it
    tot = state.totals
    best_p = max(range(n), key=lambda p: tot[p])
    winners = frozenset({best_p}) if tot[best_p] >= 1000 else frozenset()
    sheet = SheetView(players=players, rows=tuple(rows), winner=winners,
                      title="Russian 1000 · #card-room · score sheet")
    summary = SummaryView(
        players=tuple(
            SummaryPlayer(players[p], tot[p], state.made[p], state.failed[p],
                          state.best[p] or None, (24 if p == best_p else -8))
            for p in range(n)
        ),
        winner=winners,
        history=tuple(history),
        title="Russian 1000 · match over",
        hands=len(rows),
        duration_minutes=hands_count * 2,
    )
    return sheet, summary
