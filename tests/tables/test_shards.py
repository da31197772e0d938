"""Several processes over one database: each restores and serves its shards' tables only."""

from __future__ import annotations

import random

import pytest

from bot.tables import Actor, Shards, TableError, TableStatus, shard_of
from tests.helpers.tables import ANN, BOB, CID, make_harness, play_human_turn

ACTORS = {a.user_id: a for a in (ANN, BOB, CID)}
COUNT = 2


def guild_on(shard: int, n: int = 1) -> int:
    """The ``n``-th guild id (a snowflake) on ``shard`` of ``COUNT``."""
    return ((1000 + n * COUNT + shard) << 22) | 77


def where(actor: Actor, guild_id: int | None, channel_id: int) -> Actor:
    return Actor(actor.user_id, actor.name, can_manage=actor.can_manage,
                 channel_id=channel_id, guild_id=guild_id)


def test_the_formula_is_discords():
    assert [shard_of(guild_on(s), COUNT) for s in (0, 1)] == [0, 1]
    assert shard_of(None, 4) == 0  # DMs go to shard 0
    assert shard_of(guild_on(1), 1) == 0
    assert Shards().owns(guild_on(1)) and Shards(4).owns(guild_on(1))
    assert Shards(2, (1,)).owns(guild_on(1)) and not Shards(2, (1,)).owns(guild_on(0))
    assert Shards(2, (0,)).owns(None) and not Shards(2, (1,)).owns(None)
    assert Shards(4, (0, 2)).describe() == "shards 0, 2 of 4"
    assert Shards().describe() == "all shards"


async def test_each_process_restores_only_its_shards_tables(tmp_path):
    path = str(tmp_path / "t.db")
    h = await make_harness(path)  # one process made tables in guilds of both shards
    s = h.service
    ids = {}
    for shard, channel in ((0, 10), (1, 11), (None, 12)):
        guild = guild_on(shard) if shard is not None else None
        ids[shard] = (await s.create(ANN, channel_id=channel, guild_id=guild)).table.id
    await s.close()
    await h.store.close()

    zero = await make_harness(path, h.clock, owns=Shards(COUNT, (0,)).owns)
    one = await make_harness(path, h.clock, owns=Shards(COUNT, (1,)).owns)
    try:
        assert sorted(t.id for t in zero.service.tables) == sorted([ids[0], ids[None]])
        assert [t.id for t in one.service.tables] == [ids[1]]
        # a button of the other process's table: a polite refusal, not "closed"
        with pytest.raises(TableError) as refused:
            await one.service.join(ids[0], where(BOB, guild_on(0), 10))
        assert refused.value.key == "error.other_process"
        with pytest.raises(TableError) as refused:
            await one.service.create(BOB, channel_id=20, guild_id=guild_on(0))
        assert refused.value.key == "error.other_process"
        # its own tables play on
        await one.service.join(ids[1], where(BOB, guild_on(1), 11))
        await one.service.join(ids[1], where(CID, guild_on(1), 11))
        await one.service.start(ids[1], where(ANN, guild_on(1), 11))
        rng = random.Random(3)
        for _ in range(4):
            await one.service.settle()
            assert await play_human_turn(one.service, ids[1], ACTORS, rng)
        assert one.service.get(ids[1]).status is TableStatus.PLAYING
        # a table truly gone in an owned guild is still "closed"
        with pytest.raises(TableError) as refused:
            await zero.service.join(999, where(BOB, guild_on(0), 10))
        assert refused.value.key == "error.table_closed"
    finally:
        for x in (zero, one):
            await x.service.close()
            await x.store.close()
