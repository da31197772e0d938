"""/optin ping: a short message that mentions a player when his turn comes, deleted when he
acts; through the emulator."""

from __future__ import annotations

import random

import pytest

from tests.fakediscord.models import Message
from tests.helpers.cogs import open_table, play_turn, start_bot, stop_bot

PING = "🔔 Your turn."


def _pings(w) -> list[Message]:
    """Every "your turn" message the channel ever got, deleted ones too, oldest first."""
    return [m for m in w.fd.store.channel_messages(w.channel)
            if not m.ephemeral and PING in m.history[0].content]


def _live(w) -> list[Message]:
    return [m for m in _pings(w) if not m.deleted]


async def test_optin_ping_is_kept_and_said(world):
    w = world
    fd, bob = w.fd, w.users[1]
    r = await fd.slash(bob, w.channel, "optin")  # nothing chosen: what is chosen now
    assert r.ephemeral and "not shown on the global leaderboard" in r.content
    assert "No mention when your turn comes" in r.content
    r = await fd.slash(bob, w.channel, "optin", ping=True)
    assert r.ephemeral and "a short message in the channel mentions you" in r.content
    assert "not shown on the global leaderboard" in r.content  # the other choice is kept
    got = await w.service.store.player_settings(bob.id)
    assert got.turn_ping and not got.global_opt_in
    r = await fd.slash(bob, w.channel, "optin", show=True)
    assert "You are shown on the global leaderboard" in r.content
    assert "a short message in the channel mentions you" in r.content
    r = await fd.slash(bob, w.channel, "optin", ping=False)
    assert "No mention when your turn comes" in r.content
    got = await w.service.store.player_settings(bob.id)
    assert not got.turn_ping and got.global_opt_in


@pytest.mark.parametrize("bot_options", [{"edit_limit": 45, "seed": 5}])
async def test_ping_when_the_turn_comes_deleted_when_the_player_acts(world):
    """Bob asked for pings, Alice and Cid did not: each time another player's move makes it
    Bob's turn, one message mentions him (and only him) until he moves; the others are
    never pinged."""
    w = world
    fd, alice, bob, cid = w.fd, *w.users[:3]
    r = await fd.slash(bob, w.channel, "optin", ping=True)
    assert "mentions you" in r.content
    await open_table(w, timer=0)
    table = w.table()
    rng = random.Random(3)
    last_mover = alice.id  # Alice pressed Start
    began = 0  # Bob's turns begun by someone else's move
    for _ in range(40):
        await w.settle()
        seat = table.to_act()
        to_act = table.seats[seat].user_id if seat >= 0 else None
        live = _live(w)
        if to_act == bob.id and last_mover != bob.id:
            began += 1
            assert len(live) == 1, [m.content for m in live]
            ping = live[0]
            assert ping.content == f"<@{bob.id}> {PING}"
            assert ping.notified == [bob.id]
            allowed = ping.history[0].allowed_mentions
            assert allowed is not None and allowed.get("parse") == []
            assert [int(u) for u in allowed.get("users", [])] == [bob.id]
        else:  # nobody's turn began, or Bob's own move left him to act: no ping stands
            assert live == [], (to_act, [m.content for m in live])
        if to_act is None:
            break
        assert await play_turn(w, rng)
        last_mover = to_act
    assert began >= 3
    pings = _pings(w)
    assert len(pings) == began
    assert all(m.deleted for m in pings[:-1])  # each went when Bob acted
    # nobody else was ever notified by the bot
    notified = {u for m in w.fd.store.channel_messages(w.channel) for u in m.notified}
    assert notified <= {bob.id}, notified
    assert alice.id not in notified and cid.id not in notified


@pytest.mark.parametrize("bot_options", [{"edit_limit": 45, "seed": 5}])
async def test_no_ping_when_off(world):
    """Without /optin ping nobody is pinged at any turn (the default)."""
    w = world
    await open_table(w, timer=0)
    rng = random.Random(3)
    for _ in range(12):
        await w.settle()
        assert await play_turn(w, rng)
    await w.settle()
    assert _pings(w) == []
    assert all(not m.notified for m in w.fd.store.channel_messages(w.channel))


@pytest.mark.parametrize("bot_options", [{"edit_limit": 45, "clock": "fake"}])
async def test_ping_once_the_timer_warning_stays_and_a_move_made_for_him_removes_it(world):
    """With the turn timer on, a pinged player still gets the half-time reminder (and no
    second ping); when time runs out and a move is made for him, his ping goes too."""
    w = world
    fd = w.fd
    clock = w.service.clock
    await open_table(w, timer=30)
    table = w.table()
    user = w.user(table.seats[(table.to_act() + 1) % 3].user_id)  # the next one to act
    await fd.slash(user, w.channel, "optin", ping=True)
    rng = random.Random(2)
    assert await play_turn(w, rng)
    await w.settle()
    assert table.seats[table.to_act()].user_id == user.id
    (ping,) = _live(w)
    assert ping.notified == [user.id]
    await clock.advance(15)  # half time: the reminder mentions him as before
    await w.settle()
    reminders = [m for m in fd.visible(user, w.channel) if "it is your turn (15 s left)" in
                 m.content]
    assert reminders and reminders[-1].notified == [user.id]
    assert _live(w) == [ping] and len(_pings(w)) == 1
    await clock.advance(15)  # time is up: a move is made for him, his turn is over
    await w.settle()
    assert table.seats[table.to_act()].user_id != user.id
    assert ping.deleted and _live(w) == []


async def test_the_choice_outlives_a_restart(world):
    """/optin ping is stored: a restarted bot still pings the player; a ping standing when
    the bot stops is deleted (the next process could not)."""
    w = world
    fd, bob = w.fd, w.users[1]
    await fd.slash(bob, w.channel, "optin", ping=True)
    await stop_bot(w)
    await start_bot(w, edit_limit=45)
    await open_table(w, timer=0)
    table = w.table()
    rng = random.Random(3)
    for _ in range(6):
        await w.settle()
        seat = table.to_act()
        if table.seats[seat].user_id == bob.id:
            break
        assert await play_turn(w, rng)
    assert table.seats[table.to_act()].user_id == bob.id
    (ping,) = _live(w)
    assert ping.notified == [bob.id]
    await stop_bot(w)  # a restarted bot would not know it: it goes with the bot
    assert ping.deleted
