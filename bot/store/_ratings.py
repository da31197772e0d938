"""Skill ratings: OpenSkill's Plackett-Luce model, per guild and rating family.

Runs on the write connection inside the transaction that records (or removes) a match, so a
rating moves exactly when the record does. The number people see is the conservative
estimate mu - 3 sigma (0 for a newcomer)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()

# The SQL both stores run (``?`` placeholders; see bot.store._sql).
RATED_MATCH = "SELECT guild_id, family, finished_at FROM match_records WHERE id = ?"
RATED_SEATS = ("SELECT player_id, winner, total FROM match_seats WHERE match_id = ?"
               " AND rated = 1 ORDER BY seat")
RATING_OF = ("SELECT mu, sigma, matches FROM ratings"
             " WHERE guild_id = ? AND family = ? AND player_id = ?")
SET_RATING = (
    "INSERT INTO ratings (guild_id, family, player_id, mu, sigma, value, matches)"
    " VALUES (?,?,?,?,?,?,?) ON CONFLICT (guild_id, family, player_id) DO UPDATE SET"
    " mu = excluded.mu, sigma = excluded.sigma, value = excluded.value,"
    " matches = excluded.matches")
ADD_HISTORY = ("INSERT INTO rating_history (guild_id, family, player_id, match_id, mu, sigma,"
               " at) VALUES (?,?,?,?,?,?,?)")
DROP_HISTORY = "DELETE FROM rating_history WHERE guild_id = ? AND family = ? AND match_id >= ?"
DROP_RATINGS = "DELETE FROM ratings WHERE guild_id = ? AND family = ?"
RATINGS_FROM_HISTORY = (
    "INSERT INTO ratings (guild_id, family, player_id, mu, sigma, value, matches)"
    " SELECT h.guild_id, h.family, h.player_id, h.mu, h.sigma, h.mu - 3 * h.sigma,"
    " (SELECT COUNT(*) FROM rating_history c WHERE c.guild_id = h.guild_id"
    "  AND c.family = h.family AND c.player_id = h.player_id)"
    " FROM rating_history h WHERE h.guild_id = ? AND h.family = ? AND h.match_id ="
    " (SELECT MAX(match_id) FROM rating_history l WHERE l.guild_id = h.guild_id"
    "  AND l.family = h.family AND l.player_id = h.player_id)")
LATER_MATCHES = ("SELECT id FROM match_records WHERE guild_id = ? AND family = ? AND id > ?"
                 " AND rated = 1 AND excluded = 0 ORDER BY id")


def conservative(mu: float, sigma: float) -> float:
    """The rating shown: mu - 3 sigma."""
    return mu - 3 * sigma


def ranks(seats: Sequence[tuple[bool, int]]) -> list[int]:
    """1-based ranks of (winner, total) seats, winners first, then by total; ties share."""
    keys = [(not winner, -total) for winner, total in seats]
    return [1 + sum(other < key for other in keys) for key in keys]


def new_ratings(before: Sequence[Sequence[Any]],
                seats: Sequence[Sequence[Any]]) -> list[tuple[float, float]]:
    """(mu, sigma) after a match, by seat, from (mu, sigma, matches) before it and the
    seats' (player_id, winner, total)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma, _ in before]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks(
        [(bool(w), t) for _, w, t in seats])])
    return [(float(new.mu), float(new.sigma)) for (new,) in after]


def rate_match(db: sqlite3.Connection, match_id: int) -> None:
    """Rate the rated seats of a recorded match against each other (two or more)."""
    row = db.execute(RATED_MATCH, (match_id,)).fetchone()
    seats = db.execute(RATED_SEATS, (match_id,)).fetchall()
    if row is None or len(seats) < 2:
        return
    guild_id, family, at = row
    before = []
    for player_id, _, _ in seats:
        cur = db.execute(RATING_OF, (guild_id, family, player_id)).fetchone()
        before.append(cur if cur is not None else (MODEL.mu, MODEL.sigma, 0))
    for (player_id, _, _), (_, _, played), (mu, sigma) in zip(
            seats, before, new_ratings(before, seats), strict=True):
        db.execute(SET_RATING, (guild_id, family, player_id, mu, sigma,
                                conservative(mu, sigma), played + 1))
        db.execute(ADD_HISTORY, (guild_id, family, player_id, match_id, mu, sigma, at))


def recompute_family(db: sqlite3.Connection, guild_id: int, family: str,
                     from_match: int) -> None:
    """Ratings of one guild and family as if the matches from ``from_match`` on were rated
    again (after one was excluded): the ratings before it stay, the rest is replayed."""
    db.execute(DROP_HISTORY, (guild_id, family, from_match))
    db.execute(DROP_RATINGS, (guild_id, family))
    db.execute(RATINGS_FROM_HISTORY, (guild_id, family))
    later = db.execute(LATER_MATCHES, (guild_id, family, from_match))
    for (match_id,) in later.fetchall():
        rate_match(db, match_id)
