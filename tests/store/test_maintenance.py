"""``python -m bot db check`` and ``db backup`` against real database files (SQLite only,
apart from the PostgreSQL check at the end)."""

from __future__ import annotations

import asyncio
import random
import sqlite3

import pytest

from bot.__main__ import main
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply, legal_actions
from bot.game.presets import preset
from bot.game.serialize import move_to_json
from bot.store import Store, StoreAPI, migrations, open_store
from bot.store.maintenance import MaintenanceError, backup_database, check_database
from tests.pgserver import free_port


async def playing_table(store: StoreAPI, channel: int, *, actions: int = 6) -> tuple[int, int]:
    """A live table in the middle of its first match (dealt, a few legal moves); (id, moves)."""
    rules = preset("russian")
    state = new_match(rules, 0)
    moves = random_deal(state, random.Random(channel))
    for m in moves:
        state, _ = apply(state, m)
    rng = random.Random(channel)
    for _ in range(actions):
        legal = legal_actions(state)
        step = [rng.choice(legal)] if legal else random_deal(state, rng)  # a redeal
        for action in step:
            state, _ = apply(state, action)
            moves.append(action)
    async with store.transaction() as tx:
        tid = await tx.create_table(guild_id=1, channel_id=channel, host_id=1,
                                    preset="russian", rules=rules.to_json(), timer=0, now=1.0)
        await tx.update_table(tid, status="playing", match_no=1, dealer=0)
        await tx.start_match(tid, 1, rules=rules.to_json(), dealer=0, seats=[], now=1.0)
        await tx.append_moves(tid, 1, 0, [(move_to_json(m), None) for m in moves], now=2.0)
    return tid, len(moves)


def set_move(path, tid: int, seq: int, text: str) -> None:
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE moves SET move = ? WHERE table_id = ? AND seq = ?", (text, tid, seq))
    db.close()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


async def test_a_healthy_database_checks_clean(tmp_path, capsys):
    path = tmp_path / "t.db"
    store = await Store.open(path)
    await playing_table(store, 1)
    await playing_table(store, 2)
    await store.close()
    code, out, _ = run(capsys, "db", "check", "--database", str(path))
    assert code == 0, out
    assert "Integrity: ok" in out
    assert f"Schema: version {len(migrations())} (up to date)" in out
    assert "Live tables: 2, each replays cleanly" in out
    assert out.rstrip().endswith("Healthy.")


async def test_unreadable_moves_are_listed_with_table_match_and_seq(tmp_path, capsys):
    path = tmp_path / "t.db"
    store = await Store.open(path)
    good, _ = await playing_table(store, 1)
    broken, count = await playing_table(store, 2)
    illegal, _ = await playing_table(store, 3)
    await store.close()
    set_move(path, broken, count - 3, '{"seat": 1, "verb": "pl')  # cut short
    set_move(path, illegal, 1, '{"seat": 0, "verb": "dance"}')  # no such move
    code, out, _ = run(capsys, "db", "check", "--database", str(path))
    assert code == 1
    assert f"table {broken}, match 1, seq {count - 3}: not a stored move" in out
    assert f"table {illegal}, match 1, seq 1: unknown move" in out
    assert f"table {good}," not in out
    assert "Unreadable moves: 2" in out and "Not healthy" in out
    report = check_database(path)
    assert [(m.table_id, m.seq) for m in report.bad_moves] == [(broken, count - 3),
                                                              (illegal, 1)]


async def test_an_illegal_move_stops_the_replay_there(tmp_path):
    path = tmp_path / "t.db"
    store = await Store.open(path)
    tid, count = await playing_table(store, 1)
    await store.close()
    db = sqlite3.connect(path)
    last = db.execute("SELECT move FROM moves WHERE table_id = ? AND seq = ?",
                      (tid, count - 1)).fetchone()[0]
    db.close()
    set_move(path, tid, count - 3, last)  # a legal-looking move played out of turn
    report = check_database(path)
    assert not report.healthy
    assert [(m.seq, m.problem.split(" (")[0]) for m in report.bad_moves] == [
        (count - 3, "illegal move")]
    assert "2 later move(s) not replayed" in report.bad_tables[0]


