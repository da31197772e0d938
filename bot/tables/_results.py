"""A won match as the record the store keeps: who sat where, each hand per seat, the rating.

Pure functions over the table's values; the ledger hands the record to the store in the
transaction that stores the match's last move, so the result and its rating are written
together, once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.game.observation import Observation
from bot.game.state import HandEnd, HandResult, State
from bot.store import (
    GuildSettings,
    HandLine,
    MatchRecord,
    PlayerKind,
    PlayerRef,
    rated_seats,
)
from bot.tables._model import Seat, Table

_GAVE_UP = (HandEnd.ROSPISAT, HandEnd.SPISAT, HandEnd.CONCEDE)


def preset_family(preset: str) -> str:
    """The ratings family of a preset: its three- and four-seat forms rate together
    (``russian4`` with ``russian``); the two-seat games are their own."""
    return re.sub(r"\d+$", "", preset) or preset


def player_ref(seat: Seat) -> PlayerRef:
    if seat.ai or seat.user_id is None:
        return PlayerRef(PlayerKind.AI, None, seat.level or "normal", seat.name)
    return PlayerRef(PlayerKind.HUMAN, seat.user_id, "", seat.name)


def hand_lines(result: HandResult, seats: int) -> tuple[HandLine, ...]:
    """One scored hand, per seat."""
    played = result.end is HandEnd.PLAYED
    out = []
    for p in range(seats):
        declarer = p == result.declarer
        out.append(HandLine(
            delta=result.delta[p] if p < len(result.delta) else 0,
            declarer=declarer,
            made=result.made if declarer and played else None,
            rospisat=declarer and result.end in _GAVE_UP,
            # the dash is written for a defender who took nothing in a played hand
            dash=played and not declarer and p in result.taken and result.taken[p] == 0))
    return tuple(out)


def match_record(table: Table, final: State, seats: Sequence[Seat],
                 results: Sequence[HandResult], before: Observation,
                 settings: GuildSettings | None, *, started_at: float,
                 finished_at: float) -> MatchRecord:
    """The record of ``table``'s match, just won: ``final`` its state after the last move,
    ``before`` the public view before it (for who won from the barrel)."""
    match = final.match
    players = tuple(player_ref(s) for s in seats)
    return MatchRecord(
        guild_id=table.guild_id, table_id=table.id, match_no=table.match_no,
        preset=table.preset, family=preset_family(table.preset), started_at=started_at,
        finished_at=finished_at, players=players, totals=tuple(match.totals),
        winners=tuple(match.winners),
        barrel_wins=tuple(p in match.winners and before.on_barrel[p]
                          for p in range(len(players))),
        hands=tuple(hand_lines(r, len(players)) for r in results),
        rated_seats=rated_seats(players, bool(settings and settings.ai_rated)))
