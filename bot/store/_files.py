"""The files of a SQLite database, read as bytes before SQLite opens them.

In WAL mode the commits since the last checkpoint live only in ``<db>-wal``. SQLite reads the
WAL's frames up to the last one whose checksum is right and ignores a WAL whose header is
wrong, silently: a database whose ``-wal`` was lost or damaged opens as what its file alone
holds, which may be nothing. Opening it read-write also deletes such a ``-wal`` when the last
connection closes. So the start-up check and ``db check`` look at the files first, without
SQLite: what the main file's header says, and how many of the WAL's frames SQLite will read.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

_HEADER = b"SQLite format 3\x00"
_WAL_MAGIC = (0x377F0682, 0x377F0683)  # the low bit: checksums of big-endian words
_WAL_HEADER, _FRAME_HEADER = 32, 24


@dataclass(frozen=True, slots=True)
class WalFrames:
    """The frames of a ``-wal`` file: how many its size holds, and what SQLite makes of them."""

    size: int  # bytes
    total: int  # frames its size holds (one cut short included)
    read: int  # frames SQLite reads: the valid ones up to the last commit
    stale: int  # frames left from before the WAL was started again (old data, checkpointed)

    @property
    def skipped(self) -> int:
        """Frames of the current WAL that SQLite does not read: damaged, cut short, or a
        transaction not committed (yet)."""
        return self.total - self.read - self.stale


@dataclass(frozen=True, slots=True)
class DatabaseFiles:
    """A database file and the files SQLite keeps beside it."""

    path: str
    size: int  # bytes of the database file (0: missing or empty)
    wal_mode: bool  # its header says WAL
    blank: bool  # empty, or a header without schema or user_version: nothing was ever
    #              checkpointed into it
    wal: WalFrames | None  # None: no -wal file
    shm: bool  # a -shm file exists
    journal: int | None  # bytes of a rollback journal (-journal), None: none

    @property
    def wal_unreadable(self) -> bool:
        """A -wal with frames of which SQLite reads none."""
        return self.wal is not None and self.wal.read == 0 and self.wal.skipped > 0

    @property
    def data_lost(self) -> str:
        """Why the file holds no data though it once did ("" if nothing says so): an
        uninitialised file with a size, whose -wal is missing or cannot be read."""
        if not self.blank or (self.size == 0 and not self.wal_unreadable):
            return ""
        name = self.path
        if self.wal_unreadable:
            assert self.wal is not None
            return (f"its -wal ({self.wal.size} bytes, where everything written since the "
                    f"last checkpoint is) cannot be read by SQLite")
        if self.wal is not None and self.wal.read > 0:
            return ""  # the data is in the WAL, not yet checkpointed: fine
        if self.wal_mode:
            pair = " (its -shm is there, without it)" if self.shm else ""
            return (f"it is in WAL mode but {name}-wal, where everything written since the "
                    f"last checkpoint was, is missing{pair}")
        if self.journal is not None:
            return (f"a rollback journal {name}-journal ({self.journal} bytes) is beside it")
        return f"it is {self.size} bytes but was never given a schema"


def is_blank(path: str | Path) -> bool:
    """The database file is empty or was never given a schema (see :class:`DatabaseFiles`)."""
    return inspect_files(path, frames=False).blank


def inspect_files(path: str | Path, *, frames: bool = True) -> DatabaseFiles:
    """What the files of the database at ``path`` say (a missing file reads as empty);
    ``frames=False``: the -wal's frames are not counted (its size only)."""
    name = str(path)
    head = _read(Path(name), 100)
    size = _size(Path(name)) or 0
    valid = head.startswith(_HEADER) and len(head) >= 100
    wal_mode = valid and head[18] == 2 and head[19] == 2
    # A file that is not SQLite's is damage, for SQLite's own check to report.
    blank = size == 0 or (valid and struct.unpack(">I", head[40:44])[0] == 0
                          and struct.unpack(">I", head[60:64])[0] == 0)
    wal_size = _size(Path(f"{name}-wal"))
    return DatabaseFiles(
        path=name, size=size, wal_mode=wal_mode, blank=blank,
        wal=None if wal_size is None else read_wal(Path(f"{name}-wal")) if frames else
        WalFrames(wal_size, 0, 0, 0),
        shm=Path(f"{name}-shm").exists(), journal=_size(Path(f"{name}-journal")))


def read_wal(path: Path) -> WalFrames:
    """Count the frames of a ``-wal`` file as SQLite reads them (its checksums and salts)."""
    try:
        data = path.read_bytes()
    except OSError:
        return WalFrames(0, 0, 0, 0)
    size = len(data)
    if size < _WAL_HEADER:
        return WalFrames(size, 1 if size else 0, 0, 0)  # a header cut short
    magic, _, page, _, salt1, salt2, c1, c2 = struct.unpack(">8I", data[:_WAL_HEADER])
    if page < 512 or page > 65536 or page & (page - 1):
        return WalFrames(size, -(-(size - _WAL_HEADER) // (4096 + _FRAME_HEADER)), 0, 0)
    frame = _FRAME_HEADER + page
    total = -(-(size - _WAL_HEADER) // frame)  # a frame cut short counts (as skipped)
    if magic not in _WAL_MAGIC:
        return WalFrames(size, total, 0, 0)
    order = ">" if magic & 1 else "<"
    s = _checksum(data[:24], order, 0, 0)
    if s != (c1, c2):
        return WalFrames(size, total, 0, 0)  # SQLite ignores the whole file
    read = 0
    for i in range(total):
        at = _WAL_HEADER + i * frame
        if at + frame > size:
            break
        pgno, commit, fs1, fs2, fc1, fc2 = struct.unpack(">6I", data[at:at + _FRAME_HEADER])
        if (fs1, fs2) != (salt1, salt2):
            break  # a frame of an earlier round of the WAL (or damage): SQLite stops here
        s = _checksum(data[at:at + 8], order, *s)
        s = _checksum(data[at + _FRAME_HEADER:at + frame], order, *s)
        if pgno == 0 or s != (fc1, fc2):
            break
        if commit:
            read = i + 1
    # After the frames read: those of an earlier round of the WAL are old data (already in
    # the database file); those of this round were skipped.
    stale = sum(1 for j in range(read, total)
                if _salts(data, _WAL_HEADER + j * frame) != (salt1, salt2))
    return WalFrames(size, total, read, stale)


def _salts(data: bytes, at: int) -> tuple[int, int] | None:
    if at + 16 > len(data):
        return None
    one, two = struct.unpack(">2I", data[at + 8:at + 16])
    return one, two


def _checksum(chunk: bytes, order: str, s0: int, s1: int) -> tuple[int, int]:
    """SQLite's WAL checksum over ``chunk`` (a multiple of 8 bytes), going on from s0, s1."""
    words = struct.unpack(f"{order}{len(chunk) // 4}I", chunk)
    mask = 0xFFFFFFFF
    for k in range(0, len(words), 2):
        s0 = (s0 + words[k] + s1) & mask
        s1 = (s1 + words[k + 1] + s0) & mask
    return s0, s1


def _read(path: Path, count: int) -> bytes:
    try:
        with path.open("rb") as f:
            return f.read(count)
    except OSError:
        return b""


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None
