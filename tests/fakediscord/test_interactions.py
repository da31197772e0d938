"""Buttons, selects, modals, deferrals, followups, ephemerals, attachments, threads."""

from __future__ import annotations

import pytest

from . import SchemaError


async def test_button_updates_message_with_history(fake_discord, world, bot):
    fd = fake_discord
    table = (await fd.slash(world.alice, world.channel, "table new", preset="russian")).message
    r = await fd.click(world.bob, table, "table:join")
    assert r.type == 7 and r.message is table
    assert table.content == "Bob joined"
    assert [v.content for v in table.history] == ["table russian for 3", "Bob joined"]
    assert len(table.edits) == 1
    with pytest.raises(SchemaError, match="no such component"):
        await fd.click(world.bob, table, "table:leave")


async def test_select_and_deferred_ephemeral_followup(fake_discord, world, bot):
    fd = fake_discord
    table = (await fd.slash(world.alice, world.channel, "table new", preset="russian")).message
    r = await fd.select(world.bob, table, "table:mode", ["quick"])
    assert r.content == "mode quick"
    with pytest.raises(SchemaError, match="no options"):
        await fd.select(world.bob, table, "table:mode", ["slow"])
    r = await fd.click(world.bob, table, "table:rules")
    assert r.deferred and r.ephemeral and r.message.loading
    await r.wait_final()
    assert r.content == "the rules are long" and not r.message.loading
    assert r.message in fd.visible(world.bob, world.channel)
    assert r.message not in fd.visible(world.alice, world.channel)


async def test_defer_then_edit_original_and_followup(fake_discord, world, bot):
    fd = fake_discord
    r = await fd.slash(world.alice, world.channel, "think")
    assert r.type == 5
    await r.wait_final()
    assert r.content == "thought"
    assert [m.content for m in r.followups] == ["and one more thing"]
    seen = [m.content for m in fd.visible(world.bob, world.channel)]
    assert seen == ["thought", "and one more thing"]


async def test_modal(fake_discord, world, bot):
    fd = fake_discord
    opened = await fd.slash(world.alice, world.channel, "form")
    assert opened.type == 9 and opened.modal["title"] == "Your name"
    with pytest.raises(SchemaError, match="required"):
        await fd.submit_modal(world.alice, opened, {})
    with pytest.raises(SchemaError, match=r"0-20 characters"):
        await fd.submit_modal(world.alice, opened, {"name": "x" * 21})
    r = await fd.submit_modal(world.alice, opened, {"name": "Ala"})
    assert r.content == "Hello Ala"


async def test_ephemeral_visibility(fake_discord, world, bot):
    fd = fake_discord
    r = await fd.slash(world.alice, world.channel, "secret")
    assert r.ephemeral
    assert [m.content for m in fd.visible(world.alice, world.channel)] == ["only you"]
    assert fd.visible(world.bob, world.channel) == []


async def test_attachments_embeds_and_replacement(fake_discord, world, bot):
    fd = fake_discord
    r = await fd.slash(world.alice, world.channel, "upload")
    await r.wait_final()
    msg = fd.visible(world.bob, world.channel)[0]
    assert msg.embeds[0]["title"] == "Score"
    assert [(a.filename, a.data) for a in msg.attachments] == [("b.txt", b"world")]
    first = msg.history[0].attachments
    assert [(a.filename, a.data) for a in first] == [("a.txt", b"hello")]
    data = await bot.http.get_from_cdn(msg.attachments[0].url)
    assert data == b"world"


async def test_thread(fake_discord, world, bot):
    fd = fake_discord
    r = await fd.slash(world.alice, world.channel, "thread", name="table-1")
    await r.wait_final()
    thread = next(c for c in fd.store.channels.values() if c.name == "table-1")
    assert thread.is_thread and thread.parent_id == world.channel.id
    assert [m.content for m in fd.visible(world.bob, thread)] == ["welcome to table-1"]


async def test_plain_rest_routes(fake_discord, world, bot):
    fd = fake_discord
    channel = await bot.fetch_channel(world.channel.id)
    first = await channel.send("one")
    await channel.send("two", embed=__import__("discord").Embed(title="e"))
    fetched = await channel.fetch_message(first.id)
    assert fetched.content == "one"
    assert [m.content async for m in channel.history(limit=10)] == ["two", "one"]
    await first.delete()
    assert [m.content for m in fd.visible(world.bob, world.channel)] == ["two"]
    assert fd.store.messages[first.id].deleted
    member = await bot.get_guild(world.guild.id).fetch_member(world.alice.id)
    assert member.display_name == "Alice" and member.guild_permissions.manage_channels
    assert (await bot.fetch_user(world.bob.id)).global_name == "Bob"
    assert (await bot.application_info()).id == fd.application_id
    said = await fd.post(world.bob, world.channel, "hello bot")
    await fd.wait_until(lambda: any(m.id == said.id for m in bot.cached_messages))


async def test_mentions_follow_allowed_mentions(fake_discord, world, bot):
    """A message notifies the users it mentions that ``allowed_mentions`` lets through (all of
    them without it); an edit notifies nobody; parsing and listing users at once is a 400."""
    import discord

    fd = fake_discord
    alice, bob = world.alice, world.bob
    channel = await bot.fetch_channel(world.channel.id)
    text = f"<@{alice.id}> and <@!{bob.id}>"
    everyone = await channel.send(text)
    only_bob = await channel.send(text, allowed_mentions=discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(bob.id)]))
    nobody = await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
    stored = fd.store.messages
    assert stored[everyone.id].notified == [alice.id, bob.id]
    assert stored[only_bob.id].notified == [bob.id]
    assert [u.id for u in only_bob.mentions] == [bob.id]  # as discord.py reads the answer
    assert stored[nobody.id].notified == []
    await nobody.edit(content=f"<@{alice.id}>", allowed_mentions=discord.AllowedMentions.all())
    assert [u.id for u in stored[nobody.id].current.mentions] == [alice.id]
    assert stored[nobody.id].notified == []  # an edit notifies nobody
    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.send_message(channel.id, params=discord.http.MultipartParameters(
            payload={"content": text, "allowed_mentions": {"parse": ["users"],
                                                           "users": [str(bob.id)]}},
            multipart=None, files=None))
    assert refused.value.status == 400
    assert [v.rule for v in fd.store.unreported()] == ["message_limits"]


def test_an_interaction_token_has_discords_shape():
    """URL-safe base64 of "interaction:<id>:<secret>": a client puts it in a URL as is."""
    import base64
    import urllib.parse

    from .api import interaction_token

    token = interaction_token(1234)
    assert urllib.parse.quote(token) == token
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
    kind, iid, secret = raw.split(":")
    assert (kind, iid) == ("interaction", "1234") and len(secret) >= 32
    assert interaction_token(1234) != token
