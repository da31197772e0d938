"""The daily challenge's service: private boards against AI seats, committed move by move,
scored against the others who finished them and par."""

from __future__ import annotations

import asyncio
import datetime as dt
import random

import pytest

from bot.ai.simple import SimplePlayer
from bot.game.actions import Verb, act
from bot.store import open_store
from bot.tables import DailyChallenge, FakeClock, Finished, Playing, TableError

NOON = dt.datetime(2026, 11, 27, 12, tzinfo=dt.UTC).timestamp()
DAY = dt.date(2026, 11, 27)
GUILD = 50


async def make(path: str, clock: FakeClock):
    store = await open_store(path)
    return store, DailyChallenge(store, clock, par_level="normal")


async def finish(daily: DailyChallenge, user: int, number: int, seed: int = 0,
                 guild: int | None = GUILD) -> Finished:
    """Play a board to its end with the simple policy for the player."""
    got = await daily.play(user, guild, f"P{user}", DAY, number)
    rng = random.Random(seed)
    while isinstance(got, Playing):
        action = SimplePlayer().choose(got.observation, rng)
        got = await daily.play(user, guild, f"P{user}", DAY, number, action)
    return got


@pytest.fixture
async def daily(tmp_path):
    store, d = await make(str(tmp_path / "d.db"), FakeClock(NOON))
    yield d
    await d.close()
    await store.close()


async def test_a_board_is_played_to_its_result_recorded_once_with_par(
        daily: DailyChallenge) -> None:
    done = await finish(daily, 1, 0)
    assert done.field == 1 and done.score.top == 2  # compared with par only
    par = await daily.store.daily_par(done.board.key)
    assert par is not None and done.score.vs_par == done.score.result - par[1][done.board.seat]
    rows = await daily.store.daily_results("2026-11-27", "2026-11-27", "russian")
    assert [(r.user_id, r.number, r.result) for r in rows] == [(1, 0, done.score.result)]
    with pytest.raises(TableError) as err:  # a board is played once
        await daily.play(1, GUILD, "P1", DAY, 0)
    assert err.value.key == "daily.error.played"
    view = await daily.day(1, GUILD)
    assert view.finished == {0: done.score.result} and view.next_board == 1


async def test_everyone_meets_the_same_opponents(daily: DailyChallenge) -> None:
    a = await finish(daily, 1, 3, seed=5)
    b = await finish(daily, 2, 3, seed=5)
    assert a.score.result == b.score.result
    key = a.board.key
    assert await daily.store.daily_moves(1, key) == await daily.store.daily_moves(2, key)


async def test_a_restart_mid_board_resumes_exactly(tmp_path) -> None:
    clock = FakeClock(NOON)
    store, d = await make(str(tmp_path / "r.db"), clock)
    got = await d.play(9, GUILD, "P9", DAY, 1)
    for _ in range(3):  # the player bids on, so that the board is still in play
        assert isinstance(got, Playing)
        legal = got.observation.legal
        action = next((a for a in legal if a.verb is Verb.BID), legal[0])
        got = await d.play(9, GUILD, "P9", DAY, 1, action)
    assert isinstance(got, Playing) and got.moves > 3
    seen = got.observation
    await d.close()
    await store.close()
    store, again = await make(str(tmp_path / "r.db"), clock)
    resumed = await again.play(9, GUILD, "P9", DAY, 1)
    assert isinstance(resumed, Playing)
    assert resumed.observation == seen and resumed.moves == got.moves
    await store.close()


async def test_illegal_moves_and_closed_days_are_refused_without_change(
        daily: DailyChallenge) -> None:
    got = await daily.play(1, GUILD, "P1", DAY, 0)
    assert isinstance(got, Playing)
    legal = got.observation.legal
    with pytest.raises(TableError) as err:
        await daily.play(1, GUILD, "P1", DAY, 0, act(got.board.seat, Verb.BID, amount=7))
    assert err.value.key.startswith("rule.")
    with pytest.raises(TableError) as err:
        await daily.play(1, GUILD, "P1", DAY, 0, act((got.board.seat + 1) % 3, Verb.PASS))
    assert err.value.key == "daily.error.turn"
    with pytest.raises(TableError) as err:
        await daily.play(1, GUILD, "P1", DAY, 6)
    assert err.value.key == "daily.error.no_board"
    again = await daily.play(1, GUILD, "P1", DAY, 0)
    assert isinstance(again, Playing) and again.observation.legal == legal
    await daily.clock.advance(24 * 3600)  # type: ignore[attr-defined]
    with pytest.raises(TableError) as err:
        await daily.play(1, GUILD, "P1", DAY, 0, legal[0])
    assert err.value.key == "daily.error.closed"


async def test_matchpoints_against_two_other_players_and_standings(daily: DailyChallenge) -> None:
    results = {u: await finish(daily, u, 0, seed=u) for u in (1, 2, 3)}
    scores, field = await daily.board_scores(results[1].board)
    assert field == 3 and all(s.top == 6 for s in scores.values())  # two players and par
    assert results[3].score == scores[3]
    await finish(daily, 1, 1, seed=1)
    async with daily.store.transaction() as tx:
        await tx.set_global_opt_in(2, True)
    st = await daily.standings(GUILD, 1)
    assert [r.user_id for r in st.today] == [r.user_id for r in st.week]
    assert {r.user_id: r.score.boards for r in st.today} == {1: 2, 2: 1, 3: 1}
    assert st.streak == 1
    assert [r.user_id for r in (await daily.standings(GUILD, 1, global_scope=True)).today] == [2]
    assert (await daily.standings(GUILD + 1, 1)).today == []  # another server's ranking


async def test_players_finishing_at_once_each_get_their_score(daily: DailyChallenge) -> None:
    # Many answers at once: each one counts the results committed before it.
    done = await asyncio.gather(*[finish(daily, u, 0, seed=u) for u in range(1, 6)])
    assert all(d.score.top >= 2 for d in done)
    assert max(d.field for d in done) == 5
    for u in range(1, 6):
        assert (await daily.day(u, GUILD)).next_board == 1


async def test_on_postgresql_a_board_resumes_and_its_result_is_recorded_once(pg_server) -> None:
    url = str(await pg_server.new_database())
    clock = FakeClock(NOON)
    store, d = await make(url, clock)
    got = await d.play(7, GUILD, "P7", DAY, 2)
    assert isinstance(got, Playing)
    legal = got.observation.legal
    got = await d.play(7, GUILD, "P7", DAY, 2, next((a for a in legal if a.verb is Verb.BID),
                                                      legal[0]))
    await d.close()
    await store.close()
    store, again = await make(url, clock)  # a restart mid-board
    done = await finish(again, 7, 2, seed=3)
    rows = await store.daily_results("2026-11-27", "2026-11-27", "russian")
    assert [(r.user_id, r.number, r.result) for r in rows] == [(7, 2, done.score.result)]
    assert await store.daily_par(done.board.key) is not None
    with pytest.raises(TableError):
        await again.play(7, GUILD, "P7", DAY, 2)
    await again.close()
    await store.close()
