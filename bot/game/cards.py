"""Cards as small ints and hands as bitmasks, in the notation of docs/scenarios.md.

A card is ``suit * 8 + rank`` where rank is the index in strength order
7 8 9 J Q K 10 A (0..7) and suit is C D H S (0..3). A set of cards is an int
bitmask, which keeps the engine's hot path free of allocations.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANKS = ("7", "8", "9", "J", "Q", "K", "10", "A")
RANK_POINTS = (0, 0, 0, 2, 3, 4, 10, 11)

R7, R8, R9, RJ, RQ, RK, R10, RA = range(8)
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)

SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))
RANK_MASK = tuple(sum(1 << (s * 8 + r) for s in range(4)) for r in range(8))
ALL_NINES = RANK_MASK[R9]
ALL_ACES = RANK_MASK[RA]

DECKS = {
    "9-A": sum(RANK_MASK[r] for r in range(R9, RA + 1)),
    "10-A": sum(RANK_MASK[r] for r in range(RJ, RA + 1)),
    "7-A": sum(RANK_MASK),
}

CARD_POINTS = tuple(RANK_POINTS[c & 7] for c in range(32))  # card points, indexed by card
_BYTE_POINTS = tuple(sum(RANK_POINTS[r] for r in range(8) if b >> r & 1) for b in range(256))


DECK_CARDS = {name: tuple(
    c for c in range(32) if mask >> c & 1) for name, mask in DECKS.items()}


def card(rank: int, suit: int) -> int:
    """The card of this rank index and suit index."""
    return suit * 8 + rank


# The same as tables, for the hottest loops (an AI's search): an index, not a call.
SUIT_OF: tuple[int, ...] = tuple(c >> 3 for c in range(32))
RANK_OF: tuple[int, ...] = tuple(c & 7 for c in range(32))


def suit_of(card: int) -> int:
    """The suit index of a card: C D H S are 0..3."""
    return card >> 3


def rank_of(card: int) -> int:
    """The rank index of a card in strength order: 7 8 9 J Q K 10 A are 0..7."""
    return card & 7


def is_red(card: int) -> bool:
    """Diamonds and hearts are red, clubs and spades black."""
    return card >> 3 in (DIAMONDS, HEARTS)


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card``, played to a trick headed by ``best``, takes the lead (trump -1: none).

    A higher card of the same suit beats it, and so does any trump over a non-trump.
    """
    return (card >> 3 == best >> 3 and card > best) or (card >> 3 == trump and best >> 3 != trump)


# beats() as a table for the hottest loops: BEATERS[trump][best] is the mask of the cards
# that beat ``best``. Row 4 is no trump, so that trump -1 indexes it directly.
BEATERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << c for c in range(32) if beats(c, best, trump)) for best in range(32))
    for trump in (0, 1, 2, 3, -1)
)


# The one order the bot shows cards in (image, text, buttons): ♠ ♥ ♣ ♦, so that the colours
# alternate, then from the highest rank down.
DISPLAY_SUITS = (3, 2, 0, 1)
_DISPLAY_KEYS = tuple((DISPLAY_SUITS.index(c >> 3), -(c & 7)) for c in range(32))


def display_key(card: int) -> tuple[int, int]:
    """Sort key of the bot's card order (see ``DISPLAY_SUITS``)."""
    return _DISPLAY_KEYS[card]


def card_sort_key(card: int) -> tuple[int, int]:
    """Sort key for showing a hand: by suit C D H S, high to low within a suit."""
    return card >> 3, -(card & 7)


def points_of(card: int) -> int:
    """Card points of one card (A 11, 10 10, K 4, Q 3, J 2, else 0)."""
    return CARD_POINTS[card]


def mask_points(mask: int) -> int:
    """Card points of every card in a mask."""
    return (
        _BYTE_POINTS[mask & 0xFF]
        + _BYTE_POINTS[mask >> 8 & 0xFF]
        + _BYTE_POINTS[mask >> 16 & 0xFF]
        + _BYTE_POINTS[mask >> 24 & 0xFF]
    )


def card_str(card: int) -> str:
    """Notation of docs/scenarios.md: rank then suit, e.g. ``10H``."""
    return RANKS[card & 7] + SUITS[card >> 3]


def card_pretty(card: int) -> str:
    """Rank with a suit symbol, e.g. ``10♥``, for players and screen readers."""
    return RANKS[card & 7] + SUIT_SYMBOLS[card >> 3]


def parse_card(text: str, ranks: Mapping[str, str] | None = None) -> int:
    """Parse ``10h``/``QS``/``9♣`` (case-insensitive); ``ranks``: a language's own rank
    letters, upper-case, to the English rank (``{"Т": "A"}``), read first. Raise
    ValueError with a readable message."""
    t = text.strip().upper()
    if len(t) < 2:
        raise ValueError(f"{text!r} is not a card (write rank then suit, e.g. 10H, QS, 9C)")
    rank_part, suit_part = t[:-1], t[-1]
    suit = SUITS.find(suit_part)
    if suit < 0:
        suit = SUIT_SYMBOLS.find(suit_part)
    if ranks and rank_part in ranks:
        rank_part = ranks[rank_part]
    elif rank_part == "T":
        rank_part = "10"
    if suit < 0 or rank_part not in RANKS:
        raise ValueError(f"{text!r} is not a card (write rank then suit, e.g. 10H, QS, 9C)")
    return RANKS.index(rank_part) + 8 * suit


def cards_of(mask: int) -> list[int]:
    """Cards of a mask in ascending int order (suit by suit, low to high)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def to_mask(cards: Iterable[int]) -> int:
    """The mask of these cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def sorted_for_display(mask: int) -> list[int]:
    """Cards grouped by suit (C D H S) and high to low within a suit."""
    return sorted(cards_of(mask), key=card_sort_key)


_KINGS = RANK_MASK[RK]
_QUEENS = RANK_MASK[RQ]


def has_marriage(mask: int) -> bool:
    """Whether the mask holds king and queen of some suit (marriages_in without the list)."""
    return bool(mask & _KINGS & (mask & _QUEENS) << 1)


def marriage_count(mask: int) -> int:
    """How many suits the mask holds both king and queen of."""
    return int((mask & _KINGS & (mask & _QUEENS) << 1).bit_count())


def marriages_in(mask: int) -> list[int]:
    """Suits in which the mask holds both king and queen."""
    kings = mask & _KINGS & (mask & _QUEENS) << 1
    if not kings:
        return []
    return [s for s in range(4) if kings >> (s * 8 + RK) & 1]


def marriage_cards(mask: int) -> frozenset[int]:
    """The kings and queens of the mask's marriages (the cards a player keeps together)."""
    return frozenset(card(r, s) for s in marriages_in(mask) for r in (RK, RQ))


def mask_str(mask: int) -> str:
    """Space-separated notation of the cards of a mask, display order."""
    return " ".join(card_str(c) for c in sorted_for_display(mask))
