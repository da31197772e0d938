"""Log in, sync, answer a slash command."""

from __future__ import annotations


async def test_ping(fake_discord, world, bot):
    result = await fake_discord.slash(world.alice, world.channel, "ping")
    assert result.type == 4
    assert result.content == "pong"
    assert [m.content for m in fake_discord.visible(world.bob, world.channel)] == ["pong"]
