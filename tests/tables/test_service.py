"""The table service: seating, moves, persistence, restart, AI and the turn timer."""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest

from bot.game.actions import Verb
from bot.game.cards import parse_card
from bot.game.dealing import new_match
from bot.game.engine import apply
from bot.game.presets import PRESETS
from bot.game.serialize import move_from_json
from bot.game.state import Phase
from bot.i18n import t
from bot.tables import Notice, TableError, TableStatus, presets
from tests.helpers.tables import ANN, BOB, CID, DOT, make_harness, play_human_turn

ACTORS = {a.user_id: a for a in (ANN, BOB, CID, DOT)}


async def seated(service, *, channel=100, preset="russian", timer=0, ais=0):
    out = await service.create(ANN, channel_id=channel, guild_id=1, preset=preset, timer=timer)
    tid = out.table.id
    humans = [BOB, CID, DOT][: out.table.size - 1 - ais]
    for a in humans:
        await service.join(tid, a)
    for _ in range(ais):
        await service.add_ai(tid, ANN)
    return tid


async def test_seating_rules(harness):
    s = harness.service
    tid = await seated(s, ais=0)
    with pytest.raises(TableError) as e:
        await s.create(BOB, channel_id=100, guild_id=1)
    assert e.value.key == "error.channel_taken"
    with pytest.raises(TableError) as e:
        await s.join(tid, DOT)
    assert e.value.key == "error.table_full"
    with pytest.raises(TableError) as e:
        await s.start(tid, BOB)
    assert e.value.key == "error.not_host"
    await s.leave(tid, CID)
    with pytest.raises(TableError) as e:
        await s.start(tid, ANN)
    assert e.value.key == "error.seats_not_full"
    with pytest.raises(TableError) as e:
        await s.kick(tid, BOB, ANN.user_id)
    assert e.value.key == "error.not_host"
    await s.kick(tid, ANN, BOB.user_id)
    assert s.get(tid).names() == ["Ann"]
    # host leaves the last: the table closes
    out = await s.leave(tid, ANN)
    assert out.params.get("closed") and s.find(100) is None


async def test_options_validated_and_player_count(harness):
    s = harness.service
    out = await s.create(ANN, channel_id=5, guild_id=1, preset="russian", players=4)
    assert out.table.preset == "russian4" and out.table.size == 4
    tid = out.table.id
    with pytest.raises(TableError) as e:
        await s.set_option(tid, ANN, "bid_stepp", "10")
    assert "did you mean 'bid_step'" in e.value.params["message"]
    with pytest.raises(TableError) as e:
        await s.set_option(tid, ANN, "bid_step", "7")
    assert e.value.key == "error.option"
    out = await s.set_option(tid, ANN, "bid_step", "10")
    assert s.get(tid).rules.bid_step == 10
    await s.set_option(tid, ANN, "four_nines_redeal", "off")
    with pytest.raises(TableError):
        await s.set_option(tid, BOB, "bid_step", "5")


async def test_house_rule_options_set_and_explained(harness):
    """Every house-rule option can be set by name, and /table rules explains it."""
    assert "russian_online" in dict(presets())  # offered by /table new preset:
    s = harness.service
    out = await s.create(ANN, channel_id=6, guild_id=1, preset="russian_online", players=3)
    tid = out.table.id
    assert s.get(tid).rules.dealer_forced_bid and s.get(tid).rules.bid_step_high == 10
    house = {"sticks_count": "4", "sticks_in_a_row": "true", "no_win_hands": "5",
             "reset_value": "550", "barrel_fall_penalty": "240", "last_trick_bonus": "10",
             "marriage_trump": "next_trick", "rospisat_award": "declarer_pays_split",
             "bid_cap_before_talon": "130", "bid_step_high_from": "250"}
    for name, raw in house.items():
        await s.set_option(tid, ANN, name, raw)
    with pytest.raises(TableError):
        await s.set_option(tid, ANN, "sticks_count", "7")
    summary = s.rules_summary(s.get(tid))
    explained = {k: (v, why) for k, v, why in summary.explained}
    assert set(house) <= set(explained)
    assert explained["sticks_count"] == ("4", "How many sticks cost sticks_penalty (2 to 5).")
    assert all(why.endswith(".") for _, why in explained.values())


