"""Five languages end to end: three users whose Discord speaks Russian, Polish and German
play a hand at a table of a Ukrainian server. Each reads his own replies in his language;
the table message and its image speak the table's; the synced commands carry every
description and choice in all five."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.game.state import Phase
from bot.i18n import CATALOGS, t
from cogs._images import _hand_png, labels_for, public_table_view, seat_hand_view
from render.table import render_table
from tests.fakediscord import FakeDiscord, RateLimitConfig
from tests.fakediscord.models import Message, User
from tests.helpers.cogs import World, play_turn, start_bot, stop_bot

pytestmark = pytest.mark.e2e

LOCALES = ("ru", "pl", "de")
DISCORD_LOCALES = ("ru", "pl", "uk", "de")  # the four besides English (en-US, en-GB)


@pytest.fixture
async def babel(tmp_path):
    async with FakeDiscord(rate_limit=RateLimitConfig(limit=50, per=5.0)) as fd:
        users = [fd.add_user(name, name.capitalize(), locale=loc)
                 for name, loc in (("olga", "ru"), ("piotr", "pl"), ("dieter", "de"))]
        guild = fd.add_guild("Karty", members=users, locale="uk")
        chan = fd.add_text_channel(guild, "stoly")
        w = World(fd, guild, chan, users, str(tmp_path / "bot.db"))
        await start_bot(w, edit_limit=45)
        try:
            yield w
        finally:
            await stop_bot(w)
        assert not fd.store.unknown_routes, fd.store.unknown_routes


def _text(m: Message) -> str:
    parts = [m.content or ""]
    for e in m.embeds:
        parts += [e.get("title", ""), e.get("description", "")]
        parts += [f"{f['name']} {f['value']}" for f in e.get("fields", [])]
    return " ".join(p for p in parts if p)


def _labels(m: Message) -> set[str]:
    from tests.fakediscord.models import walk_components

    return {c["label"] for c in walk_components(m.components) if c.get("label")}


def _hand_message(w: World, user: User) -> Message | None:
    mine = [m for m in w.fd.visible(user, w.channel)
            if m.ephemeral and m.attachments and m.attachments[0].filename == "1000-hand.png"]
    return mine[-1] if mine else None


async def test_three_languages_at_a_ukrainian_table(babel):
    w = babel
    fd = w.fd
    olga, piotr, dieter = w.users
    r = await fd.slash(olga, w.channel, "table new", preset="russian")
    assert not r.ephemeral and r.message is not None
    await w.settle()
    table = w.table()
    assert table.locale == "uk"  # the server's preferred language
    msg = w.table_message()
    assert _text(msg).startswith("Тисяча — ")
    assert {t("button.join", "uk"), t("button.start", "uk")} <= _labels(msg)
    # a refusal to each in his own language
    for user in (piotr, dieter):
        r = await fd.slash(user, w.channel, "table start")
        assert r.ephemeral
        assert r.content == t("error.not_host", user.locale, host=olga.display_name), r.content
    for user in (piotr, dieter):
        await fd.click(user, w.table_message(user), f"t1000:{table.id}:join:")
    await fd.click(olga, w.table_message(), f"t1000:{table.id}:start:")
    await w.settle()

    rng = random.Random(3)
    for _ in range(300):
        await w.service.settle()
        if table.state.last_result is not None or table.state.match.hand_no > 1:
            break
        assert await play_turn(w, rng), "nobody to act"
    else:
        raise AssertionError("the hand did not end")
    await w.settle()

    # every ephemeral reply each user got is in his language (no English left)
    english = t("hand.title", "en")
    drawn = 0
    for user in w.users:
        own = [m for m in fd.visible(user, w.channel) if m.ephemeral]
        assert own, user.name
        for m in own:
            assert english not in _text(m), (user.name, _text(m)[:200])
        hand = _hand_message(w, user)
        assert hand is not None and t("hand.title", user.locale) in _text(hand)
        # its image: the seat's hand drawn in its owner's words (rank letters included)
        seat = table.seat_of(user.id)
        view = seat_hand_view(table, seat, user.locale)
        if view is not None and table.state.phase is not Phase.DEALING:
            assert view.labels == labels_for(user.locale)
            assert hand.attachments[0].data == _hand_png(view)
            drawn += 1
    assert drawn, "no hand image to compare"

    # the public table message and its image speak the table's language
    msg = w.table_message()
    assert _text(msg).startswith("Тисяча — ")
    assert t("button.hand", "uk") in _labels(msg)
    view = public_table_view(table)
    assert view is not None and view.labels.lang == "uk"
    image = msg.attachments[0].data
    assert image == render_table(view)
    assert image != render_table(public_table_view_in(table, "en"))
    results = [m for m in fd.visible(olga, w.channel)
               if not m.ephemeral and m.content.startswith("**Роздача 1")]
    assert results, "the hand's result, in Ukrainian"

    # the host switches the table to German: message and image follow
    r = await fd.slash(olga, w.channel, "table option", name="language", value="de")
    assert r.ephemeral and r.content == t("ok.option_set", "ru", name="language", value="de")
    await w.settle()
    msg = w.table_message()
    assert _text(msg).startswith("Tausend — ")
    assert public_table_view(table).labels.lang == "de"
    assert msg.attachments[0].data == render_table(public_table_view(table))


def public_table_view_in(table: Any, locale: str) -> Any:
    """The table's public view as it would be drawn in ``locale``."""
    from dataclasses import replace

    return replace(public_table_view(table), labels=labels_for(locale))


def _walk(cmd: dict[str, Any], where: str = "") -> list[tuple[str, dict[str, Any]]]:
    out = [(where + cmd["name"], cmd)]
    for opt in cmd.get("options") or []:
        out += _walk(opt, f"{where}{cmd['name']} ")
    return out


async def test_the_synced_commands_carry_all_five_languages(babel):
    w = babel
    cmds = w.fd.store.commands_for(w.guild.id)
    assert cmds
    missing = []
    for cmd in cmds:
        for where, node in _walk(cmd):
            if node.get("type", 1) not in (1, 2) or "description" in node:
                got = node.get("description_localizations") or {}
                for loc in DISCORD_LOCALES:
                    if not got.get(loc) or got[loc] == node["description"]:
                        missing.append(f"{where} description {loc}")
            for choice in node.get("choices") or []:
                names = choice.get("name_localizations") or {}
                for loc in DISCORD_LOCALES:
                    if not names.get(loc):
                        missing.append(f"{where} choice {choice['value']} {loc}")
            assert not node.get("name_localizations"), f"{where}: names stay as they are"
    assert missing == []
    table = next(c for c in cmds if c["name"] == "table")
    new = next(o for o in table["options"] if o["name"] == "new")
    assert new["description_localizations"]["ru"] == CATALOGS["ru"]["cmd.table.new"]
    assert new["description_localizations"]["de"] == CATALOGS["de"]["cmd.table.new"]
    preset = next(o for o in new["options"] if o["name"] == "preset")
    russian = next(c for c in preset["choices"] if c["value"] == "russian")
    assert russian["name_localizations"]["pl"] == CATALOGS["pl"]["choice.preset.russian"]
    assert russian["name_localizations"]["uk"] == CATALOGS["uk"]["choice.preset.russian"]
