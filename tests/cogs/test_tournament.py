"""A tournament through the emulator, as its players see it: sign-up, check-in with a
no-show, two rounds at three tables in private threads (the last with two AI seats), a
strike, a restart in the middle of round 2, the standings and the podium."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.tables import TableError
from cogs._invite import PERMISSIONS
from tests.fakediscord import FakeDiscord
from tests.fakediscord.models import Channel, Message, Role, User
from tests.helpers.cogs import World, play_turn, start_bot, stop_bot

pytestmark = pytest.mark.e2e

NAME = "Friday Cup"
BASE = "https://cards.example"
OPTIONS = {"edit_limit": 45, "clock": "fake", "web_port": 0, "web_base_url": BASE}


@pytest.fixture
async def cup(tmp_path, fd_options):
    """A server with nine members: Alice organises, eight sign up, Ivy only looks."""
    async with FakeDiscord(**fd_options) as fd:
        names = ("alice", "bob", "cid", "dot", "eve", "fay", "gus", "hal", "ivy")
        users = [fd.add_user(n, n.capitalize()) for n in names]
        # the bot holds exactly what its invite link asks for
        guild = fd.add_guild("Cards", members=users, bot_permissions=PERMISSIONS.value)
        fd.set_permissions(guild, users[0], ["manage_guild"])
        chan = fd.add_text_channel(guild, "tournaments")
        role = Role(fd.store.next_id(), "Organisers", 0, 1)  # known to the bot from the start
        guild.roles[role.id] = role
        w = World(fd, guild, chan, users, str(tmp_path / "bot.db"), extra={"role": role})
        await start_bot(w, **OPTIONS)
        quick(w)
        try:
            yield w
        finally:
            await stop_bot(w)
        assert not fd.store.unknown_routes, fd.store.unknown_routes
        unreported = [v for v in fd.violations if not v.reported]
        assert not unreported, unreported


def quick(w: World) -> None:
    """The par's AIs at the normal level (the strong ones think for seconds a board), the
    next board dealt at once."""
    w.bot.tournaments.rounds.par_level = "normal"
    w.bot.tournaments.rounds.board_gap = 0.0


async def settle(w: World) -> None:
    cog: Any = w.bot.get_cog("Tournament")
    for _ in range(3):
        await w.bot.tournaments.settle()
        await cog.port.idle()
        await w.settle()


def posts(w: World, user: User) -> list[Message]:
    """The public messages of the tournament channel as ``user`` sees them."""
    return [m for m in w.fd.visible(user, w.channel) if not m.ephemeral]


def signup(w: World) -> Message:
    got = [m for m in posts(w, w.users[0])
           if "a tournament with duplicate deals" in (m.content or "")]
    assert got, "no sign-up message"
    return got[0]


def threads(w: World) -> list[Channel]:
    return [c for c in w.fd.store.channels.values() if c.is_thread
            and c.parent_id == w.channel.id]


async def event(w: World) -> Any:
    got = await w.bot.tournaments.find(w.guild.id, NAME)
    assert got is not None
    return got


async def press(w: World, user: User, custom_id: str) -> str:
    """Press a button of the sign-up message; the private answer (one that had to wait
    for its turn comes after a "thinking…" acknowledgement)."""
    r = await w.fd.click(user, signup(w), custom_id)
    await r.wait_final()
    answer = r.followups[-1] if r.followups else r.message
    assert answer is not None and answer.ephemeral
    return answer.content or ""


async def tick(w: World, seconds: float = 0.0) -> None:
    """Time passes on the bot's clock; the scheduler takes a look."""
    await w.service.clock.advance(seconds)
    await w.bot.tournaments.tick()
    await settle(w)


