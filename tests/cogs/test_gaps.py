"""/table show, the turn timer through the emulator, blind bids, locales."""

from __future__ import annotations

import random

import pytest

from bot.game.actions import Flag, Verb
from bot.tables import FakeClock

from .conftest import hand_of, open_table, play_turn, start_bot, stop_bot


async def test_table_show_reposts_at_the_bottom(world):
    w = world
    await open_table(w)
    fd, table = w.fd, w.table()
    rng = random.Random(21)
    for _ in range(3):
        await play_turn(w, rng)
        await w.service.settle()
    await w.settle()
    old = w.table_message()
    await fd.post(w.users[4], w.channel, "chatter pushes the table up")
    r = await fd.slash(w.users[1], w.channel, "table show")
    assert r.message is not None and not r.ephemeral
    await w.settle()
    assert old.deleted  # one live table message
    visible = fd.visible(w.users[2], w.channel)
    assert visible[-1].id == r.message.id == table.message_id
    live = [m for m in visible if any(c.startswith(f"t1000:{table.id}:") for c in m.custom_ids)
            and not m.ephemeral]
    assert [m.id for m in live] == [r.message.id]
    # the new message is the one the publisher edits from now on, and its buttons work
    edits = len(r.message.edits)
    for _ in range(3):
        await play_turn(w, rng)
        await w.service.settle()
    await w.settle()
    assert len(r.message.edits) > edits
    seat = table.to_act()
    user = w.user(table.seats[seat].user_id)
    h = await fd.click(user, r.message, f"t1000:{table.id}:hand:")
    assert h.ephemeral and "Your turn" in h.content
    assert hand_of(w, user) is not None
    # a restarted bot edits the re-posted message (its id is stored)
    assert (await w.bot.store.table(table.id)).message_id == r.message.id


def _texts(w, user=None):
    return [m.content for m in w.fd.visible(user or w.users[4], w.channel) if not m.ephemeral]


@pytest.mark.parametrize("bot_options", [{"edit_limit": 45, "clock": "fake"}])
async def test_turn_timer_reminder_auto_move_away_and_back(world):
    """The service's clock is a FakeClock: the timer runs through the real bot and emulator."""
    w = world
    clock = w.service.clock
    assert isinstance(clock, FakeClock)
    await open_table(w, timer=30)
    table = w.table()
    seat = table.to_act()
    user = w.user(table.seats[seat].user_id)
    seq = table.seq
    await clock.advance(15)  # half time: a reminder that mentions the player
    await w.settle()
    reminders = [m for m in w.fd.visible(user, w.channel)
                 if "it is your turn (15 s left)" in m.content]
    assert reminders and reminders[-1].content.startswith(f"<@{user.id}>")
    assert table.seq == seq
    await clock.advance(15)  # time is up: a move is made for him
    await w.settle()
    assert table.seq > seq and table.seats[seat].missed == 1 and not table.seats[seat].away
    assert any(f"{user.display_name} ran out of time" in c for c in _texts(w))
    # everybody keeps missing: after two missed turns in a row a seat is played by an AI
    for _ in range(40):
        if table.seats[seat].away:
            break
        await clock.advance(15)
        await w.service.settle()
    await w.settle()
    assert table.seats[seat].away
    assert any(f"{user.display_name} missed two turns" in c for c in _texts(w))
    msg = w.table_message(user)
    back = f"t1000:{table.id}:back:"
    assert back in msg.custom_ids
    r = await w.fd.click(user, msg, back)
    assert r.ephemeral and "Welcome back" in r.content
    await w.settle()
    assert not table.seats[seat].away and table.seats[seat].missed == 0
    assert any(f"{user.display_name} is back" in c for c in _texts(w))
    row = next(s for s in (await w.bot.store.seats(table.id)) if s.seat == seat)
    assert not row.away and row.missed == 0
    r = await w.fd.click(user, w.table_message(user), f"t1000:{table.id}:hand:")
    assert "⚠️" not in r.content


async def test_blind_bid_option(world):
    w = world
    fd, ch = w.fd, w.channel
    alice = w.users[0]
    await fd.slash(alice, ch, "table new", preset="russian", timer=0)
    r = await fd.slash(alice, ch, "table option", name="blind_bidding", value="true")
    assert "blind_bidding" in r.content and "true" in r.content
    for u in w.users[1:3]:
        await fd.slash(u, ch, "table join")
    await fd.slash(alice, ch, "table start")
    await w.settle()
    table = w.table()
    seat = table.to_act()
    me = w.user(table.seats[seat].user_id)
    legal = table.observation(seat).legal
    blind = sorted(a.amount for a in legal if a.verb is Verb.BID and a.flag is Flag.BLIND)
    assert blind
    choices = await fd.autocomplete(me, ch, "bid", "amount", "", blind=True)
    assert [c["value"] for c in choices] == blind[:25]
    r = await fd.slash(me, ch, "bid", amount=blind[0], blind=True)
    assert r.ephemeral and f"You bid {blind[0]} blind" in r.content, r.content
    assert tuple(table.observation(None).bids[-1]) == (seat, blind[0], True)
    await w.settle()
    assert "🙈" in str(w.table_message().embeds)


async def test_blind_bid_refused_without_the_option(world):
    w = world
    await open_table(w, timer=0)
    table = w.table()
    seat = table.to_act()
    me = w.user(table.seats[seat].user_id)
    r = await w.fd.slash(me, w.channel, "bid", amount=100, blind=True)
    assert r.ephemeral and "blind bids are not allowed" in r.content, r.content
    assert not table.state.bids


async def test_user_locale_reaches_the_catalog(world, monkeypatch):
    """A language is a catalog in bot.i18n: replies follow each user's Discord locale and
    command descriptions get localizations at sync, with no change to the cogs."""
    from bot import i18n

    polish = {"error.no_table": "Nie ma tu stołu.", "cmd.table": "Stoły do gry w tysiąca",
              "cmd.bid.amount": "Twoja licytacja"}
    monkeypatch.setitem(i18n.CATALOGS, "pl", polish)
    w = world
    await stop_bot(w)
    await start_bot(w, edit_limit=45)  # syncs the commands again, through the translator
    ola = w.fd.add_user("ola", "Ola", locale="pl")
    w.fd.add_member(w.guild, ola)
    cmds = {c["name"]: c for c in w.fd.store.commands_for(w.guild.id)}
    assert cmds["table"].get("description_localizations", {}).get("pl") == polish["cmd.table"]
    bid = next(o for o in cmds["bid"]["options"] if o["name"] == "amount")
    assert bid.get("description_localizations", {}).get("pl") == polish["cmd.bid.amount"]
    r = await w.fd.slash(ola, w.channel, "table join")
    assert r.ephemeral and r.content == "Nie ma tu stołu."
    r = await w.fd.slash(w.users[1], w.channel, "table join")  # an English user, same command
    assert "There is no table" in r.content
