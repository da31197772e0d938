"""Two bot processes, one shard each, against one sharded Discord: each plays the tables of
its shard's guilds, and a process killed with -9 comes back with its tables' buttons working.

Each process has its own SQLite file (one process per SQLite file); a shared PostgreSQL
database is the production set-up for several processes (test_shards_postgresql.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.models import Channel, User

from .test_process import human_moves, move, my_turn

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
COUNT = 2


async def spawn(fd: FakeDiscord, db: Path | str, shard: int, *, log: Path | None = None,
                **extra: str) -> asyncio.subprocess.Process:
    """The bot process of shard ``shard`` on ``db``: an SQLite file, or a PostgreSQL URL (a
    str); its output appended to ``log`` if given; ``extra`` on top of the environment."""
    where = {"DATABASE_URL": db} if isinstance(db, str) else {"DATABASE_PATH": str(db)}
    env = {**os.environ, **fd.env, **where, "LOG_LEVEL": "WARNING",
           "TYSIAC_RENDER_IN": "thread", "TYSIAC_IMAGES": "0", **extra}
    for unwanted in ("DEV_GUILD_ID", "SHARD_IDS", "DATABASE_URL", "DATABASE_PATH"):
        if unwanted not in where:
            env.pop(unwanted, None)
    with _output(log) as out:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", "--shard-count", str(COUNT),
            "--shard-ids", str(shard), cwd=str(ROOT), env=env, stdout=out, stderr=out)


@contextlib.contextmanager
def _output(log: Path | None) -> Iterator[int | BinaryIO]:
    """Where a process writes: ``log`` (appended; the child keeps its own handle) or nowhere."""
    if log is None:
        yield asyncio.subprocess.DEVNULL
        return
    with log.open("ab") as out:
        yield out


def table_guilds(db: Path) -> set[int]:
    with sqlite3.connect(db) as con:
        return {row[0] for row in con.execute("SELECT guild_id FROM tables")}


async def open_and_play(fd: FakeDiscord, users: list[User], chan: Channel) -> int:
    """A table of three humans in ``chan``, started, with a few moves; how many accepted."""
    r = await fd.slash(users[0], chan, "table new", timer=0)
    assert r.message is not None and not r.ephemeral, r.content
    tid = r.message.custom_ids[0].split(":")[1]
    for u in users[1:]:
        await fd.click(u, r.message, f"t1000:{tid}:join:")
    await fd.click(users[0], r.message, f"t1000:{tid}:start:")
    accepted = 0
    for _ in range(4):
        u, hand = await my_turn(fd, users, chan)
        accepted += await move(fd, u, hand)
    return accepted


async def test_two_processes_one_shard_each_and_a_kill(tmp_path):
    dbs = [tmp_path / "shard0.db", tmp_path / "shard1.db"]
    async with FakeDiscord() as fd:
        users = [fd.add_user(n, n.title()) for n in ("ann", "ben", "cat")]
        guilds = [fd.guild_on_shard(i, COUNT, members=users) for i in range(COUNT)]
        chans = [fd.add_text_channel(g, "cards") for g in guilds]
        procs = [await spawn(fd, dbs[i], i) for i in range(COUNT)]
        try:
            await fd.wait_ready(timeout=40)  # both shards connected, with their guilds
            await fd.wait_until(lambda: fd.commands_synced > 0, 20)
            assert fd.commands_synced == 1  # the global commands: synced by shard 0's process
            accepted = [await open_and_play(fd, users, chan) for chan in chans]
            assert min(accepted) >= 3
            # each process holds its guilds' tables, and received their interactions only
            assert [table_guilds(db) for db in dbs] == [{g.id} for g in guilds]
            assert [human_moves(db) for db in dbs] == accepted
            for i, g in enumerate(guilds):
                got = {guild for (event, guild) in fd.gateway.shards[(i, COUNT)].delivered
                       if event == "INTERACTION_CREATE"}
                assert got == {g.id}

            procs[1].send_signal(signal.SIGKILL)
            await procs[1].wait()
            await fd.wait_until(lambda: (1, COUNT) not in fd.gateway.connected_shards())
            u, hand = await my_turn(fd, users, chans[0])  # shard 0 plays on meanwhile
            assert await move(fd, u, hand)

            procs[1] = await spawn(fd, dbs[1], 1)  # same shard, same database
            await fd.wait_shard(1, COUNT, timeout=40)
            await fd.wait_ready(timeout=20)
            await asyncio.sleep(1.0)  # GUILD_CREATE handled; the messages caught up
            u, hand = await my_turn(fd, users, chans[1])  # the old table message works
            assert await move(fd, u, hand)
            assert human_moves(dbs[1]) == accepted[1] + 1
            assert human_moves(dbs[0]) == accepted[0] + 1
            await fd.settle()
        finally:
            for proc in procs:
                if proc.returncode is None:
                    proc.terminate()
                    await proc.wait()
