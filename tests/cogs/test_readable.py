"""Help legend, a full lobby, leaving a running match and coming back, the hand result."""

from __future__ import annotations

import pytest

from tests.fakediscord.errors import SchemaError
from tests.helpers.cogs import open_table


def _embed_text(msg) -> str:
    return str(msg.embeds[0]) if msg is not None and msg.embeds else ""


async def test_help_explains_the_marks(world):
    w = world
    r = await w.fd.slash(w.users[1], w.channel, "help")
    await r.wait_final()
    assert r.ephemeral
    c = await w.fd.click(w.users[1], r.message, "t1000:0:help:legend")  # the legend's page
    await c.wait_final()
    text = _embed_text(r.message)
    for mark in ("**D**", "barrel 2/3", "880", "140✓", "Р", "sat +40", "↓", "who dealt", "▸",
                 "57/140", "16 pts"):
        assert mark in text, mark


async def test_help_button_on_the_table_message(world):
    w = world
    await w.fd.slash(w.users[0], w.channel, "table new", preset="russian", timer=0)
    await w.settle()
    r = await w.fd.click(w.users[2], w.table_message(), f"t1000:{w.table().id}:help:")
    await r.wait_final()
    assert r.ephemeral and "barrel" in _embed_text(r.message)


async def test_a_full_table_disables_join_and_add_ai(world):
    w = world
    fd, alice = w.fd, w.users[0]
    await fd.slash(alice, w.channel, "table new", preset="russian", timer=0)
    await w.settle()
    tid = w.table().id
    await fd.click(w.users[1], w.table_message(), f"t1000:{tid}:join:")
    await w.settle()
    msg = w.table_message()
    assert not msg.component_by_id(f"t1000:{tid}:join:").get("disabled")
    await fd.click(alice, msg, f"t1000:{tid}:addai:")
    await w.settle()
    msg = w.table_message()
    assert msg.component_by_id(f"t1000:{tid}:join:").get("disabled")
    assert msg.component_by_id(f"t1000:{tid}:addai:").get("disabled")
    assert not msg.component_by_id(f"t1000:{tid}:start:").get("disabled")
    assert "the host, can start" in _embed_text(msg)
    with pytest.raises(SchemaError):
        await fd.click(w.users[2], msg, f"t1000:{tid}:join:")


async def test_leave_asks_then_im_back_takes_the_seat_again(world):
    w = world
    await open_table(w)
    await w.settle()
    table = w.table()
    bob = w.users[1]
    r = await w.fd.slash(bob, w.channel, "table leave")
    assert r.ephemeral and "an AI plays your seat" in r.content
    assert not table.seats[1].away  # nothing happened yet
    no = await w.fd.click(bob, r.message, f"t1000:{table.id}:leaveno:")
    await no.wait_final()
    assert not table.seats[1].away
    r = await w.fd.slash(bob, w.channel, "table leave")
    await w.fd.click(bob, r.message, f"t1000:{table.id}:leaveyes:")
    await w.settle()
    assert table.seats[1].away and table.seats[1].user_id == bob.id
    msg = w.table_message()
    assert f"t1000:{table.id}:back:" in msg.custom_ids
    back = await w.fd.click(bob, msg, f"t1000:{table.id}:back:")
    await back.wait_final()
    await w.settle()
    assert not table.seats[1].away and table.seats[1].user_id == bob.id
