"""Past one process: two bot processes, one shard each, on ONE PostgreSQL database through
one sharded Discord. A match finished in one process shows on the leaderboards the other
answers; a process killed with -9 mid-hand comes back with every acknowledged move and its
old buttons working; each process holds (and restores) only its own shard's tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.store import LIVE_STATUSES
from tests.fakediscord import FakeDiscord
from tests.fakediscord.models import Channel, Guild, Message, User

from .test_process import move, my_turn
from .test_shards import COUNT, open_and_play, spawn

pytestmark = pytest.mark.e2e

MATCH_WITHIN = 45.0  # seconds for a match to 100 of two humans (first moves) and an AI
BOARD_LINE = re.compile(r"\*\*\d+\.\*\* (?P<name>.+) — \S+ \((?P<matches>\d+)\)")


async def fetch(url: str, sql: str, *args: Any) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(url)
    try:
        return list(await conn.fetch(sql, *args))
    finally:
        await conn.close()


async def human_moves(url: str, guild: Guild) -> int:
    """Moves of players (not of AIs or timers) at the tables of ``guild``, in the database."""
    got = await fetch(url, "SELECT COUNT(*) FROM moves m JOIN tables t ON t.id = m.table_id"
                           " WHERE t.guild_id = $1 AND m.user_id IS NOT NULL", guild.id)
    return int(got[0][0])


async def finished_matches(url: str, guild: Guild) -> int:
    got = await fetch(url, "SELECT COUNT(*) FROM match_records WHERE guild_id = $1", guild.id)
    return int(got[0][0])


async def live_tables(url: str) -> dict[int, int]:
    """How many live tables each guild has."""
    got = await fetch(url, "SELECT guild_id, COUNT(*) FROM tables WHERE status = ANY($1)"
                           " GROUP BY guild_id", [s.value for s in LIVE_STATUSES])
    return {int(g): int(n) for g, n in got}


def table_message(fd: FakeDiscord, user: User, chan: Channel) -> Message:
    return next(m for m in reversed(fd.visible(user, chan))
                if not m.ephemeral and any(":hand:" in c for c in m.custom_ids))


async def play_short_match(fd: FakeDiscord, url: str, humans: list[User], chan: Channel,
                           guild: Guild) -> None:
    """A match to 100 without a barrel of ``humans`` and one AI in ``chan``, played to its
    end (each human makes the first move his hand offers) and recorded."""
    host = humans[0]
    r = await fd.slash(host, chan, "table new", timer=0)
    assert r.message is not None and not r.ephemeral, r.content
    tid = r.message.custom_ids[0].split(":")[1]
    for name, value in (("barrel", "none"), ("target", "100")):
        got = await fd.slash(host, chan, "table option", name=name, value=value)
        assert "cannot" not in got.content, got.content
    for u in humans[1:]:
        await fd.click(u, r.message, f"t1000:{tid}:join:")
    await fd.click(host, r.message, f"t1000:{tid}:addai:")
    await fd.click(host, r.message, f"t1000:{tid}:start:")
    end = time.monotonic() + MATCH_WITHIN
    while not await finished_matches(url, guild):
        assert time.monotonic() < end, f"the match in {guild.name} did not end in " \
                                       f"{MATCH_WITHIN:.0f} s"
        table = table_message(fd, host, chan)
        seen = len(table.history)
        try:
            u, hand = await my_turn(fd, humans, chan)
        except AssertionError:  # the AI is to move (or the match was just won): its edit
            # (on a timeout: the table may have a new message; look again)
            with contextlib.suppress(TimeoutError):
                await fd.wait_until(lambda t=table, n=seen: len(t.history) > n, 5)
            continue
        await move(fd, u, hand)


async def board(fd: FakeDiscord, user: User, chan: Channel, **options: Any) -> dict[str, int]:
    """``/leaderboard`` as ``user`` sees it in ``chan``: the matches of each name listed."""
    r = await fd.slash(user, chan, "leaderboard", **options)
    await fd.wait_until(lambda: r.message is not None and bool(r.message.embeds), 20)
    assert r.message is not None and r.ephemeral, r.content
    text = r.message.embeds[0].get("description", "")
    return {m["name"]: int(m["matches"]) for m in BOARD_LINE.finditer(text)}


async def test_two_processes_on_one_postgresql_database(pg_server, tmp_path: Path) -> None:
    url = await pg_server.new_database()
    logs = [tmp_path / f"shard{i}.log" for i in range(COUNT)]
    async with FakeDiscord() as fd:
        ann, ben, cat = users = [fd.add_user(n, n.title()) for n in ("ann", "ben", "cat")]
        guilds = [fd.guild_on_shard(i, COUNT, members=users) for i in range(COUNT)]
        chans = [fd.add_text_channel(g, "cards") for g in guilds]
        fd.set_permissions(guilds[1], ann, ["manage_guild"])

        def start(shard: int) -> Awaitable[asyncio.subprocess.Process]:
            return spawn(fd, url, shard, log=logs[shard], LOG_LEVEL="INFO",
                         TYSIAC_AI_DELAY="0", TYSIAC_HAND_PAUSE="0")

        procs = [await start(i) for i in range(COUNT)]
        try:
            await fd.wait_ready(timeout=40)  # both shards connected, with their guilds
            await fd.wait_until(lambda: fd.commands_synced > 0, 20)

            # ann and ben show on the global boards; guild 1 rates matches with an AI
            for u in (ann, ben):
                r = await fd.slash(u, chans[0], "optin", show=True)
                assert r.ephemeral and r.content, r.content
            r = await fd.slash(ann, chans[1], "admin ai_rated", count=True)
            assert r.ephemeral and "⚠️" not in r.content, r.content

            # a table of three in shard 0's guild, mid-hand; a match played out in shard 1's
            accepted = await open_and_play(fd, users, chans[0])
            assert accepted >= 3, f"only {accepted} of 4 moves were accepted"
            await play_short_match(fd, url, [ann, ben], chans[1], guilds[1])
            assert await finished_matches(url, guilds[0]) == 0

            # each process received its guilds' interactions only, so it wrote their tables
            for i, g in enumerate(guilds):
                got = {guild for (event, guild) in fd.gateway.shards[(i, COUNT)].delivered
                       if event == "INTERACTION_CREATE"}
                assert got == {g.id}, f"shard {i} received interactions of guilds {got}"
            guild_ids = {row[0] for row in await fetch(url, "SELECT guild_id FROM tables")}
            assert guild_ids == {g.id for g in guilds}
            live = await live_tables(url)  # guild 1's table, its match won, is live too
            assert live[guilds[0].id] == 1 and live[guilds[1].id] >= 1, live

            # the match of shard 1's process on both boards: globally from shard 0's process
            # (users who opted in), and on its guild's board from shard 1's process
            both = {"Ann": 1, "Ben": 1}
            got = await board(fd, cat, chans[0], scope="global")
            assert got == both, f"shard 0's global board does not show the match: {got}"
            got = await board(fd, cat, chans[1])
            assert got == both, f"guild 1's board does not show its match: {got}"
            got = await board(fd, cat, chans[0])
            assert got == {}, f"guild 0 played no match, yet its board shows {got}"

            # kill -9 right after an acknowledged move, mid-hand: nothing acknowledged is lost
            u, hand = await my_turn(fd, users, chans[0])
            accepted += await move(fd, u, hand)
            procs[0].send_signal(signal.SIGKILL)
            await procs[0].wait()
            await fd.wait_until(lambda: (0, COUNT) not in fd.gateway.connected_shards(), 20)
            logs[0].write_text("")  # from here on, the restarted process's log only
            procs[0] = await start(0)  # same shard, same database
            await fd.wait_shard(0, COUNT, timeout=40)  # it restored its tables before this
            restored = [ln for ln in logs[0].read_text().splitlines() if "restored" in ln]
            assert any("restored 1 live tables (shard 0 of 2)" in ln for ln in restored), \
                f"shard 0's process should restore its one table, none of shard 1's: {restored}"
            assert await human_moves(url, guilds[0]) == accepted, \
                "a move acknowledged before kill -9 is missing from the database"

            # play on with the buttons of the old table message
            u, hand = await my_turn(fd, users, chans[0])
            assert await move(fd, u, hand), "the restored table refused a move"
            assert await human_moves(url, guilds[0]) == accepted + 1
            got = {guild for (event, guild) in fd.gateway.shards[(0, COUNT)].delivered
                   if event == "INTERACTION_CREATE"}
            assert got == {guilds[0].id}
            # the restarted process reads the other's match, and left its table alone
            got = await board(fd, cat, chans[0], scope="global")
            assert got == both, f"the restarted process's global board shows {got}"
            assert await live_tables(url) == live
            await fd.settle()
            assert not fd.store.unknown_routes, fd.store.unknown_routes
            assert not [v for v in fd.violations if not v.reported], fd.violations
        finally:
            for proc in procs:
                if proc.returncode is None:
                    proc.terminate()
                    await proc.wait()
