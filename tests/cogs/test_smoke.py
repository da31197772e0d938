"""The bot logs into the emulator, opens a table, seats three players and starts."""

from __future__ import annotations

from tests.helpers.cogs import open_table


async def test_table_new_join_start(world):
    w = world
    await open_table(w)
    table = w.table()
    assert table.status == "playing" and table.names() == ["Alice", "Bob", "Cid"]
    msg = w.table_message()
    assert msg.embeds and "Alice" in str(msg.embeds[0])
    assert f"t1000:{table.id}:hand:" in msg.custom_ids
