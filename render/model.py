"""Plain input data for the renderers.

Everything here is a frozen dataclass of ints, strings, tuples and frozensets, so that
a thin adapter can fill it from the engine's observations (``bot.game``) or from the
store's rows without ``render`` importing either.

Conventions
-----------
* A card is a string in the project notation: rank then suit, ``9C JD QH KS 10H AC``
  (``7S 8D`` in the 32-card deck). Suits are ``C D H S``; ten is always ``10``.
* A suit is one of ``"C" "D" "H" "S"``.
* Seats are small ints ``0..n-1`` numbered clockwise, exactly as in the engine.
* Names are Discord display names: any script, any length; the renderers shorten
  them with "…" when they do not fit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from render.labels import ENGLISH, Labels

SUITS: tuple[str, ...] = ("C", "D", "H", "S")
RANKS: tuple[str, ...] = ("7", "8", "9", "J", "Q", "K", "10", "A")
"""Ranks from lowest to highest (``A > 10 > K > Q > J > 9 > 8 > 7``)."""


def split_card(card: str) -> tuple[str, str]:
    """Split ``"10H"`` into ``("10", "H")``; accepts lower case; raises ``ValueError``."""
    text = card.strip().upper()
    rank, suit = text[:-1], text[-1:]
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"not a card: {card!r}")
    return rank, suit


@dataclass(frozen=True)
class SeatView:
    """One seat of the public table, as everybody may see it."""

    name: str
    total: int = 0
    """Match total so far (may be negative)."""
    is_dealer: bool = False
    is_declarer: bool = False
    is_sitter: bool = False
    """Sits out this hand (four seated in a three-hand form)."""
    is_turn: bool = False
    """It is this seat's turn to act (bid, exchange or play)."""
    on_barrel: bool = False
    barrel_hands: int = 0
    """Barrel hands already used while on the barrel (0..2 with the classic limit of 3); the
    plate shows the attempt in hand, ``barrel_hands + 1`` of ``barrel_limit``, as the score
    sheet's strokes do."""
    barrel_limit: int = 3
    """Barrel hands allowed (classic barrel); 0 = no count (e.g. the Lviv barrel zone)."""
    dashes: int = 0
    """Zeros counted toward the next dash penalty (0..2)."""
    locked: bool = False
    bid: str | None = None
    """Last call in the running auction: ``"100"``, ``"pass"``, ``"blind 120"``…; None if none."""
    hand_count: int = 0
    """Cards in this seat's hand (shown as backs)."""
    delta: int | None = None
    """Change of the total in the hand just scored (shown between hands); None otherwise."""
    taken: int | None = None
    """Points taken so far in the hand being played (tricks and declarations; the
    declarer's drawn against the contract); None when not playing."""


@dataclass(frozen=True)
class TableView:
    """The public table message: seats, the trick, trump, contract, auction, talon."""

    seats: tuple[SeatView, ...]
    """Two, three or four seats, in seat order."""
    trick: tuple[tuple[int, str], ...] = ()
    """Cards of the current (or just-finished) trick as ``(seat, card)`` in play order."""
    last_trick_winner: int | None = None
    """Set when ``trick`` is a finished trick: the seat that won it."""
    trump: str | None = None
    """Current trump suit, or None for "no trump yet"."""
    contract: int | None = None
    """The contract (or, during the auction, None: the bids are on the seats)."""
    declarer: int | None = None
    made: bool | None = None
    """After the hand: True if the declarer made the contract, False if not; None before."""
    talon: tuple[str, ...] | None = None
    """The prikup/musik when it is shown face up; None when hidden or gone.
    An empty tuple or a tuple of ``"??"`` entries draws face-down cards."""
    talon_backs: int = 0
    """Face-down talon cards to draw when ``talon`` is None (0 = none on the table)."""
    talon_piles: tuple[int, ...] = ()
    """Sizes of several face-down talons (e.g. ``(2, 2)``), drawn as numbered piles; when
    set it replaces ``talon_backs``."""
    talon_label: str = "prikup"
    """What the players call the talon: "prikup", "musik", "talon", "kitty"…"""
    stock: int = 0
    """Cards left in the draw stock of a stock game (drawn as a pile; 0 = no stock)."""
    stock_bottom: str | None = None
    """The stock's bottom card when it is turned face up for all to see."""
    phase: str = ""
    """Short human label of the phase: "Bidding", "Exchange", "Play", "Hand over"…"""
    hand_number: int = 0
    target: int = 1000
    title: str = ""
    """Optional caption, e.g. the preset name ("Russian 1000")."""
    high_bid: int | None = None
    """Highest bid so far in the running auction."""
    labels: Labels = ENGLISH
    """The words drawn, in the language of whoever reads the image."""


