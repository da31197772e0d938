"""Who gets the next database connection: answers to people before background work, and a
transaction takes a connection only while it sends (PostgreSQL's pool; a real server)."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import PgStore, background_work
from bot.store._turns import Turns


async def test_a_waiting_answer_goes_before_background_work_that_waited_longer():
    turns = Turns(1)
    await turns.enter(background=True)  # the one turn is taken
    order: list[str] = []

    async def wait(name: str, background: bool) -> None:
        await turns.enter(background)
        order.append(name)
        turns.leave()

    first = asyncio.create_task(wait("background", True))
    await asyncio.sleep(0)
    second = asyncio.create_task(wait("answer", False))
    await asyncio.sleep(0)
    assert order == [] and turns.waiting == 2
    turns.leave()
    await asyncio.gather(first, second)
    assert order == ["answer", "background"]


async def test_background_work_leaves_the_reserved_turns_to_answers():
    """With every turn but the reserved one held by background work, more background work
    waits, and an answer still gets a connection at once."""
    turns = Turns(4, reserve=1)
    for _ in range(3):
        await turns.enter(background=True)
    more = asyncio.create_task(turns.enter(background=True))
    await asyncio.sleep(0)
    assert not more.done() and turns.free == 1
    await asyncio.wait_for(turns.enter(background=False), 0.1)  # the reserved turn
    assert turns.free == 0
    turns.leave()  # the answer is done: one free turn, the reserved one
    await asyncio.sleep(0)
    assert not more.done()
    turns.leave()  # a background transaction is done: two free, one may go
    await asyncio.wait_for(more, 0.1)
    assert turns.free == 1 and turns.waiting == 0


async def test_a_cancelled_waiter_gives_its_turn_on():
    turns = Turns(1)
    await turns.enter(background=False)
    gone = asyncio.create_task(turns.enter(background=False))
    await asyncio.sleep(0)
    later = asyncio.create_task(turns.enter(background=True))
    await asyncio.sleep(0)
    turns.leave()  # handed to ``gone``, which is cancelled before it runs
    gone.cancel()
    with pytest.raises(asyncio.CancelledError):
        await gone
    await asyncio.wait_for(later, 1)
    assert turns.free == 0 and turns.waiting == 0


async def _table(store: PgStore, channel: int) -> int:
    async with store.transaction() as tx:
        return await tx.create_table(guild_id=1, channel_id=channel, host_id=1,
                                     preset="russian", rules={}, timer=0, now=0.0)


async def test_a_block_of_kept_writes_holds_no_connection_while_its_caller_works(pg_server):
    store = await PgStore.open(await pg_server.new_database(), max_size=1)
    try:
        tid = await _table(store, 10)
        working = asyncio.Event()
        done = asyncio.Event()

        async def slow_caller() -> None:
            async with store.transaction() as tx:
                await tx.update_table(tid, updated_at=1.0)
                working.set()
                await done.wait()  # the caller works on: no connection is held meanwhile

        slow = asyncio.create_task(slow_caller())
        await working.wait()
        # the pool's only connection is free: another table opens at once
        other = await asyncio.wait_for(_table(store, 11), 5)
        done.set()
        await slow
        assert {t.id for t in await store.live_tables()} == {tid, other}
        assert (await store.table(tid)).updated_at == 1.0
    finally:
        await store.close()


async def test_an_answer_gets_the_next_connection_before_background_transactions(pg_server):
    store = await PgStore.open(await pg_server.new_database(), max_size=1)
    try:
        tid = await _table(store, 10)
        holding, release = asyncio.Event(), asyncio.Event()
        committed: list[str] = []

        async def hold() -> None:  # a real transaction keeps its connection to the end
            async with store.transaction() as tx:
                await tx.reset_guild(1, 0.0)  # a write with an answer: BEGIN is sent
                holding.set()
                await release.wait()

        async def write(name: str, background: bool) -> None:
            if background:
                with background_work():
                    async with store.transaction() as tx:
                        await tx.update_table(tid, updated_at=2.0)
            else:
                async with store.transaction() as tx:
                    await tx.update_table(tid, updated_at=3.0)
            committed.append(name)

        holder = asyncio.create_task(hold())
        await holding.wait()
        queued = [asyncio.create_task(write(f"ai {i}", True)) for i in range(3)]
        await asyncio.sleep(0.05)
        answer = asyncio.create_task(write("answer", False))
        await asyncio.sleep(0.05)
        assert committed == []
        release.set()
        await asyncio.gather(holder, answer, *queued)
        assert committed[0] == "answer"
        assert sorted(committed[1:]) == ["ai 0", "ai 1", "ai 2"]
    finally:
        await store.close()
