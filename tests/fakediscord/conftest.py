"""Fixtures: a started emulator, a world in it, and the test bot in-process."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

import pytest

from . import FakeDiscord
from .client_setup import point_discord_py_at
from .models import Channel, Guild, User


@dataclass
class World:
    guild: Guild
    channel: Channel
    alice: User
    bob: User


@pytest.fixture
async def fake_discord():
    """A started emulator on a free port; fails the test on unreported breaches."""
    async with FakeDiscord() as fd:
        yield fd
        assert not fd.store.unknown_routes, f"routes the emulator lacks: {fd.store.unknown_routes}"
        unreported = [v for v in fd.violations if not v.reported]
        assert not unreported, f"unreported breaches of Discord's rules: {unreported}"


@pytest.fixture
def world(fake_discord: FakeDiscord) -> World:
    fd = fake_discord
    alice = fd.add_user("alice", "Alice", locale="pl")
    bob = fd.add_user("bob", "Bob")
    guild = fd.add_guild("Cards", members=[alice, bob])
    fd.set_permissions(guild, alice, ["manage_channels"])
    return World(guild, fd.add_text_channel(guild, "tables"), alice, bob)


@pytest.fixture
async def bot(fake_discord: FakeDiscord, world: World):
    """The test bot running in this event loop, logged into the emulator."""
    from .testbot import build_bot

    point_discord_py_at(fake_discord.api_base, fake_discord.gateway_url)
    client = build_bot([world.guild.id])
    task = asyncio.create_task(client.start(fake_discord.token))
    try:
        await fake_discord.wait_ready()
        yield client
    finally:
        await client.close()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
