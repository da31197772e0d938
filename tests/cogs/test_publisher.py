"""The bot's output: what stays pending, what is retried, what is kept, what is left behind.

End to end through the emulator (which can make requests fail or arrive late), plus the
primitive (``cogs._latest``) and the rate limiter on their own."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator

import pytest

import cogs._images as images_mod
from bot.game.actions import Flag, Verb
from bot.game.cards import SUIT_OF
from bot.game.engine import apply
from bot.game.state import Phase
from cogs._channels import RateLimiter
from cogs._images import HAND_FILE
from cogs._latest import Latest
from tests.fakediscord.models import walk_components
from tests.helpers.cogs import hand_of, open_table, play_turn


def publisher_tasks() -> list[asyncio.Task]:
    """Tasks running code of the publisher (or of its primitive)."""
    out = []
    for task in asyncio.all_tasks():
        name = getattr(task.get_coro(), "__qualname__", "")
        if name.split(".")[0] in ("Latest", "Publisher") and not task.done():
            out.append(task)
    return out


def closed_and_dead(msg) -> bool:
    """The table message says the table is closed and has no buttons left."""
    return (msg.custom_ids == [] and bool(msg.embeds)
            and "closed" in (msg.embeds[0].get("description") or ""))


async def end_table(w) -> None:
    fd, alice, table = w.fd, w.users[0], w.table()
    r = await fd.slash(alice, w.channel, "table end")
    assert r.ephemeral
    await fd.click(alice, r.message, f"t1000:{table.id}:endyes:")


def uploads(msg) -> int:
    """Images uploaded to a message (each upload is a new attachment)."""
    ids = {a.id for rev in msg.history for a in rev.attachments}
    return len(ids | {a.id for a in msg.attachments})


@contextlib.asynccontextmanager
async def the_only_lane(w) -> AsyncIterator[None]:
    """The bot's background work gets one lane, and the test holds it."""
    lanes = w.bot.lanes
    lanes.most = lanes.least = 1
    lanes.limit = 1.0
    async with lanes.background():
        yield


# ---- end to end --------------------------------------------------------------------------
@pytest.mark.parametrize("bot_options", [{"edit_limit": 5}])
async def test_a_closed_tables_message_is_closed_though_a_new_table_follows_at_once(world):
    """A busy channel (the table posted again six times), End → Yes, and at once a new table
    that changes: the old message still gets its closing edit (no buttons left), and the
    closing notice names the table it closes."""
    w = world
    fd, ch, alice, bob = w.fd, w.channel, w.users[0], w.users[1]
    await open_table(w)
    old = w.table()
    pub = w.bot.publisher
    for _ in range(6):
        r = await fd.slash(alice, ch, "table show")
        assert r.message is not None and not r.ephemeral
        pub.tables.refresh(old)  # the lobby's hook after set_message
        pub.channels.note_sent(ch.id)  # a message created in the channel: the budget is spent
    await w.service.settle()
    old_msg = r.message
    assert old_msg.id == old.message_id and old_msg.custom_ids
    await end_table(w)
    r = await fd.slash(alice, ch, "table new")
    assert r.message is not None and not r.ephemeral
    new = w.table()
    assert new.id != old.id
    await fd.click(bob, w.table_message(bob), f"t1000:{new.id}:join:")  # the new one moves
    await w.settle()
    assert closed_and_dead(old_msg), (old_msg.embeds, old_msg.custom_ids)
    assert any(c.startswith(f"t1000:{new.id}:") for c in w.table_message().custom_ids)
    texts = [m.content for m in fd.visible(bob, ch) if not m.ephemeral and m.content]
    assert f"Table #{old.id} was closed." in texts, texts
    assert not any(x == "The table was closed." for x in texts)


async def test_a_late_paced_edit_does_not_bring_back_the_seating_buttons(world):
    """A paced edit of the seated table is on its way (slow: 1 s) when the host presses
    Start, whose answer shows the playing table at once. The old edit lands afterwards; the
    Start answer's view is put back at once through its token, not after the next paced
    edit (slower still here: 5 s), so nobody is left with the seating buttons."""
    w = world
    fd, alice, bob, carol = w.fd, w.users[0], w.users[1], w.users[2]
    r = await fd.slash(alice, w.channel, "table new", preset="russian")
    await w.settle()
    msg = r.message
    tid = w.table().id
    for u in (bob, carol):
        await fd.click(u, msg, f"t1000:{tid}:join:")
    await w.settle()
    late = fd.inject("PATCH", f"/messages/{msg.id}", status=None, delay=1.0)
    fd.inject("PATCH", f"/messages/{msg.id}", status=None, delay=5.0)
    w.bot.publisher.tables.refresh(w.table())  # a paced edit of the seated table
    await fd.wait_until(lambda: late.hits == 1, 5)
    start = await fd.click(alice, msg, f"t1000:{tid}:start:")
    assert start.type == 7 and f"t1000:{tid}:hand:" in msg.custom_ids

    after = len(msg.history)  # the revisions after Start's answer

    def ids(rev) -> list[str]:
        return [c["custom_id"] for c in walk_components(rev.components) if "custom_id" in c]

    def stale_at() -> int | None:
        return next((i for i, rev in enumerate(msg.history) if i >= after
                     and f"t1000:{tid}:join:" in ids(rev)), None)

    await fd.wait_until(lambda: stale_at() is not None, 3)  # the old edit landed
    await fd.wait_until(lambda: f"t1000:{tid}:hand:" in msg.custom_ids, 3)
    i = stale_at()
    fixed = next(rev for rev in msg.history[i:] if f"t1000:{tid}:hand:" in ids(rev))
    assert (fixed.at - msg.history[i].at).total_seconds() < 0.5
    await w.settle()
    assert f"t1000:{tid}:hand:" in msg.custom_ids and msg.attachments