async def test_set_aside_moves_are_listed(tmp_path, capsys):
    path = tmp_path / "t.db"
    store = await Store.open(path)
    tid, count = await playing_table(store, 1)
    set_move(path, tid, count - 1, "garbage")
    async with store.transaction() as tx:
        await tx.set_aside_moves(tid, 1, count - 1, "move is not JSON", now=5.0)
    await store.close()
    code, out, _ = run(capsys, "db", "check", "--database", str(path))
    assert code == 0, out  # the log replays; the set-aside row is a record, not damage
    assert "Set-aside moves: 1" in out
    assert f"table {tid}, match 1, seq {count - 1}: move is not JSON (stored as 'garbage')" in out


def test_a_damaged_file_is_reported_not_raised(tmp_path, capsys):
    path = tmp_path / "bad.db"
    path.write_bytes(b"SQLite format 3\0" + bytes(range(256)) * 64)
    code, out, _ = run(capsys, "db", "check", "--database", str(path))
    assert code == 1 and "damaged" in out and "Traceback" not in out


def test_check_uses_database_path_without_a_token(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "missing.db"))
    code, out, _ = run(capsys, "db", "check")
    assert code == 1 and "no database file at" in out and str(tmp_path / "missing.db") in out
    assert not (tmp_path / "missing.db").exists()  # a check never creates the file


async def test_backup_while_another_connection_writes(tmp_path):
    path = tmp_path / "t.db"
    store = await Store.open(path)
    tid, start = await playing_table(store, 1)
    batch = 10
    stop = asyncio.Event()

    async def write() -> int:
        seq = start
        while not stop.is_set():
            async with store.transaction() as tx:
                await tx.append_moves(tid, 1, seq, [({"seat": 0, "verb": "pass"}, 1)] * batch,
                                      now=3.0)
            seq += batch
            await asyncio.sleep(0)
        return seq

    writer = asyncio.create_task(write())
    copies = []
    for i in range(4):
        await asyncio.sleep(0.02)
        result = await asyncio.to_thread(backup_database, path, tmp_path / f"copy{i}.db")
        copies.append(result.path)
    stop.set()
    written = await writer
    await store.close()
    counts = []
    for copy in copies:
        db = sqlite3.connect(copy)
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one file
        counts.append(db.execute("SELECT count(*) FROM moves").fetchone()[0])
        db.close()
    # each copy is one moment of the log: whole transactions only, and later copies see more
    assert all((c - start) % batch == 0 for c in counts), counts
    assert counts == sorted(counts) and counts[0] < counts[-1] < written + 1
    assert not list(tmp_path.glob("*.part*"))


async def test_backup_refuses_to_overwrite_unless_forced(tmp_path, capsys):
    path = tmp_path / "t.db"
    store = await Store.open(path)
    await playing_table(store, 1)
    await store.close()
    target = tmp_path / "backup.db"
    target.write_text("precious")
    code, out, err = run(capsys, "db", "backup", str(target), "--database", str(path))
    assert code == 1 and "already exists" in err and "--force" in err
    assert target.read_text() == "precious"
    code, out, _ = run(capsys, "db", "backup", str(target), "--database", str(path), "--force")
    assert code == 0 and f"to {target}" in out and "1 table(s)" in out
    assert check_database(target).healthy


def test_backup_of_a_missing_database_creates_nothing(tmp_path):
    with pytest.raises(MaintenanceError, match="no database file"):
        backup_database(tmp_path / "missing.db", tmp_path / "copy.db")
    assert list(tmp_path.iterdir()) == []


def test_postgresql_check_reports_the_schema_and_replays_live_tables(pg_server, capsys):
    """db check on a postgresql:// URL: schema version, live tables, set-aside moves."""
    async def build() -> str:
        url = await pg_server.new_database()
        store = await open_store(url)
        await playing_table(store, 1)
        await playing_table(store, 2)
        await store.close()
        return url
    url = asyncio.run(build())
    code, out, _ = run(capsys, "db", "check", "--database", url)
    assert code == 0, out
    assert "password" not in out and f"127.0.0.1:{pg_server.port}/" in out
    assert f"Schema: version {len(migrations())} (up to date)" in out
    assert "Live tables: 2, each replays cleanly" in out
    assert out.rstrip().endswith("Healthy.")
    code, _, err = run(capsys, "db", "backup", "copy.db", "--database", url)
    assert code == 1 and "pg_dump" in err


def test_postgresql_check_of_a_server_that_is_not_there(capsys):
    code, out, _ = run(capsys, "db", "check", "--database",
                       f"postgresql://nobody@127.0.0.1:{free_port()}/tysiac")
    assert code == 1 and "cannot be reached" in out and "Traceback" not in out
