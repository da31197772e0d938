"""A table's language: the guild's (or opener's) by default, set by the host with
``/table option language``, kept over a restart."""

from __future__ import annotations

import pytest

from bot.tables import TableError
from tests.helpers.tables import ANN, BOB


async def test_language_option_sets_the_tables_language_and_survives_a_restart(harness):
    s = harness.service
    out = await s.create(ANN, channel_id=5, guild_id=1, preset="russian", locale="de")
    tid = out.table.id
    assert s.get(tid).locale == "de"
    assert s.option_names("")[0] == "language"
    assert s.option_values(5, "language", "") == ["de", "en", "ru", "pl", "uk"]
    got = await s.set_option(tid, ANN, "language", "pl-PL")
    assert got.key == "ok.option_set" and got.params == {"name": "language", "value": "pl"}
    assert s.get(tid).locale == "pl"
    with pytest.raises(TableError) as e:
        await s.set_option(tid, ANN, "language", "fr")
    assert e.value.key == "error.table_language" and "ru" in e.value.params["languages"]
    with pytest.raises(TableError) as e:
        await s.set_option(tid, BOB, "language", "ru")
    assert e.value.key == "error.not_host"
    h2 = await harness.restart()
    harness.service, harness.store = h2.service, h2.store  # the fixture closes them
    assert h2.service.get(tid).locale == "pl"
