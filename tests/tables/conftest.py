"""Fixtures of the tables tests: a table service over a SQLite file (tests.helpers.tables)."""

from __future__ import annotations

import pytest

from tests.helpers.tables import make_harness


@pytest.fixture
async def harness(tmp_path):
    h = await make_harness(str(tmp_path / "tables.db"))
    yield h
    await h.service.close()
    await h.store.close()
