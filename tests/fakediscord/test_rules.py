"""Each of Discord's rules, broken by the test bot, is reported."""

from __future__ import annotations

import aiohttp
import pytest

from . import RuleViolation, rules


async def expect_breach(fd, *rules_broken):
    """Let the bot finish, and check that exactly these rules were reported."""
    with pytest.raises(RuleViolation) as err:
        await fd.settle()
    assert err.value.rules == set(rules_broken), err.value


async def test_late_response(fake_discord, world, bot):
    fd = fake_discord
    fd.response_deadline = 0.2
    with pytest.raises(RuleViolation, match="late_response"):
        await fd.slash(world.alice, world.channel, "slow", seconds=0.4)
    await fd.settle()  # the bot's late answer was refused (404), not reported twice
    assert fd.visible(world.alice, world.channel) == []
    r = await fd.slash(world.alice, world.channel, "slow", seconds=0.0)
    assert r.content == "finally"


async def test_double_response(fake_discord, world, bot):
    r = await fake_discord.slash(world.alice, world.channel, "double")
    assert r.content == "once"
    await expect_breach(fake_discord, "double_response")
    assert [m.content for m in fake_discord.visible(world.bob, world.channel)] == ["once"]


async def test_expired_token(fake_discord, world, bot):
    fd = fake_discord
    old = await fd.slash(world.alice, world.channel, "remember")
    fd.advance_time(14 * 60)
    await fd.slash(world.alice, world.channel, "recall")
    await fd.settle()
    assert old.content == "edited"  # within 15 minutes: fine
    fd.advance_time(2 * 60)
    await fd.slash(world.alice, world.channel, "recall")
    await expect_breach(fd, "expired_token")
    assert len(old.message.history) == 2


async def test_foreign_ephemeral(fake_discord, world, bot):
    fd = fake_discord
    secret = await fd.slash(world.alice, world.channel, "secret")
    await fd.slash(world.bob, world.channel, "peek")
    await expect_breach(fd, "foreign_ephemeral")
    assert secret.content == "only you"
    assert [m.content for m in fd.visible(world.bob, world.channel)] == ["not found"]


async def test_message_too_long(fake_discord, world, bot):
    with pytest.raises(RuleViolation, match=r"data\.content: Must be 2000 or fewer in length"):
        await fake_discord.slash(world.alice, world.channel, "toolong")
    assert [m.content for m in fake_discord.visible(world.bob, world.channel)] == ["refused"]


async def test_component_limits_end_to_end(fake_discord, world, bot):
    rows = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "b",
                                        "custom_id": f"b{i}"}]} for i in range(6)]
    with pytest.raises(Exception, match="400"):
        await bot.http.send_message(world.channel.id, params=_params(components=rows))
    with pytest.raises(RuleViolation, match="6 action rows"):
        fake_discord.check()


def _params(**payload):
    from discord.http import MultipartParameters

    return MultipartParameters(payload=payload, multipart=None, files=None)


async def test_rate_limit(fake_discord, world, bot):
    fd = fake_discord
    fd.rate_config.per = 0.5  # Discord's 5 per 5 s, sped up tenfold for the test
    await fd.slash(world.alice, world.channel, "spam", count=4)
    await expect_breach(fd, "rate_limit")
    assert fd.store.rate_limited
    seen = [m.content for m in fd.visible(world.bob, world.channel)]
    assert seen == [f"spam {i} edited" for i in range(4)]  # discord.py retried after 429


async def test_well_paced_bot_gets_no_429(fake_discord, world, bot):
    fd = fake_discord
    for _ in range(8):  # interaction answers do not count against the channel
        await fd.slash(world.alice, world.channel, "ping")
    await fd.settle()
    assert fd.store.rate_limited == []


async def test_invalid_token_and_unknown_route(fake_discord, world, bot):
    fd = fake_discord
    async with aiohttp.ClientSession() as http:
        url = f"{fd.api_base}/webhooks/{fd.application_id}/bogus-token"
        async with http.post(url, json={"content": "x"}) as resp:
            assert resp.status == 401
        async with http.get(f"{fd.api_base}/no/such/route") as resp:
            assert resp.status == 404
    assert fd.store.unknown_routes == ["GET /api/v10/no/such/route"]
    fd.store.unknown_routes.clear()
    with pytest.raises(RuleViolation, match="invalid_token"):
        fd.check()


def test_component_rules():
    row = lambda *c: {"type": 1, "components": list(c)}  # noqa: E731
    button = lambda cid, **kw: {"type": 2, "style": 1, "label": "x", "custom_id": cid, **kw}  # noqa: E731
    select = {"type": 3, "custom_id": "s", "options": [
        {"label": str(i), "value": str(i)} for i in range(26)]}
    assert rules.check_components([row(button("a"))]) == []
    assert "6 buttons" in rules.check_components([row(*[button(str(i)) for i in range(6)])])[0]
    assert "26 options" in rules.check_components([row(select)])[0]
    assert "101 characters" in rules.check_components([row(button("x" * 101))])[0]
    assert "used twice" in rules.check_components([row(button("a")), row(button("a"))])[0]
    assert "alone" in rules.check_components([row(button("a"), dict(select, options=[]))])[0]
    assert "link button" in rules.check_components([row({"type": 2, "style": 5,
                                                         "label": "l"})])[0]


def test_message_rules():
    assert rules.check_message({"content": "x" * 2000}, []) == []
    assert "2001 characters" in rules.check_message({"content": "x" * 2001}, [])[0]
    assert "11 embeds" in rules.check_message({"embeds": [{"title": "t"}] * 11}, [])[0]
    big = [{"description": "x" * 4000}, {"description": "y" * 2001}]
    assert "6001 characters" in rules.check_message({"embeds": big}, [])[0]
    assert "11 attachments" in rules.check_message({}, [("f", 1)] * 11)[0]
    assert "bytes" in rules.check_message({}, [("f", 26 * 1024 * 1024)])[0]
    assert "empty" in rules.check_message({"content": ""}, [])[0]
