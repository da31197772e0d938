"""The community record's values: players, recorded matches, settings, leaderboards."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum


class PlayerKind(StrEnum):
    HUMAN = "human"
    AI = "ai"


class Metric(StrEnum):
    """Leaderboard metrics."""

    RATING = "rating"
    WINS = "wins"
    WIN_RATE = "win_rate"
    MATCHES = "matches"
    POINTS_PER_HAND = "points_per_hand"
    CONTRACTS_MADE = "contracts_made"  # % of the contracts played out
    BARREL_WINS = "barrel_wins"


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """Who sat in a seat."""

    kind: PlayerKind
    user_id: int | None  # Discord user id (humans); None for AI
    level: str  # AI level; "" for humans
    name: str  # the name shown at the table (a human's last display name)


@dataclass(frozen=True, slots=True)
class HandLine:
    """One seat in one scored hand."""

    delta: int  # change of the seat's match total in this hand
    declarer: bool  # this seat was the declarer (played a contract or gave it up)
    made: bool | None  # declarer: contract made / failed; None otherwise or after a rospisat
    rospisat: bool  # this seat (the declarer) gave the hand up (rospisat / bomba)
    dash: bool  # this seat got a dash in this hand


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A won match, as the service hands it over in the finishing transaction."""

    guild_id: int | None
    table_id: int
    match_no: int
    preset: str
    family: str  # rating family (e.g. "russian" for russian and russian4)
    started_at: float
    finished_at: float
    players: tuple[PlayerRef, ...]  # by seat
    totals: tuple[int, ...]  # final totals by seat
    winners: tuple[int, ...]  # seats
    barrel_wins: tuple[bool, ...]  # by seat: won the match from the barrel
    hands: tuple[tuple[HandLine, ...], ...]  # per hand, per seat
    rated_seats: tuple[int, ...]  # seats rated against each other (see ``rated_seats``)

    @property
    def rated(self) -> bool:
        """Is this match rated: two seats or more rated against each other."""
        return len(set(self.rated_seats)) >= 2


def rated_seats(players: Sequence[PlayerRef], ai_rated: bool) -> tuple[int, ...]:
    """The seats a match rates against each other (ranked by totals): every seat when people
    alone played; with AI at the table only the people, and only where the server counts AI
    matches (``GuildSettings.ai_rated``). See :attr:`MatchRecord.rated`."""
    humans = tuple(i for i, p in enumerate(players) if p.kind is PlayerKind.HUMAN)
    if len(humans) == len(players) or ai_rated:
        return humans
    return ()


@dataclass(frozen=True, slots=True)
class PlayerSettings:
    """What a user chose with /optin (the same in every guild)."""

    user_id: int
    global_opt_in: bool = False  # shown on the global leaderboards
    turn_ping: bool = False  # told in the channel when a turn comes


@dataclass(frozen=True, slots=True)
class GuildSettings:
    guild_id: int
    # "" = none chosen: a table opens with the preset of the server's language
    # (rows stored before that kept the column's old default, russian)
    default_preset: str = ""
    turn_timer: int = 300
    language: str = ""  # "" = the server's preferred locale
    ai_rated: bool = False  # AI matches count for ratings
    web: bool = False  # the server's web pages are published


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """A recorded match, for /history and /sheet."""

    match_id: int  # the public id people type (#123)
    guild_id: int | None
    table_id: int
    match_no: int
    preset: str
    family: str
    started_at: float
    finished_at: float
    names: tuple[str, ...]  # by seat
    user_ids: tuple[int | None, ...]  # by seat
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    excluded: bool  # removed from the record by an admin


@dataclass(frozen=True, slots=True)
class LeaderRow:
    rank: int  # 1-based
    player_id: int
    user_id: int | None
    name: str
    value: float  # rating: mu - 3 sigma; win rate / contracts made: percent 0-100
    matches: int


@dataclass(frozen=True, slots=True)
class RatingPoint:
    match_id: int
    at: float
    value: float  # mu - 3 sigma after that match


@dataclass(frozen=True, slots=True)
class Profile:
    """A player's record in one guild (/stats)."""

    player_id: int
    user_id: int | None
    name: str
    matches: int
    wins: int
    hands: int
    points: int  # sum of deltas
    contracts_made: int
    contracts_failed: int
    rospisat: int
    dashes: int
    barrel_wins: int
    ratings: tuple[tuple[str, float, int], ...]  # (family, mu - 3 sigma, rated matches)
    trend: tuple[RatingPoint, ...]  # last 20 points of the main family, oldest first
    favourite_preset: str | None
    best_match: MatchInfo | None  # the won match with the highest final total
