"""/table show, the turn timer through the emulator, blind bids, locales."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.game.actions import Flag, Verb
from bot.game.cards import card_pretty, card_str
from bot.tables import FakeClock
from tests.helpers.cogs import hand_id, hand_of, open_table, play_turn, start_bot, stop_bot


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
    assert (await w.service.store.table(table.id)).message_id == r.message.id


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
    row = next(s for s in (await w.service.store.seats(table.id)) if s.seat == seat)
    assert not row.away and row.missed == 0
    r = await w.fd.click(user, w.table_message(user), f"t1000:{table.id}:hand:")
    assert "⚠️" not in r.content


async def _blind_table(w):
    """Three humans at a russian table with blind bidding on, started: (table, seat to
    act, the user in that seat)."""
    fd, ch, alice = w.fd, w.channel, w.users[0]
    await fd.slash(alice, ch, "table new", preset="russian", timer=0)
    r = await fd.slash(alice, ch, "table option", name="blind_bidding", value="true")
    assert "blind_bidding" in r.content and "true" in r.content
    for u in w.users[1:3]:
        await fd.slash(u, ch, "table join")
    await fd.slash(alice, ch, "table start")
    await w.settle()
    table = w.table()
    seat = table.to_act()
    return table, seat, w.user(table.seats[seat].user_id)


async def test_blind_bid_option(world):
    w, fd, ch = world, world.fd, world.channel
    table, seat, me = await _blind_table(w)
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


async def test_blind_bidding_keeps_cards_face_down_until_the_player_looks(world):
    """With blind bidding, "My hand" shows no card (text, buttons or image) but blind bids,
    Pass and "Look at my cards"; looking is recorded before the cards are shown, and a
    player who looked cannot bid blind any more, also after a restart."""
    w, fd, ch = world, world.fd, world.channel
    table, seat, me = await _blind_table(w)
    obs = table.observation(seat)
    assert obs.hand
    r = await fd.click(me, w.table_message(me), f"t1000:{table.id}:hand:")
    await w.settle()
    hand = r.message
    assert hand is not None and hand.ephemeral
    assert "face down" in hand.content and "Your cards:" not in hand.content
    assert "bid blind (up to 120)" in hand.content
    ids = hand.custom_ids
    can_pass = any(a.verb is Verb.PASS for a in obs.legal)  # not the forced opener
    assert hand_id(table, "look") in ids
    assert (hand_id(table, "pass") in ids) == can_pass
    assert not any(":play:" in c for c in ids)  # no card buttons
    assert not hand.attachments  # no hand image either
    select = hand.component_by_id(hand_id(table, "choose", "bid"))
    assert select and all(o["value"].endswith("b") for o in select["options"])
    # Nothing offered depends on the hidden cards: no blind bid above 120 (a marriage's).
    assert max(int(o["value"][:-1]) for o in select["options"]) <= 120
    for blind in (True, False):
        choices = await fd.autocomplete(me, ch, "bid", "amount", "", blind=blind)
        assert choices and max(c["value"] for c in choices) <= 120
    r = await fd.slash(me, ch, "bid", amount=150, blind=True)
    assert "A blind bid can go up to 120" in r.content and not table.state.bids
    text = str(hand.content) + str(hand.components)
    for c in obs.hand:  # not one card, in any notation
        assert card_pretty(c) not in text and f":{card_str(c)}" not in text
    # Look: recorded, then the cards appear with ordinary bids only.
    r = await fd.click(me, hand, hand_id(table, "look"))
    await w.settle()
    assert "Your cards:" in hand.content and "You look at your cards" in hand.content
    select = hand.component_by_id(hand_id(table, "choose", "bid"))
    assert select and not any(o["value"].endswith("b") for o in select["options"])
    choices = await fd.autocomplete(me, ch, "bid", "amount", "", blind=True)
    assert choices == []
    r = await fd.slash(me, ch, "bid", amount=120, blind=True)
    assert r.ephemeral and "looked at your cards" in r.content, r.content
    assert not table.state.bids
    await stop_bot(w)
    await start_bot(w)
    r = await fd.slash(me, ch, "bid", amount=120, blind=True)
    assert r.ephemeral and "looked at your cards" in r.content, r.content
    assert not w.table().state.bids
    # Another player who has not looked still sees his cards face down.
    other = next(u for u in w.users[:3] if u.id != me.id)
    r = await fd.slash(other, ch, "hand")
    assert "face down" in r.content and "Your cards:" not in r.content


async def test_public_messages_in_the_tables_language(world, monkeypatch):
    """The table message and the channel notices are written in the table's language (the
    opener's, on a server without a preferred one), whoever clicked; replies to each user
    stay in that user's language."""
    from bot import i18n

    polish = {"table.seats": "Miejsca", "notice.started": "{by} rozpoczyna partię.",
              "error.not_host": "Tylko gospodarz może to zrobić."}
    monkeypatch.setitem(i18n.CATALOGS, "pl", polish)
    w = world
    fd, ch = w.fd, w.channel
    ola = fd.add_user("ola", "Ola", locale="pl")
    fd.add_member(w.guild, ola)
    await fd.slash(ola, ch, "table new", preset="russian", timer=0)
    await w.settle()
    assert "Miejsca" in str(w.table_message().embeds)
    bob = w.users[1]  # English
    await fd.click(bob, w.table_message(bob), f"t1000:{w.table().id}:join:")
    await w.settle()
    assert "Miejsca" in str(w.table_message().embeds)  # still Polish after Bob's click
    r = await fd.slash(bob, ch, "table start")
    assert r.ephemeral and "host" in r.content  # Bob's own answer: English
    await fd.click(ola, w.table_message(ola), f"t1000:{w.table().id}:addai:")
    await fd.slash(ola, ch, "table start")
    await w.settle()
    texts = [m.content for m in fd.visible(bob, ch) if not m.ephemeral and m.content]
    assert any("Ola rozpoczyna partię." in x for x in texts), texts


