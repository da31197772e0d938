"""Every command's refusal paths, racing clicks, and a restart mid-hand."""

from __future__ import annotations

import asyncio
import random

from bot.ai.simple import SimplePlayer
from bot.game.actions import Verb
from bot.game.cards import card_str
from tests.helpers.cogs import component_for, hand_of, open_table, play_turn, start_bot, stop_bot


def seat_user(w, seat):
    return w.user(w.table().seats[seat].user_id)


async def test_refusals(world):
    w = world
    fd, ch = w.fd, w.channel
    alice, bob, cid, dot, eve = w.users
    r = await fd.slash(bob, ch, "table join")
    assert r.ephemeral and "no table" in r.content
    await fd.slash(alice, ch, "table new", preset="russian", timer=0)
    r = await fd.slash(bob, ch, "table new")
    assert r.ephemeral and "already has a table" in r.content
    r = await fd.slash(bob, ch, "table start")
    assert r.ephemeral and "Only the host (Alice)" in r.content
    r = await fd.slash(bob, ch, "table option", name="bid_step", value="10")
    assert r.ephemeral and "Only the host" in r.content
    r = await fd.slash(alice, ch, "table option", name="bid_step", value="7")
    assert r.ephemeral and "cannot be set" in r.content and "bid_step" in r.content
    r = await fd.slash(alice, ch, "table start")
    assert "needs 3 players; 1 is seated" in r.content
    r = await fd.slash(bob, ch, "bid", amount=100)
    assert r.ephemeral and "not started" in r.content
    await fd.slash(bob, ch, "table join")
    r = await fd.slash(bob, ch, "table join")
    assert "already have a seat" in r.content
    await fd.slash(cid, ch, "table join")
    r = await fd.slash(dot, ch, "table join")
    assert "All seats are taken" in r.content
    r = await fd.slash(bob, ch, "table kick", user=cid)
    assert "Only the host" in r.content
    r = await fd.slash(alice, ch, "table start")
    assert r.ephemeral and "begins" in r.content
    await w.settle()
    table = w.table()
    to_act = table.to_act()
    me, other = seat_user(w, to_act), seat_user(w, (to_act + 1) % 3)
    r = await fd.slash(other, ch, "pass")
    # the verb of the phase: in an auction the player to act is to bid, not to play
    assert r.ephemeral and r.content == f"You cannot pass: it is {me.display_name}'s turn to bid."
    r = await fd.slash(eve, ch, "bid", amount=105)
    assert r.ephemeral and "not seated" in r.content
    r = await fd.slash(me, ch, "bid", amount=103)
    assert r.ephemeral and "cannot bid 103" in r.content
    r = await fd.slash(me, ch, "contract", amount=120)
    assert r.ephemeral and "cannot set the contract" in r.content
    not_mine = next(c for c in range(32) if c not in table.observation(to_act).hand)
    r = await fd.slash(me, ch, "play", card=card_str(not_mine))
    assert r.ephemeral and "cannot play" in r.content
    r = await fd.slash(me, ch, "play", card="XX")
    assert r.ephemeral and "is not a card" in r.content
    r = await fd.slash(me, ch, "table option", name="bid_step", value="10")
    assert "already under way" in r.content
    # the state did not move
    assert w.table().to_act() == to_act and not w.table().state.bids
    # autocomplete offers exactly the legal bids
    choices = await fd.autocomplete(me, ch, "bid", "amount", "1")
    legal = {a.amount for a in table.observation(to_act).legal if a.verb is Verb.BID}
    assert choices and {c["value"] for c in choices} <= legal
    assert await fd.autocomplete(other, ch, "bid", "amount", "") == []
    names = await fd.autocomplete(me, ch, "table option", "name", "bid_")
    assert "bid_step" in [c["value"] for c in names]
    # ending needs the host or Manage Channels, and a confirmation
    r = await fd.slash(bob, ch, "table end")
    assert "Only the host or someone with Manage Channels" in r.content or bob is me
    r = await fd.slash(alice, ch, "table end")
    assert r.ephemeral and "End this table" in r.content
    tid = w.table().id
    r2 = await fd.click(alice, r.message, f"t1000:{tid}:endno:")
    assert w.service.find(ch.id) is not None
    r = await fd.slash(alice, ch, "table end")
    await fd.click(alice, r.message, f"t1000:{tid}:endyes:")
    assert w.service.find(ch.id) is None
    await w.settle()
    del r2


async def test_racing_and_double_clicks(world):
    w = world
    await open_table(w)
    table = w.table()
    rng = random.Random(8)
    for _ in range(8):
        await play_turn(w, rng)
        await w.service.settle()
    seat = table.to_act()
    user = seat_user(w, seat)
    other = seat_user(w, (seat + 1) % 3)
    r = await w.fd.click(user, w.table_message(user), f"t1000:{table.id}:hand:")
    r_other = await w.fd.click(other, w.table_message(other), f"t1000:{table.id}:hand:")
    a = SimplePlayer().choose(table.observation(seat), rng)
    cid, value = component_for(a, table)

    def press(u, msg):
        return w.fd.select(u, msg, cid, [value]) if value else w.fd.click(u, msg, cid)

    seq = table.seq
    # a double click, and another player pressing the same thing on his own hand at once
    tasks = [press(user, r.message), press(user, r.message)]
    if r_other.message.component_by_id(cid) and not r_other.message.component_by_id(
            cid).get("disabled"):
        tasks.append(press(other, r_other.message))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    errors = [x for x in results if isinstance(x, Exception)]
    assert not errors, errors
    assert all(x.type == 7 for x in results)  # every click answered by a fresh hand
    # (type 7 answers edit the same hand message: look at each answer, not the message)
    answers = [x.interaction.response_data.get("content", "") for x in results]
    ok = [c for c in answers if "⚠️" not in c]
    assert len(ok) == 1 and "You " in ok[0], answers
    assert all("not your turn" in c or "cannot" in c for c in answers if c not in ok)
    await w.settle()
    assert table.seq > seq
    assert len(await w.service.store.moves(table.id, table.match_no)) == table.seq


async def test_restart_mid_hand(world):
    w = world
    await open_table(w)
    table = w.table()
    tid = table.id
    rng = random.Random(9)
    for _ in range(6):
        await play_turn(w, rng)
        await w.service.settle()
    await w.settle()
    before = table.state
    old_table_msg = w.table_message()
    seat = table.to_act()
    user = seat_user(w, seat)
    old_hand = hand_of(w, user)
    await stop_bot(w)
    await start_bot(w, edit_limit=45)
    t2 = w.table()
    assert t2 is not table and t2.id == tid and t2.state == before
    # an old button still works: My hand on the old table message
    r = await w.fd.click(user, old_table_msg, f"t1000:{tid}:hand:")
    assert r.ephemeral and "Your turn" in r.content
    # and an old hand message answers with a fresh hand
    if old_hand is not None:
        cid = next((c for c in old_hand.custom_ids if c.startswith(f"t1000:{tid}:")
                    and not old_hand.component_by_id(c).get("disabled")), None)
        if cid is not None and ":choose:" not in cid:
            r = await w.fd.click(user, old_hand, cid)
            assert r.type == 7 and "Your hand" in r.content
    # the match goes on
    for _ in range(6):
        await w.service.settle()
        await play_turn(w, rng)
    await w.settle()
    assert w.table().seq > len(await w.service.store.moves(tid, 1)) - 1