async def test_a_failed_table_edit_is_retried(world):
    """The closing edit fails twice (Discord answers 503): it is sent again, so the message
    does not stay live though nothing moves afterwards."""
    w = world
    await open_table(w)
    msg = w.table_message()
    fault = w.fd.inject("PATCH", f"/messages/{msg.id}", times=2)
    await end_table(w)
    await w.settle()
    assert fault.hits == 2
    assert closed_and_dead(msg), (msg.embeds, msg.custom_ids)


async def test_a_late_upload_of_an_old_hand_message_does_not_confuse_the_new_one(world):
    """A hand image upload is slow (1.5 s); meanwhile the user opens a new hand message with
    /hand. The old upload finishing late changes nothing the new message relies on: each
    message gets its image once, and the publisher knows which message shows what."""
    w = world
    fd = w.fd
    await open_table(w)
    table = w.table()
    seat = (table.to_act() + 1) % 3  # not to act: his hand stays as it is
    user = w.user(table.seats[seat].user_id)
    slow = fd.inject("PATCH", "/webhooks/", status=None, delay=1.5)
    r1 = await fd.click(user, w.table_message(user), f"t1000:{table.id}:hand:")
    m1 = r1.message
    await fd.wait_until(lambda: slow.hits == 1, 5)  # the image upload of m1 is under way
    r2 = await fd.slash(user, w.channel, "hand")
    m2 = r2.message
    assert m2 is not None and m2.id != m1.id
    await w.settle()
    assert [a.filename for a in m1.attachments] == [HAND_FILE]
    assert [a.filename for a in m2.attachments] == [HAND_FILE]
    assert uploads(m1) == 1 and uploads(m2) == 1
    picture = w.bot.publisher.hands._pictures[table.id][user.id]  # the user's latest hand message
    assert picture.message_id == m2.id
    assert picture.view == images_mod.seat_hand_view(table, seat)
    assert hand_of(w, user).id == m2.id


async def test_a_hand_whose_text_and_image_both_wait_for_a_lane_gets_one_edit(world):
    """Under load edits wait for a background lane. When the turn reaches a player whose
    hand message is open, both its text (your turn, the buttons) and its image (the cards
    he may play) are due; the image is drawn while the edits wait, so the first edit to
    get a lane carries both: one edit of the message, not two."""
    w = world
    fd = w.fd
    await open_table(w)
    rng = random.Random(3)
    while w.table().state.phase is not Phase.PLAY:
        assert await play_turn(w, rng)
        await w.settle()
    table = w.table()
    nxt = (table.to_act() + 1) % 3
    user = w.user(table.seats[nxt].user_id)
    msg = (await fd.click(user, w.table_message(user), f"t1000:{table.id}:hand:")).message
    await w.settle()
    assert "your turn" not in msg.content.lower() and msg.attachments
    before, old_image = len(msg.history), msg.attachments[0].id
    async with the_only_lane(w):  # every background edit waits
        assert await play_turn(w, rng)
        assert w.table().to_act() == nxt
        ref = w.bot.publisher.hands._hands[table.id][user.id]
        await fd.wait_until(lambda: ref.rendered is not None, 5)  # drawn, waiting
    await w.settle()
    edits = msg.history[before:]
    assert len(edits) == 1, [(bool(r.attachments), r.content[-40:]) for r in edits]
    assert "your turn" in msg.content.lower()
    assert msg.attachments and msg.attachments[0].id != old_image
    assert msg.custom_ids and any(":play:" in c for c in msg.custom_ids)


class _Plays:
    """A policy that plays one given card (plain, no declaration)."""

    def __init__(self, card: int) -> None:
        self.card = card

    def choose(self, obs, rng):
        return next(a for a in obs.legal if a.verb is Verb.PLAY and a.card == self.card
                    and a.flag is Flag.NONE)