async def test_a_paced_edit_that_waited_for_a_lane_never_undoes_a_newer_answer(world):
    """A table edit drawn before Start and held up by busy lanes must not put the seating
    view (Join / Start) back over the started table that Start's answer showed."""
    from cogs._lanes import Lanes

    w = world
    fd, ch, alice = w.fd, w.channel, w.users[0]
    await fd.slash(alice, ch, "table new", timer=0)
    await w.settle()
    bot = w.bot
    bot.publisher.outlet.lanes = bot.lanes = Lanes(1, least=1)
    hold = asyncio.Event()

    async def busy() -> None:
        async with bot.lanes.background():
            await hold.wait()

    blocker = asyncio.create_task(busy())
    await fd.slash(alice, ch, "table ai")  # the table message changes by a paced edit ...
    await fd.slash(alice, ch, "table ai")
    await fd.wait_until(lambda: bot.lanes.waiting >= 1, 10)  # ... which waits for a lane
    table = w.table()
    r = await fd.click(alice, w.table_message(), f"t1000:{table.id}:start:")
    assert r.type == 7  # Start answered by editing the table message in place
    msg = w.table_message()
    assert msg.component_by_id(f"t1000:{table.id}:hand:") is not None
    hold.set()
    await blocker
    await w.settle()
    assert msg.component_by_id(f"t1000:{table.id}:hand:") is not None
    assert msg.component_by_id(f"t1000:{table.id}:start:") is None
    assert all(rev.components != [] for rev in msg.history)
    lobby = [i for i, rev in enumerate(msg.history)
             if any("start" in str(c) for c in rev.components)]
    started = [i for i, rev in enumerate(msg.history)
               if any(":hand:" in str(c) for c in rev.components)]
    assert max(lobby) < min(started)  # never back to the lobby once started