async def test_moves_persist_and_restart_replays(harness):
    h = harness
    tid = await seated(h.service)
    await h.service.start(tid, ANN)
    rng = random.Random(3)
    for _ in range(12):
        assert await play_human_turn(h.service, tid, ACTORS, rng)
    before = h.service.get(tid).state
    # every accepted move is in the log: replaying it gives the same state
    rows = await h.store.moves(tid, 1)
    st = new_match(h.service.get(tid).rules, h.service.get(tid).dealer)
    for r in rows:
        st, _ = apply(st, move_from_json(r.move))
    assert st == before
    h2 = await h.restart()
    try:
        t2 = h2.service.get(tid)
        assert t2.state == before and t2.status is TableStatus.PLAYING
        assert t2.names() == ["Ann", "Bob", "Cid"]
        assert await play_human_turn(h2.service, tid, ACTORS, rng)
    finally:
        await h2.service.close()
        await h2.store.close()


def said(err: TableError, locale: str = "en") -> str:
    return t(err.key, locale, **err.params)


async def test_refusals_leave_state_unchanged(harness):
    s = harness.service
    tid = await seated(s)
    with pytest.raises(TableError) as e:
        await s.act(tid, ANN, Verb.PASS)
    assert e.value.key == "error.status.seating"
    await s.start(tid, ANN)
    table = s.get(tid)
    to_act = table.to_act()
    other = next(a for a in (ANN, BOB, CID) if table.seat_of(a.user_id) != to_act)
    version = table.version
    with pytest.raises(TableError) as e:
        await s.act(tid, other, Verb.PASS)
    name = table.seats[to_act].name
    assert said(e.value) == f"You cannot pass: it is {name}'s turn to bid."
    me = next(a for a in (ANN, BOB, CID) if table.seat_of(a.user_id) == to_act)
    with pytest.raises(TableError) as e:
        await s.act(tid, me, Verb.BID, amount=103)
    assert said(e.value).startswith("You cannot bid 103: bids go up in steps of 5, so the ")
    with pytest.raises(TableError) as e:
        await s.act(tid, me, Verb.PLAY, card=parse_card("AS"))
    assert said(e.value) == ("You cannot play A♠: cards are played after the auction and the "
                             "exchange; now the auction is on.")
    assert said(e.value, "ru").startswith("Вы не можете сыграть Т♠: ")
    with pytest.raises(TableError) as e:
        await s.act(tid, DOT, Verb.PASS)
    assert e.value.key == "error.not_seated"
    assert table.version == version and len(await harness.store.moves(tid, 1)) == table.seq


async def test_racing_moves_one_wins(harness):
    s = harness.service
    tid = await seated(s)
    await s.start(tid, ANN)
    table = s.get(tid)
    me = next(a for a in (ANN, BOB, CID) if table.seat_of(a.user_id) == table.to_act())
    a = table.observation(table.to_act()).legal[0]
    results = await asyncio.gather(*(s.act(tid, me, a.verb, amount=a.amount)
                                     for _ in range(5)), return_exceptions=True)
    ok = [r for r in results if not isinstance(r, Exception)]
    assert len(ok) == 1
    assert all(isinstance(r, TableError) for r in results if r not in ok)
    assert len(await harness.store.moves(tid, 1)) == table.seq


@pytest.mark.slow
async def test_human_and_two_ais_finish_a_match(harness):
    s = harness.service
    tid = await seated(s, ais=2)
    await s.start(tid, ANN)
    rng = random.Random(5)
    for _ in range(5000):
        await s.settle()
        if s.get(tid).status is not TableStatus.PLAYING:
            break
        assert await play_human_turn(s, tid, ACTORS, rng)
    table = s.get(tid)
    assert table.status is TableStatus.FINISHED and table.state.phase is Phase.MATCH_OVER
    assert "notice.match_won" in harness.notices()
    (match,) = await harness.store.matches(tid)
    assert match.status == "won" and max(match.totals) >= 1000
    assert await harness.store.hands(tid, 1)
    # rematch: same seats, next dealer
    await s.rematch(tid, ANN)
    assert table.status is TableStatus.PLAYING and table.match_no == 2 and table.dealer == 0