async def play_round(w: World, rng: random.Random, round_no: int, *,
                     hold: User | None = None, moves: int | None = None) -> int:
    """Play every table of the round (``hold``'s turns are left to his timer; ``moves``:
    stop after so many human moves); the human moves made."""
    made = 0
    for _ in range(4000):
        if moves is not None and made >= moves:
            return made
        ev = await event(w)
        if ev.round_no != round_no or all(t.done for t in ev.tables):
            return made
        progressed = False
        for t in ev.tables:
            if t.done or not t.channel_id:
                continue
            tw = dataclasses.replace(w, channel=w.fd.store.channels[t.channel_id])
            try:
                table = w.service.in_channel(t.channel_id)
            except TableError:  # its last board just ended
                continue
            seat = table.to_act()
            if hold is not None and seat >= 0 and table.seats[seat].user_id == hold.id:
                continue
            if await play_turn(tw, rng):
                made += 1
                progressed = True
        if not progressed:
            if hold is not None and all(t.done or hold.id in t.user_ids for t in ev.tables):
                return made  # only the held player's table is left, on his turn
            await tick(w, 0.5)
    raise AssertionError("the round did not end")


async def test_a_tournament_of_seven_through_two_rounds(cup: World) -> None:
    w = cup
    rng = random.Random(3)
    await sign_up_eight(w)
    ev = await check_in_and_start(w)
    await round_one_with_a_strike(w, ev, rng)
    await round_two_with_a_restart(w, ev, rng)
    await standings_and_podium(w, ev)
    await organiser_role_and_rating(w)


async def sign_up_eight(w: World) -> None:
    """Only an organiser may create; bad settings are refused politely; eight join."""
    fd = w.fd
    alice, bob, cid, dot, eve, fay, gus, hal, ivy = w.users
    await fd.slash(alice, w.channel, "admin web", state="on")  # links to the web page
    r = await fd.slash(bob, w.channel, "tournament new", name=NAME, preset="russian",
                       boards=3, rounds=2)
    assert r.ephemeral and NAME not in "".join(m.content or "" for m in posts(w, bob))
    r = await fd.slash(alice, w.channel, "tournament new", name=NAME, preset="russian",
                       boards=4, rounds=2)
    assert r.ephemeral and not posts(w, alice)
    r = await fd.slash(alice, w.channel, "tournament new", name=NAME, preset="russian",
                       boards=3, rounds=11)
    assert r.ephemeral and not posts(w, alice)  # beyond the limit
    choices = await fd.autocomplete(alice, w.channel, "tournament new", "preset", "rus")
    assert "russian" in [c["value"] for c in choices]
    r = await fd.slash(alice, w.channel, "tournament new", name=NAME, preset="russian",
                       boards=3, rounds=2, start="2020-01-01 10:00")
    assert r.ephemeral and not posts(w, alice)  # in the past
    # the start in 21 minutes (UTC, on the bot's clock): check-in opens 15 minutes before
    now = dt.datetime.fromtimestamp(w.service.clock.now(), dt.UTC)
    start = (now + dt.timedelta(minutes=21)).strftime("%Y-%m-%d %H:%M")
    r = await fd.slash(alice, w.channel, "tournament new", name=NAME, preset="russian",
                       boards=3, rounds=2, start=start, checkin=15)
    assert r.ephemeral and "created" in r.content
    r = await fd.slash(alice, w.channel, "tournament edit", event=NAME)
    assert r.ephemeral and "at least one setting" in r.content, r.content
    r = await fd.slash(bob, w.channel, "tournament edit", event=NAME, deadline=30)
    assert r.ephemeral and "is changed" not in r.content  # not his event
    r = await fd.slash(alice, w.channel, "tournament edit", event=NAME, deadline=30)
    assert r.ephemeral and "**Friday Cup** is changed" in r.content, r.content
    assert (await event(w)).round_minutes == 30
    await settle(w)
    msg = signup(w)
    assert "**Friday Cup**" in msg.content and "boards per round: 3" in msg.content
    assert msg in posts(w, ivy)  # public
    for u in (bob, cid, dot, eve, fay, gus, hal, alice):
        said = await press(w, u, f"t1000t:{(await event(w)).id}:join")
        assert "You are in **Friday Cup**" in said, said
    said = await press(w, bob, f"t1000t:{(await event(w)).id}:join")
    assert "You are in" not in said and "already" in said  # twice: refused
    await settle(w)
    assert "**Entrants (8):**" in signup(w).content
    assert not [c for c in signup(w).custom_ids if c.endswith(":checkin")]  # not yet


