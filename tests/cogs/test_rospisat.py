"""Giving a hand up (rospisat) takes two presses within 10 s; through the emulator."""

from __future__ import annotations

import random

import pytest

from bot.game.actions import Verb
from bot.game.state import Phase
from bot.tables import FakeClock
from tests.helpers.cogs import hand_id, open_table, play_turn

CONFIRM = "again within 10 s to confirm"


async def _declarer_may_give_up(w, seed: int = 4):
    """Three humans play until the seat to act may give the hand up: (table, user)."""
    await open_table(w, timer=0)
    table = w.table()
    rng = random.Random(seed)
    for _ in range(60):
        await w.settle()
        seat = table.to_act()
        if any(a.verb is Verb.ROSPISAT for a in table.offer(seat).actions):
            return table, w.user(table.seats[seat].user_id)
        assert await play_turn(w, rng)
    raise AssertionError("no rospisat offered")


def _results(w) -> list[str]:
    return [m.content for m in w.fd.visible(w.users[4], w.channel)
            if not m.ephemeral and "gave up" in m.content]


@pytest.mark.parametrize("bot_options", [{"edit_limit": 45, "clock": "fake"}])
async def test_rospisat_button_needs_a_second_press_within_10_s(world):
    w = world
    fd = w.fd
    clock = w.service.clock
    assert isinstance(clock, FakeClock)
    table, user = await _declarer_may_give_up(w)
    hand = (await fd.click(user, w.table_message(user), f"t1000:{table.id}:hand:")).message
    cid = hand_id(table, "rospisat")
    button = hand.component_by_id(cid)
    assert button is not None and button["label"] == "Give up (rospisat)"
    seq, hand_no = table.seq, table.hand_no
    r = await fd.click(user, hand, cid)  # the first press only asks
    assert CONFIRM in r.content and "Give up (rospisat)" in r.content
    await w.settle()
    assert table.seq == seq and table.hand_no == hand_no and _results(w) == []
    await clock.advance(11)  # too late: the next press asks again
    r = await fd.click(user, r.message, cid)
    assert CONFIRM in r.content
    await w.settle()
    assert table.seq == seq and _results(w) == []
    await clock.advance(9)  # in time: given up
    r = await fd.click(user, r.message, cid)
    assert CONFIRM not in r.content and "⚠️" not in r.content
    await w.settle()
    assert table.seq > seq
    assert table.hand_no == hand_no + 1 or table.state.phase is Phase.MATCH_OVER
    assert _results(w), "no result of the given-up hand"


@pytest.mark.parametrize("bot_options", [{"edit_limit": 45, "clock": "fake"}])
async def test_rospisat_slash_command_asks_with_the_hand_then_confirms(world):
    """/rospisat answers with the hand and the question; its button (or /rospisat again)
    within 10 s gives the hand up."""
    w = world
    fd = w.fd
    table, user = await _declarer_may_give_up(w)
    seq = table.seq
    r = await fd.slash(user, w.channel, "rospisat")
    assert r.ephemeral and CONFIRM in r.content
    assert hand_id(table, "rospisat") in r.message.custom_ids
    await w.settle()
    assert table.seq == seq and _results(w) == []
    r = await fd.slash(user, w.channel, "rospisat")
    assert r.ephemeral and CONFIRM not in r.content and "⚠️" not in r.content
    await w.settle()
    assert table.seq > seq and _results(w)


async def test_rospisat_press_where_it_is_not_offered_is_refused_at_once(world):
    """A press that could not give anything up is not asked about: the refusal says why."""
    w = world
    await open_table(w, timer=0)
    table = w.table()
    seat = table.to_act()
    other = next(u for u in w.users[:3] if u.id != table.seats[seat].user_id)
    seq = table.seq
    r = await w.fd.slash(other, w.channel, "rospisat")
    assert r.ephemeral and CONFIRM not in r.content
    assert "You cannot declare rospisat" in r.content and "turn" in r.content
    assert table.seq == seq
