"""/help: how to play (three steps, every command, the rules in five sentences) and the
legend of the images, switching with buttons; in the reader's language."""

from __future__ import annotations

import pytest
from discord import app_commands

from bot.i18n import LANGUAGES, t
from cogs.help import HELP_GROUPS

START, LEGEND = "t1000:0:help:", "t1000:0:help:legend"


def _text(msg) -> str:
    embed = msg.embeds[0]
    fields = "\n".join(f"{f['name']}\n{f['value']}" for f in embed.get("fields", []))
    return f"{embed.get('title', '')}\n{embed.get('description', '')}\n{fields}"


def registered(bot) -> set[str]:
    return {c.qualified_name for c in bot.tree.walk_commands()
            if isinstance(c, app_commands.Command)}


def test_help_lists_every_command_the_bot_registers(world):
    listed = [name for _, names in HELP_GROUPS for name in names]
    assert len(listed) == len(set(listed))
    assert set(listed) == registered(world.bot)


async def test_help_starts_with_how_to_play_and_turns_to_the_legend(world):
    w = world
    fd, bob = w.fd, w.users[1]
    r = await fd.slash(bob, w.channel, "help")
    assert r.ephemeral
    page = _text(r.message)
    assert page.startswith("How to play 1000 here\n")
    assert ("1. `/table new` in a channel opens a table with the rules below (`preset:` picks "
            "others).\n2. Friends press **Join**; the host may press **Add AI** for the free "
            "seats.\n3. The host presses **Start**; everyone presses **My hand** to see the "
            "cards and play.") in page
    for heading in ("Table", "Play", "Records", "Server admins"):
        assert f"\n{heading}\n`/" in page, heading
    for name in registered(w.bot):  # one line each, with its own description
        assert f"`/{name}` — {t('cmd.' + name.replace(' ', '.'))}" in page, name
    # the rules of what /table new opens here, in five sentences, and where the rest is
    assert "Rules here: Russian 1000 (Тысяча)\n3 players, 7 cards each; prikup: 3 cards." in page
    assert "from 880 on the barrel: 3 hands to finish.\nEvery option: </table rules:" in page
    assert "How to read the table" not in page
    start, legend = (r.message.component_by_id(c) for c in (START, LEGEND))
    assert start["disabled"] and not legend["disabled"] and legend["label"] == (
        "Marks on the images")
    assert len(r.message.custom_ids) == 2  # no table here: no rules button

    c = await fd.click(bob, r.message, LEGEND)
    await c.wait_final()
    assert c.type == 7  # the same message, turned to the page
    page = _text(r.message)
    assert page.startswith("How to read the table\n") and "The score sheet" in page
    assert "/table new" not in page
    assert r.message.component_by_id(LEGEND)["disabled"]
    c = await fd.click(bob, r.message, START)
    await c.wait_final()
    assert _text(r.message).startswith("How to play 1000 here\n")


async def test_help_at_a_table_gives_its_own_rules_and_a_way_to_them(world):
    w = world
    fd, alice, bob = w.fd, w.users[0], w.users[1]
    await fd.slash(alice, w.channel, "table new", preset="russian", timer=0)
    await w.settle()
    o = await fd.slash(alice, w.channel, "table option", name="barrel_at", value="200")
    assert "cannot" not in o.content, o.content
    tid = w.table().id
    # the table message's Help button: how to play, in a message of one's own
    c = await fd.click(bob, w.table_message(bob), f"t1000:{tid}:help:")
    await c.wait_final()
    msg = c.message
    assert msg is not None and msg.ephemeral
    page = _text(msg)
    assert "from 200 on the barrel" in page and "880" not in page
    rules = msg.component_by_id(f"t1000:{tid}:rules:")
    assert rules is not None and rules["label"] == "Rules of this table"
    c = await fd.click(bob, msg, f"t1000:{tid}:help:legend")
    await c.wait_final()
    assert _text(msg).startswith("How to read the table")
    c = await fd.click(bob, msg, f"t1000:{tid}:help:")
    await c.wait_final()
    c = await fd.click(bob, msg, f"t1000:{tid}:rules:")
    await c.wait_final()
    assert _text(msg).startswith("Rules of this table: ")  # /table rules, in place
    assert "Here: **200** (`barrel_at`)" in _text(msg)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_help_in_every_language_fits_discord(world, lang):
    w = world
    fd, bob = w.fd, w.users[1]
    bob.locale = lang
    w.guild.locale = "pl"  # a Polish server without a table: its preset's rules
    r = await fd.slash(bob, w.channel, "help")
    page = _text(r.message)
    print(f"\n===== {lang}\n{page}")
    assert page.startswith(t("help.start_title", lang))
    assert t("choice.preset.polish", lang) in page
    assert t("digest.bids", lang, min=100, step=10)[1:] in page
    embed = r.message.embeds[0]
    assert len(page) < 6000 and all(len(f["value"]) <= 1024 for f in embed["fields"])
    assert r.message.component_by_id(LEGEND)["label"] == t("button.help_legend", lang)
    c = await fd.click(bob, r.message, LEGEND)
    await c.wait_final()
    assert _text(r.message).startswith(t("help.title", lang))
