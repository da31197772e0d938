"""Duplicate scoring (docs/daily.md): matchpoints against the same seat of a board, and Butler.

On a board every player plays the same seat, so the results compared are numbers: a seat's
change of total. The par (strong AIs in every seat) counts as one result of the field.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class BoardScore:
    """One result on one board, scored against the field and the par."""

    result: int
    matchpoints: int  # 2 for every result beaten, 1 for every tie
    top: int  # the most matchpoints possible: 2 for every other result
    vs_par: int  # result - par (Butler)

    @property
    def percent(self) -> float:
        """Matchpoints as a percentage of the top (50 when nobody else is compared)."""
        return 100.0 * self.matchpoints / self.top if self.top else 50.0


def matchpoints(result: int, others: Sequence[int]) -> tuple[int, int]:
    """(matchpoints, top) of ``result`` against the other results of the same seat."""
    mp = sum(2 if result > o else 1 if result == o else 0 for o in others)
    return mp, 2 * len(others)


def score_board(results: Mapping[K, int], par: int) -> dict[K, BoardScore]:
    """Each player's score on a board: the field is every result plus the par."""
    out: dict[K, BoardScore] = {}
    for who, r in results.items():
        others = [v for k, v in results.items() if k != who]
        others.append(par)
        mp, top = matchpoints(r, others)
        out[who] = BoardScore(r, mp, top, r - par)
    return out


@dataclass(frozen=True, slots=True)
class DayScore:
    """A player's day (or week, month): the mean percentage and the sum of differences."""

    boards: int
    percent: float  # mean of the boards' percentages
    vs_par: int  # sum of the boards' differences from par


def score_day(boards: Sequence[BoardScore]) -> DayScore:
    """The mean percentage and total difference from par over the boards played."""
    if not boards:
        return DayScore(0, 0.0, 0)
    return DayScore(len(boards), sum(b.percent for b in boards) / len(boards),
                    sum(b.vs_par for b in boards))


def streak(days: Sequence[int], today: int) -> int:
    """Days in a row ending today or yesterday (day numbers, e.g. ``date.toordinal()``)."""
    have = set(days)
    start = today if today in have else today - 1
    n = 0
    while start - n in have:
        n += 1
    return n
