"""Sharding: IDENTIFY with ``shard``, events routed to the shard of their guild, refusals.

The real discord.py ``AutoShardedBot`` connects: two clients holding one shard each (two
bot processes), or one client asking ``/gateway/bot`` how many shards to run.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord.ext import commands

from . import FakeDiscord
from .client_setup import point_discord_py_at

pytestmark = pytest.mark.e2e


def sharded_bot(label: str, intents: discord.Intents | None = None,
                **shards: Any) -> commands.AutoShardedBot:
    """A bot whose /where says which client answered, on which shard."""
    bot = commands.AutoShardedBot(command_prefix="!",
                                  intents=intents or discord.Intents(guilds=True),
                                  guild_ready_timeout=0.1,
                                  **shards)
    bot.interactions = []  # type: ignore[attr-defined]  # guild ids of what reached it

    @bot.tree.command(name="where", description="Which bot and shard answer here")
    async def where(interaction: discord.Interaction) -> None:
        bot.interactions.append(interaction.guild_id)  # type: ignore[attr-defined]
        shard = interaction.guild.shard_id if interaction.guild else None
        await interaction.response.send_message(f"{label} shard {shard}")

    @bot.event
    async def setup_hook() -> None:
        await bot.tree.sync()

    return bot


@contextlib.asynccontextmanager
async def running(fd: FakeDiscord, bot: commands.AutoShardedBot) -> AsyncIterator[asyncio.Task]:
    point_discord_py_at(fd.api_base, fd.gateway_url)
    task = asyncio.create_task(bot.start(fd.token))
    try:
        yield task
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, 10)


def world(fd: FakeDiscord, count: int) -> tuple[Any, list[Any], list[Any]]:
    alice = fd.add_user("alice", "Alice")
    guilds = [fd.guild_on_shard(i, count, members=[alice]) for i in range(count)]
    chans = [fd.add_text_channel(g, "tables") for g in guilds]
    return alice, guilds, chans


async def test_guild_on_shard_makes_ids_of_that_shard():
    async with FakeDiscord() as fd:
        for count in (1, 2, 3, 16):
            for shard in range(count):
                gid = fd.guild_on_shard(shard, count).id
                assert (gid >> 22) % count == shard
        with pytest.raises(ValueError):
            fd.guild_on_shard(2, 2)


async def test_two_processes_each_get_only_their_shards_guilds():
    async with FakeDiscord() as fd:
        alice, guilds, chans = world(fd, 2)
        first = sharded_bot("first", shard_count=2, shard_ids=[0])
        second = sharded_bot("second", shard_count=2, shard_ids=[1])
        async with running(fd, first), running(fd, second):
            await fd.wait_ready(timeout=20)
            await asyncio.wait_for(first.wait_until_ready(), 10)
            await asyncio.wait_for(second.wait_until_ready(), 10)
            assert fd.gateway.connected_shards() == [(0, 2), (1, 2)]
            assert [g.id for g in first.guilds] == [guilds[0].id]
            assert [g.id for g in second.guilds] == [guilds[1].id]
            assert (await fd.slash(alice, chans[0], "where")).content == "first shard 0"
            assert (await fd.slash(alice, chans[1], "where")).content == "second shard 1"
            assert first.interactions == [guilds[0].id]  # type: ignore[attr-defined]
            assert second.interactions == [guilds[1].id]  # type: ignore[attr-defined]
            # a guild joined later reaches the process holding its shard, and only it
            late = fd.guild_on_shard(1, 2, "Late", members=[alice])
            await fd.wait_until(lambda: second.get_guild(late.id) is not None)
            await asyncio.sleep(0.1)
            assert first.get_guild(late.id) is None
            # one shard's connection dropped: only its events wait for its RESUME
            await fd.gateway.drop(shard=1)
            assert fd.gateway.connected_shards() == [(0, 2)]
            assert (await fd.slash(alice, chans[1], "where")).content == "second shard 1"
            assert (await fd.slash(alice, chans[0], "where")).content == "first shard 0"
            assert fd.gateway.resumes == 1 and fd.gateway.identifies == 2


async def test_one_process_runs_the_shards_gateway_bot_recommends():
    async with FakeDiscord(recommended_shards=2, max_concurrency=2) as fd:
        alice, _, chans = world(fd, 2)
        bot = sharded_bot("solo")
        async with running(fd, bot):
            await fd.wait_ready(timeout=20)
            await asyncio.wait_for(bot.wait_until_ready(), 10)
            assert "GET /api/v10/gateway/bot" in fd.store.requests
            assert bot.shard_count == 2
            assert fd.gateway.connected_shards() == [(0, 2), (1, 2)]
            limits = await bot.http.get_bot_gateway()
            assert limits[0] == 2 and limits[2]["max_concurrency"] == 2
            assert (await fd.slash(alice, chans[0], "where")).content == "solo shard 0"
            assert (await fd.slash(alice, chans[1], "where")).content == "solo shard 1"


@pytest.mark.parametrize(("count", "ids"), [(2, [2]), (2, [-1]), (0, [0])])
async def test_a_shard_that_does_not_exist_is_refused_with_4010(count, ids):
    async with FakeDiscord() as fd:
        world(fd, 2)
        bot = sharded_bot("bad", shard_count=count, shard_ids=ids)
        async with running(fd, bot) as task:
            with pytest.raises(discord.ConnectionClosed) as closed:
                await asyncio.wait_for(asyncio.shield(task), 20)
        assert closed.value.code == 4010
        assert fd.gateway.refused == [(4010, "Invalid shard.")]
        assert not fd.gateway.connected


async def test_too_many_guilds_on_one_shard_is_refused_with_4011():
    async with FakeDiscord(max_guilds_per_shard=1) as fd:
        world(fd, 2)  # two guilds: one shard would hold both
        bot = sharded_bot("unsharded", shard_count=1)
        async with running(fd, bot) as task:
            with pytest.raises(discord.ConnectionClosed) as closed:
                await asyncio.wait_for(asyncio.shield(task), 20)
        assert closed.value.code == 4011
        assert fd.gateway.refused == [(4011, "Sharding required.")]
        # the same guilds over two shards: accepted
        first = sharded_bot("sharded", shard_count=2)
        async with running(fd, first):
            await fd.wait_ready(timeout=20)
            assert fd.gateway.connected_shards() == [(0, 2), (1, 2)]


async def test_message_events_reach_only_a_session_that_asked_for_them():
    async with FakeDiscord() as fd:
        alice, guilds, chans = world(fd, 2)
        plain = sharded_bot("plain", shard_count=2, shard_ids=[0])
        listening = sharded_bot("listening", discord.Intents(guilds=True, guild_messages=True),
                                shard_count=2, shard_ids=[1])
        seen: list[str] = []

        @plain.event
        async def on_raw_message_edit(payload: Any) -> None:
            seen.append("plain")

        @listening.event
        async def on_raw_message_edit(payload: Any) -> None:  # noqa: F811
            seen.append("listening")

        async with running(fd, plain), running(fd, listening):
            await fd.wait_ready(timeout=20)
            for i in (0, 1):  # the bot's own message, posted and edited in each guild
                msg = await (plain if i == 0 else listening).get_channel(
                    chans[i].id).send("hello")  # type: ignore[union-attr]
                await msg.edit(content="hello again")
            await fd.post(alice, chans[0], "a user's message")
            await fd.wait_until(lambda: seen == ["listening"])
            await asyncio.sleep(0.1)
            assert seen == ["listening"]
            got = [dict(fd.gateway.shards[(i, 2)].delivered) for i in (0, 1)]
            assert not any(event.startswith("MESSAGE_") for event, _ in got[0])
            assert got[1][("MESSAGE_CREATE", guilds[1].id)] == 1
            assert got[1][("MESSAGE_UPDATE", guilds[1].id)] == 1
