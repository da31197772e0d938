"""`python -m bot run` as its own process against the emulator: SIGKILL loses no accepted move,
and a stop (SIGTERM, SIGINT, a fatal error) leaves the database file whole, without a -wal."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sqlite3
import sys
from pathlib import Path
from typing import BinaryIO

import pytest

from tests.fakediscord import FakeDiscord

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


async def spawn(fd: FakeDiscord, db: Path, stderr: Path | None = None,
                **extra: str) -> asyncio.subprocess.Process:
    env = {**os.environ, **fd.env, "DATABASE_PATH": str(db), "LOG_LEVEL": "WARNING",
           "TYSIAC_RENDER_IN": "process", **extra}
    env.pop("DEV_GUILD_ID", None)
    with _log_file(stderr) as err:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", cwd=str(ROOT), env=env,
            stdout=asyncio.subprocess.DEVNULL, stderr=err)


def _log_file(path: Path | None) -> BinaryIO:
    return open(path or os.devnull, "wb")


def has_wal(db: Path) -> bool:
    return Path(f"{db}-wal").exists()


def human_moves(db: Path) -> int:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT COUNT(*) FROM moves WHERE user_id IS NOT NULL").fetchone()[0]


async def start_table(fd, users, chan) -> None:
    """The first user opens a table at which all of them sit, and starts it."""
    r = await fd.slash(users[0], chan, "table new", timer=0)
    tid = r.message.custom_ids[0].split(":")[1]
    for u in users[1:]:
        await fd.click(u, r.message, f"t1000:{tid}:join:")
    await fd.click(users[0], r.message, f"t1000:{tid}:start:")


async def my_turn(fd, users, chan):
    table = next(m for m in reversed(fd.visible(users[0], chan))
                 if not m.ephemeral and any(":hand:" in c for c in m.custom_ids))
    hand_id = next(c for c in table.custom_ids if ":hand:" in c)
    for u in users:
        r = await fd.click(u, table, hand_id)
        if "Your turn" in r.content:
            return u, r.message
    raise AssertionError("nobody's turn")


async def move(fd, user, hand) -> bool:
    """Make the first enabled move of the hand; True if the bot accepted it."""
    for row in hand.components:
        for c in row.get("components", []):
            if c.get("disabled") or ":hand:" in c["custom_id"]:
                continue
            if c["type"] == 3:
                r = await fd.select(user, hand, c["custom_id"], [c["options"][0]["value"]])
            elif any(v in c["custom_id"] for v in (":play:", ":pass:", ":talon:")):
                r = await fd.click(user, hand, c["custom_id"])
            else:
                continue
            answer = r.interaction.response_data.get("content", "")
            return answer.startswith("You ")
    return False


async def test_sigkill_loses_no_accepted_move(tmp_path):
    db = tmp_path / "kill.db"
    async with FakeDiscord() as fd:
        users = [fd.add_user(n, n.title()) for n in ("ann", "ben", "cat")]
        guild = fd.add_guild("G", members=users)
        chan = fd.add_text_channel(guild, "t")
        proc = await spawn(fd, db)
        try:
            await fd.wait_ready(timeout=20)
            await start_table(fd, users, chan)
            accepted = 0
            for _ in range(6):
                u, hand = await my_turn(fd, users, chan)
                accepted += await move(fd, u, hand)
            assert accepted >= 4
            proc.send_signal(signal.SIGKILL)  # right after an acknowledged move
            await proc.wait()
            assert human_moves(db) == accepted
            synced = fd.commands_synced
            proc = await spawn(fd, db)
            await fd.wait_until(lambda: fd.commands_synced > synced, 20)
            await asyncio.sleep(1.5)  # setup done; let the new session identify
            u, hand = await my_turn(fd, users, chan)  # the old table message still works
            assert await move(fd, u, hand)
            assert human_moves(db) == accepted + 1
            await fd.settle()
            # The production renderer (a worker process) drew the table image.
            table = next(m for m in reversed(fd.visible(users[0], chan)) if not m.ephemeral
                         and any(":hand:" in c for c in m.custom_ids))
            await fd.wait_until(lambda: any(
                a.filename == "1000-table.png" for a in table.attachments), 20)
        finally:
            if proc.returncode is None:
                proc.terminate()
                await proc.wait()


@pytest.mark.parametrize("stop", ["SIGTERM", "SIGINT", "fatal"])
async def test_a_stop_leaves_one_whole_file_without_a_wal(tmp_path, stop):
    """However the bot stops (systemd's SIGTERM, Ctrl+C, Discord closing the session for
    good), it closes the database: no -wal is left, and the file alone (a plain copy, the
    usual backup) holds every accepted move."""
    db, log = tmp_path / "stop.db", tmp_path / "stderr.txt"
    async with FakeDiscord() as fd:
        users = [fd.add_user(n, n.title()) for n in ("ann", "ben", "cat")]
        guild = fd.add_guild("G", members=users)
        chan = fd.add_text_channel(guild, "t")
        # A checkpoint an hour away: only the stop itself can bring the moves into the file.
        proc = await spawn(fd, db, log, TYSIAC_CHECKPOINT_AFTER="3600")
        try:
            await fd.wait_ready(timeout=20)
            await start_table(fd, users, chan)
            accepted = 0
            for _ in range(4):
                u, hand = await my_turn(fd, users, chan)
                accepted += await move(fd, u, hand)
            assert accepted >= 3
            if stop == "fatal":
                await fd.gateway.drop(code=4004)  # "Authentication failed": no reconnect
            else:
                proc.send_signal(getattr(signal, stop))
            code = await asyncio.wait_for(proc.wait(), 60)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    said = log.read_text(errors="replace")
    assert code == (1 if stop == "fatal" else 0), said
    assert "Traceback" not in said, said
    if stop == "fatal":
        assert "Discord closed the bot's connection for good (code 4004" in said, said
    assert not has_wal(db), said
    copy = tmp_path / "copy.db"
    shutil.copyfile(db, copy)
    assert human_moves(copy) == accepted


async def test_leaving_the_client_waits_for_the_whole_close(tmp_path):
    """discord.py's ``run`` is ``async with bot: await bot.start()``; a SIGTERM handler
    calls ``close`` in a task of its own. When the ``async with`` is left, the database must
    be closed already (asyncio.run cancels whatever is still running after it): no -wal."""
    from bot.config import RenderIn, Settings
    from cogs._bot import TysiacBot, point_discord_py_at

    db = tmp_path / "inproc.db"
    async with FakeDiscord() as fd:
        users = [fd.add_user(n, n.title()) for n in ("ann", "ben", "cat")]
        guild = fd.add_guild("G", members=users)
        chan = fd.add_text_channel(guild, "t")
        point_discord_py_at(fd.api_base, fd.gateway_url)
        bot = TysiacBot(Settings(token=fd.token, database_path=str(db), api_base=fd.api_base,
                                 gateway_url=fd.gateway_url, render_in=RenderIn.THREAD,
                                 guild_ready_timeout=0.1, checkpoint_after=3600))

        async def runner() -> None:
            async with bot:
                await bot.start(fd.token)

        main = asyncio.create_task(runner())
        await asyncio.wait_for(bot.wait_until_ready(), 20)
        r = await fd.slash(users[0], chan, "table new", timer=0)
        assert r.message is not None and not r.ephemeral
        assert has_wal(db)
        stopping = asyncio.ensure_future(bot.close())  # as the SIGTERM handler does
        await asyncio.wait_for(main, 30)
        assert not has_wal(db)
        await stopping
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 1


async def test_the_log_holds_no_interaction_token_at_debug(tmp_path):
    """At DEBUG discord.py writes every interaction's URL: the log shows those requests with
    the token part replaced, and no token of any interaction anywhere."""
    db, log_path = tmp_path / "debug.db", tmp_path / "bot.log"
    async with FakeDiscord() as fd:
        users = [fd.add_user(n, n.title()) for n in ("ann", "ben", "cat")]
        guild = fd.add_guild("G", members=users)
        chan = fd.add_text_channel(guild, "t")
        env = {**os.environ, **fd.env, "DATABASE_PATH": str(db), "LOG_LEVEL": "DEBUG",
               "TYSIAC_RENDER_IN": "process"}
        env.pop("DEV_GUILD_ID", None)
        with log_path.open("wb") as out:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "run", cwd=str(ROOT), env=env,
                stdout=out, stderr=out)
        try:
            await fd.wait_ready(timeout=20)
            await start_table(fd, users, chan)
            for _ in range(3):
                u, hand = await my_turn(fd, users, chan)
                await move(fd, u, hand)
            await fd.settle()
        finally:
            proc.terminate()
            await proc.wait()
    text = log_path.read_text(encoding="utf-8", errors="replace")
    tokens = list(fd.store.by_token)
    assert len(tokens) >= 8
    assert "/interactions/" in text and "/<token>/callback" in text
    leaked = [tok for tok in tokens if tok in text or tok.split(":")[-1] in text]
    where = [line for line in text.splitlines() if leaked and leaked[0].split(":")[-1] in line]
    assert not leaked, (f"{len(leaked)} tokens in the log", where[:2])


async def test_slow_web_clients_hold_neither_the_bot_nor_the_log(tmp_path):
    """300 clients open the web port and send half a request, then nothing, in a process
    started with a low soft limit of open files: past the cap they are answered 503 at
    once, the others are closed when their time to send the request is up; a player's
    commands are answered all along, a page answers again afterwards, and the log holds a
    few lines, no traceback."""
    import resource
    import socket
    import time

    db, log_path = tmp_path / "web.db", tmp_path / "bot.log"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    def low_limit() -> None:  # as a default systemd or shell would give (the hard one is high)
        resource.setrlimit(resource.RLIMIT_NOFILE,
                           (160, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    async with FakeDiscord() as fd:
        users = [fd.add_user(n, n.title()) for n in ("ann", "ben")]
        guild = fd.add_guild("G", members=users)
        chans = [fd.add_text_channel(guild, f"t{i}") for i in range(3)]
        env = {**os.environ, **fd.env, "DATABASE_PATH": str(db), "LOG_LEVEL": "INFO",
               "TYSIAC_RENDER_IN": "process", "WEB_PORT": str(port),
               "WEB_MAX_CONNECTIONS": "100", "WEB_HEAD_TIMEOUT": "3"}
        env.pop("DEV_GUILD_ID", None)
        with log_path.open("wb") as out:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "run", cwd=str(ROOT), env=env,
                stdout=out, stderr=out, preexec_fn=low_limit)
        slow: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        try:
            await fd.wait_ready(timeout=20)
            for _ in range(300):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(b"GET /g/1 HTTP/1.1\r\nHost: x\r\n")  # and never the rest
                slow.append((reader, writer))
            # a player is answered while they hold the port
            started = time.monotonic()
            r = await fd.slash(users[0], chans[0], "table new", timer=0)
            assert r.message is not None and not r.ephemeral
            join = next(c for c in r.message.custom_ids if ":join:" in c)
            r = await fd.click(users[1], r.message, join)
            assert not r.ephemeral or "joined" in r.content, r.content
            assert time.monotonic() - started < 5
            # past the cap: 503 at once
            busy = 0
            for reader, _ in slow:
                with contextlib.suppress(TimeoutError):
                    head = await asyncio.wait_for(reader.read(64), 0.05)
                    busy += head.startswith(b"HTTP/1.1 503")
            assert busy >= 150, busy
            # the rest: closed when their time is up
            await asyncio.sleep(4)
            closed = 0
            for reader, _ in slow:
                try:
                    await asyncio.wait_for(reader.read(), 0.05)  # to the end
                    closed += 1
                except ConnectionError:  # aborted: a slow client gets no goodbye
                    closed += 1
                except TimeoutError:
                    pass
            assert closed >= 290, closed
            # and the port answers again
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /g/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = await asyncio.wait_for(reader.read(), 5)
            assert answer.startswith(b"HTTP/1.1 404"), answer[:80]
            writer.close()
            r = await fd.slash(users[1], chans[1], "table new", timer=0)
            assert r.message is not None and not r.ephemeral
        finally:
            for _, writer in slow:
                writer.close()
            proc.terminate()
            await proc.wait()
    text = log_path.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in text and len(text) < 20_000, (len(text), text[-2000:])
    assert "open files limit: " in text and "open files limit: 160" not in text
    assert text.count("new ones are answered 503 (repeats are counted)") == 1
    assert "new ones are answered 503: 199 more times" in text
