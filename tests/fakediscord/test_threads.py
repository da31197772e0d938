"""Threads, follow-ups, deferred answers and modals as Discord behaves, with its permission
checks, driven by the real discord.py client."""

from __future__ import annotations

import discord
import pytest

from .models import PERMISSIONS


def _forbidden(fd, err: pytest.ExceptionInfo) -> None:
    assert (err.value.status, err.value.code) == (403, 50013)


async def test_public_thread_from_a_message(fake_discord, world, bot):
    fd = fake_discord
    channel = await bot.fetch_channel(world.channel.id)
    start = await channel.send("a tournament table")
    thread = await start.create_thread(name="table-1")
    assert thread.type is discord.ChannelType.public_thread
    made = fd.store.channels[thread.id]
    assert made.starter_message_id == start.id and made.owner_id == fd.application_id
    await thread.send("welcome")
    assert [m.content for m in fd.visible(world.bob, made)] == ["welcome"]
    with pytest.raises(discord.HTTPException) as again:
        await start.create_thread(name="table-1 again")
    assert (again.value.status, again.value.code) == (400, 160004)


async def test_private_thread_and_its_members(fake_discord, world, bot):
    fd = fake_discord
    channel = await bot.fetch_channel(world.channel.id)
    data = await bot.http.start_thread_without_message(
        channel.id, name="secret table", auto_archive_duration=1440, type=None)
    assert data["type"] == 12  # no type asked: private, as under API v9 and later
    thread = await channel.create_thread(name="table-2", type=discord.ChannelType.private_thread,
                                         invitable=False)
    made = fd.store.channels[thread.id]
    await thread.send("cards for members only")
    assert fd.visible(world.bob, made) == []
    await thread.add_user(discord.Object(world.bob.id))
    assert world.bob.id in made.members
    assert [m.content for m in fd.visible(world.bob, made)] == ["cards for members only"]
    stranger = fd.add_user("eve", "Eve")  # not in the guild
    with pytest.raises(discord.NotFound):
        await thread.add_user(discord.Object(stranger.id))
    await thread.remove_user(discord.Object(world.bob.id))  # the bot owns the thread
    assert fd.visible(world.bob, made) == []


async def test_thread_permissions(fake_discord, world, bot):
    fd = fake_discord
    channel = await bot.fetch_channel(world.channel.id)
    fd.set_bot_permissions(world.guild, ["create_public_threads"])  # Discord's defaults
    with pytest.raises(discord.Forbidden) as err:
        await channel.create_thread(name="no", type=discord.ChannelType.private_thread)
    _forbidden(fd, err)
    thread = await channel.create_thread(name="yes", type=discord.ChannelType.public_thread)
    with pytest.raises(discord.Forbidden) as err:
        await thread.edit(locked=True)
    _forbidden(fd, err)
    fd.set_bot_permissions(world.guild, PERMISSIONS["view_channel"])
    with pytest.raises(discord.Forbidden) as err:
        await thread.send("no Send Messages in Threads")
    _forbidden(fd, err)
    with pytest.raises(discord.Forbidden) as err:
        await channel.create_thread(name="no", type=discord.ChannelType.public_thread)
    _forbidden(fd, err)
    assert fd.violations == []  # refused, as on Discord: not a breach of its rules


async def test_archive_and_lock(fake_discord, world, bot):
    fd = fake_discord
    channel = await bot.fetch_channel(world.channel.id)
    thread = await channel.create_thread(name="t", type=discord.ChannelType.public_thread)
    made = fd.store.channels[thread.id]
    sent = await thread.send("one")
    await thread.edit(archived=True)
    assert made.archived
    with pytest.raises(discord.HTTPException) as err:
        await sent.edit(content="changed")
    assert (err.value.status, err.value.code) == (400, 50083)
    await thread.send("two")  # a message reopens a thread that is not locked
    assert not made.archived
    await thread.edit(archived=True, locked=True)
    with pytest.raises(discord.HTTPException) as err:
        await thread.send("three")
    assert (err.value.status, err.value.code) == (400, 50083)
    await thread.edit(archived=False, locked=False)  # Manage Threads: the bot may
    await thread.send("three")
    assert [m.content for m in fd.visible(world.bob, made)] == ["one", "two", "three"]


async def test_deferred_update_then_followups(fake_discord, world, bot):
    """Type 6 keeps the message as it is; the token then edits it, and sends, edits and
    deletes follow-ups (an ephemeral one seen by the clicker only)."""
    fd = fake_discord
    table = (await fd.slash(world.alice, world.channel, "table new", preset="russian")).message
    r = await fd.click(world.bob, table, "table:later")
    assert r.type == 6 and r.deferred and r.message is table
    await r.wait_final()
    assert table.content == "updated later"
    note, gone = r.followups
    assert note.content == "a note, edited" and note.ephemeral_for == world.bob.id
    assert gone.deleted
    assert note in fd.visible(world.bob, world.channel)
    assert note not in fd.visible(world.alice, world.channel)


async def test_modal_from_a_button(fake_discord, world, bot):
    fd = fake_discord
    table = (await fd.slash(world.alice, world.channel, "table new", preset="russian")).message
    opened = await fd.click(world.bob, table, "table:rename")
    assert opened.type == 9 and opened.modal["title"] == "Your name"
    r = await fd.submit_modal(world.bob, opened, {"name": "Bo"})
    assert r.interaction.type == 5 and r.content == "Hello Bo"
