"""Many tables at once: the emulator keeps up without quadratic slow-downs."""

from __future__ import annotations

import asyncio
import time


async def test_100_concurrent_tables(fake_discord, world, bot):
    fd = fake_discord
    channels = [fd.add_text_channel(world.guild, f"t{i}") for i in range(100)]
    await fd.settle()
    start = time.monotonic()
    results = await asyncio.gather(*[
        fd.slash(world.alice, c, "table new", preset="polish") for c in channels])
    clicks = await asyncio.gather(*[
        fd.click(world.bob, r.message, "table:join") for r in results])
    elapsed = time.monotonic() - start
    assert all(c.content == "Bob joined" for c in clicks)
    assert elapsed < 3.0, f"200 interactions took {elapsed:.2f}s"


async def test_slash_in_thread(fake_discord, world, bot):
    fd = fake_discord
    thread = fd.add_thread(world.channel, "table-7")
    r = await fd.slash(world.bob, thread, "ping")
    assert r.content == "pong" and r.message.channel_id == thread.id
    assert [m.content for m in fd.visible(world.alice, thread)] == ["pong"]
    assert fd.visible(world.alice, world.channel) == []
