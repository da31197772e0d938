"""Is the database file usable? A synchronous check before anything else touches it.

A damaged file used to hang the bot (SQLite's error surfaced inside discord.py's start-up
while aiosqlite's non-daemon thread kept the process alive) and a read-only one started
normally and then failed every move. This check turns each of those into one sentence that
says which file is wrong and what to do, before the bot contacts Discord.

Writability is tried for real (open the file for writing, create a file in its folder)
rather than read from the permission bits: the answer is then right for root (who may
write anything on a writable file system) as for anyone else, and for read-only mounts.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import tempfile
from pathlib import Path

from bot.store._files import inspect_files, is_blank

# SQLite's primary result codes (the low byte of ``sqlite_errorcode``).
_PERM, _BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = (
    3, 5, 6, 8, 10, 11, 13, 14, 26)
RESTORE_HINT = ("restore a copy made with `python -m bot db backup`, or move the file away "
                "to start with an empty database")


class DatabaseUnusable(Exception):
    """The database cannot be used; ``str(exc)`` is one line saying why and what to do."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def check_database_path(path: str | Path) -> None:
    """Raise :class:`DatabaseUnusable` unless ``path`` can be opened as a writable database.

    A missing file is fine (the store creates it) if its folder exists and is writable."""
    name = str(path)
    if name == ":memory:":
        return
    file = Path(path)
    folder = file.parent.absolute()
    try:
        st = file.stat()
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise DatabaseUnusable(
            f"The database {name} cannot be reached ({exc.strerror}): check DATABASE_PATH "
            f"and the permissions of the folders on the way to it.") from exc
    if st is None:
        if not folder.is_dir():
            raise DatabaseUnusable(
                f"The folder {folder} for the database {name} does not exist: create it, or "
                f"point DATABASE_PATH at a file in an existing folder.")
    elif stat.S_ISDIR(st.st_mode):
        raise DatabaseUnusable(
            f"DATABASE_PATH {name} is a folder, not a database file: point it at a file, "
            f"for example {os.path.join(name, 'tysiac.db')}.")
    elif not stat.S_ISREG(st.st_mode):
        raise DatabaseUnusable(
            f"The database {name} is not a regular file: point DATABASE_PATH at a file.")
    _check_folder_writable(name, folder)
    if st is None:
        return
    _check_file_writable(file, main=True)
    for suffix in ("-wal", "-shm"):
        _check_file_writable(Path(f"{name}{suffix}"), main=False)
    if st.st_size or Path(f"{name}-wal").exists():
        _check_not_emptied(name)  # before SQLite opens it: it would delete such a -wal
    if st.st_size:
        _check_readable_by_sqlite(name)


def describe(path: str | Path, exc: sqlite3.Error) -> str:
    """One line for an SQLite error met while opening ``path``: what failed, what to do."""
    name = str(path)
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    said = str(exc) or type(exc).__name__
    if primary in {_CORRUPT, _NOTADB} or "malformed" in said or "not a database" in said:
        return f"The database {name} is damaged (SQLite says: {said}): {RESTORE_HINT}."
    if primary == _READONLY or "readonly" in said:
        return (f"The database {name} is read-only (SQLite says: {said}): let the bot's user "
                f"write the file and its folder.")
    if primary in {_BUSY, _LOCKED}:
        return (f"The database {name} is locked by another program (SQLite says: {said}): "
                f"stop the other bot or tool that uses it, then start again.")
    if primary == _FULL:
        return f"The disk holding the database {name} is full: free some space and start again."
    if primary in {_CANTOPEN, _PERM}:
        return (f"The database {name} cannot be opened (SQLite says: {said}): check "
                f"DATABASE_PATH and that the bot's user may read and write it and its folder.")
    if primary == _IOERR:
        return (f"Reading or writing the database {name} failed (SQLite says: {said}): check "
                f"the disk; if the file is damaged, {RESTORE_HINT}.")
    return (f"The database {name} cannot be used (SQLite says: {said}): if the file is "
            f"damaged, {RESTORE_HINT}.")


def unwritable(path: str | Path, exc: sqlite3.Error) -> str:
    """Why a write was refused, if ``exc`` says the disk or the file refused it (full,
    read-only, an I/O error, locked): a passing state, in which nothing was written; ""
    for any other error."""
    name = str(path)
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    said = str(exc) or type(exc).__name__
    if primary == _FULL:
        return f"the disk holding the database {name} is full (SQLite says: {said})"
    if primary == _READONLY:
        return f"the database {name} is read-only (SQLite says: {said})"
    if primary in {_IOERR, _CANTOPEN, _PERM}:
        return f"writing the database {name} failed (SQLite says: {said})"
    if primary in {_BUSY, _LOCKED}:
        return f"the database {name} is locked (SQLite says: {said})"
    return ""


def _check_folder_writable(name: str, folder: Path) -> None:
    # WAL mode keeps two files next to the database and deletes the -wal one on close.
    try:
        fd, probe = tempfile.mkstemp(prefix=".tysiac-write-test-", dir=folder)
    except OSError as exc:
        raise DatabaseUnusable(
            f"The folder {folder} of the database {name} is not writable ({exc.strerror}); "
            f"SQLite creates its -wal and -shm files there: let the bot's user write in it, "
            f"or point DATABASE_PATH at a writable folder.") from exc
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)


def _check_file_writable(file: Path, *, main: bool) -> None:
    try:
        with open(file, "r+b"):
            pass
    except FileNotFoundError:
        return
    except OSError as exc:
        raise DatabaseUnusable(
            f"The database file {file} is not writable ({exc.strerror}): let the bot's user "
            f"read and write it (for example chmod u+rw), or point DATABASE_PATH elsewhere."
            if main else
            f"SQLite's file {file} next to the database is not writable ({exc.strerror}): "
            f"let the bot's user read and write it.") from exc


def _check_not_emptied(name: str) -> None:
    # A file that was used but holds nothing (its data in a -wal that is missing or
    # unreadable) would otherwise start as an empty database, every table forgotten.
    if not is_blank(name):
        return
    lost = inspect_files(name).data_lost
    if lost:
        raise DatabaseUnusable(
            f"The database {name} holds no tables though it was used: {lost}. Put the "
            f"missing -wal back beside it, or {RESTORE_HINT}.")


def _check_readable_by_sqlite(name: str) -> None:
    # quick_check reads every page (about 0.15 s for 40 MB): a damaged file is found now,
    # not halfway through restoring the tables.
    try:
        db = sqlite3.connect(name, timeout=5.0)
    except sqlite3.Error as exc:
        raise DatabaseUnusable(describe(name, exc)) from exc
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        row = db.execute("PRAGMA quick_check(1)").fetchone()
    except sqlite3.Error as exc:
        raise DatabaseUnusable(describe(name, exc)) from exc
    finally:
        db.close()
    if row is None or row[0] != "ok":
        found = " ".join(str(row[0]).split()) if row else "no answer"
        raise DatabaseUnusable(
            f"The database {name} is damaged (SQLite's check says: {found}): {RESTORE_HINT}.")
