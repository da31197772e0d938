"""A database whose -wal was lost or damaged (SQLite files only): ``db check`` says so instead
of "Healthy.", the start-up check refuses it in one line instead of starting empty, and
frames SQLite skipped are reported as a warning.

The damaged folders are real: a store is used, and its files are copied while it is open
(as a copy of the folder by hand, or a crash, would leave them), some of them left out or
changed."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.store import DatabaseUnusable, Store, check_database_path
from bot.store import check_database as check_at_start
from bot.store._files import inspect_files
from bot.store.maintenance import check_database


async def _used(source: Path, moves: int) -> Store:
    store = await Store.open(source, checkpoint_after=3600)  # no checkpoint meanwhile
    async with store.transaction() as tx:
        table = await tx.create_table(guild_id=1, channel_id=10, host_id=5, preset="russian",
                                      rules={}, timer=0, now=1.0)
    for seq in range(moves):
        async with store.transaction() as tx:
            await tx.append_moves(table, 1, seq, [({"verb": "pass"}, 7)], 2.0)
    return store


def copy_open_database(tmp_path: Path, keep: tuple[str, ...] = ("", "-wal", "-shm"), *,
                       checkpointed: bool = False, moves: int = 3) -> Path:
    """The files of a database in use, copied into a folder of their own (``keep``: which
    of them); ``checkpointed``: the schema and a table reached the file before the moves."""
    source = tmp_path / "source" / "tysiac.db"
    source.parent.mkdir()
    target = tmp_path / "copy" / "tysiac.db"
    target.parent.mkdir()

    async def build() -> None:
        store = await _used(source, 0 if checkpointed else moves)
        if checkpointed:
            await store.checkpoint()
            for seq in range(moves):
                async with store.transaction() as tx:
                    await tx.append_moves(1, 1, seq, [({"verb": "pass"}, 7)], 2.0)
        for suffix in keep:
            shutil.copyfile(f"{source}{suffix}", f"{target}{suffix}")
        await store.close()

    asyncio.run(build())
    return target


def damage(path: Path, at: int, count: int = 4) -> None:
    with open(path, "r+b") as f:
        f.seek(at)
        f.write(bytes((b ^ 0xFF) for b in f.read(count)))
        f.seek(at)


def check_lines(path: Path, capsys) -> tuple[int, str]:
    code = main(["db", "check", "--database", str(path)])
    return code, capsys.readouterr().out


def test_a_used_file_without_its_wal_is_not_healthy(tmp_path, capsys):
    path = copy_open_database(tmp_path, ("",))  # the usual backup by hand: the file alone
    assert path.stat().st_size > 0
    code, out = check_lines(path, capsys)
    assert code == 1, out
    assert "Healthy." not in out
    assert f"Data: none, though the file was used: it is in WAL mode but {path}-wal" in out
    assert "is missing" in out
    assert "Not healthy: put the missing -wal back" in out


def test_a_shm_without_its_wal_is_named(tmp_path, capsys):
    path = copy_open_database(tmp_path, ("", "-shm"))
    code, out = check_lines(path, capsys)
    assert code == 1 and "its -shm is there, without it" in out, out


def test_a_wal_sqlite_cannot_read_is_not_healthy_and_kept(tmp_path, capsys):
    path = copy_open_database(tmp_path)
    wal = Path(f"{path}-wal")
    size = wal.stat().st_size
    damage(wal, 24)  # the header's checksum: SQLite ignores the whole file
    code, out = check_lines(path, capsys)
    assert code == 1, out
    assert f"its -wal ({size} bytes, where everything written since the last checkpoint is)"\
        " cannot be read by SQLite" in out
    assert wal.stat().st_size == size  # the check kept it, for whoever tries to recover it


def test_frames_sqlite_skipped_are_a_warning(tmp_path, capsys):
    path = copy_open_database(tmp_path, checkpointed=True, moves=3)
    wal = Path(f"{path}-wal")
    before = inspect_files(path).wal
    assert before is not None and before.read > 0 and before.skipped == 0
    # Inside the page of the last frame read: the last commit (a move).
    damage(wal, 32 + (before.read - 1) * (24 + 4096) + 24 + 100)
    report = check_database(path)
    out = "\n".join(report.lines())
    assert report.healthy, out  # what SQLite reads is sound
    assert report.files is not None and report.files.wal is not None
    skipped = report.files.wal.skipped
    assert skipped >= 1
    assert (f"Warning: SQLite skipped {skipped} of the WAL's {report.files.wal.total} "
            f"frame(s)") in out
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:  # what SQLite reads
        assert db.execute("SELECT count(*) FROM moves").fetchone()[0] == 2


def test_a_sound_wal_checks_clean(tmp_path, capsys):
    path = copy_open_database(tmp_path)  # as a kill -9 before the first checkpoint leaves it
    code, out = check_lines(path, capsys)
    assert code == 0, out
    assert "WAL: " in out and "frame(s) read" in out and "Warning" not in out


@pytest.mark.parametrize(("keep", "says"), [
    (("",), "it is in WAL mode but"),
    (("", "-shm"), "its -shm is there, without it"),
])
def test_start_refuses_a_used_file_without_its_wal(tmp_path, keep, says):
    path = copy_open_database(tmp_path, keep)
    with pytest.raises(DatabaseUnusable) as refused:
        check_database_path(path)
    line = str(refused.value)
    assert "\n" not in line
    assert f"The database {path} holds no tables though it was used" in line
    assert says in line and "Put the missing -wal back" in line


def test_start_refuses_a_wal_it_cannot_read_and_keeps_it(tmp_path):
    path = copy_open_database(tmp_path)
    wal = Path(f"{path}-wal")
    damage(wal, 24)
    size = wal.stat().st_size
    with pytest.raises(DatabaseUnusable, match="cannot be read by SQLite"):
        check_database_path(path)
    assert wal.stat().st_size == size


async def test_start_accepts_a_file_whose_data_is_still_in_its_wal(tmp_path):
    """Killed before the first checkpoint: the file is blank, its -wal holds everything."""
    path = await asyncio.to_thread(copy_open_database, tmp_path)
    check_database_path(path)
    store = await Store.open(path)
    try:
        assert len(await store.moves(1, 1)) == 3
    finally:
        await store.close()


async def test_a_file_that_lost_its_migration_log_is_refused_not_migrated(tmp_path, capsys):
    """A file whose tables are there but whose schema version (SQLite's ``user_version``, in
    its header) says 0, as a tool that rewrote the file may leave it: the start-up check,
    opening it and ``db check`` all say so in one line, instead of running the first
    migration over it (which fails on the existing tables) or starting empty."""
    path = tmp_path / "tysiac.db"
    store = await _used(path, moves=2)
    await store.close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 0")
    db.commit()
    db.close()
    with pytest.raises(DatabaseUnusable, match="migration log was lost") as refused:
        check_at_start(str(path))
    assert "\n" not in str(refused.value) and "says version 0" in str(refused.value)
    with pytest.raises(DatabaseUnusable, match="migration log was lost"):
        await Store.open(path)
    report = check_database(path)
    assert not report.healthy
    assert any("migration log was lost" in line for line in report.lines())
    db = sqlite3.connect(path)
    assert [r[0] for r in db.execute("SELECT COUNT(*) FROM moves")] == [2]  # left as it was
    db.close()
