"""A disk that fills up or turns read-only while people play: the move is refused with the
polite "could not be saved, try again" (not "Something went wrong"), one warning names the
cause, nothing of the move is kept, and play goes on once the disk takes writes again.

The failures are SQLite's own, on the bot's write connection: ``max_page_count`` makes the
file unable to grow (SQLITE_FULL, as a full disk) and ``query_only`` refuses every write
(SQLITE_READONLY, as a read-only file)."""

from __future__ import annotations

import logging
import random

import pytest

from bot.ai.simple import SimplePlayer
from tests.helpers.cogs import component_for, open_table

NOT_SAVED = "That could not be saved"
UNLIMITED = 1073741823  # SQLite's default max_page_count


async def press(w, rng: random.Random) -> str:
    """The player to act opens his hand and makes a move; the first answer that is not
    the expected one (or the move's answer)."""
    fd, table = w.fd, w.table()
    seat = table.to_act()
    user = w.user(table.seats[seat].user_id)
    action = SimplePlayer().choose(table.observation(seat), rng)
    r = await fd.click(user, w.table_message(user), f"t1000:{table.id}:hand:")
    if r.message is None or "Your hand" not in (r.message.content or ""):
        return r.content or ""
    cid, value = component_for(action, table)
    if value is None:
        r = await fd.click(user, r.message, cid)
    else:
        r = await fd.select(user, r.message, cid, [value])
    return r.content or ""


@pytest.mark.parametrize("failure", ["full", "read-only"])
async def test_a_move_the_disk_refuses_is_not_saved_and_play_goes_on(world, caplog, failure):
    w = world
    await open_table(w)
    table = w.table()
    writer = w.service.store._writer
    rng = random.Random(3)
    if failure == "full":
        pages = writer.execute("PRAGMA page_count").fetchone()[0]
        writer.execute(f"PRAGMA max_page_count = {pages}")  # the file cannot grow
    else:
        writer.execute("PRAGMA query_only = ON")
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        for _ in range(150):  # the free room left in the file's pages fills up
            version, seq = table.version, table.seq
            answer = await press(w, rng)
            await w.settle()
            if NOT_SAVED in answer:
                break
            assert answer.startswith("You "), answer
        else:
            pytest.fail("the disk never refused a move")
    assert "Nothing changed; please try again" in answer
    assert (table.version, table.seq) == (version, seq)  # nothing of the move kept
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    said = [r.getMessage() for r in caplog.records if "not saved" in r.getMessage()]
    cause = "is full" if failure == "full" else "is read-only"
    assert len(said) == 1 and cause in said[0] and w.db in said[0], said
    if failure == "full":
        writer.execute(f"PRAGMA max_page_count = {UNLIMITED}")  # room again
    else:
        writer.execute("PRAGMA query_only = OFF")
    answer = await press(w, rng)
    assert answer.startswith("You "), answer
    assert table.seq > seq