async def check_in_and_start(w: World) -> Any:
    """Seven check in, Hal does not and is told why he has no seat; three private threads."""
    alice, bob, cid, dot, eve, fay, gus, hal, _ = w.users
    ev = await event(w)
    await tick(w, ev.start_at - 15 * 60 - w.service.clock.now() + 1)
    msg = signup(w)
    assert f"t1000t:{ev.id}:checkin" in msg.custom_ids, msg.content
    opened = [m for m in posts(w, hal) if "Check-in for **Friday Cup** is open" in m.content]
    assert len(opened) == 1 and f"<@{hal.id}>" in opened[0].content
    for u in (alice, bob, cid, dot, eve, fay, gus):
        said = await press(w, u, f"t1000t:{ev.id}:checkin")
        assert "checked in" in said, said
    await settle(w)
    assert "✅ Alice" in signup(w).content and "✅ Hal" not in signup(w).content
    await tick(w, ev.start_at - w.service.clock.now() + 1)
    await tick(w, 5)
    dropped = [m for m in posts(w, hal) if f"<@{hal.id}>" in m.content
               and "did not check in" in m.content]
    assert dropped, [m.content for m in posts(w, hal)]
    ev = await event(w)
    assert ev.round_no == 1 and len(ev.tables) == 3
    seated = sorted(u for t in ev.tables for u in t.user_ids if u > 0)
    assert seated == sorted(u.id for u in (alice, bob, cid, dot, eve, fay, gus))
    assert sorted(sum(u < 0 for u in t.user_ids) for t in ev.tables) == [0, 0, 2]
    check_privacy(w, ev)
    return ev


async def round_one_with_a_strike(w: World, ev: Any, rng: random.Random) -> None:
    """Dot lets his timer run out once (a strike, told at his table only); the results."""
    fd = w.fd
    dot, ivy = w.users[3], w.users[8]
    holder = next(t for t in ev.tables if dot.id in t.user_ids)
    await play_round(w, rng, 1, hold=dot)
    table = w.service.in_channel(holder.channel_id)
    await tick(w, table.timer + 1)
    thread = fd.store.channels[holder.channel_id]
    strike = [m for m in fd.visible(dot, thread) if "Strike 1 of 2" in (m.content or "")]
    assert strike and f"<@{dot.id}>" in strike[0].content
    others = [u for u in w.users if u.id not in holder.user_ids]
    assert all(strike[0] not in fd.visible(u, thread) for u in others)
    assert any(e.user_id == dot.id and e.strikes == 1 for e in (await event(w)).entrants)
    await play_round(w, rng, 1)
    await tick(w, 1)
    results = [m for m in posts(w, ivy) if "standings after round 1 of 2" in m.content]
    assert len(results) == 1 and results[0].attachments, [m.content for m in posts(w, ivy)]
    assert "Ranked by the mean matchpoint percentage" in results[0].content
    boards = [m for m in posts(w, ivy) if "Round 1: every table's result" in m.content]
    assert boards and "**Board 3**" in boards[0].content and "Table 3:" in boards[0].content
    assert all(fd.store.channels[t.channel_id].locked for t in ev.tables)


async def round_two_with_a_restart(w: World, ev: Any, rng: random.Random) -> None:
    """New threads; the bot restarts in the middle of the round, which then goes on."""
    fd, ivy = w.fd, w.users[8]
    await tick(w, 5)
    ev2 = await event(w)
    assert ev2.round_no == 2 and all(t.channel_id for t in ev2.tables), ev2
    assert {t.channel_id for t in ev2.tables}.isdisjoint({t.channel_id for t in ev.tables})
    check_privacy(w, ev2)
    await play_round(w, rng, 2, moves=12)
    before = len(posts(w, ivy))
    lost = ev2.tables[0]  # as if the bot stopped before this table's message went out
    await w.service.set_message(w.service.in_channel(lost.channel_id), None)
    old = {m.id for m in fd.store.channel_messages(fd.store.channels[lost.channel_id])}
    await stop_bot(w)
    await start_bot(w, **OPTIONS)
    quick(w)
    await settle(w)
    assert len(posts(w, ivy)) == before  # nothing posted twice
    new = w.service.in_channel(lost.channel_id).message_id  # posted again in its thread
    assert new not in old and new in {
        m.id for m in fd.store.channel_messages(fd.store.channels[lost.channel_id])}
    await play_round(w, rng, 2)
    await tick(w, 1)


