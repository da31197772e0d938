"""Every store test runs on both databases: SQLite (a file) and PostgreSQL (a fresh
database on the session's server). Tests of SQLite's own features (file health, WAL,
backup) use a file directly and say so."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.store import open_store

NewDatabase = Callable[[], Awaitable[str]]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def new_database(backend: str, request: pytest.FixtureRequest, tmp_path) -> NewDatabase:
    """Makes empty databases of the backend: a file path, or a postgresql:// URL."""
    count = 0

    async def make() -> str:
        nonlocal count
        count += 1
        if backend == "sqlite":
            return str(tmp_path / f"db{count}.db")
        return str(await request.getfixturevalue("pg_server").new_database())

    return make


@pytest.fixture
async def database(new_database: NewDatabase) -> str:
    """One empty database (path or URL) for a test; open it with ``open_store``."""
    return await new_database()


@pytest.fixture
async def store(database: str):
    s = await open_store(database)
    yield s
    await s.close()
