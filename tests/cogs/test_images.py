"""Images on Discord, end to end: the table image, private hand images, the score sheet and
the match summary; one attachment per message, replaced on each change; rendering never
holds up an interaction's answer."""

from __future__ import annotations

import asyncio
import io
import random
import time

import pytest
from PIL import Image

import cogs._images as images_mod
from bot.game.cards import parse_card
from bot.game.observation import observe, observe_public
from bot.game.state import Phase
from cogs._images import (
    HAND_COLOURS,
    HAND_FILE,
    SHEET_FILE,
    SUMMARY_FILE,
    TABLE_FILE,
    TABLE_URL,
    public_table_view,
    seat_hand_view,
)
from render.adapter import hand_view, table_view
from render.hand import render_hand
from render.table import render_table
from tests.helpers.cogs import CARD_RE, hand_of, open_table, play_turn, short_match

PNG = b"\x89PNG\r\n\x1a\n"


def png(data: bytes) -> Image.Image:
    assert data.startswith(PNG)
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


async def play_moves(w, count: int, rng: random.Random, *, settle_every: int = 0,
                     on_step=None) -> None:
    for i in range(count):
        await w.service.settle()
        if w.table().state.phase is Phase.MATCH_OVER:
            return
        assert await play_turn(w, rng), "nobody to act"
        if settle_every and i % settle_every == settle_every - 1:
            await w.settle()
            if on_step:
                on_step()


async def test_table_message_has_one_image_that_changes_and_never_piles_up(world):
    w = world
    await open_table(w)
    table = w.table()
    seen: list[bytes] = []

    def check() -> None:
        msg = w.table_message()
        assert len(msg.attachments) == 1, [a.filename for a in msg.attachments]
        att = msg.attachments[0]
        assert att.filename == TABLE_FILE
        assert png(att.data).size == (900, 600)
        assert msg.embeds and msg.embeds[0]["image"]["url"] == TABLE_URL
        # the image is the public table of the state the message shows now
        assert att.data == render_table(public_table_view(table))
        seen.append(att.data)

    await w.settle()
    check()
    await play_moves(w, 24, random.Random(7), settle_every=3, on_step=check)
    msg = w.table_message()
    assert len(msg.edits) >= 8
    # every version of the message carried at most one image: no pile of old ones
    assert all(len(rev.attachments) <= 1 for rev in msg.history)
    assert len(set(seen)) >= 6, "the image follows the game"
    # only the current image is attached; earlier ones were replaced, not kept
    ids = {rev.attachments[0].id for rev in msg.history if rev.attachments}
    assert msg.attachments[0].id in ids and len(ids) >= 6


async def test_hand_image_is_private_and_comes_with_text_and_components(world):
    w = world
    await open_table(w)
    table = w.table()
    players = w.users[:3]
    for u in players:  # everybody opens a hand from the table message
        r = await w.fd.click(u, w.table_message(u), f"t1000:{table.id}:hand:")
        assert r.ephemeral and "Your hand" in r.content
    await play_moves(w, 12, random.Random(3))
    await w.settle()
    for u in players:
        seat = table.seat_of(u.id)
        hand = hand_of(w, u)
        assert hand is not None and hand.ephemeral_for == u.id
        # the text in card notation (docs/scenarios.md) with suit symbols, and the components below
        obs = observe(table.state, seat)
        shown = {parse_card(c) for c in CARD_RE.findall(hand.content)}
        assert set(obs.hand) <= shown
        assert any(c.startswith(f"t1000:{table.id}:play:") for c in hand.custom_ids)
        # one image: this seat's own hand, drawn from its own observation
        assert [a.filename for a in hand.attachments] == [HAND_FILE]
        data = hand.attachments[0].data
        assert png(data).mode == "P"
        view = hand_view(obs, table.seats[seat].name)
        assert view == seat_hand_view(table, seat)
        assert data == render_hand(view, palette=HAND_COLOURS)
    # nobody sees a hand image but its owner, in his own ephemeral message
    for u in w.users:
        for m in w.fd.visible(u, w.channel):
            for a in m.attachments:
                if a.filename == HAND_FILE:
                    assert m.ephemeral and m.ephemeral_for == u.id, (u.name, m.id)
                else:
                    assert a.filename in (TABLE_FILE, SHEET_FILE, SUMMARY_FILE)
    eve = w.users[4]
    assert not [a for m in w.fd.visible(eve, w.channel) for a in m.attachments
                if a.filename == HAND_FILE]


