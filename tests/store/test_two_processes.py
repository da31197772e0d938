"""PostgreSQL only: two bot processes (two connection pools) on one database. Matches
finished with the same players at the same moment are each rated exactly once, as one
process would rate them in order; settings one process writes, the other reads at once."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.store import HandLine, MatchRecord, PgStore, PlayerKind, PlayerRef, open_store
from tests.databases import rows

PAIRS = 30
NOW = 1000 * 86400.0


def human(uid: int) -> PlayerRef:
    return PlayerRef(PlayerKind.HUMAN, uid, "", f"P{uid}")


def _records() -> list[MatchRecord]:
    rng = random.Random(7)
    out = []
    for i in range(2 * PAIRS):
        uids = rng.sample(range(1, 6), 3)  # five players, three a match: many overlaps
        players = tuple(PlayerRef(PlayerKind.HUMAN, u, "", f"P{u}") for u in uids)
        totals = (1000, rng.randrange(-100, 900), rng.randrange(-100, 900))
        line = HandLine(0, False, None, False, False)
        out.append(MatchRecord(1, 100 + i, 1, "russian", "russian", NOW - 60, NOW + i,
                               players, totals, (0,), (False,) * 3, ((line,) * 3,),
                               (0, 1, 2)))
    return out


async def _finish(store: PgStore, rec: MatchRecord) -> None:
    async with store.transaction() as tx:  # as the service's last move of a match
        await tx.touch_players(rec.players, rec.finished_at)
        await tx.record_match(rec, rec.finished_at)


async def _ratings(store) -> list[tuple]:
    return await rows(store, "SELECT p.user_id, r.mu, r.sigma, r.matches FROM ratings r"
                             " JOIN players p ON p.id = r.player_id ORDER BY p.user_id")


async def _history(store) -> list[tuple]:
    return await rows(store, "SELECT m.table_id, p.user_id, h.mu, h.sigma FROM rating_history h"
                             " JOIN match_records m ON m.id = h.match_id"
                             " JOIN players p ON p.id = h.player_id ORDER BY m.id, p.user_id")


async def test_two_processes_rate_each_match_once_as_in_order(pg_server, tmp_path):
    url = await pg_server.new_database()
    one, two = await PgStore.open(url), await PgStore.open(url)
    recs = _records()
    try:
        for i in range(PAIRS):  # each pair finishes at the same instant, one in each process
            await asyncio.gather(_finish(one, recs[2 * i]), _finish(two, recs[2 * i + 1]))
        order = [r[0] for r in await rows(one, "SELECT table_id FROM match_records ORDER BY id")]
        got_ratings, got_history = await _ratings(one), await _history(one)
    finally:
        await one.close()
        await two.close()
    assert sorted(order) == [r.table_id for r in recs]  # every match recorded once
    serial = await open_store(str(tmp_path / "serial.db"))  # one process, in id order
    try:
        by_table = {r.table_id: r for r in recs}
        for table_id in order:
            await _finish(serial, by_table[table_id])  # type: ignore[arg-type]
        want_ratings, want_history = await _ratings(serial), await _history(serial)
    finally:
        await serial.close()
    assert len(got_history) == 3 * len(recs)
    assert [r[:1] + r[3:] for r in got_ratings] == [r[:1] + r[3:] for r in want_ratings]
    assert [x for r in got_ratings for x in r[1:3]] == pytest.approx(
        [x for r in want_ratings for x in r[1:3]])
    assert [r[:2] for r in got_history] == [r[:2] for r in want_history]
    assert [x for r in got_history for x in r[2:]] == pytest.approx(
        [x for r in want_history for x in r[2:]])


async def test_settings_one_process_writes_the_other_reads_at_once(pg_server):
    url = await pg_server.new_database()
    one, two = await PgStore.open(url), await PgStore.open(url)
    try:
        assert (await two.guild_settings(5)).default_preset == ""
        async with one.transaction() as tx:
            await tx.set_guild_settings(5, default_preset="polish", turn_timer=60)
        # opening a table may use a copy a few seconds old; everything else reads again
        assert (await two.guild_settings(5, max_age=60)).default_preset == ""
        got = await two.guild_settings(5)
        assert (got.default_preset, got.turn_timer) == ("polish", 60)
        assert (await two.guild_settings(5, max_age=60)).default_preset == "polish"
    finally:
        await one.close()
        await two.close()


async def test_player_settings_one_process_writes_the_other_reads_within_the_age(pg_server):
    url = await pg_server.new_database()
    one, two = await PgStore.open(url), await PgStore.open(url)
    try:
        assert (await two.player_settings(5)).turn_ping is False
        async with one.transaction() as tx:
            await tx.set_turn_ping(5, True)
        assert (await one.player_settings(5)).turn_ping is True
        assert (await two.player_settings(5, max_age=60)).turn_ping is False
        assert (await two.player_settings(5)).turn_ping is True
    finally:
        await one.close()
        await two.close()


async def test_tables_seating_the_same_ai_level_do_not_wait_for_each_other(pg_server):
    """Every table seats the same AI rows: a match's first transaction must not hold them
    locked against the others (it did, and 400 tables opening queued up behind one row)."""
    url = await pg_server.new_database()
    one, two = await PgStore.open(url), await PgStore.open(url)
    ai = [PlayerRef(PlayerKind.AI, None, "normal", "Bot"),
          PlayerRef(PlayerKind.AI, None, "easy", "Bot")]
    try:
        async with one.transaction() as tx:  # the first table ever: creates the rows
            first = await tx.touch_players(ai, NOW)
        holding = asyncio.Event()
        release = asyncio.Event()

        async def slow_table() -> list[int]:
            async with one.transaction() as tx:
                ids = await tx.touch_players([human(1), *ai], NOW + 5)
                holding.set()
                await release.wait()  # still in its transaction
                return ids

        slow = asyncio.create_task(slow_table())
        await holding.wait()
        async with two.transaction() as tx:  # another table, another process, meanwhile
            other = await asyncio.wait_for(tx.touch_players([human(2), *ai], NOW + 6), 5)
        release.set()
        assert (await slow)[1:] == first == other[1:]
        # a renamed AI, or one not seen for an hour, is still written down
        async with two.transaction() as tx:
            await tx.touch_players([PlayerRef(PlayerKind.AI, None, "normal", "Robot")],
                                   NOW + 7200)
        assert await rows(one, "SELECT name, last_seen FROM players WHERE level = 'normal'") \
            == [("Robot", NOW + 7200)]
    finally:
        await one.close()
        await two.close()