async def test_turn_timer_reminds_moves_and_hands_seat_to_ai(harness):
    h = harness
    s = h.service
    tid = await seated(s, timer=60)
    await s.start(tid, ANN)
    table = s.get(tid)
    seat = table.to_act()
    await h.clock.advance(31)
    assert "notice.reminder" in h.notices()
    await h.clock.advance(30)
    await s.settle()
    assert "notice.timed_out" in h.notices()
    assert table.seats[seat].missed == 1 and table.to_act() != seat
    # everybody stays away: the first to miss twice goes to the AI
    for _ in range(6):
        await h.clock.advance(61)
        await s.settle()
        if any(x.away for x in table.seats):
            break
    away = [x for x in table.seats if x.away]
    assert away and "notice.away" in h.notices()
    # and comes back
    actor = next(a for a in (ANN, BOB, CID) if a.user_id == away[0].user_id)
    await s.back(tid, actor)
    assert not table.seats[table.seat_of(actor.user_id)].away
    # the away flag survived a restart before that? (persisted seats)
    rows = await h.store.seats(tid)
    assert not any(r.away and r.user_id == actor.user_id for r in rows)


async def test_abandoned_after_a_day_without_humans(harness):
    h = harness
    tid = await seated(h.service)
    await h.service.start(tid, ANN)
    await h.clock.advance(23 * 3600)
    assert await h.service.sweep() == []
    await h.clock.advance(3600)
    closed = await h.service.sweep()
    assert [t.id for t in closed] == [tid]
    assert h.service.find(100) is None
    assert (await h.store.table(tid)).status == "abandoned"
    (match,) = await h.store.matches(tid)
    assert match.status == "abandoned"
    h2 = await h.restart()
    assert h2.service.find(100) is None
    await h2.service.close()
    await h2.store.close()


async def test_end_needs_host_or_manager(harness):
    s = harness.service
    tid = await seated(s)
    with pytest.raises(TableError) as e:
        await s.end(tid, BOB)
    assert e.value.key == "error.not_host_or_manager"
    await s.end(tid, ANN)
    with pytest.raises(TableError) as e:
        await s.join(tid, DOT)
    assert e.value.key == "error.table_closed"
    # the channel is free again
    await s.create(BOB, channel_id=100, guild_id=1)


@pytest.mark.parametrize("preset", ["polish4", "elwood2", "polish2_stock"])
@pytest.mark.slow
async def test_other_sizes_play_with_ais(tmp_path, preset):
    h = await make_harness(str(tmp_path / "x.db"))
    try:
        s = h.service
        size = PRESETS[preset].rules.seats
        tid = await seated(s, preset=preset, ais=size - 1)
        table = s.get(tid)
        await s.start(tid, ANN)
        rng = random.Random(1)
        for _ in range(60):
            await s.settle()
            await play_human_turn(s, tid, ACTORS, rng)
        assert table.seq > 10
    finally:
        await h.service.close()
        await h.store.close()


async def test_gate_holds_automatic_moves_back(tmp_path):
    """The caller's gate (the bot: "answers first") is entered around every AI move."""
    from tests.helpers.tables import make_harness

    opened = asyncio.Event()
    waits = 0

    @contextlib.asynccontextmanager
    async def gate():
        nonlocal waits
        waits += 1
        await opened.wait()
        yield

    h = await make_harness(str(tmp_path / "gate.db"), gate=gate)
    try:
        s = h.service
        tid = (await s.create(ANN, channel_id=5, guild_id=1, timer=0)).table.id
        await s.add_ai(tid, ANN)
        await s.add_ai(tid, ANN)
        await s.start(tid, ANN)
        table = s.get(tid)
        seq = table.seq
        rng = random.Random(1)
        while not table.seats[table.to_act()].ai:
            await play_human_turn(s, tid, {ANN.user_id: ANN}, rng)
        await asyncio.sleep(0.05)
        assert waits >= 1 and table.seats[table.to_act()].ai  # the AI waits at the gate
        moved = table.seq
        opened.set()
        await s.settle()
        assert table.seq > moved >= seq
    finally:
        await h.service.close()
        await h.store.close()


