"""Fixtures of the end-to-end tests: the real bot logged into the Discord emulator, in a
guild of five users (tests.helpers.cogs)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakediscord import FakeDiscord, RateLimitConfig
from tests.helpers.cogs import World, start_bot, stop_bot


# Most tests run with a roomier per-channel limit (bot and emulator agree) so that they
# need not wait for the edit budget; test_one_hand_by_three_users keeps Discord's 5 per 5 s.
@pytest.fixture
def fd_options() -> dict[str, Any]:
    return {"rate_limit": RateLimitConfig(limit=50, per=5.0)}


@pytest.fixture
def bot_options() -> dict[str, Any]:
    return {"edit_limit": 45}


@pytest.fixture
async def world(tmp_path, fd_options, bot_options):
    async with FakeDiscord(**fd_options) as fd:
        users = [fd.add_user("alice", "Alice"), fd.add_user("bob", "Bob"),
                 fd.add_user("cid", "Cid"), fd.add_user("dot", "Dot"),
                 fd.add_user("eve", "Eve")]
        guild = fd.add_guild("Cards", members=users)
        fd.set_permissions(guild, users[0], ["manage_channels"])
        chan = fd.add_text_channel(guild, "tables")
        w = World(fd, guild, chan, users, str(tmp_path / "bot.db"))
        await start_bot(w, **bot_options)
        try:
            yield w
        finally:
            await stop_bot(w)
        assert not fd.store.unknown_routes, fd.store.unknown_routes
        unreported = [v for v in fd.violations if not v.reported]
        assert not unreported, unreported
