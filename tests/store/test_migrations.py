"""Databases of every earlier schema version, with data, upgrade in place; the loader picks
each database's own file where the dialects disagree."""

from __future__ import annotations

import json
import sqlite3

import asyncpg
import pytest

from bot.store import HandLine, MatchRecord, PlayerKind, PlayerRef, Store, migrations, open_store
from bot.store import _store as store_module
from tests.databases import rows


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
    if version >= 4:
        db.execute("INSERT INTO global_opt_ins VALUES (11)")
    db.close()


COMMUNITY = 4  # the migration that made a player of everyone who sat at a table


async def _players_made_of_the_rows(store) -> None:
    """Everyone who sat became a player: a human's last name wins; AI one per level."""
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


@pytest.mark.parametrize("version", range(1, len(migrations())))
@pytest.mark.slow
async def test_sqlite_upgrade_in_place_from_every_earlier_version(tmp_path, version):
    """SQLite only: files of every earlier version exist in the wild (PostgreSQL below)."""
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
        assert table.pause == 8  # an older table gets the default pause between hands
        if version < COMMUNITY:  # the rows came before the players: they were made of them
            await _players_made_of_the_rows(store)
        # /optin: the leaderboard choice is kept, the turn ping starts off
        ann_choice = await store.player_settings(11)
        assert ann_choice.global_opt_in == (version >= COMMUNITY) and not ann_choice.turn_ping
        async with store.transaction() as tx:
            await tx.set_turn_ping(11, True)
        assert (await store.player_settings(11)).turn_ping
        # ... and the new record works on the upgraded file.
        ann = PlayerRef(PlayerKind.HUMAN, 11, "", "Ann")
        bob = PlayerRef(PlayerKind.HUMAN, 12, "", "Bob")
        line = HandLine(0, False, None, False, False)
        async with store.transaction() as tx:
            match_id = await tx.record_match(MatchRecord(
                7, 2, 1, "russian", "russian", 60.0, 100.0, (ann, bob), (1000, 200), (0,),
                (False, False), ((line, line),), (0, 1)), now=100.0)
        assert (await store.match_info(match_id)).names == ("Ann", "Bob")
        async with store.db.execute("SELECT COUNT(*) FROM players") as cur:
            assert (await cur.fetchone())[0] == (4 if version < COMMUNITY else 2)
    finally:
        await store.close()


async def test_a_new_database_gets_every_migration(database):
    store = await open_store(database)
    try:
        assert await store.schema_version() == len(migrations())
        assert (await store.guild_settings(5)).default_preset == ""  # none chosen
    finally:
        await store.close()


async def test_postgresql_upgrade_in_place_from_every_earlier_version(pg_server):
    """A PostgreSQL database left at each earlier version (with tables, seats and a move)
    gets the rest, recorded in schema_version, and keeps its rows."""
    for version in range(1, len(migrations())):
        url = await pg_server.new_database()
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY,"
                               " name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)")
            for number, name, sql in migrations("postgresql")[:version]:
                await conn.execute(sql)
                await conn.execute("INSERT INTO schema_version VALUES ($1, $2, 0)", number, name)
            await conn.execute(
                "INSERT INTO tables (id, guild_id, channel_id, host_id, preset, rules, status,"
                " created_at, updated_at, last_human_at) VALUES"
                " (1, 7, 70, 11, 'russian', '{}', 'playing', 10, 50, 50)")
            await conn.executemany(
                "INSERT INTO seats (table_id, seat, user_id, name, is_ai, ai_level)"
                " VALUES ($1, $2, $3, $4, $5, $6)",
                [(1, 0, 2**62, "Ann", 0, ""), (1, 1, None, "Bot", 1, "hard")])
            await conn.execute("INSERT INTO moves (table_id, match_no, seq, move, created_at)"
                               " VALUES (1, 1, 0, '{\"verb\": \"pass\"}', 61)")
        finally:
            await conn.close()
        store = await open_store(url)
        try:
            assert await store.schema_version() == len(migrations())
            table = await store.table(1)
            assert table is not None and [s.user_id for s in table.seats] == [2**62, None]
            assert [m.raw for m in await store.moves(1, 1)] == ['{"verb": "pass"}']
            assert table.pause == 8
            if version < COMMUNITY:
                assert await rows(store, "SELECT kind, user_id, level, name FROM players"
                                         " ORDER BY kind") == [("ai", None, "hard", "Bot"),
                                                               ("human", 2**62, "", "Ann")]
            async with store.transaction() as tx:
                await tx.set_turn_ping(2**62, True)
            assert (await store.player_settings(2**62)).turn_ping
            assert [r[0] for r in await rows(
                store, "SELECT version FROM schema_version ORDER BY version")] == list(
                range(1, len(migrations()) + 1))
        finally:
            await store.close()


def test_each_database_gets_its_own_file_where_there_is_one(tmp_path, monkeypatch):
    """NNN_name.pg.sql replaces NNN_name.sql on PostgreSQL; a plain file serves both (as
    an ALTER TABLE that both dialects read)."""
    (tmp_path / "001_first.sql").write_text("sqlite text")
    (tmp_path / "001_first.pg.sql").write_text("postgresql text")
    (tmp_path / "002_both.sql").write_text("ALTER TABLE t ADD COLUMN x INTEGER")
    monkeypatch.setattr(store_module, "MIGRATIONS_DIR", tmp_path)
    assert migrations() == [(1, "first", "sqlite text"),
                            (2, "both", "ALTER TABLE t ADD COLUMN x INTEGER")]
    assert migrations("postgresql") == [(1, "first", "postgresql text"),
                                        (2, "both", "ALTER TABLE t ADD COLUMN x INTEGER")]
    assert [v for v, _, _ in migrations("postgresql")] == [1, 2]
