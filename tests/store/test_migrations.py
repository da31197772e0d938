"""Databases of every earlier schema version, with data, upgrade in place."""

from __future__ import annotations

import json
import sqlite3

import pytest

from bot.store import HandLine, MatchRecord, PlayerKind, PlayerRef, Store, migrations


def _build(path, version: int) -> None:
    """A database at ``version``: only the first migrations applied, then some rows."""
    db = sqlite3.connect(path, isolation_level=None)
    for number, _, sql in migrations()[:version]:
        db.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
    db.execute("INSERT INTO tables (id, guild_id, channel_id, host_id, preset, rules, status,"
               " created_at, updated_at, last_human_at) VALUES"
               " (1, 7, 70, 11, 'russian', '{}', 'finished', 10, 50, 50),"
               " (2, 7, 71, 12, 'russian', '{}', 'playing', 60, 90, 90)")
    db.executemany(
        "INSERT INTO seats (table_id, seat, user_id, name, is_ai, ai_level) VALUES (?,?,?,?,?,?)",
        [(1, 0, 11, "Ann (old)", 0, ""), (1, 1, None, "Bot", 1, "hard"),
         (2, 0, 11, "Ann", 0, ""), (2, 1, 12, "Bob", 0, "")])
    seats = [{"user_id": 11, "name": "Ann (old)", "ai": False},
             {"user_id": 13, "name": "Cid", "ai": False},
             {"user_id": None, "name": "Bot", "ai": True}]
    db.execute("INSERT INTO matches (table_id, match_no, rules, dealer, seats, status, winners,"
               " totals, started_at, finished_at) VALUES (1, 1, '{}', 0, ?, 'won', '[0]',"
               " '[1000, 300, 20]', 5, 40)", (json.dumps(seats),))
    db.execute("INSERT INTO matches (table_id, match_no, rules, dealer, seats, status,"
               " started_at) VALUES (2, 1, '{}', 0, 'not json', 'playing', 60)")
    db.execute("INSERT INTO hands (table_id, match_no, hand_no, result, created_at)"
               " VALUES (1, 1, 1, '{\"delta\": [120, 0, 0]}', 30)")
    db.execute("INSERT INTO moves (table_id, match_no, seq, move, created_at)"
               " VALUES (2, 1, 0, '{\"verb\": \"pass\", \"seat\": 0}', 61)")
    if version >= 2:
        db.execute("UPDATE tables SET locale = 'pl' WHERE id = 2")
        db.execute("INSERT INTO looks VALUES (2, 1, 1, 0, 62)")
    if version >= 3:
        db.execute("INSERT INTO set_aside_moves VALUES (2, 1, 5, 'x', NULL, 63, 'bad', 64)")
    db.close()


@pytest.mark.parametrize("version", range(1, len(migrations())))
async def test_upgrade_in_place_from_every_earlier_version(tmp_path, version):
    path = tmp_path / "old.db"
    _build(path, version)
    store = await Store.open(path)
    try:
        assert await store.user_version() == len(migrations())
        table = await store.table(2)  # the old rows are all still there
        assert table is not None and [s.name for s in table.seats] == ["Ann", "Bob"]
        assert table.locale == ("pl" if version >= 2 else "")
        assert [m.raw for m in await store.moves(2, 1)] == ['{"verb": "pass", "seat": 0}']
        assert (await store.hands(1, 1))[0].result == {"delta": [120, 0, 0]}
        assert len(await store.set_aside(2)) == (1 if version >= 3 else 0)
        # Everyone who sat became a player: a human's last name wins; AI one per level.
        async with store.db.execute(
                "SELECT kind, user_id, level, name, first_seen, last_seen FROM players"
                " ORDER BY kind, user_id") as cur:
            players = [tuple(r) for r in await cur.fetchall()]
        assert players == [("ai", None, "hard", "Bot", 10.0, 50.0),
                           ("human", 11, "", "Ann", 5.0, 90.0),
                           ("human", 12, "", "Bob", 90.0, 90.0),
                           ("human", 13, "", "Cid", 5.0, 5.0)]
        async with store.db.execute(
                "SELECT s.table_id, s.seat, p.name FROM seats s JOIN players p"
                " ON p.id = s.player_id ORDER BY s.table_id, s.seat") as cur:
            assert [tuple(r) for r in await cur.fetchall()] == [
                (1, 0, "Ann"), (1, 1, "Bot"), (2, 0, "Ann"), (2, 1, "Bob")]
        # ... and the new record works on the upgraded file.
        ann = PlayerRef(PlayerKind.HUMAN, 11, "", "Ann")
        bob = PlayerRef(PlayerKind.HUMAN, 12, "", "Bob")
        line = HandLine(0, False, None, False, False)
        async with store.transaction() as tx:
            match_id = await tx.record_match(MatchRecord(
                7, 2, 1, "russian", "russian", 60.0, 100.0, (ann, bob), (1000, 200), (0,),
                (False, False), ((line, line),), True, (0, 1)), now=100.0)
        assert (await store.match_info(match_id)).names == ("Ann", "Bob")
        async with store.db.execute("SELECT COUNT(*) FROM players") as cur:
            assert (await cur.fetchone())[0] == 4  # Ann and Bob were known already
    finally:
        await store.close()


async def test_a_new_database_gets_every_migration(tmp_path):
    store = await Store.open(tmp_path / "new.db")
    try:
        assert await store.user_version() == len(migrations())
        assert (await store.guild_settings(5)).default_preset == "russian"
    finally:
        await store.close()