async def test_hand_image_replaced_in_place_after_moves(world):
    w = world
    await open_table(w, humans=1, ais=2)
    table = w.table()
    alice = w.users[0]
    await w.fd.click(alice, w.table_message(), f"t1000:{table.id}:hand:")
    await w.settle()
    first = hand_of(w, alice)
    assert first is not None and len(first.attachments) == 1
    rng = random.Random(5)
    for _ in range(6):
        await play_moves(w, 1, rng)
        await w.settle()
    hand = hand_of(w, alice)
    assert hand is not None
    assert all(len(rev.attachments) <= 1 for rev in hand.history)
    mine = [m for m in w.fd.visible(alice, w.channel) if m.ephemeral and m.attachments]
    # clicks on the hand edit that one message: no new message, no pile of images
    assert len(mine) == 1
    if hand.attachments:
        seat = table.seat_of(alice.id)
        assert hand.attachments[0].data == render_hand(
            seat_hand_view(table, seat), palette=HAND_COLOURS)


def test_table_image_is_built_from_the_public_observation_only():
    """At the adapter seam: the table image's view equals the public observation's, and
    every card it shows is public; a seat's own observation would show no more either."""
    from bot.game.dealing import new_match
    from bot.game.presets import PRESETS
    from bot.tables import Seat, Table, TableStatus
    from render.playthrough import snapshots

    def T(state, rules):
        return Table(id=1, guild_id=None, channel_id=1, host_id=1, preset="russian",
                     rules=rules, timer=0, status=TableStatus.PLAYING, state=state,
                     seats=tuple(Seat(i, n) for i, n in enumerate(("Ann", "Bo", "Cy"))))

    rules = PRESETS["russian"].rules
    assert public_table_view(T(None, rules)) is None
    snaps = snapshots(rules, 4)
    assert snaps
    for state in [*snaps.values(), new_match(rules, 0)]:
        t = T(state, rules)
        if state.phase is Phase.DEALING and state.last_result is None:
            continue
        view = public_table_view(t)
        assert view is not None
        pub = observe_public(state)
        assert view == table_view(pub, t.names(), title="Russian 1000 (Тысяча)",
                                  talon_label="prikup")
        shown = {parse_card(c) for _, c in view.trick} | {
            parse_card(c) for c in (view.talon or ()) if c != "??"}
        if view.stock_bottom:
            shown.add(parse_card(view.stock_bottom))
        assert shown <= set(pub.known_cards())


@pytest.mark.parametrize("bot_options", [{"edit_limit": 45, "seed": 2}])
async def test_match_end_posts_score_sheet_and_summary(world):
    """A short rigged match (target 100, no barrel): each hand's result carries the score
    sheet so far; the end of the match the final sheet and the summary."""
    w = world
    fd = w.fd
    await short_match(w, humans=1, seed=1)
    table = w.table()
    msgs = [m for m in fd.visible(w.users[1], w.channel) if not m.ephemeral]
    results = [m for m in msgs if m.content.startswith("**Hand ")]
    assert results
    for m in results:  # every hand result carries the sheet so far
        assert [a.filename for a in m.attachments] == [SHEET_FILE]
        assert png(m.attachments[0].data).mode == "P"
    won = [m for m in msgs if "won the match" in m.content]
    assert len(won) == 1 and [a.filename for a in won[0].attachments] == [SUMMARY_FILE]
    summary = png(won[0].attachments[0].data)
    assert summary.width >= 400
    # the sheet's results: as the publisher saw them, the same as replayed from the log
    # (what a restarted bot, which did not see the early hands, draws them from)
    images = w.bot.publisher.images
    seen = images.note_events(table, ())  # no new hand: nothing recorded
    assert seen is None
    _match_no, results_seen = images._results[table.id]
    assert [r.hand_no for r in results_seen] == list(range(1, len(results_seen) + 1))
    replayed = await w.service.match_results(table.id, table.match_no)
    assert replayed == results_seen and len(replayed) == len(results)
    # the final table image shows the match over
    final = w.table_message()
    assert [a.filename for a in final.attachments] == [TABLE_FILE]
    assert final.attachments[0].data == render_table(public_table_view(table))


