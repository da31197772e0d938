"""Answers and hand edits over the bot's keep-alive client, through the emulator: the same
answers as discord.py's own session, the library's retries, its errors, and the way back to
the library's session when asked."""

from __future__ import annotations

import random

import discord
import pytest
from discord.http import Route

from cogs._webhooks import LeanWebhookAdapter
from tests.helpers.cogs import open_table, play_turn


def lean_requests(w) -> int:
    adapter = w.bot._webhooks
    return 0 if adapter is None else adapter.client.sent


@pytest.mark.parametrize("bot_options", [{"edit_limit": 45, "lean_http": True},
                                         {"edit_limit": 45, "lean_http": False}])
async def test_a_hand_plays_the_same_over_either_client(world, bot_options):
    w = world
    await open_table(w)
    rng = random.Random(5)
    for _ in range(12):
        assert await play_turn(w, rng)
    await w.settle()
    table = w.table()
    assert table.state.trick_no >= 1  # presses answered, hands refreshed on either
    answers = [r for r in w.fd.store.requests if "/callback" in r or "/webhooks/" in r]
    assert len(answers) >= 24
    if bot_options["lean_http"]:
        assert lean_requests(w) >= len(answers) - 5  # all but the image uploads
    else:
        assert lean_requests(w) == 0


async def test_a_failed_answer_is_retried_as_the_library_does(world):
    """Discord's 502 on a press's answer: sent again a second later, the press answered."""
    w = world
    await open_table(w)
    table = w.table()
    user = w.user(table.seats[table.to_act()].user_id)
    fault = w.fd.inject("POST", "/callback", status=502)
    r = await w.fd.click(user, w.table_message(user), f"t1000:{table.id}:hand:")
    assert fault.hits == 1
    assert r.message is not None and r.ephemeral  # the hand, on the second attempt


async def test_discords_refusal_is_the_librarys_exception(world):
    adapter = LeanWebhookAdapter(w_base(world), "test")
    route = Route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
                  webhook_id=world.bot.application_id, webhook_token="no-such-token")
    try:
        with pytest.raises(discord.HTTPException) as caught:
            await adapter.request(route, session=None,  # type: ignore[arg-type]
                                  payload={"content": "x"})
        err = caught.value
        assert (err.status, err.code, err.text) == (401, 50027, "Invalid Webhook Token")
        assert [v.rule for v in world.fd.store.unreported()] == ["invalid_token"]
    finally:
        adapter.close()


def w_base(w) -> str:
    return w.fd.api_base
