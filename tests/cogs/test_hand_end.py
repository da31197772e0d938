"""The end of each hand as the players see it: the last trick and the hand's result stay on
the table until everyone at the table presses Next hand or the pause is over."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.game.state import Phase
from bot.i18n import t
from bot.tables import FakeClock
from cogs._images import TABLE_FILE, public_table_view
from render.table import render_table
from tests.helpers.cogs import hand_of, open_table, play_turn

PAUSED = {"edit_limit": 45, "clock": "fake", "hand_pause": 8}


async def _play_first_hand(w, seed: int = 4):
    """Play until the first hand is scored; the table."""
    table = w.table()
    rng = random.Random(seed)
    for _ in range(400):
        await w.service.settle()
        if table.state.last_result is not None:
            break
        if not await play_turn(w, rng):
            await w.service.clock.advance(0)  # an AI is to move
    assert table.state.last_result is not None
    await w.settle()
    return table


def _status(w) -> str:
    return w.table_message().embeds[0].get("description", "")


def _shown(w, table) -> None:
    """The table message shows the finished hand: its image is the last trick with who took
    it and every player's change; its text names the trick's winner and who is waited for."""
    msg = w.table_message()
    view = public_table_view(table)
    assert view is not None
    assert len(view.trick) == 3 and view.last_trick_winner is not None
    assert view.made is not None and all(s.delta is not None for s in view.seats)
    [att] = msg.attachments
    assert att.filename == TABLE_FILE and att.data == render_table(view)
    assert Image.open(io.BytesIO(att.data)).size == (900, 600)
    fields = {f["name"]: f["value"] for f in msg.embeds[0]["fields"]}
    winner = table.names()[table.state.last_winner]
    assert fields[t("table.last_trick")].endswith(f"→ {winner}")
    assert "Next hand" in _status(w)


@pytest.mark.parametrize("bot_options", [PAUSED])
async def test_the_last_trick_and_result_stay_until_next_hand(world):
    w = world
    clock = w.service.clock
    assert isinstance(clock, FakeClock)
    await open_table(w, humans=2, ais=1)
    table = await _play_first_hand(w)
    alice, bob = w.users[:2]
    hand_no = table.hand_no
    # the hand is over; nothing is dealt while the two people look at it (the AI waits)
    await clock.advance(5)
    await w.settle()
    assert table.paused and table.hand_no == hand_no
    _shown(w, table)
    assert "Alice, Bob" in _status(w)
    nxt = f"t1000:{table.id}:next:"
    assert nxt in w.table_message().custom_ids
    # Bob presses Next hand (on the table message): still on show, Alice waited for
    r = await w.fd.click(bob, w.table_message(bob), nxt)
    assert r.ephemeral and "waiting for Alice" in r.content
    await w.settle()
    assert table.paused
    _shown(w, table)
    assert "Bob" not in _status(w).split("waiting for")[1]
    # Alice presses it in her hand message: the next hand is dealt, her new cards shown
    hand = hand_of(w, alice)
    cid = next(c for c in hand.custom_ids if ":next:" in c)
    r = await w.fd.click(alice, hand, cid)
    assert "The next hand is dealt." in r.content and "Your cards" in r.content
    await w.settle()
    assert table.hand_no == hand_no + 1 and table.state.phase is not Phase.DEALING
    msg = w.table_message()
    assert nxt not in msg.custom_ids
    assert msg.attachments[0].data == render_table(public_table_view(table))


@pytest.mark.parametrize("bot_options", [PAUSED])
async def test_the_next_hand_is_dealt_after_the_pause(world):
    w = world
    clock = w.service.clock
    await open_table(w, humans=1, ais=2)
    r = await w.fd.slash(w.users[0], w.channel, "table option", name="pause", value="3")
    assert "`pause` is now `3`" in r.content
    table = await _play_first_hand(w, seed=2)
    hand_no = table.hand_no
    _shown(w, table)
    await clock.advance(2.5)
    await w.settle()
    assert table.paused
    await clock.advance(1)
    await w.settle()
    assert table.hand_no == hand_no + 1 and not table.paused
    assert "Next hand" not in _status(w)
    r = await w.fd.slash(w.users[0], w.channel, "table option", name="pause", value="99")
    assert r.ephemeral and "from 0 (no pause) to 60" in r.content


async def test_the_points_taken_so_far_are_shown_in_play(world):
    """The hand message and the table image count the points of the tricks won so far: the
    declarer's against the contract, each defender's own."""
    w = world
    await open_table(w, humans=3)
    table = w.table()
    rng = random.Random(6)
    for _ in range(400):
        await w.service.settle()
        st = table.state
        if st.phase is Phase.PLAY and st.trick_no >= 3 and not st.trick:
            break
        assert await play_turn(w, rng)
    await w.settle()
    obs = table.observation(None)
    assert obs.phase is Phase.PLAY and sum(obs.taken) > 0
    names = table.names()
    d = obs.declarer
    contract = obs.contract or obs.winning_bid
    seat = table.to_act()
    user = w.user(table.seats[seat].user_id)
    r = await w.fd.click(user, w.table_message(user), f"t1000:{table.id}:hand:")
    line = next(x for x in r.content.splitlines() if x.startswith("Points so far: "))
    parts = line.removeprefix("Points so far: ").split(" · ")
    assert parts == [f"{names[p]} {obs.taken[p]} / {contract}" if p == d
                     else f"{names[p]} {obs.taken[p]}" for p in range(3)]
    view = public_table_view(table)
    assert [s.taken for s in view.seats] == list(obs.taken)
    assert w.table_message().attachments[0].data == render_table(view)