async def test_a_waiting_hand_image_carries_the_text_that_fell_due_after_it(world):
    """A player leads a card while the lanes are busy: his answer shows his text, the image
    of his smaller hand is drawn and waits for a lane. The next player beats the card and
    the trick ends, so his text is due again (a new trick) while the image still shows his
    hand as it is: the image's edit brings the text along, one edit."""
    w = world
    fd = w.fd
    await open_table(w)
    rng = random.Random(3)
    lead = follow = None
    for _ in range(60):  # find a trick whose leader can be beaten by the next player
        table = w.table()
        if table.state.phase is Phase.PLAY and not table.state.trick:
            me = table.to_act()
            mine = table.observation(me)
            theirs = table.observation((me + 1) % 3).hand
            pairs = [(c, d) for c in sorted(mine.hand) for d in theirs
                     if SUIT_OF[d] == SUIT_OF[c] and d > c and any(
                         a.verb is Verb.PLAY and a.card == c and a.flag is Flag.NONE
                         for a in mine.legal)]
            if pairs:
                lead, follow = pairs[0]
                trick_no = table.state.trick_no
                break
        assert await play_turn(w, rng)
        await w.settle()
    assert lead is not None, "no trick to test with"
    user = w.user(table.seats[me].user_id)
    async with the_only_lane(w):  # every background edit waits
        assert await play_turn(w, rng, policy=_Plays(lead))
        msg = hand_of(w, user)
        before = len(msg.history)
        ref = w.bot.publisher.hands._hands[table.id][user.id]
        await fd.wait_until(lambda: ref.rendered is not None, 5)  # drawn, waiting
        assert await play_turn(w, rng, policy=_Plays(follow))
        assert await play_turn(w, rng)  # the third card: the trick is over, not his
        assert w.table().state.trick_no == trick_no + 1
        assert w.table().to_act() != me
    await w.settle()
    edits = msg.history[before:]
    assert len(edits) == 1, [(bool(r.attachments), r.content[-40:]) for r in edits]
    assert edits[0].attachments and edits[0].content != msg.history[before - 1].content


@pytest.mark.parametrize("bot_options", [{"edit_limit": 5, "edit_per": 0.5}])
async def test_nothing_is_kept_for_a_closed_table_or_an_idle_channel(world):
    w = world
    await open_table(w)
    table = w.table()
    for u in w.users[:3]:
        await w.fd.click(u, w.table_message(u), f"t1000:{table.id}:hand:")
    rng = random.Random(3)
    for _ in range(3):
        await w.service.settle()
        assert await play_turn(w, rng)
    await end_table(w)
    await w.settle()
    await asyncio.sleep(1.0)  # the channel's budget window (0.8 s) passes
    pub = w.bot.publisher
    assert not pub.busy()
    assert pub.channels._channels == {} and pub.posts._queues == {}
    assert pub.hands._hands == {} and pub.hands._pictures == {}
    assert publisher_tasks() == []


async def test_close_leaves_no_task_behind(world, monkeypatch):
    """Closed with an edit and hand images under way (slow renders), the publisher
    returns from ``close`` with none of its tasks left."""
    real_table, real_hand = images_mod.render_table, images_mod._hand_png

    def slow_table(view):
        time.sleep(0.3)
        return real_table(view)

    def slow_hand(view):
        time.sleep(0.3)
        return real_hand(view)

    w = world
    await open_table(w)
    table = w.table()
    monkeypatch.setattr(images_mod, "render_table", slow_table)
    monkeypatch.setattr(images_mod, "_hand_png", slow_hand)
    for u in w.users[:3]:
        await w.fd.click(u, w.table_message(u), f"t1000:{table.id}:hand:")
    await w.service.settle()
    assert await play_turn(w, random.Random(1))
    await asyncio.sleep(0.1)
    pub = w.bot.publisher
    assert pub.busy() and publisher_tasks()
    await pub.close()
    assert publisher_tasks() == []
    assert not pub.busy()


# ---- the primitive -------------------------------------------------------------------------
async def drained(latest: Latest, timeout: float = 5.0) -> None:  # noqa: ASYNC109
    for _ in range(int(timeout / 0.01)):
        if not len(latest):
            return
        await asyncio.sleep(0.01)
    raise TimeoutError("still sending")


async def test_latest_sends_the_newest_version_one_at_a_time():
    sent: list[int] = []
    inflight = 0
    most = 0

    async def send(key: str, value: list[int], going) -> None:
        nonlocal inflight, most
        inflight += 1
        most = max(most, inflight)
        v = value[0]  # produced at send time from the latest state
        going()
        await asyncio.sleep(0.05)
        sent.append(v)
        inflight -= 1

    latest: Latest[str, list[int]] = Latest(send)
    state = [1]
    assert latest.put("a", state)
    for v in range(2, 6):  # moves while the first send is under way
        await asyncio.sleep(0.01)
        state[0] = v
        assert not latest.put("a", state)
    await drained(latest)
    assert sent[-1] == 5 and len(sent) <= 3 and most == 1
    assert latest.sends == len(sent)


