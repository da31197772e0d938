"""A match played to its end through the service is recorded, and rated, exactly once."""

from __future__ import annotations

import random

import pytest

from bot.game.state import Phase
from bot.store import Metric, PlayerKind
from bot.tables import Actor, LeaderboardQuery, Period, Scope, TableError, TableStatus
from tests.helpers.tables import ANN, BOB, CID, make_harness, play_human_turn

ACTORS = {a.user_id: a for a in (ANN, BOB, CID)}


async def _short_match(s, channel: int = 9) -> int:
    tid = (await s.create(ANN, channel_id=channel, guild_id=1)).table.id
    for a in (BOB, CID):
        await s.join(tid, a)
    for name, value in (("barrel", "none"), ("target", "150")):
        await s.set_option(tid, ANN, name, value)
    await s.start(tid, ANN)
    return tid


async def _play(h, tid: int, rng: random.Random, *, until_hand: int | None = None) -> None:
    """Play on to the end, or stop a few moves into hand ``until_hand``."""
    into = 0
    for _ in range(2000):
        table = h.service.get(tid)
        if table.status is TableStatus.FINISHED:
            return
        if until_hand is not None and table.hand_no >= until_hand:
            into += 1
            if into > 5:
                return
        await h.service.settle()
        if h.service.get(tid).status is TableStatus.PLAYING:
            await play_human_turn(h.service, tid, ACTORS, rng)  # False: an AI is to move
    raise AssertionError("the match did not end")


async def test_the_last_hand_across_a_restart_is_recorded_once(tmp_path):
    # a first run learns how many hands the seeded match takes
    h = await make_harness(str(tmp_path / "a.db"))
    tid = await _short_match(h.service)
    await _play(h, tid, random.Random(5))
    hands = h.service.get(tid).hand_no
    totals = h.service.get(tid).state.match.totals
    await h.service.close()
    await h.store.close()
    # the same match again, restarted in the middle of its last hand
    path = str(tmp_path / "b.db")
    h = await make_harness(path)
    rng = random.Random(5)
    tid = await _short_match(h.service)
    await _play(h, tid, rng, until_hand=hands)
    assert h.service.get(tid).status is TableStatus.PLAYING
    h = await h.restart()
    try:
        await _play(h, tid, rng)
        table = h.service.get(tid)
        assert table.state.phase is Phase.MATCH_OVER and table.state.match.totals == totals
        store = h.store
        mid = await store.match_id_of(tid, 1)
        assert mid == 1
        info = await store.match_info(mid)
        assert info is not None and info.totals == tuple(totals)
        rows, total = await store.leaderboard(1, Metric.MATCHES)
        assert total == 3 and all(r.matches == 1 for r in rows)  # not doubled
        rated, _ = await store.leaderboard(1, Metric.RATING)
        winner = table.seats[table.state.match.winners[0]].user_id
        assert rated[0].user_id == winner  # the winner rates highest
        profile = await store.profile(1, ANN.user_id)
        assert profile is not None and profile.hands == len(table.results) == hands
    finally:
        await h.service.close()
        await h.store.close()


async def test_ai_seats_follow_the_guild_setting(tmp_path):
    h = await make_harness(str(tmp_path / "c.db"))
    s = h.service
    try:
        for rated, channel in ((False, 20), (True, 21)):
            async with h.store.transaction() as tx:
                await tx.set_guild_settings(1, ai_rated=rated)
            tid = (await s.create(ANN, channel_id=channel, guild_id=1)).table.id
            await s.join(tid, BOB)
            await s.add_ai(tid, ANN)
            for name, value in (("barrel", "none"), ("target", "150")):
                await s.set_option(tid, ANN, name, value)
            await s.start(tid, ANN)
            await _play(h, tid, random.Random(channel))
            rows, _ = await h.store.leaderboard(1, Metric.RATING)
            if not rated:
                assert rows == []  # an AI match counts for no rating
            else:  # the two humans, rated against each other only
                assert {r.user_id for r in rows} == {ANN.user_id, BOB.user_id}
        info = await h.store.match_info(2)
        assert info is not None and info.user_ids[2] is None
        async with h.store.db.execute("SELECT DISTINCT kind FROM players") as cur:
            kinds = {PlayerKind(r[0]) for r in await cur.fetchall()}
        assert kinds == {PlayerKind.HUMAN, PlayerKind.AI}
    finally:
        await s.close()
        await h.store.close()



