"""A throwaway PostgreSQL server for tests: Debian's binaries, a temporary folder, a free
loopback port, trust authentication; a fresh database per test (CREATE DATABASE is fast).

Used by the fixtures in tests/conftest.py; any test package may start its own server too
(the fault tests stop and start theirs)."""

from __future__ import annotations

import asyncio
import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import asyncpg

INSTALL_HINT = ("install Debian's PostgreSQL server (apt-get install postgresql; "
                "`make test` does it through scripts/system-packages)")
# WAL segments made and recycled by settle(): the default min_wal_size (80 MB) keeps five
SETTLE_SEGMENTS = 6


class PgUnavailable(Exception):
    """No PostgreSQL server can be started here; the message says what is missing."""


def find_bin() -> Path:
    """The folder of initdb and pg_ctl (the newest Debian version, else PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    raise PgUnavailable(f"PostgreSQL's initdb and pg_ctl were not found: {INSTALL_HINT}.")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    """One server process; ``await new_database()`` gives a URL of an empty database."""

    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable  # fsync and synchronous commits, as a production server
        self.bin = find_bin()
        self.root = Path(tempfile.mkdtemp(prefix="tysiac-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self._names = itertools.count(1)
        self._as: list[str] = []
        if os.geteuid() == 0:  # initdb refuses to run as root: the server runs as postgres
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                raise PgUnavailable(
                    f"the tests run as root and there is no 'postgres' user to run the "
                    f"server as: {INSTALL_HINT}.") from None
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        try:
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                      "-E", "UTF8", "--no-sync", "--no-instructions")
            self.start()
        except BaseException:
            shutil.rmtree(self.root, ignore_errors=True)
            raise

    def _run(self, tool: str, *args: str) -> None:
        cmd = [*self._as, str(self.bin / tool), *args]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            raise PgUnavailable(f"{tool} failed ({' / '.join(tail)}): {INSTALL_HINT}.")

    def start(self) -> None:
        """Start (or start again) the server on its port."""
        opts = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=200"
        if not self.durable:  # tests need no crash safety of the machine, only speed
            # synchronous_commit stays on (the store refuses a server without it): with
            # fsync off, a commit waits for a write into the server's WAL, not for the disk.
            opts += " -c fsync=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l",
                  str(self.root / "server.log"), "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: open connections are cut, as when a server goes down)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def socket_url(self, database: str = "postgres") -> str:
        """The URL through the server's Unix socket (same host, no TCP)."""
        return f"postgresql://postgres@/{database}?host={self.root}&port={self.port}"

    async def new_database(self, *, unix_socket: bool = False) -> str:
        """A fresh, empty database; its URL (through the Unix socket if asked)."""
        name = f"t{os.getpid()}_{next(self._names)}"
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        finally:
            await conn.close()
        return self.socket_url(name) if unix_socket else self.url(name)

    async def settle(self) -> None:
        """Bring a new durable server to the state of one that has run a while.

        A server made seconds ago stalls its commits twice over, as no long-running one
        does: initdb's ``--no-sync`` files (~24 MB) reach the disk when the kernel's 30 s
        dirty-page timer fires, and every WAL segment is a new file, zero-filled at the
        switch. Both hold every commit waiting for its flush (measured at 400 tables: 20-30
        commits at once, 80-165 ms). So: a few WAL switches and a checkpoint, which keeps the
        old segments as the next ones (recycled), then everything written reaches the disk.
        """
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute("CREATE TABLE settle_wal (x int)")
            for _ in range(SETTLE_SEGMENTS):
                await conn.execute("INSERT INTO settle_wal VALUES (1)")
                await conn.execute("SELECT pg_switch_wal()")
            await conn.execute("DROP TABLE settle_wal")
            await conn.execute("CHECKPOINT")
        finally:
            await conn.close()
        await asyncio.to_thread(os.sync)

    def close(self) -> None:
        """Stop the server and remove its files."""
        with contextlib.suppress(PgUnavailable, subprocess.TimeoutExpired):
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)