async def test_latest_retries_a_failed_send_but_not_a_gone_message():
    calls: list[str] = []
    failed: list[str] = []

    class Gone(Exception):
        pass

    async def send(key: str, value: int, going) -> None:
        calls.append(key)
        going()
        if key == "gone":
            raise Gone()
        if key == "flaky" and calls.count("flaky") < 3:
            raise OSError("try again")

    latest: Latest[str, int] = Latest(
        send, gone=lambda exc: isinstance(exc, Gone), retries=3, backoff=0.01,
        failed=lambda key, value, exc: failed.append(key))
    latest.put("flaky", 1)
    latest.put("gone", 1)
    await drained(latest)
    assert calls.count("flaky") == 3 and calls.count("gone") == 1
    assert failed == ["gone"]


async def test_latest_drop_discards_the_pending_version_and_aclose_awaits():
    sent: list[int] = []

    async def send(key: str, value: int, going) -> None:
        sent.append(value)

    latest: Latest[str, int] = Latest(send, delay=0.05)
    latest.put("a", 1)
    latest.drop("a")
    latest.put("b", 2)
    await asyncio.sleep(0.01)
    await latest.aclose()
    assert sent == [] and len(latest) == 0
    assert publisher_tasks() == []
    assert not latest.put("c", 3)  # closed: nothing more


# ---- the rate limiter -------------------------------------------------------------------
async def test_limiter_counts_a_message_sent_elsewhere():
    lim = RateLimiter(limit=2, per=1.0, margin=0.0)
    assert lim.delay() == 0
    lim.note()
    assert lim.delay() > 0.4  # spaced: the next one waits
    assert lim.quiet_in() > 0.9


async def test_limiter_serves_waiters_in_turn():
    """A sender that keeps coming back (a busy table) does not overtake one that waits."""
    lim = RateLimiter(limit=10, per=0.5, margin=0.0)  # one call every 50 ms
    order: list[str] = []

    async def busy_table() -> None:
        for _ in range(4):
            await lim.acquire()
            order.append("edit")

    async def post() -> None:
        await asyncio.sleep(0.01)
        await lim.acquire()
        order.append("post")

    await asyncio.gather(busy_table(), post())
    assert order.index("post") <= 2, order



class _Passes:
    def choose(self, obs, rng):
        return next(a for a in obs.legal if a.verb is Verb.PASS)


async def test_an_image_edit_after_a_press_does_not_bring_back_the_hand_before_it(
        world, monkeypatch):
    """The auction ends with another player's pass: the declarer's hand message gets the
    talon, its text edit on its way (slow: 1 s) and a new image drawn meanwhile, its edit
    slow too. He gives a card as soon as the text offers it; the image's edit lands after
    that answer and leaves the text alone: the hand still shows the gift made."""
    real_hand = images_mod._hand_png

    def slow_hand(view):
        time.sleep(0.3)
        return real_hand(view)

    w = world
    fd = w.fd
    await open_table(w)
    rng = random.Random(4)
    for _ in range(60):
        table = w.table()
        st, seat = table.state, table.to_act()
        if st.phase is Phase.BIDDING and any(a.verb is Verb.PASS
                                             for a in table.observation(seat).legal):
            after, _ = apply(st, _Passes().choose(table.observation(seat), rng))
            if after.phase is not Phase.BIDDING and after.declarer not in (seat, -1):
                break
        assert await play_turn(w, rng)
        await w.settle()
    else:
        raise AssertionError("no auction ended by a pass")
    user = w.user(table.seats[after.declarer].user_id)
    msg = (await fd.click(user, w.table_message(user), f"t1000:{table.id}:hand:")).message
    await w.settle()
    token = w.bot.publisher.hands._hands[table.id][user.id].interaction.token
    monkeypatch.setattr(images_mod, "_hand_png", slow_hand)
    slow = [fd.inject("PATCH", token, status=None, delay=1.0) for _ in range(2)]
    assert await play_turn(w, rng, policy=_Passes())  # the auction is over
    await fd.wait_until(lambda: any(":give" in c for c in msg.custom_ids), 5)
    assert await play_turn(w, rng)  # he gives a card at once
    answered = msg.content
    await w.settle()
    assert [f.hits for f in slow] == [1, 1]  # the text's edit, then the image's
    assert msg.attachments and msg.content == answered
    assert w.table().state.phase is Phase.EXCHANGE and w.table().to_act() == after.declarer
