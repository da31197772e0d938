"""``python -m bot db check`` and ``db backup``: is the database sound, and a safe copy of it.

Both work on a plain ``sqlite3`` connection, without the Store: a check must not migrate or
write the file it examines, and either may run while the bot is running (WAL lets a reader
see a consistent snapshot while the bot goes on writing). On PostgreSQL the check reads one
snapshot in a read-only transaction; the server keeps its own integrity, and backups are
pg_dump's job.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
import sqlite3
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from bot.game.dealing import new_match
from bot.game.engine import apply_into
from bot.game.rules import Rules
from bot.game.serialize import move_from_json
from bot.store._files import DatabaseFiles, inspect_files
from bot.store._health import RESTORE_HINT, DatabaseUnusable
from bot.store._pg_url import check_database_url, describe_url, is_database_url
from bot.store._records import SetAsideRow
from bot.store._status import LIVE_STATUSES, TableStatus
from bot.store._store import log_lost, migrations

SHOWN = 20  # problems listed per kind; the rest are counted


class MaintenanceError(Exception):
    """A maintenance command cannot do its job; ``str(exc)`` is one line for the operator."""


@dataclass(frozen=True, slots=True)
class BadMove:
    """A stored move that cannot be replayed, and why."""

    table_id: int
    match_no: int
    seq: int
    problem: str


@dataclass(slots=True)
class CheckReport:
    """What ``db check`` found; ``healthy`` decides its exit code."""

    path: str
    integrity: list[str] = field(default_factory=list)  # ["ok"] when sound
    version: int = 0
    latest: int = 0
    live_tables: int = 0
    bad_tables: list[str] = field(default_factory=list)  # live tables that cannot replay
    bad_moves: list[BadMove] = field(default_factory=list)
    set_aside: list[SetAsideRow] = field(default_factory=list)
    fatal: str = ""  # the file could not be examined at all
    dialect: str = "sqlite"
    files: DatabaseFiles | None = None  # SQLite: the file and its -wal, -shm, -journal
    lost: str = ""  # why the file holds no data though it was used ("" if it does)
    log_lost: int = 0  # the schema version its tables show, where its own says less

    @property
    def healthy(self) -> bool:
        return (not self.fatal and self.integrity == ["ok"] and self.version <= self.latest
                and not self.bad_tables and not self.bad_moves and not self.lost
                and not self.log_lost)

    def lines(self) -> list[str]:
        """The report as printed, one finding a line."""
        out = [f"Database: {self.path}"]
        if self.fatal:
            return [*out, self.fatal, "Not healthy."]
        if self.dialect == "postgresql":
            out.append("Integrity: kept by the PostgreSQL server")
        else:
            out.append("Integrity: ok" if self.integrity == ["ok"] else
                       f"Integrity: {len(self.integrity)} problem(s) found by SQLite")
        out += [f"  {p}" for p in self.integrity[:SHOWN] if self.integrity != ["ok"]]
        out += self._wal_lines()
        out.append(self._schema_line())
        out.append(f"Live tables: {self.live_tables}, " + (
            "each replays cleanly" if not self.bad_tables else
            f"{len(self.bad_tables)} cannot be replayed"))
        out += [f"  {t}" for t in self.bad_tables[:SHOWN]]
        out.append(f"Unreadable moves: {len(self.bad_moves) or 'none'}")
        out += [f"  table {m.table_id}, match {m.match_no}, seq {m.seq}: {m.problem}"
                for m in self.bad_moves[:SHOWN]]
        out += _more(self.bad_moves)
        out.append(f"Set-aside moves: {len(self.set_aside) or 'none'}")
        out += [f"  table {r.table_id}, match {r.match_no}, seq {r.seq}: {r.reason}"
                f" (stored as {_clip(r.raw)})" for r in self.set_aside[:SHOWN]]
        out += _more(self.set_aside)
        out.append("Healthy." if self.healthy else f"Not healthy: {_advice(self)}")
        return out

    def _wal_lines(self) -> list[str]:
        if self.files is None:
            return []
        wal = self.files.wal
        out = []
        if self.lost:
            out.append(f"Data: none, though the file was used: {self.lost}")
        if wal is None:
            out.append("WAL: missing" if self.lost else "WAL: none (the file holds everything)")
        elif not wal.skipped:
            out.append(f"WAL: {wal.size} bytes, {wal.read} frame(s) read")
        else:
            out.append(f"WAL: {wal.size} bytes, {wal.read} frame(s) read")
            out.append(
                f"Warning: SQLite skipped {wal.skipped} of the WAL's {wal.total} frame(s) "
                f"(damaged, cut short, or a transaction not committed when checked): the "
                f"changes in them are not in the database")
        if self.files.journal is not None:
            out.append(f"Warning: a rollback journal {self.files.path}-journal "
                       f"({self.files.journal} bytes) is beside the file")
        return out

    def _schema_line(self) -> str:
        if self.lost:
            return (f"Schema: version {self.version} of {self.latest} (nothing was ever "
                    f"checkpointed into the file)")
        if self.log_lost:
            return (f"Schema: version {self.version}, yet it holds the tables of version "
                    f"{self.log_lost}: its migration log was lost (the bot will not start on "
                    f"it; {RESTORE_HINT})")
        if self.version == self.latest:
            return f"Schema: version {self.version} (up to date)"
        if self.version < self.latest:
            return (f"Schema: version {self.version} of {self.latest} (the bot brings it up to"
                    f" date when it starts)")
        return (f"Schema: version {self.version}, newer than this bot knows ({self.latest}):"
                f" run the newer bot that wrote it")


def check_database(path: str | Path) -> CheckReport:
    """Integrity, schema version and a replay of every live table, without writing
    (``path``: a SQLite file, or a postgresql:// URL)."""
    if is_database_url(str(path)):
        # Its own thread and loop: callable from a running loop too.
        with concurrent.futures.ThreadPoolExecutor(1) as runner:
            return runner.submit(asyncio.run, _check_postgresql(str(path))).result()
    report = CheckReport(str(path), latest=len(migrations()))
    if not Path(path).is_file():
        report.fatal = f"There is no database file at {path}: check --database or DATABASE_PATH."
        return report
    # The files first: SQLite ignores a damaged -wal (and a read-write connection deletes
    # it on close, so such a one is opened read-only and kept for study).
    report.files = files = inspect_files(path)
    keep_wal = files.wal is not None and files.wal.skipped > 0
    try:
        db = _read_only(path, keep_wal=keep_wal)
    except sqlite3.Error as exc:
        report.fatal = f"The file cannot be opened (SQLite says: {exc})."
        return report
    try:
        report.integrity = [str(r[0]) for r in db.execute("PRAGMA integrity_check")]
        report.version = int(db.execute("PRAGMA user_version").fetchone()[0])
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "tables" in names:
            _check_live_tables(db, report)
        if "set_aside_moves" in names:
            report.set_aside = [SetAsideRow(*r) for r in db.execute(
                "SELECT table_id, match_no, seq, move, user_id, created_at, reason,"
                " set_aside_at FROM set_aside_moves ORDER BY table_id, match_no, seq")]
        if not names and report.version == 0:
            report.lost = files.data_lost
        elif lost := log_lost(report.version, {n.lower() for n in names}):
            report.log_lost = lost
    except sqlite3.Error as exc:
        report.fatal = f"The database is damaged (SQLite says: {exc}): {RESTORE_HINT}."
    finally:
        db.close()
    return report


async def _check_postgresql(url: str) -> CheckReport:
    report = CheckReport(describe_url(url), integrity=["ok"],
                         latest=len(migrations("postgresql")), dialect="postgresql")
    try:
        check_database_url(url)
        conn = await asyncpg.connect(url, timeout=10)
    except DatabaseUnusable as exc:
        report.fatal = str(exc)
        return report
    except Exception as exc:
        report.fatal = (f"PostgreSQL cannot be reached ({str(exc)[:160] or type(exc).__name__}):"
                        f" check DATABASE_URL and that the server is running.")
        return report
    try:
        async with conn.transaction(readonly=True, isolation="repeatable_read"):
            names = {r[0] for r in await conn.fetch(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = current_schema()")}
            if "schema_version" in names:
                report.version = int(await conn.fetchval(
                    "SELECT COALESCE(MAX(version), 0) FROM schema_version"))
            if "tables" in names:
                live = [str(x) for x in LIVE_STATUSES]
                tables = await conn.fetch(
                    "SELECT id, status, match_no, dealer, rules FROM tables"
                    " WHERE status = ANY($1) ORDER BY id", live)
                report.live_tables = len(tables)
                for table_id, status, match_no, dealer, rules_text in tables:
                    if status == TableStatus.SEATING or match_no == 0:
                        continue
                    try:
                        rules = Rules.from_json(json.loads(rules_text))
                    except Exception as exc:
                        report.bad_tables.append(
                            f"table {table_id}: its rules cannot be read ({exc})")
                        continue
                    rows = [(r[0], r[1]) for r in await conn.fetch(
                        "SELECT seq, move FROM moves WHERE table_id = $1 AND match_no = $2"
                        " ORDER BY seq", table_id, match_no)]
                    _replay(table_id, match_no, rules, dealer, rows, report)
            if "set_aside_moves" in names:
                report.set_aside = [SetAsideRow(*r) for r in await conn.fetch(
                    "SELECT table_id, match_no, seq, move, user_id, created_at, reason,"
                    " set_aside_at FROM set_aside_moves ORDER BY table_id, match_no, seq")]
    except (asyncpg.PostgresError, OSError) as exc:
        report.fatal = f"PostgreSQL refused the check ({str(exc)[:160]})."
    finally:
        await conn.close()
    return report


@dataclass(frozen=True, slots=True)
class BackupResult:
    path: str
    size: int  # bytes
    version: int  # schema version of the copy
    tables: int  # rows in its ``tables`` table


def backup_database(source: str | Path, target: str | Path, *,
                    force: bool = False) -> BackupResult:
    """Copy ``source`` into ``target`` with SQLite's online backup (safe while the bot runs).

    The copy is a single file (no -wal), checked, and appears at ``target`` only once complete;
    MaintenanceError if ``target`` exists (unless ``force``) or anything fails."""
    target = Path(target)
    if is_database_url(str(source)):
        raise MaintenanceError(
            "db backup copies SQLite files; back PostgreSQL up with its own tool, e.g. "
            "pg_dump --format=custom --file=tysiac.dump \"$DATABASE_URL\".")
    if not Path(source).is_file():
        raise MaintenanceError(
            f"There is no database file at {source}: check --database or DATABASE_PATH.")
    if target.is_dir():
        raise MaintenanceError(f"{target} is a folder: give the backup a file name.")
    if target.exists() and not force:
        raise MaintenanceError(
            f"{target} already exists: choose another name, or add --force to replace it.")
    folder = target.parent.absolute()
    if not folder.is_dir():
        raise MaintenanceError(f"The folder {folder} does not exist: create it first.")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    except OSError as exc:
        raise MaintenanceError(f"Cannot write in {folder} ({exc.strerror}).") from exc
    os.close(fd)
    try:
        os.chmod(tmp, stat.S_IMODE(Path(source).stat().st_mode))  # as a plain copy would be
        result = _copy(source, tmp)
        os.replace(tmp, target)
    except BaseException:
        for leftover in (tmp, f"{tmp}-journal", f"{tmp}-wal", f"{tmp}-shm"):
            with contextlib.suppress(OSError):
                os.unlink(leftover)
        raise
    return BackupResult(str(target), target.stat().st_size, result[0], result[1])


def _copy(source: str | Path, tmp: str) -> tuple[int, int]:
    """Back ``source`` up into the file ``tmp``; (schema version, tables) of the copy."""
    try:
        src = _read_only(source)
    except sqlite3.Error as exc:
        raise MaintenanceError(f"Cannot open {source} (SQLite says: {exc}).") from exc
    try:
        dst = sqlite3.connect(tmp, isolation_level=None)
        try:
            # One step (pages=-1): a single read transaction, so the copy is the snapshot
            # of one moment even while the bot commits moves into the WAL.
            src.backup(dst)
            # The copy keeps the WAL flag of its source: make it one self-contained file.
            dst.execute("PRAGMA journal_mode = DELETE")
            check = dst.execute("PRAGMA quick_check(1)").fetchone()
            if check is None or check[0] != "ok":
                raise MaintenanceError(f"The copy fails SQLite's check ({check}): the source "
                                       f"{source} may be damaged; run `python -m bot db check`.")
            version = int(dst.execute("PRAGMA user_version").fetchone()[0])
            names = {r[0] for r in dst.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")}
            tables = (int(dst.execute("SELECT count(*) FROM tables").fetchone()[0])
                      if "tables" in names else 0)
        finally:
            dst.close()
    except sqlite3.Error as exc:
        raise MaintenanceError(
            f"The backup of {source} failed (SQLite says: {exc}); run `python -m bot db check`."
        ) from exc
    finally:
        src.close()
    return version, tables


def _read_only(path: str | Path, *, keep_wal: bool = False) -> sqlite3.Connection:
    """A connection that cannot write (or create) the database (``keep_wal``: nor remove
    its -wal)."""
    file = Path(path).absolute()
    # A read-write connection that refuses writes (query_only) where the file may be
    # written: the last one to close removes the -wal and -shm files, which a mode=ro
    # connection would leave behind.
    writable = (not keep_wal and os.access(file, os.W_OK)
                and os.access(file.parent, os.W_OK))
    db = sqlite3.connect(f"{file.as_uri()}?mode={'rw' if writable else 'ro'}", uri=True,
                         timeout=10.0)
    db.execute("PRAGMA query_only = ON")
    return db


def _check_live_tables(db: sqlite3.Connection, report: CheckReport) -> None:
    marks = ",".join("?" * len(LIVE_STATUSES))
    tables = db.execute(
        f"SELECT id, status, match_no, dealer, rules FROM tables WHERE status IN ({marks})"
        f" ORDER BY id", [str(x) for x in LIVE_STATUSES]).fetchall()
    report.live_tables = len(tables)
    for table_id, status, match_no, dealer, rules_text in tables:
        if status == TableStatus.SEATING or match_no == 0:
            continue  # nothing to replay (as the service's restore)
        try:
            rules = Rules.from_json(json.loads(rules_text))
        except Exception as exc:
            report.bad_tables.append(f"table {table_id}: its rules cannot be read ({exc})")
            continue
        rows = db.execute(
            "SELECT seq, move FROM moves WHERE table_id = ? AND match_no = ? ORDER BY seq",
            (table_id, match_no)).fetchall()
        _replay(table_id, match_no, rules, dealer, rows, report)


def _replay(table_id: int, match_no: int, rules: Rules, dealer: int,
            rows: list[tuple[int, Any]], report: CheckReport) -> None:
    """Replay a match as the service does; every undecodable row, and the first one the
    engine refuses (later moves depend on it, so the replay stops there)."""
    state = new_match(rules, dealer)
    stopped_at: int | None = None
    for index, (seq, text) in enumerate(rows):
        try:
            data = json.loads(text)
            if not isinstance(data, dict):
                raise TypeError("not a JSON object")
        except (TypeError, ValueError) as exc:
            report.bad_moves.append(BadMove(table_id, match_no, seq,
                                            f"not a stored move ({exc}): {_clip(text)}"))
            stopped_at = index if stopped_at is None else stopped_at
            continue
        if stopped_at is not None:
            continue
        try:
            move = move_from_json(data)
        except Exception as exc:
            report.bad_moves.append(BadMove(table_id, match_no, seq,
                                            f"unknown move ({_why(exc)}): {_clip(text)}"))
            stopped_at = index
            continue
        try:
            state = apply_into(state, move, None, inplace=True)
        except Exception as exc:
            report.bad_moves.append(BadMove(table_id, match_no, seq,
                                            f"illegal move ({_why(exc)}): {_clip(text)}"))
            stopped_at = index
    if stopped_at is not None:
        later = len(rows) - stopped_at - 1
        report.bad_tables.append(
            f"table {table_id}, match {match_no}: the replay stops at seq "
            f"{rows[stopped_at][0]}" + (f" ({later} later move(s) not replayed)" if later
                                        else " (its last move)"))


def _why(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _clip(text: Any, limit: int = 80) -> str:
    shown = repr(text)
    return shown if len(shown) <= limit else shown[:limit - 3] + "..."


def _more(items: list[Any]) -> list[str]:
    return [f"  ... and {len(items) - SHOWN} more"] if len(items) > SHOWN else []


def _advice(report: CheckReport) -> str:
    if report.lost:
        return ("put the missing -wal back beside the file, or restore a backup; started "
                "on it, the bot stops with one line rather than begin with no tables.")
    if report.integrity != ["ok"]:
        return RESTORE_HINT + "."
    if report.version > report.latest:
        return "this bot is older than the database; run the newer one."
    if report.log_lost:
        return (f"the file says schema version {report.version} though its tables are of "
                f"version {report.log_lost}; {RESTORE_HINT}.")
    return ("the tables listed cannot be restored as stored; restore a backup made before "
            "the damage if they must go on exactly as they were.")