async def test_an_empty_leaderboard_knows_why(tmp_path):
    h = await make_harness(str(tmp_path / "d.db"))
    s = h.service
    ann = Actor(ANN.user_id, "Ann", guild_id=1)

    async def why(metric: str = "rating", preset: str | None = None,
                  period: str = "all", scope: str = "guild") -> tuple[str, bool]:
        got = await s.records.why_empty(ann, LeaderboardQuery.parse(metric, preset, period,
                                                                    scope))
        return got.key, got.wins_instead

    try:
        assert await why() == ("leaderboard.none_ended", False)
        tid = (await s.create(ANN, channel_id=30, guild_id=1)).table.id
        await s.add_ai(tid, ANN)
        await s.add_ai(tid, ANN)
        for name, value in (("barrel", "none"), ("target", "150")):
            await s.set_option(tid, ANN, name, value)
        await s.start(tid, ANN)
        await _play(h, tid, random.Random(30))
        assert await why() == ("leaderboard.ai_not_rated", True)
        assert await why(preset="polish") == ("leaderboard.empty", False)  # the filter's
        assert await why(period="7d") == ("leaderboard.empty", False)
        assert await why(scope="global") == ("leaderboard.empty", False)
        async with h.store.transaction() as tx:
            await tx.set_guild_settings(1, ai_rated=True)
        # rated where AIs count, yet one person alone is rated against nobody
        assert await why() == ("leaderboard.few_people", True)
    finally:
        await s.close()
        await h.store.close()


async def test_an_export_shows_formula_like_names_as_text(tmp_path):
    """Names a spreadsheet would run (``=1+2``, ``+…``, ``-…``, ``@…``): in the CSV export
    each is a quoted text cell with a leading apostrophe; the numbers stay numbers."""
    import csv
    import dataclasses
    import io

    from bot.tables import Actor

    evil = (Actor(1, "=1+2", can_manage=True), Actor(2, "+HYPERLINK(\"x\")"),
            Actor(3, "@SUM(A1)"))
    h = await make_harness(str(tmp_path / "a.db"))
    try:
        s = h.service
        tid = (await s.create(evil[0], channel_id=9, guild_id=1)).table.id
        for a in evil[1:]:
            await s.join(tid, a)
        for name, value in (("barrel", "none"), ("target", "150")):
            await s.set_option(tid, evil[0], name, value)
        await s.start(tid, evil[0])
        actors = {a.user_id: a for a in evil}
        rng = random.Random(5)
        for _ in range(2000):
            if s.get(tid).status is TableStatus.FINISHED:
                break
            await s.settle()
            if s.get(tid).status is TableStatus.PLAYING:
                await play_human_turn(s, tid, actors, rng)
        out = await s.records.export(dataclasses.replace(evil[0], guild_id=1), 1)
        assert '"\'=1+2 change"' in out.csv.splitlines()[0]
        rows = list(csv.reader(io.StringIO(out.csv)))
        cells = [c for row in rows for c in row]
        assert not [c for c in cells if c[:1] in ("=", "+", "@")], cells
        assert {"'=1+2 total", "'+HYPERLINK(\"x\") total", "'@SUM(A1) total"} <= set(rows[0])
        declarers = {row[1] for row in rows[1:]} - {""}
        assert declarers and all(d.startswith("'") for d in declarers), declarers
        assert out.csv.splitlines()[1].split(",")[0] == "1"  # a number stays a number
    finally:
        await s.close()
        await h.store.close()


def test_a_leaderboard_query_is_read_once_with_its_defaults():
    assert LeaderboardQuery.parse() == LeaderboardQuery(Metric.RATING, None, Period.ALL,
                                                        Scope.GUILD)
    got = LeaderboardQuery.parse("wins", "polish", "7d", "global")
    assert got == LeaderboardQuery(Metric.WINS, "polish", Period.DAYS_7, Scope.GLOBAL)
    assert got.filtered and not LeaderboardQuery.parse("wins", "", "all").filtered
    for bad in (("speed",), ("wins", "chess"), ("wins", None, "1y"), (None, None, None, "x")):
        with pytest.raises(TableError) as caught:
            LeaderboardQuery.parse(*bad)
        assert caught.value.key in ("error.no_such_action", "error.unknown_preset")
