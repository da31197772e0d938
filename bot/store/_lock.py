"""One bot process per SQLite file: an advisory lock held while the bot runs.

SQLite serves one writing process well; two bot processes on one file would each restore
the same live tables and answer the same buttons from different memories. ``python -m bot
run`` therefore takes an exclusive ``flock`` on ``<database>.lock`` before it opens the
store, and a second process is refused with one line. The kernel drops the lock when the
process ends however it ends (kill -9 included), so a stale lock file blocks nothing.
Maintenance commands (``db check``, ``db backup``) take no lock: they are safe beside a bot.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from bot.store._health import DatabaseUnusable

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock, no refusal
    fcntl = None  # type: ignore[assignment]


class DatabaseInUse(DatabaseUnusable):
    """Another bot process holds the database; ``str(exc)`` says what to do instead."""


def lock_path(database: str | Path) -> Path:
    """The lock file next to ``database``."""
    return Path(f"{database}.lock")


@contextlib.contextmanager
def one_process(database: str | Path) -> Iterator[None]:
    """Hold the database for this process until the block ends; ``DatabaseInUse`` if another
    process holds it."""
    name = str(database)
    if name == ":memory:" or fcntl is None:
        yield
        return
    path = lock_path(database)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except PermissionError:  # someone else's lock file: reading is enough for flock
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError as exc:
            raise DatabaseUnusable(
                f"The lock file {path} of the database {name} cannot be opened "
                f"({exc.strerror}): let the bot's user read it, or remove it.") from exc
    except OSError as exc:
        raise DatabaseUnusable(
            f"The lock file {path} of the database {name} cannot be created "
            f"({exc.strerror}): let the bot's user write in its folder.") from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            raise DatabaseInUse(
                f"Another bot process{holder} is using {name}; SQLite serves one process. "
                f"Stop the other one, or run several processes on PostgreSQL "
                f"(DATABASE_URL).") from None
        with contextlib.suppress(OSError):  # who holds it, for the next one's message
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # releases the lock


def _holder(fd: int) -> str:
    with contextlib.suppress(OSError, ValueError):
        pid = int(os.pread(fd, 32, 0).decode().strip())
        return f" (pid {pid})"
    return ""
