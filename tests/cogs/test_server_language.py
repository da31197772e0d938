"""A table opened in a Polish, German or Ukrainian server plays that community's rules, unless
the server chose a preset or the host names one."""

from __future__ import annotations

import pytest

from bot.i18n import t


def _title(w) -> str:
    return w.table_message().embeds[0]["title"]


@pytest.mark.parametrize(("server", "preset"), [
    ("pl", "polish"), ("de", "german_house"), ("uk", "russian"), ("ru", "russian"),
    ("en-US", "russian"), ("fr", "russian")])
async def test_a_new_table_plays_the_rules_of_the_servers_language(world, server, preset):
    w = world
    w.guild.locale = server
    r = await w.fd.slash(w.users[0], w.channel, "table new")
    assert r.message is not None and not r.ephemeral
    await w.settle()
    assert w.table().preset == preset
    assert t(f"choice.preset.{preset}", server) in _title(w)


async def test_the_servers_choice_and_the_hosts_win_over_its_language(world):
    w = world
    fd, alice = w.fd, w.users[0]
    w.guild.locale = "pl"
    r = await fd.slash(alice, w.channel, "table new", preset="german_house")
    assert not r.ephemeral
    await w.settle()
    assert w.table().preset == "german_house"
    await fd.slash(alice, w.channel, "table end")
    await fd.click(alice, fd.visible(alice, w.channel)[-1], f"t1000:{w.table().id}:endyes:")

    fd.set_permissions(w.guild, alice, ["manage_channels", "manage_guild"])
    r = await fd.slash(alice, w.channel, "admin defaults", timer=60)
    assert "Polish" in r.content and "(the server's language)" in r.content, r.content
    r = await fd.slash(alice, w.channel, "admin defaults", preset="russian")
    assert r.ephemeral and "Russian 1000" in r.content and "language)" not in r.content
    r = await fd.slash(alice, w.channel, "table new")
    assert not r.ephemeral
    await w.settle()
    assert w.table().preset == "russian"