async def test_answers_do_not_wait_for_rendering(world, monkeypatch):
    """With every render made artificially slow (0.6 s in the worker thread), clicks are
    still answered at once; the images follow."""
    slow = 0.6
    real_table, real_hand = images_mod.render_table, images_mod._hand_png

    def slow_table(view):
        time.sleep(slow)
        return real_table(view)

    def slow_hand(view):
        time.sleep(slow)
        return real_hand(view)

    monkeypatch.setattr(images_mod, "render_table", slow_table)
    monkeypatch.setattr(images_mod, "_hand_png", slow_hand)
    w = world
    await open_table(w)
    table = w.table()
    images = w.bot.publisher.images
    rng = random.Random(9)
    latencies = []
    for _ in range(10):
        await w.service.settle()
        seat = table.to_act()
        user = w.user(table.seats[seat].user_id)
        t0 = time.perf_counter()
        r = await w.fd.click(user, w.table_message(user), f"t1000:{table.id}:hand:")
        latencies.append(time.perf_counter() - t0)
        assert r.ephemeral and "Your hand" in r.content
        t0 = time.perf_counter()
        assert await play_turn(w, rng)
        latencies.append(time.perf_counter() - t0)
    assert max(latencies) < slow * 0.75, latencies
    await w.settle()
    assert images.rendered >= 3
    assert w.table_message().attachments[0].data == render_table(public_table_view(table))
    await asyncio.sleep(0)


async def test_hand_text_and_buttons_do_not_wait_for_rendering(world, monkeypatch):
    """With hand images artificially slow (1.5 s each in the single render worker, so the
    three hands' first images queue for ~4.5 s), a hand whose turn comes gets its text and
    buttons at once; its image follows in a later edit (of the latest hand only, the one
    attachment replaced)."""
    slow = 1.5
    real_hand = images_mod._hand_png

    def slow_hand(view):
        time.sleep(slow)
        return real_hand(view)

    monkeypatch.setattr(images_mod, "_hand_png", slow_hand)
    w = world
    await open_table(w)
    table = w.table()
    players = w.users[:3]
    for u in players:  # every hand's image is now queued behind the others'
        await w.fd.click(u, w.table_message(u), f"t1000:{table.id}:hand:")
    rng = random.Random(5)
    for _ in range(3):
        await w.service.settle()
        assert await play_turn(w, rng)
        await w.service.settle()
        seat = table.to_act()
        user = w.user(table.seats[seat].user_id)
        t0 = time.perf_counter()
        while "**Your turn.**" not in (hand_of(w, user).content or ""):
            assert time.perf_counter() - t0 < slow / 2, "the hand waited for its image"
            await asyncio.sleep(0.01)
        hand = hand_of(w, user)
        assert any(c.startswith(f"t1000:{table.id}:") for c in hand.custom_ids)
    await w.settle()
    images = w.bot.publisher.images
    for u in players:  # each hand ends with one image: its own latest hand
        hand = hand_of(w, u)
        assert [a.filename for a in hand.attachments] == [HAND_FILE]
        assert hand.attachments[0].data == real_hand(
            seat_hand_view(table, table.seat_of(u.id)))
        assert all(len(rev.attachments) <= 1 for rev in hand.history)
    # drawn from the latest state when a slot was free: not once per change
    assert images.rendered <= 3 * 4, images.rendered


async def test_a_failing_render_costs_the_image_not_the_message(world, monkeypatch):
    def broken(view):
        raise RuntimeError("no ink")

    monkeypatch.setattr(images_mod, "render_table", broken)
    w = world
    await open_table(w)
    await play_moves(w, 4, random.Random(2))
    await w.settle()
    msg = w.table_message()
    assert msg.attachments == [] and "image" not in msg.embeds[0]
    assert w.bot.publisher.images.failed >= 1
    assert msg.edits  # the text kept going


async def test_table_posted_again_gets_its_image(world):
    """``/table show`` posts a new table message (its answer carries no image); the
    lobby asks the publisher for a paced edit that attaches it."""
    w = world
    await open_table(w)
    await play_moves(w, 2, random.Random(4))
    await w.settle()
    old = w.table_message()
    r = await w.fd.slash(w.users[0], w.channel, "table show")
    assert r.message is not None and not r.ephemeral
    await w.settle()
    table = w.table()
    new = w.table_message()
    assert new.id != old.id and new.id == table.message_id
    assert [a.filename for a in new.attachments] == [TABLE_FILE]
    assert new.attachments[0].data == render_table(public_table_view(table))


async def test_limiter_counts_a_send_when_it_goes_out_not_when_it_queued():
    """A send that waited for its image is stamped again when it leaves (Discord counts
    requests, not intentions); one that turned out unnecessary gives its place back."""
    from cogs._channels import RateLimiter

    lim = RateLimiter(limit=2, per=1.0, margin=0.0)
    a = await lim.acquire()
    await asyncio.sleep(0.02)
    lim.restamp(a)
    assert len(lim.stamps) == 1 and lim.stamps[0] > a
    b = await lim.acquire()
    lim.release(b)
    assert len(lim.stamps) == 1
    lim.release(12345.0)  # unknown stamps are ignored
    assert len(lim.stamps) == 1


