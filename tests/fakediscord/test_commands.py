"""Command sync (schema as Discord stores it) and slash/autocomplete against it."""

from __future__ import annotations

import pytest

from . import RuleViolation, SchemaError


def command(fd, name, guild_id=None):
    return fd.store.find_command(guild_id, name)


async def test_sync_global_and_guild_schema(fake_discord, world, bot):
    fd = fake_discord
    names = {c["name"] for c in fd.store.global_commands}
    assert {"ping", "table", "admin", "bid", "form", "board"} <= names
    assert [c["name"] for c in fd.store.guild_commands[world.guild.id]] == ["local"]
    ping = command(fd, "ping")
    assert ping["name_localizations"]["pl"] == "pingnij"
    assert ping["description_localizations"]["ru"] == "Отвечает понг"
    new = command(fd, "table")["options"][0]
    assert new["name"] == "new" and new["type"] == 1
    preset, players = new["options"]
    assert [c["value"] for c in preset["choices"]] == ["russian", "polish"]
    assert (players["min_value"], players["max_value"], players["required"]) == (2, 4, False)
    assert command(fd, "bid")["options"][0]["autocomplete"] is True
    group = command(fd, "admin")["options"][0]
    assert (group["name"], group["type"], group["options"][0]["name"]) == ("config", 2, "set")


async def test_slash_subcommands_groups_and_guild_commands(fake_discord, world, bot):
    fd = fake_discord
    r = await fd.slash(world.alice, world.channel, "table new", preset="polish", players=4)
    assert r.content == "table polish for 4"
    assert r.message.custom_ids == ["table:join", "table:rules", "table:later", "table:rename",
                                   "table:mode"]
    r = await fd.slash(world.alice, world.channel, "admin config set", key="bid", value="10")
    assert (r.content, r.ephemeral) == ("bid=10", True)
    r = await fd.slash(world.alice, world.channel, "local")
    assert r.content == "local"
    r = await fd.slash(world.alice, world.channel, "pingnij")  # alice's locale is pl
    assert r.content == "pong"
    with pytest.raises(SchemaError):
        await fd.slash(world.bob, world.channel, "pingnij")


async def test_permissions_and_user_fields(fake_discord, world, bot):
    fd = fake_discord
    r = await fd.slash(world.alice, world.channel, "whoami")
    assert r.content == "Alice pl manage=True app_manage=True"
    r = await fd.slash(world.bob, world.channel, "whoami")
    assert r.content == "Bob en-US manage=False app_manage=True"
    r = await fd.slash(world.bob, world.channel, "admin config set", key="a", value="b")
    assert r.content == "no permission"


@pytest.mark.parametrize(("command", "options", "match"), [
    ("table new", {"preset": "german"}, "one of"),
    ("table new", {"preset": "russian", "players": 5}, "within"),
    ("table new", {"preset": "russian", "players": "3"}, "integer"),
    ("table new", {}, "requires option 'preset'"),
    ("table new", {"preset": "russian", "colour": 1}, "no option 'colour'"),
    ("table", {}, "needs a subcommand"),
    ("table old", {}, "no subcommand"),
    ("nosuch", {}, "no command"),
    ("bid", {"amount": True}, "integer"),
])
async def test_schema_violations_raise_in_test_api(fake_discord, world, bot, command, options,
                                                   match):
    with pytest.raises(SchemaError, match=match):
        await fake_discord.slash(world.alice, world.channel, command, **options)
    assert not fake_discord.violations


async def test_autocomplete(fake_discord, world, bot):
    fd = fake_discord
    choices = await fd.autocomplete(world.alice, world.channel, "bid", "amount", "1")
    assert [c["value"] for c in choices][:3] == [100, 110, 120]
    assert len(choices) == 10
    with pytest.raises(SchemaError, match="no autocomplete"):
        await fd.autocomplete(world.alice, world.channel, "table new", "preset", "r")
    r = await fd.slash(world.alice, world.channel, "bid", amount=120)
    assert r.content == "bid 120"


async def test_bad_command_sync_is_refused(fake_discord, world, bot):
    bad = [{"name": "Bad Name", "description": "", "type": 1,
            "options": [{"name": "x", "type": 3, "description": "d", "autocomplete": True,
                         "choices": [{"name": "a", "value": "a"}]}]}]
    with pytest.raises(Exception, match="400"):
        await bot.http.bulk_upsert_global_commands(bot.application_id, bad)
    with pytest.raises(RuleViolation) as err:
        fake_discord.check()
    assert err.value.rules == {"command_schema"}
    assert "ping" in {c["name"] for c in fake_discord.store.global_commands}
