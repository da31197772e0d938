"""The pause after each hand: the finished hand stays on show until every person at the
table presses "Next hand" or the pause is over; it is stored, and survives a restart."""

from __future__ import annotations

import random

import pytest

from bot.game.state import Phase
from bot.tables import TableError
from tests.helpers.tables import ANN, BOB, CID, make_harness, play_human_turn

ACTORS = {a.user_id: a for a in (ANN, BOB, CID)}


async def _to_first_pause(h, *, humans=(BOB, CID), ais=0, pause=8, seed=3):
    """A table of Ann, ``humans`` and ``ais`` AI seats with ``pause`` seconds, played until
    its first hand is over."""
    s = h.service
    tid = (await s.create(ANN, channel_id=7, guild_id=1)).table.id
    await s.set_option(tid, ANN, "pause", str(pause))
    for a in humans:
        await s.join(tid, a)
    for _ in range(ais):
        await s.add_ai(tid, ANN)
    await s.start(tid, ANN)
    table = s.get(tid)
    rng = random.Random(seed)
    for _ in range(200):
        await s.settle()
        if table.state.last_result is not None:
            break
        if not await play_human_turn(s, tid, ACTORS, rng):
            await h.clock.advance(0)
    assert table.state.last_result is not None
    await s.settle()
    return table


@pytest.fixture
async def h(tmp_path):
    h = await make_harness(str(tmp_path / "t.db"))
    yield h
    await h.service.close()
    await h.store.close()


async def test_the_hand_stays_on_show_until_everyone_presses_next_hand(h):
    s = h.service
    table = await _to_first_pause(h)
    assert table.paused and table.state.phase is Phase.DEALING
    assert table.state.last_trick and table.state.last_winner >= 0  # the last trick is kept
    assert table.waiting == {0, 1, 2}
    hand_no = table.hand_no
    out = await s.next_hand(table.id, BOB)
    assert out.key == "ok.next_hand_waiting" and out.params["names"] == "Ann, Cid"
    await s.next_hand(table.id, BOB)  # twice is once
    await h.clock.advance(7)
    assert table.paused and table.hand_no == hand_no
    await s.next_hand(table.id, ANN)
    out = await s.next_hand(table.id, CID)
    assert out.key == "ok.next_hand"
    assert not table.paused and table.hand_no == hand_no + 1
    assert table.state.phase is Phase.BIDDING
    with pytest.raises(TableError) as err:
        await s.next_hand(table.id, CID)
    assert err.value.key == "error.not_paused"


async def test_the_next_hand_is_dealt_when_the_pause_is_over(h):
    table = await _to_first_pause(h, pause=5)
    hand_no = table.hand_no
    await h.clock.advance(4.5)
    assert table.paused
    await h.clock.advance(1)
    await h.service.settle()
    assert not table.paused and table.hand_no == hand_no + 1


async def test_ai_seats_never_hold_the_pause(h):
    s = h.service
    table = await _to_first_pause(h, humans=(), ais=2)
    assert table.waiting == {0}
    out = await s.next_hand(table.id, ANN)
    assert out.key == "ok.next_hand" and not table.paused


async def test_no_pause_deals_at_once(h):
    table = await _to_first_pause(h, pause=0)
    assert not table.paused and table.state.phase is not Phase.DEALING


async def test_a_restart_during_the_pause_keeps_it_then_deals_the_same_cards(tmp_path):
    path = str(tmp_path / "t.db")
    h = await make_harness(path)
    table = await _to_first_pause(h)
    await h.clock.advance(3)
    tid, hand_no = table.id, table.hand_no
    h = await h.restart()
    try:
        again = h.service.get(tid)
        assert again.paused and again.pause == 8 and again.waiting == {0, 1, 2}
        assert again.state.last_result == table.state.last_result
        await h.clock.advance(4.5)  # 7.5 s after the last card
        assert again.paused
        await h.clock.advance(1)
        await h.service.settle()
        assert not again.paused and again.hand_no == hand_no + 1
        dealt = again.state.dealt
    finally:
        await h.service.close()
        await h.store.close()
    # the same table without a restart deals the same cards
    h2 = await make_harness(str(tmp_path / "u.db"))
    try:
        other = await _to_first_pause(h2)
        await h2.clock.advance(9)
        await h2.service.settle()
        assert other.hand_no == hand_no + 1 and other.state.dealt == dealt
    finally:
        await h2.service.close()
        await h2.store.close()


async def test_the_pause_option(tmp_path):
    h = await make_harness(str(tmp_path / "t.db"))
    s = h.service
    tid = (await s.create(ANN, channel_id=7, guild_id=1)).table.id
    assert s.get(tid).pause == 0  # this service's default for new tables
    out = await s.set_option(tid, ANN, "pause", "15")
    assert (out.key, out.params["value"]) == ("ok.option_set", 15)
    for bad in ("61", "-1", "soon", ""):
        with pytest.raises(TableError) as err:
            await s.set_option(tid, ANN, "pause", bad)
        assert err.value.key == "error.pause_range"
        assert err.value.params["high"] == 60
    with pytest.raises(TableError) as err:
        await s.set_option(tid, BOB, "pause", "4")
    assert err.value.key in ("error.not_host", "error.other_channel", "error.not_seated")
    assert s.get(tid).pause == 15
    assert "pause" in s.option_names("pa")
    h = await h.restart()
    assert h.service.get(tid).pause == 15  # saved with the table
    await h.service.close()
    await h.store.close()


async def test_a_new_pause_applies_to_the_hand_on_show(h):
    table = await _to_first_pause(h, pause=30)
    hand_no = table.hand_no
    await h.service.set_option(table.id, ANN, "pause", "0")
    await h.service.settle()
    assert not table.paused and table.hand_no == hand_no + 1