async def standings_and_podium(w: World, ev: Any) -> None:
    """The standings, the podium, the sign-up message without buttons, /show, /stats."""
    fd, bob, ivy = w.fd, w.users[1], w.users[8]
    finals = [m for m in posts(w, ivy) if "standings after round 2 of 2" in m.content]
    assert len(finals) == 1 and finals[0].attachments
    podium = [m for m in posts(w, ivy) if "the podium" in m.content]
    assert len(podium) == 1 and "🥇" in podium[0].content and podium[0].attachments
    assert f"{BASE}/g/{w.guild.id}/t/{ev.id}" in podium[0].content
    assert not [c for c in signup(w).custom_ids if c.startswith("t1000t:")]
    assert "Over" in signup(w).content
    r = await fd.slash(ivy, w.channel, "tournament show", event=NAME)
    await r.wait_final()
    shown = r.followups[-1] if r.followups else r.message
    assert shown is not None and shown.ephemeral and "standings after round 2" in shown.content
    r = await fd.slash(bob, w.channel, "stats")
    fields = [f["name"] for e in r.message.embeds for f in e.get("fields", [])]
    assert "Tournaments" in fields, (r.type, r.content, r.message and r.message.embeds)


async def organiser_role_and_rating(w: World) -> None:
    """An organiser role (Gus gets it), rated events."""
    fd, alice, gus = w.fd, w.users[0], w.users[6]
    role = w.extra["role"]
    r = await fd.slash(gus, w.channel, "tournament new", name="Saturday Cup",
                       preset="russian", boards=3, rounds=1)
    assert r.ephemeral and "created" not in r.content  # not an organiser yet
    r = await fd.slash(alice, w.channel, "admin tournaments", role=role, rated=True)
    assert r.ephemeral and f"<@&{role.id}>" in r.content, r.content
    assert "Tournaments change ratings: yes." in r.content
    w.guild.members[gus.id].role_ids.append(role.id)
    r = await fd.slash(gus, w.channel, "tournament new", name="Saturday Cup",
                       preset="russian", boards=3, rounds=1)
    assert r.ephemeral and "Tournament **Saturday Cup** created" in r.content, r.content
    # start times in the server's time zone, picked from the autocomplete
    offered = await fd.autocomplete(alice, w.channel, "admin tournaments", "timezone", "warsa")
    assert [c["value"] for c in offered] == ["Europe/Warsaw"]
    r = await fd.slash(alice, w.channel, "admin tournaments", timezone="Mars/Base")
    assert r.ephemeral and "`Mars/Base` is not a time zone" in r.content, r.content
    r = await fd.slash(alice, w.channel, "admin tournaments", timezone="Europe/Warsaw")
    assert "Tournament start times are read in Europe/Warsaw." in r.content, r.content
    start = dt.datetime.fromtimestamp(w.bot.tournaments.clock.now() + 86_400, dt.UTC)
    local = start.astimezone(ZoneInfo("Europe/Warsaw")).strftime("%Y-%m-%d %H:%M")
    r = await fd.slash(gus, w.channel, "tournament new", name="Sunday Cup",
                       preset="russian", boards=3, rounds=1, start=local)
    assert "created" in r.content, r.content
    sunday = await w.bot.tournaments.find(w.guild.id, "Sunday Cup")
    assert sunday is not None
    assert sunday.start_at == start.replace(second=0, microsecond=0).timestamp()


def check_privacy(w: World, ev: Any) -> None:
    """Each table's thread: its humans see it, nobody else does (not even the organiser)."""
    fd = w.fd
    for t in ev.tables:
        thread = fd.store.channels[t.channel_id]
        assert thread.private and not thread.invitable
        for u in w.users:
            seen = fd.visible(u, thread)
            assert bool(seen) == (u.id in t.user_ids), (u.name, t)
