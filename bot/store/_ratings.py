"""Skill ratings: OpenSkill's Plackett-Luce model, per guild and rating family.

Runs inside the transaction that records (or removes) a match, so a rating moves exactly
when the record does; the SQL is the same for both stores. The number people see is the conservative
estimate mu - 3 sigma (0 for a newcomer)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

from bot.store._sql import Sql

MODEL = PlackettLuce()

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


async def rate_match(db: Sql, match_id: int) -> None:
    """Rate the rated seats of a recorded match against each other (two or more)."""
    row = await db.row(RATED_MATCH, (match_id,))
    seats = await db.rows(RATED_SEATS, (match_id,))
    if row is None or len(seats) < 2:
        return
    guild_id, family, at = row
    before = []
    for player_id, _, _ in seats:
        got = await db.row(RATING_OF, (guild_id, family, player_id))
        before.append(tuple(got) if got is not None else (MODEL.mu, MODEL.sigma, 0))
    after = new_ratings(before, seats)
    await db.run_many(SET_RATING, [
        (guild_id, family, player_id, mu, sigma, conservative(mu, sigma), played + 1)
        for (player_id, _, _), (_, _, played), (mu, sigma) in zip(seats, before, after,
                                                                   strict=True)])
    await db.run_many(ADD_HISTORY, [
        (guild_id, family, player_id, match_id, mu, sigma, at)
        for (player_id, _, _), (mu, sigma) in zip(seats, after, strict=True)])


async def recompute_family(db: Sql, guild_id: int, family: str, from_match: int) -> None:
    """Ratings of one guild and family as if the matches from ``from_match`` on were rated
    again (after one was excluded): the ratings before it stay, the rest is replayed."""
    await db.run(DROP_HISTORY, (guild_id, family, from_match))
    await db.run(DROP_RATINGS, (guild_id, family))
    await db.run(RATINGS_FROM_HISTORY, (guild_id, family))
    for (match_id,) in await db.rows(LATER_MATCHES, (guild_id, family, from_match)):
        await rate_match(db, match_id)