async def test_blind_bidding_looks_are_recorded_and_capped(tmp_path):
    """Face down, a blind bid may not go above the limit of a hand without a marriage (a
    higher limit would tell what he holds); any other action is made looking, and a look
    survives a restart."""
    from bot.game.actions import Flag

    h = await make_harness(str(tmp_path / "blind.db"))
    try:
        s = h.service
        tid = (await s.create(ANN, channel_id=5, guild_id=1, timer=0)).table.id
        await s.set_option(tid, ANN, "blind_bidding", "true")
        await s.join(tid, BOB)
        await s.join(tid, CID)
        await s.start(tid, ANN)
        table = s.get(tid)
        actors = {a.user_id: a for a in (ANN, BOB, CID)}
        seat = table.to_act()
        me = actors[table.seats[seat].user_id]
        assert all(table.face_down(i) for i in range(3))
        assert table.offer(seat).blind_cap == 120  # russian: above 120 needs a marriage
        with pytest.raises(TableError) as err:
            await s.act(tid, me, Verb.BID, amount=130, flag=Flag.BLIND)
        assert err.value.key == "error.blind_cap" and not table.state.bids
        await s.act(tid, me, Verb.BID, amount=100)  # an ordinary bid: made looking
        assert not table.face_down(seat)
        h = await h.restart()
        s, table = h.service, h.service.get(tid)
        assert not table.face_down(seat)
        nxt = table.to_act()
        assert table.face_down(nxt)
        await s.look(tid, actors[table.seats[nxt].user_id])
        assert not table.face_down(nxt)
        with pytest.raises(TableError) as err:
            await s.act(tid, actors[table.seats[nxt].user_id], Verb.BID, amount=105,
                        flag=Flag.BLIND)
        assert err.value.key == "error.blind_after_look"
    finally:
        await h.service.close()
        await h.store.close()




async def test_each_turn_begun_names_its_player_once(harness):
    """Each change that makes a human's turn begin names him (the publisher pings him if
    he asked for it: ``wants_ping``); not the one who made the change, nor one a notice of
    the same change already mentions."""
    svc = harness.service
    async with harness.store.transaction() as tx:
        await tx.set_turn_ping(BOB.user_id, True)
    assert await svc.wants_ping(BOB.user_id) and not await svc.wants_ping(CID.user_id)
    tid = (await svc.create(ANN, channel_id=10, guild_id=None, preset="russian",
                            timer=0)).table.id
    for who in (BOB, CID):
        await svc.join(tid, who)
    assert all(u.turn is None for u in harness.updates)  # seating: nobody's turn
    await svc.start(tid, ANN)
    table = svc.get(tid)
    first = table.seats[table.to_act()].user_id
    assert harness.updates[-1].turn == (None if first == ANN.user_id else first)
    actors = {a.user_id: a for a in (ANN, BOB, CID)}
    rng = random.Random(1)
    for _ in range(8):
        before = table.seats[table.to_act()].user_id
        assert await play_human_turn(svc, tid, actors, rng)
        after = table.seats[table.to_act()].user_id
        assert harness.updates[-1].by == before
        assert harness.updates[-1].turn == (after if after != before else None)
    user = table.seats[table.to_act()].user_id
    svc._turns.pop(tid)  # as if his turn began with the next change
    mentioned = (Notice("notice.away", {"name": "x"}, mention=user),)
    assert svc._turn_began(table, mentioned, None) is None
    svc._turns.pop(tid)
    assert svc._turn_began(table, (), None) == user
    assert svc._turn_began(table, (), None) is None  # once
