"""``python -m bot run`` with a database it cannot use: one clear line, a non-zero exit, and
no attempt to reach Discord.

Each case runs the real command in a subprocess. Discord is pointed (DISCORD_API_BASE) at a
listening socket of the test's: had the bot tried to log in, the connection would be
waiting there. The permission cases run the bot as an unprivileged user (``setpriv`` to
``nobody``) when the tests run as root, since root may write a read-only file.
"""

from __future__ import annotations

import asyncio
import os
import pwd
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.store import Store

pytestmark = pytest.mark.slow

TIMEOUT = 60.0  # seconds; a healthy refusal takes well under one
ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Started:
    code: int
    stderr: str
    contacted_discord: bool

    @property
    def lines(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if line.strip()]


def unprivileged() -> tuple[list[str], int, int] | None:
    """(command prefix, uid, gid) to run as a user without special rights; None: already one."""
    if os.geteuid() != 0:
        return None
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: cannot test as an ordinary user")
    nobody = pwd.getpwnam("nobody")
    return ([f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups"],
            nobody.pw_uid, nobody.pw_gid)


def start_bot(database: Path | str, cwd: Path, *, as_user: bool = False,
              args: tuple[str, ...] = (), env_extra: dict[str, str] | None = None,
              database_url: str = "") -> Started:
    """Run ``python -m bot run`` against ``database``; what it printed and whether it tried
    to reach Discord."""
    with socket.socket() as discord:
        discord.bind(("127.0.0.1", 0))
        discord.listen(8)
        port = discord.getsockname()[1]
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "DISCORD_TOKEN": "dummy-token-for-tests",
            "DATABASE_PATH": str(database),
            "DATABASE_URL": database_url,
            "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
            "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/gateway",
            "PYTHONDONTWRITEBYTECODE": "1",
            **(env_extra or {}),
        }
        cmd = [sys.executable, "-m", "bot", "run", *args]
        prefix = unprivileged() if as_user else None
        if prefix is not None:
            cmd = ["setpriv", *prefix[0], "--", *cmd]
        try:
            proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                                  timeout=TIMEOUT, check=False)
        except subprocess.TimeoutExpired as exc:
            pytest.fail(f"the bot did not exit within {TIMEOUT:.0f} s: {exc.stderr!r}")
        discord.setblocking(False)
        try:
            discord.accept()[0].close()
            contacted = True
        except BlockingIOError:
            contacted = False
    return Started(proc.returncode, proc.stderr, contacted)


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder an unprivileged user can reach (pytest's tmp_path is private to root)."""
    path = Path(tempfile.mkdtemp(prefix="tysiac-startup-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def make_database(path: Path) -> None:
    """A real, migrated database with a table in it."""
    async def build() -> None:
        store = await Store.open(path)
        async with store.transaction() as tx:
            await tx.create_table(guild_id=1, channel_id=10, host_id=5, preset="russian",
                                  rules={}, timer=0, now=1.0)
        await store.close()
    asyncio.run(build())


def give_to_user(path: Path, as_user: bool) -> None:
    who = unprivileged() if as_user else None
    if who is not None:
        os.chown(path, who[1], who[2])


def assert_refused(started: Started, *words: str) -> None:
    assert started.code != 0
    assert len(started.lines) == 1, started.stderr
    line = started.lines[0]
    assert "Traceback" not in started.stderr
    for word in words:
        assert word in line, line
    assert not started.contacted_discord


def test_random_bytes_exit_at_once_naming_the_file_and_the_backup(tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_bytes(os.urandom(65536))
    started = start_bot(bad, tmp_path)
    assert_refused(started, str(bad), "damaged", "python -m bot db backup", "move the file")


def test_a_database_cut_in_half_exits_at_once(tmp_path):
    path = tmp_path / "half.db"
    make_database(path)
    with open(path, "r+b") as f:
        f.truncate(path.stat().st_size // 2)
    started = start_bot(path, tmp_path)
    assert_refused(started, str(path), "damaged", "backup")


@pytest.mark.parametrize("wal", ["missing", "unreadable"])
def test_a_used_database_whose_wal_is_lost_exits_at_once(tmp_path, wal):
    """The file alone of a database in use (copied by hand, its -wal left behind or
    damaged) holds no tables: the bot stops with one line rather than start empty."""
    from tests.store.test_lost_wal import copy_open_database, damage

    path = copy_open_database(tmp_path, ("",) if wal == "missing" else ("", "-wal", "-shm"))
    if wal == "unreadable":
        damage(Path(f"{path}-wal"), 24)
    started = start_bot(path, tmp_path)
    assert_refused(started, f"The database {path} holds no tables though it was used",
                   "-wal", "Put the missing -wal back", "python -m bot db backup")
    assert started.code == 1
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        assert db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0


def test_a_folder_as_the_database(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    assert_refused(start_bot(folder, tmp_path), str(folder), "is a folder")


def test_a_missing_folder(tmp_path):
    path = tmp_path / "nowhere" / "tysiac.db"
    started = start_bot(path, tmp_path)
    assert_refused(started, str(path.parent), "does not exist")
    assert not path.parent.exists()


def test_a_read_only_database(shared_dir):
    folder = shared_dir / "data"
    folder.mkdir()
    path = folder / "tysiac.db"
    make_database(path)
    as_user = os.geteuid() == 0
    for p in (folder, path):
        give_to_user(p, as_user)
    path.chmod(0o444)
    started = start_bot(path, shared_dir, as_user=as_user)
    assert_refused(started, str(path), "not writable")


def test_a_database_in_a_folder_it_cannot_write(shared_dir):
    folder = shared_dir / "data"
    folder.mkdir()
    path = folder / "tysiac.db"
    make_database(path)
    as_user = os.geteuid() == 0
    give_to_user(path, as_user)  # the file is his, the folder is not: no -wal, no -shm
    folder.chmod(0o555)
    try:
        started = start_bot(path, shared_dir, as_user=as_user)
    finally:
        folder.chmod(0o755)
    assert_refused(started, str(folder), "not writable", "-wal")


def test_a_new_database_in_a_folder_it_cannot_write(shared_dir):
    folder = shared_dir / "data"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        started = start_bot(folder / "tysiac.db", shared_dir, as_user=os.geteuid() == 0)
    finally:
        folder.chmod(0o755)
    assert_refused(started, str(folder), "not writable")


@pytest.mark.e2e
async def test_a_second_process_on_the_same_sqlite_file_is_refused(tmp_path):
    """Two real ``python -m bot run`` on one file: the second exits with one line before it
    contacts Discord; once the first is killed (-9), a new one starts on the same file."""
    from tests.fakediscord import FakeDiscord

    path = tmp_path / "tysiac.db"
    async with FakeDiscord() as fd:
        env = {**os.environ, **fd.env, "DATABASE_PATH": str(path), "LOG_LEVEL": "WARNING",
               "PYTHONDONTWRITEBYTECODE": "1"}
        env.pop("DEV_GUILD_ID", None)

        async def spawn() -> asyncio.subprocess.Process:
            return await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "run", cwd=str(ROOT), env=env,
                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)

        first = await spawn()
        try:
            await fd.wait_ready(timeout=30)
            second = await asyncio.to_thread(start_bot, path, tmp_path)
            assert_refused(second, f"Another bot process (pid {first.pid}) is using {path}",
                           "SQLite serves one process", "PostgreSQL (DATABASE_URL)")
            assert second.code == 1
            assert first.returncode is None and fd.gateway.identifies == 1
            first.kill()
            await first.wait()
            third = await spawn()  # the kernel dropped the lock with the killed process
            try:
                await fd.wait_until(lambda: fd.gateway.identifies == 2, 30)
                assert third.returncode is None
            finally:
                third.terminate()
                await third.wait()
        finally:
            if first.returncode is None:
                first.kill()
                await first.wait()



@pytest.mark.parametrize(("args", "env", "says"), [
    (("--shard-count", "2", "--shard-ids", "0,2"), {},
     "shard 2 does not exist; with SHARD_COUNT=2 the shards are 0 to 1"),
    (("--shard-ids", "1"), {}, "needs SHARD_COUNT (--shard-count)"),
    ((), {"SHARD_COUNT": "4", "SHARD_IDS": "1,1"}, "names shard 1 twice"),
    (("--shard-count", "0"), {"SHARD_COUNT": "2"}, "must be 1 or more, not 0"),
])
def test_wrong_shards_exit_at_once(tmp_path, args, env, says):
    started = start_bot(tmp_path / "t.db", tmp_path, args=args, env_extra=env)
    assert_refused(started, says)
    assert started.code == 2


@pytest.mark.parametrize(("url", "words"), [
    ("mysql://tysiac:secret@db.example/tysiac", ("DATABASE_URL", "postgresql://", "'mysql'")),
    ("postgresql://tysiac:secret@db.example:port/tysiac", ("DATABASE_URL", "cannot be read")),
    ("postgresql://tysiac:secret@db.example:5432", ("DATABASE_URL", "names no database")),
])
def test_a_wrong_database_url_is_one_line_without_the_password(tmp_path, url, words):
    started = start_bot(tmp_path / "unused.db", tmp_path, database_url=url)
    assert_refused(started, *words)
    assert "secret" not in started.stderr
    assert not (tmp_path / "unused.db").exists()


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_without_a_token_explains_and_ends_cleanly(tmp_path):
    """The first ``make run`` of a fresh checkout: the explanation is the last thing shown,
    without a make error line after it."""
    shutil.copy(ROOT / "Makefile", tmp_path)
    for name in ("pyproject.toml", "setup.py", "bot/ai/_dds.c"):  # what the install stamp follows
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    venv = tmp_path / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    (venv / "python").chmod(0o755)  # this venv's interpreter, as a fresh install has one
    (tmp_path / ".venv" / ".installed").touch()  # installed: make goes straight to run
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT),
           "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run(["make", "run"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=TIMEOUT, check=False)
    shown = (proc.stdout + proc.stderr).strip()
    assert proc.returncode == 0, shown
    assert shown.startswith("No Discord bot token found.")
    assert shown.endswith("DISCORD_API_BASE / DISCORD_GATEWAY_URL."), shown
    assert "Error" not in shown and "make:" not in shown and "Traceback" not in shown
