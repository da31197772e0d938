"""Fixtures shared by the test packages: a PostgreSQL server for the whole session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.pgserver import PgServer, PgUnavailable


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A PostgreSQL server of its own, started once; the tests fail (not skip) without one."""
    try:
        server = PgServer()
    except PgUnavailable as exc:
        pytest.fail(f"PostgreSQL tests cannot run: {exc}", pytrace=False)
    try:
        yield server
    finally:
        server.close()
