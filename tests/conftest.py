"""Fixtures shared by the test packages: a PostgreSQL server for the whole session; and the
layers a test belongs to, marked from the fixtures it asks for."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.pgserver import PgServer, PgUnavailable

# A test that asks for one of these fixtures belongs to the layer named, so that a new test
# is marked without saying so; `make test-fast` leaves these layers out. Tests that start a
# server or the emulator by themselves say their layer with `pytestmark`.
LAYER_OF_FIXTURE = {
    "pg_server": "postgres",
    "browser": "browser",
    "world": "e2e",  # tests/cogs and tests/fakediscord: a guild in the Discord emulator
    "fake_discord": "e2e",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks each test with the layers its fixtures imply."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        for layer in sorted({LAYER_OF_FIXTURE[n] for n in names & LAYER_OF_FIXTURE.keys()}):
            item.add_marker(layer)


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
