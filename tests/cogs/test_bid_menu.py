"""The bid menu: every bid within reach of a menu of 25, and blind bids in the reader's
language."""

from __future__ import annotations

from bot.game.actions import Flag, Verb
from bot.game.state import Phase


def _bid_menu(message):
    return next(c for row in message.components for c in row["components"]
                if c["type"] == 3 and ":choose:bid:" in c["custom_id"])


async def test_the_bid_menu_reaches_the_highest_bid(world):
    """With more bids than a menu holds, the menu keeps every bid near the current one and
    steps up to the highest; a bid from the far end of it is accepted."""
    w, fd, alice = world, world.fd, world.users[0]
    await fd.slash(alice, w.channel, "table new", preset="russian", timer=0)
    r = await fd.slash(alice, w.channel, "table option", name="marriage_required_above",
                       value="null")  # every hand may bid up to 400: 61 bids
    assert "cannot" not in r.content, r.content
    for u in w.users[1:3]:
        await fd.slash(u, w.channel, "table join")
    await fd.slash(alice, w.channel, "table start")
    await w.settle()
    table = w.table()
    seat = table.to_act()
    me = w.user(table.seats[seat].user_id)
    bids = sorted(a.amount for a in table.offer(seat).actions
                  if a.verb is Verb.BID and a.flag is Flag.NONE)
    assert len(bids) > 25
    r = await fd.click(me, w.table_message(me), f"t1000:{table.id}:hand:")
    await w.settle()
    menu = _bid_menu(r.message)
    offered = [int(o["value"]) for o in menu["options"]]
    assert len(offered) <= 25 and offered == sorted(offered)
    assert offered[:15] == bids[:15]  # the next bids one by one
    assert offered[-1] == bids[-1] and set(offered) <= set(bids)
    assert "/bid" in menu["placeholder"]  # and where any other amount is
    high = offered[-2]
    assert high > bids[24]  # beyond what the first 25 bids reached
    r = await fd.select(me, r.message, menu["custom_id"], [str(high)])
    assert f"You bid {high}" in r.content, r.content
    assert tuple(table.observation(None).bids[-1])[:2] == (seat, high)


async def test_blind_bids_read_in_the_players_language(world):
    """Before looking, the menu of blind bids names them in the player's language."""
    w, fd, alice = world, world.fd, world.users[0]
    await fd.slash(alice, w.channel, "table new", preset="russian", timer=0)
    await fd.slash(alice, w.channel, "table option", name="blind_bidding", value="true")
    for u in w.users[1:3]:
        await fd.slash(u, w.channel, "table join")
    await fd.slash(alice, w.channel, "table start")
    await w.settle()
    table = w.table()
    seat = table.to_act()
    me = w.user(table.seats[seat].user_id)
    lowest = min(a.amount for a in table.offer(seat).actions if a.flag is Flag.BLIND)
    for locale, label, placeholder in (("ru", f"{lowest} втёмную", "Заявка втёмную…"),
                                       ("pl", f"{lowest} w ciemno", "Licytuj w ciemno…"),
                                       ("en-US", f"{lowest} blind", "Bid blind…")):
        me.locale = locale
        r = await fd.click(me, w.table_message(me), f"t1000:{table.id}:hand:")
        await w.settle()
        menu = _bid_menu(r.message)
        assert menu["options"][0]["label"] == label
        assert menu["placeholder"] == placeholder


async def test_the_contract_menu_reaches_the_highest_contract(world):
    """A declarer who may raise to more contracts than a menu holds gets the nearest ones one
    by one, then steps up to the highest; one from the far end of the menu is accepted."""
    from tests.helpers.cogs import click_action

    w, fd, alice = world, world.fd, world.users[0]
    await fd.slash(alice, w.channel, "table new", preset="russian", timer=0)
    r = await fd.slash(alice, w.channel, "table option", name="marriage_required_above",
                       value="null")  # every contract up to 400 may be set
    assert "cannot" not in r.content, r.content
    for u in w.users[1:3]:
        await fd.slash(u, w.channel, "table join")
    await fd.slash(alice, w.channel, "table start")
    await w.settle()
    table = w.table()
    bid = False
    for _ in range(20):  # one bid of the lowest amount, passes, the talon, the gifts
        if table.state.phase is Phase.CONTRACT:
            break
        seat = table.to_act()
        legal = table.offer(seat).actions
        wanted = next(
            (a for a in legal if a.verb is Verb.PASS) if bid else
            (a for a in sorted(legal, key=lambda a: a.amount)
             if a.verb is Verb.BID and a.flag is Flag.NONE), None) or legal[0]
        bid = bid or wanted.verb is Verb.BID
        await click_action(w, w.user(table.seats[seat].user_id), wanted)
        await w.settle()
    assert table.state.phase is Phase.CONTRACT
    seat = table.to_act()
    me = w.user(table.seats[seat].user_id)
    contracts = sorted(a.amount for a in table.offer(seat).actions if a.verb is Verb.CONTRACT)
    assert len(contracts) > 25
    r = await fd.click(me, w.table_message(me), f"t1000:{table.id}:hand:")
    menu = next(c for row in r.message.components for c in row["components"]
                if c["type"] == 3 and ":choose:contract:" in c["custom_id"])
    offered = [int(o["value"]) for o in menu["options"]]
    assert len(offered) <= 25 and offered[:15] == contracts[:15]
    assert offered[-1] == contracts[-1] and "/contract" in menu["placeholder"]
    high = offered[-2]
    assert high > contracts[24]
    await fd.select(me, r.message, menu["custom_id"], [str(high)])
    await w.settle()
    assert table.state.phase is Phase.PLAY and table.observation(None).contract == high
