"""Duplicate boards (docs/daily.md): one deal of a preset, played as one hand from zero totals.

The day's boards follow from the date (UTC) and the preset alone: board ``i`` of a day is the
deck ordered by the SHA-256 digest of ``"1000-daily|<date>|<preset>|<i>|<attempt>|<card>"``
for every card, dealt by the preset's dealing order, with the dealer chosen by the digest of
``"1000-daily|<date>|<preset>|<i>|<attempt>|dealer"``. No random generator is involved, so the
same boards come out on every machine and every Python version.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.game.actions import Action, Deal
from bot.game.cards import DECK_CARDS, card_str
from bot.game.dealing import canonical_deal, new_match, seats_for_hand
from bot.game.engine import apply_into
from bot.game.errors import RuleError
from bot.game.export import scenario_of
from bot.game.presets import PRESETS, preset
from bot.game.rules import Rules, RulesError
from bot.game.state import Phase, State

SEED_PREFIX = "1000-daily"
SEAT_NAMES = ("A", "B", "C", "D")  # the players of a board's scenario file, by seat
_ATTEMPTS = 100  # a deal the rules annul at once is skipped for the next attempt


@dataclass(frozen=True, slots=True)
class Board:
    """One board of a day: its deal, its dealer and the seat the day's player takes."""

    day: dt.date
    preset: str
    number: int  # 0-based within the day
    dealer: int
    seat: int  # the seat every player of the day plays on this board
    deal: Deal

    @property
    def rules(self) -> Rules:
        """The board's rule set."""
        return preset(self.preset)

    @property
    def key(self) -> str:
        """``2026-11-27/russian/0``: the board's name in the store and on the web."""
        return f"{self.day.isoformat()}/{self.preset}/{self.number}"

    def start(self) -> State:
        """The board dealt: a match at zero totals with this deal applied."""
        s = new_match(self.rules, self.dealer)
        return apply_into(s, self.deal, None)

    def scenario(self) -> dict[str, Any]:
        """The board as a scenario file (deal only; docs/scenarios.md)."""
        names = list(SEAT_NAMES[:self.rules.seats])
        return scenario_of(self.preset, self.rules, names, self.dealer, [self.deal],
                           note=f"board {self.number + 1} of {self.day.isoformat()} "
                                f"({self.preset}); the day's player sits at "
                                f"{names[self.seat]}")


def default_count(rules: Rules) -> int:
    """Boards a day: twice round the seats."""
    return 2 * rules.seats


def _digest(*parts: object, prefix: str = SEED_PREFIX) -> int:
    text = "|".join(str(p) for p in (prefix, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")


def shuffled_deck(rules: Rules, *parts: object, prefix: str = SEED_PREFIX) -> list[int]:
    """The preset's deck sorted by the digest of ``prefix|parts...|card`` (top card first)."""
    return sorted(DECK_CARDS[rules.deck.value],
                  key=lambda c: _digest(*parts, card_str(c), prefix=prefix))


def stands(rules: Rules, dealer: int, deal: Deal) -> bool:
    """Whether a board's deal can be played: legal, and not annulled by itself (dealt
    nines), so that its hand begins."""
    try:
        state = apply_into(new_match(rules, dealer), deal, None)
    except RuleError:
        return False
    return state.phase is not Phase.DEALING


def board(day: dt.date, preset_name: str, number: int) -> Board:
    """Board ``number`` of ``day`` for a preset (RulesError for an unknown preset)."""
    rules = preset(preset_name)
    n = rules.seats
    seat = number % n
    for attempt in range(_ATTEMPTS):
        base = (day.isoformat(), preset_name, number, attempt)
        deck = shuffled_deck(rules, *base)
        # The player must hold cards: with four seated, a dealer who makes him sit out is
        # passed over for the next seat.
        first = _digest(*base, "dealer") % n
        dealer = next(d for d in ((first + k) % n for k in range(n))
                      if seat in seats_for_hand(rules, d)[2])
        deal = canonical_deal(rules, dealer, list(deck))
        if stands(rules, dealer, deal):
            return Board(day, preset_name, number, dealer, seat, deal)
    raise RulesError(f"no playable deal for board {number} of {day} ({preset_name})")


def day_boards(day: dt.date, preset_name: str, count: int | None = None) -> list[Board]:
    """The day's boards; ``count`` must be a positive multiple of the preset's seats."""
    rules = preset(preset_name)
    n = rules.seats
    count = default_count(rules) if count is None else count
    if count <= 0 or count % n:
        raise RulesError(f"the number of boards must be a positive multiple of {n} (the "
                         f"seats of {preset_name}), so that the player sits in each seat "
                         "equally often")
    return [board(day, preset_name, i) for i in range(count)]


def digest(boards: Sequence[Board]) -> str:
    """A short fingerprint of boards (their deals and dealers), for tests and logs."""
    h = hashlib.sha256()
    for b in boards:
        h.update(f"{b.key}|{b.dealer}|{b.seat}|{b.deal.describe()}\n".encode())
    return h.hexdigest()[:16]


def board_over(state: State) -> bool:
    """Whether the board's one hand is over (scored, thrown in or annulled)."""
    return state.phase in (Phase.DEALING, Phase.MATCH_OVER)


def result_of(state: State) -> tuple[int, ...]:
    """Each seat's change of total once the board is over (zeros for a hand without one)."""
    res = state.last_result
    return res.delta if res is not None else (0,) * state.rules.seats


def replay(board: Board, moves: Sequence[Action]) -> State:
    """The board's state after these moves (RuleError for an illegal one)."""
    s = board.start()
    for a in moves:
        s = apply_into(s, a, None)
    return s


def presets() -> list[str]:
    """The presets boards can be made of."""
    return list(PRESETS)
