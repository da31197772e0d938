"""PostgreSQL only: a move is committed in ONE round trip to the server (each await of the
server costs a pass of a busy event loop), and it is committed when the answer comes."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Awaitable
from typing import TypeVar

from bot.store import PgStore, open_store
from bot.store._pg import TABLE_IDS
from bot.tables import FakeClock, TableService
from tests.helpers.tables import ANN, BOB, CID, play_human_turn

ACTORS = {a.user_id: a for a in (ANN, BOB, CID)}
T = TypeVar("T")


async def _log_queries(store: PgStore) -> list[str]:
    """Every query the store's one connection sends from now on (a pool of one)."""
    seen: list[str] = []
    async with store.pool.acquire() as conn:
        conn.add_query_logger(lambda record: seen.append(record.query))
    return seen


async def _sent(seen: list[str], work: Awaitable[T]) -> tuple[T, list[str]]:
    """What ``work`` returns, and the queries it sent."""
    seen.clear()
    result = await work
    for _ in range(3):
        await asyncio.sleep(0)  # the logger is called soon after the query
    return result, list(seen)


@contextlib.asynccontextmanager
async def _lobby(pg_server) -> AsyncIterator[tuple[TableService, list[str]]]:
    """A service on a store of one connection (no AI moves), and the queries it sends."""
    store = await PgStore.open(await pg_server.new_database(), max_size=1)
    service = TableService(store, clock=FakeClock(), seed=7, ai_delay=3600.0,
                           ai_in_thread=False)
    try:
        await service.restore()
        if store._refill is not None:  # the first block of table ids, taken at opening
            await store._refill
        yield service, await _log_queries(store)
    finally:
        await service.close()
        await store.close()


async def test_a_move_is_one_query_and_is_committed_when_answered(pg_server):
    url = await pg_server.new_database()
    store = await PgStore.open(url, max_size=1)  # one connection: every query is seen
    service = TableService(store, clock=FakeClock(), seed=7, ai_delay=0.0, ai_in_thread=False)
    try:
        await service.restore()
        tid = (await service.create(ANN, channel_id=7, guild_id=1)).table.id
        for a in (BOB, CID):
            await service.join(tid, a)
        await service.start(tid, ANN)
        seen = await _log_queries(store)
        rng = random.Random(4)
        for _ in range(30):  # bids, the talon, tricks, and hands that end and are dealt anew
            moved, sent = await _sent(seen, play_human_turn(service, tid, ACTORS, rng))
            assert moved
            assert len(sent) == 1, sent
            assert not sent[0].lstrip().upper().startswith("BEGIN")
        table = service.get(tid)
        other = await open_store(url)
        try:
            assert len(await other.moves(tid, table.match_no)) == table.seq
        finally:
            await other.close()
    finally:
        await service.close()
        await store.close()


async def test_opening_a_table_and_starting_its_match_take_few_round_trips(pg_server):
    """The lobby's answers wait on their commits too: a table opens in one query once the
    guild's settings are at hand (the store took its first block of table ids when it
    opened), and a match starts in one query."""
    async with _lobby(pg_server) as (service, seen):
        outcome, opened = await _sent(seen, service.create(ANN, channel_id=7, guild_id=1))
        # the guild's settings, then the table and seats
        assert len(opened) == 2, opened
        assert not any("nextval" in q for q in opened), opened
        assert not any("SAVEPOINT" in q.upper() or "BEGIN" in q.upper() for q in opened)
        second, again = await _sent(seen, service.create(BOB, channel_id=8, guild_id=1))
        assert len(again) == 1, again
        assert second.table.id != outcome.table.id
        tid = outcome.table.id
        for a in (BOB, CID):
            await service.join(tid, a)
        _, started = await _sent(seen, service.start(tid, ANN))
        # the players seen, the match, its deal, seats and status: one query, no answer
        assert len(started) == 1, started
        assert not started[0].lstrip().upper().startswith("BEGIN")


async def test_the_next_block_of_table_ids_is_taken_before_an_opening_needs_it(pg_server):
    """When a process's block of table ids runs low the next one is taken ahead, so the
    opening after the block's last id still sends only its own write."""
    async with _lobby(pg_server) as (service, seen):
        ids = []
        for channel in range(TABLE_IDS + 1):
            outcome, sent = await _sent(seen, service.create(ANN, channel_id=100 + channel,
                                                             guild_id=1))
            ids.append(outcome.table.id)
            if channel == TABLE_IDS:  # the first id of the second block
                assert len(sent) == 1 and "nextval" not in sent[0], sent
        assert len(set(ids)) == len(ids)
