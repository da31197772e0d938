"""Restoring a table whose stored log has a damaged move: keep what replays, tell the channel,
set the rest aside for the operator."""

from __future__ import annotations

import random
import sqlite3

import pytest

from bot.tables import TableStatus
from tests.helpers.tables import ANN, BOB, CID, make_harness, play_human_turn

ACTORS = {a.user_id: a for a in (ANN, BOB, CID)}


@pytest.mark.parametrize("damage", ['{"not json', '{"seat": 0, "verb": "frobnicate"}'])
async def test_a_damaged_move_keeps_what_replays(tmp_path, damage):
    path = str(tmp_path / "t.db")
    h = await make_harness(path)
    s = h.service
    tid = (await s.create(ANN, channel_id=7, guild_id=1)).table.id
    for a in (BOB, CID):
        await s.join(tid, a)
    await s.start(tid, ANN)
    rng = random.Random(4)
    for _ in range(12):
        await s.settle()
        assert await play_human_turn(s, tid, ACTORS, rng)
    table = s.get(tid)
    seq, match_no = table.seq, table.match_no
    bad = seq - 3
    await h.service.close()
    await h.store.close()
    with sqlite3.connect(path) as con:
        con.execute("UPDATE moves SET move = ? WHERE table_id = ? AND match_no = ? AND seq = ?",
                    (damage, tid, match_no, bad))
    h = await make_harness(path, h.clock)
    try:
        t2 = h.service.get(tid)  # the table is still there, not closed
        assert t2.status is TableStatus.PLAYING and t2.state is not None
        assert t2.seq >= bad  # what replayed (plus a fresh deal if a deal was cut)
        notices = [n for u in h.updates for n in u.notices if n.key == "notice.restored_partly"]
        assert len(notices) == 1 and notices[0].params["count"] == 3
        assert notices[0].params["table"] == tid
        aside = await h.store.set_aside(tid)
        assert [r.seq for r in aside] == [bad, bad + 1, bad + 2]
        assert aside[0].raw == damage and aside[0].reason  # the raw text, kept for the operator
        rows = await h.store.moves(tid, match_no)
        assert len(rows) == t2.seq and all(r.move is not None for r in rows)
        # the match goes on from there
        for _ in range(6):
            await h.service.settle()
            assert await play_human_turn(h.service, tid, ACTORS, rng)
        assert len(await h.store.moves(tid, match_no)) == t2.seq
    finally:
        await h.service.close()
        await h.store.close()