async def test_background_hand_refresh_speaks_the_owners_language(world, monkeypatch):
    """A hand refreshed in the background (another player moved) is written in the locale
    of the interaction that opened it, like the answer itself."""
    from bot import i18n

    monkeypatch.setitem(i18n.CATALOGS, "pl", {"hand.your_turn": "**Twój ruch.**"})
    w = world
    ola = w.users[1]
    ola.locale = "pl"
    await open_table(w)
    table = w.table()
    for u in w.users[:3]:
        await w.fd.click(u, w.table_message(u), f"t1000:{table.id}:hand:")
    seat = table.seat_of(ola.id)
    rng = random.Random(6)
    for _ in range(12):  # until another player's move makes it Ola's turn
        await w.service.settle()
        mover = table.to_act()
        assert await play_turn(w, rng)
        await w.settle()
        if mover != seat and table.to_act() == seat:
            break
    else:
        pytest.fail("never Ola's turn after another player's move")
    content = hand_of(w, ola).content
    assert "**Twój ruch.**" in content and "**Your turn.**" not in content
    other = w.user(table.seats[(seat + 1) % 3].user_id)
    assert "**Twój ruch.**" not in (hand_of(w, other).content or "")


@pytest.mark.slow
async def test_the_render_process_draws_and_a_dying_one_is_replaced_then_given_up():
    """The production renderer is a worker process; if it dies, the next image starts a
    new one, and after three deaths drawing moves to a thread (the bot goes on either way)."""
    import os

    from cogs._images import MAX_RENDERER_STARTS, Images
    from render import sample_views
    from render.table import render_table

    images = Images(in_process=False, enabled=True)
    try:
        view = next(iter(sample_views.tables().values()))
        out = await images._render(lambda: (view, None), render_table)
        assert out is not None and out[1].startswith(b"\x89PNG")
        for _ in range(MAX_RENDERER_STARTS):  # a renderer that dies mid-job
            assert await images._render(lambda: (1, None), os._exit) is None
        assert images.broken == MAX_RENDERER_STARTS and images.in_process
        out = await images._render(lambda: (view, None), render_table)  # now in a thread
        assert out is not None and out[1].startswith(b"\x89PNG")
    finally:
        images.close()


@pytest.mark.slow
async def test_the_render_process_is_started_before_the_first_image():
    """``start`` (called as the bot starts) spawns the renderer and warms it up, so that
    the first images of a busy start do not pay for a new interpreter; the first image
    then comes from that same process."""
    from cogs._images import Images
    from render import sample_views
    from render.table import render_table

    images = Images(in_process=False, enabled=True)
    try:
        images.start()
        pool = images._pool
        assert pool is not None
        workers = set(pool.pids)  # spawned without any image asked for
        assert len(workers) == 1
        images.start()  # once only
        assert images._pool is pool
        view = next(iter(sample_views.tables().values()))
        out = await images._render(lambda: (view, None), render_table)
        assert out is not None and out[1].startswith(b"\x89PNG")
        assert set(pool.pids) == workers
    finally:
        images.close()
    closed = Images(in_process=False, enabled=False)
    closed.start()  # images off: no renderer at all
    assert closed._pool is None


@pytest.mark.slow
def test_a_render_process_ends_when_the_bot_died_while_it_was_starting():
    """A bot that dies (a failed start, kill -9) right after starting its renderer leaves
    no render process behind, even one that was still loading when the bot was gone."""
    import subprocess
    import sys
    import time
    from pathlib import Path

    script = ("import asyncio, os\n"
              "from cogs._images import Images\n"
              "async def main():\n"
              "    images = Images(in_process=False, enabled=True)\n"
              "    images.start()\n"
              "    print(*images._pool.pids, flush=True)\n"
              "    os._exit(0)\n"
              "asyncio.run(main())\n")  # gone at once: the worker has not even imported Pillow yet
    root = Path(__file__).resolve().parents[2]
    # (a worker left behind keeps the output pipe open: then this times out)
    out = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True,
                         text=True, timeout=30, check=True)
    workers = [int(pid) for pid in out.stdout.split()]
    assert len(workers) == 1

    def alive(pid: int) -> bool:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            return False
        return "\nState:\tZ" not in status  # a zombie has ended

    deadline = time.monotonic() + 30
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(alive(pid) for pid in workers)
