"""Bodies Discord refuses, sent by the real discord.py client: each is answered 400, code
50035, naming the field, and its edge case is accepted."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from discord.http import MultipartParameters

from . import limits, spec

pytestmark = pytest.mark.usefixtures("bot")


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def _select(**option: Any) -> dict[str, Any]:
    return {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a", **option}]}


def _button(**kw: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": "b", **kw}


# (what, a body refused, the path Discord names, the same rule's edge case, accepted)
MESSAGES = [
    ("spec: button label", {"components": [_row(_button(label="x" * 81))]},
     "components.0.components.0.label", {"components": [_row(_button(label="x" * 80))]}),
    ("option label", {"components": [_row(_select(label="x" * 101))]},
     "components.0.components.0.options.0.label",
     {"components": [_row(_select(label="x" * 100))]}),
    ("option value", {"components": [_row(_select(value="x" * 101))]},
     "components.0.components.0.options.0.value",
     {"components": [_row(_select(value="x" * 100))]}),
    ("option description", {"components": [_row(_select(description="x" * 101))]},
     "components.0.components.0.options.0.description",
     {"components": [_row(_select(description="x" * 100))]}),
    ("placeholder", {"components": [_row(_select() | {"placeholder": "x" * 151})]},
     "components.0.components.0.placeholder",
     {"components": [_row(_select() | {"placeholder": "x" * 150})]}),
    ("button without label or emoji", {"components": [_row(_button())]},
     "components.0.components.0.label",
     {"components": [_row(_button(emoji={"name": "🂡"}))]}),
    ("ephemeral flag on a channel message", {"content": "x", "flags": 64}, "flags",
     {"content": "x", "flags": 4096}),
]


async def _refused(fd, call) -> discord.HTTPException:
    with pytest.raises(discord.HTTPException) as err:
        await call
    assert len(fd.store.unreported()) == 1  # recorded as a breach, so a bot's test fails
    return err.value


@pytest.mark.parametrize(("what", "bad", "path", "edge"), MESSAGES, ids=[m[0] for m in MESSAGES])
async def test_message_rules(fake_discord, world, bot, what, bad, path, edge):
    fd = fake_discord

    def send(payload: dict[str, Any]):
        return bot.http.send_message(world.channel.id, params=MultipartParameters(
            payload=payload, multipart=None, files=None))

    err = await _refused(fd, send(bad))
    assert (err.status, err.code) == (400, 50035)
    assert f"In {path}: " in err.text, err.text  # discord.py flattens the errors' path
    sent = await send(edge)
    assert fd.store.messages[int(sent["id"])].flags & 64 == 0


def _command(**kw: Any) -> dict[str, Any]:
    return {"name": "cmd", "description": "d", "type": 1, **kw}


def _choices(**choice: Any) -> list[dict[str, Any]]:
    option = {"type": 3, "name": "o", "description": "d",
              "choices": [{"name": "c", "value": "v", **choice}]}
    return [option]


COMMANDS = [
    ("spec: choice name", _command(options=_choices(name="x" * 101)),
     "0.options.0.choices.0.name", _command(options=_choices(name="x" * 100))),
    ("spec: choice name localization",
     _command(options=_choices(name_localizations={"pl": "x" * 101})),
     "0.options.0.choices.0.name_localizations.pl",
     _command(options=_choices(name_localizations={"pl": "x" * 100}))),
    ("string choice value", _command(options=_choices(value="x" * 101)),
     "0.options.0.choices.0.value", _command(options=_choices(value="x" * 100))),
    ("localization key", _command(description_localizations={"pl-PL": "d"}),
     "0.description_localizations.pl-PL", _command(description_localizations={"pt-BR": "d"})),
    ("subcommands mixed with options",
     _command(options=[{"type": 1, "name": "sub", "description": "d"},
                       {"type": 3, "name": "o", "description": "d"}]),
     "0.options", _command(options=[{"type": 1, "name": "sub", "description": "d"},
                                    {"type": 2, "name": "grp", "description": "d",
                                     "options": [{"type": 1, "name": "s", "description": "d"}]}])),
    ("4000 characters", _command(description="d" * 100, options=[
        {"type": 3, "name": "o", "description": "d" * 100,
         "choices": [{"name": "n" * 48, "value": "v" * 100} for _ in range(25)]},
        {"type": 4, "name": "p", "description": "d" * 96}]),
     "0.name", _command(description="d" * 100, options=[
         {"type": 3, "name": "o", "description": "d" * 100,
          "choices": [{"name": "n" * 48, "value": "v" * 100} for _ in range(25)]},
         {"type": 4, "name": "p", "description": "d" * 95}])),
    ("command name", _command(name="Bid"), "0.name",
     _command(name="बोली", name_localizations={"hi": "बोली-लगाएँ", "th": "ประมูล"})),
    ("command name localization", _command(name_localizations={"th": "ประมูล ราคา"}),
     "0.name_localizations.th", _command(name_localizations={"th": "ประมูลราคา"})),
]


@pytest.mark.parametrize(("what", "bad", "path", "edge"), COMMANDS, ids=[c[0] for c in COMMANDS])
async def test_command_rules(fake_discord, world, bot, what, bad, path, edge):
    fd = fake_discord
    app, gid = fd.application_id, world.guild.id
    err = await _refused(fd, bot.http.bulk_upsert_guild_commands(app, gid, [bad]))
    assert (err.status, err.code) == (400, 50035)
    assert f"In {path}: " in err.text, err.text
    synced = await bot.http.bulk_upsert_guild_commands(app, gid, [edge])
    assert synced[0]["name"] == edge["name"]


def test_the_four_thousand_characters_are_counted_as_documented():
    """The edge case of the test above holds exactly 4,000 characters."""
    edge = COMMANDS[5][3]
    assert limits.command(edge) == []
    total = sum(len(str(n.get(k) or "")) for n in limits._nodes(edge)
                for k in ("name", "description", "value"))
    assert total == limits.MAX_COMMAND_TEXT


async def test_upload_limit_of_a_server_without_boosts(fake_discord, world, bot):
    fd = fake_discord
    channel = await bot.fetch_channel(world.channel.id)
    big = io.BytesIO(b"\0" * (limits.MAX_FILE + 1))
    err = await _refused(fd, channel.send(file=discord.File(big, "big.png")))
    assert (err.status, err.code) == (413, 40005)
    edge = await channel.send(file=discord.File(io.BytesIO(b"\0" * limits.MAX_FILE), "a.png"))
    assert edge.attachments[0].size == limits.MAX_FILE  # with discord.py's integer ids


async def test_interaction_response_flags(fake_discord, world, bot):
    """A deferred answer takes only the ephemeral flag: the 400 names ``data.flags``."""
    fd = fake_discord
    payload: dict[str, Any] = {"type": 5, "data": {"flags": 64 | 4}}
    assert [str(p) for p in limits.message(payload["data"], limits.DEFERRED_FLAGS,
                                           ("data",))] == [
        "data.flags: Flags 4 cannot be set here (allowed: 64)."]
    assert spec.check("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                      payload) == []  # the specification lets it through; the limit does not
    assert fd.violations == []


def test_errors_are_nested_as_discord_sends_them():
    body = {"content": "x", "components": [_row(_button(label="x" * 81))]}
    problems = spec.check("POST", "/channels/{channel_id}/messages", body)
    assert spec.form_errors(problems) == {"components": {"0": {"components": {"0": {
        "label": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                               "message": "Must be 80 or fewer in length."}]}}}}}}


def test_every_route_compiles_once():
    for method, route in spec.ROUTES:
        assert spec.validator(method, route) is spec.validator(method, route)