@dataclass(frozen=True)
class HandView:
    """One player's own hand (the ephemeral message)."""

    cards: tuple[str, ...]
    legal: frozenset[str] | None = None
    """Cards that may be played now; None when nothing is to be played (no dimming)."""
    new_cards: frozenset[str] = frozenset()
    """Cards received in the exchange (or taken from the talon), marked as new."""
    marriages: frozenset[str] = frozenset()
    """Suits whose K and Q the player holds and may still declare."""
    marriage_values: tuple[tuple[str, int], ...] = ()
    """Optional ``(suit, value)`` pairs to print beside a marriage (e.g. ``("H", 100)``)."""
    trump: str | None = None
    name: str = ""
    """Optional caption (the player's name)."""
    note: str = ""
    """Optional one-line hint, e.g. "Your lead" or "Give a card to Ola"."""
    labels: Labels = ENGLISH
    """The words drawn, in the language of whoever reads the image."""


@dataclass(frozen=True)
class SheetCell:
    """One player's entry in one row of the score sheet."""

    total: int
    """Running total after the hand."""
    delta: int | None = None
    """Change in this hand (None when not shown)."""
    contract: int | None = None
    """Set on the declarer's cell: the contract played."""
    made: bool | None = None
    """Set on the declarer's cell: True made, False failed."""
    barrel: int = 0
    """On the barrel after this hand: 1..3 is the barrel hand being counted (the circled total
    with that many strokes); 0 = not on the barrel."""
    barrel_fell: bool = False
    """Fell off the barrel in this hand."""
    dash: bool = False
    """A zero hand written as a dash."""
    rospisat: bool = False
    """The declarer gave up the hand (Russian "Р")."""
    penalty: int = 0
    """A penalty applied in this hand (negative, e.g. -120 for the third dash)."""
    sitter: bool = False
    """Sat out this hand."""


@dataclass(frozen=True)
class SheetRow:
    hand: int
    cells: tuple[SheetCell, ...]
    """One cell per player, in player order."""
    dealer: int | None = None


@dataclass(frozen=True)
class SheetView:
    """The score sheet of a match, paper style."""

    players: tuple[str, ...]
    rows: tuple[SheetRow, ...]
    winner: frozenset[int] = frozenset()
    """Winning player index(es); empty while the match goes on."""
    title: str = ""
    labels: Labels = ENGLISH
    """The words drawn, in the language of whoever reads the image."""


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    name: str
    rating: int
    games: int
    wins: int
    value_text: str = ""
    """Shown in the first column instead of ``rating`` (other metrics), if set."""
    extra_text: str = ""
    """The last column's value, where the view has one (``extra_label``)."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class LeaderboardView:
    rows: tuple[LeaderboardRow, ...]
    title: str = ""
    """The heading; empty: the labels' "Leaderboard"."""
    highlight: int | None = None
    """Rank to highlight (the viewer), or None."""
    value_label: str = ""
    """The first column's heading (the metric ranked by)."""
    show_wins: bool = True
    """Draw the Wins and Win % columns (off where the rows do not know them)."""
    games_label: str = ""
    """The count column's heading; empty: the labels' "Games"."""
    extra_label: str = ""
    """A last column's heading (rows' ``extra_text``) instead of the wins; empty: none."""
    labels: Labels = ENGLISH
    """The words drawn, in the language of whoever reads the image."""


@dataclass(frozen=True)
class SummaryPlayer:
    name: str
    total: int
    contracts_made: int = 0
    contracts_failed: int = 0
    best_contract: int | None = None
    rating_change: int | None = None


@dataclass(frozen=True)
class SummaryView:
    """End-of-match summary: the winner, final totals and the course of the match."""

    players: tuple[SummaryPlayer, ...]
    winner: frozenset[int]
    history: tuple[tuple[int, ...], ...] = field(default=())
    """Running totals after each hand, one tuple per hand in player order (for the chart)."""
    title: str = ""
    hands: int = 0
    duration_minutes: int | None = None
    target: int = 1000
    """The match's target: the top of the chart's scale."""
    barrel_at: int | None = 880
    """Where the barrel starts (a line on the chart); None without a barrel."""
    labels: Labels = ENGLISH
    """The words drawn, in the language of whoever reads the image."""
