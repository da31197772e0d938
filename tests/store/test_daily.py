"""The daily challenge's rows on both databases: pars, move logs, results written once."""

from __future__ import annotations

import pytest

from bot.store import DailyResultRow, DailySettings, open_store

NOW = 1_800_000_000.0
BOARD = "2026-11-27/russian/0"


def result(user_id: int, value: int, board: str = BOARD, number: int = 0) -> DailyResultRow:
    return DailyResultRow(user_id, board, "2026-11-27", "russian", number, 7, f"P{user_id}",
                          value, 40, NOW)


async def test_par_is_stored_once(store) -> None:
    assert await store.daily_par(BOARD) is None
    async with store.transaction() as tx:
        await tx.put_daily_par(BOARD, [["A", "pass"]], [40, -20, 10], NOW)
    async with store.transaction() as tx:  # a second computation changes nothing
        await tx.put_daily_par(BOARD, [], [0, 0, 0], NOW)
    assert await store.daily_par(BOARD) == ([["A", "pass"]], [40, -20, 10])


async def test_moves_and_the_result_commit_together_and_only_once(store) -> None:
    big = 2**62  # Discord ids need 64 bits
    async with store.transaction() as tx:
        await tx.append_daily_move(big, BOARD, 0, {"v": "bid", "a": 100}, NOW)
    async with store.transaction() as tx:
        await tx.append_daily_move(big, BOARD, 1, {"v": "pass"}, NOW)
        await tx.add_daily_result(result(big, 120))
    assert await store.daily_moves(big, BOARD) == [{"v": "bid", "a": 100}, {"v": "pass"}]
    with pytest.raises(Exception):  # noqa: B017 - each database raises its own
        async with store.transaction() as tx:
            await tx.append_daily_move(big, BOARD, 2, {"v": "pass"}, NOW)
            await tx.add_daily_result(result(big, -120))
    assert await store.daily_moves(big, BOARD) == [{"v": "bid", "a": 100}, {"v": "pass"}]
    assert [r.result for r in await store.daily_results("2026-11-27", "2026-11-27",
                                                        "russian")] == [120]
    assert await store.daily_user_days(big) == ["2026-11-27"]


async def test_results_by_days_and_settings(store) -> None:
    async with store.transaction() as tx:
        await tx.add_daily_result(result(1, 10))
        await tx.add_daily_result(result(2, 20, "2026-11-27/russian/1", 1))
        await tx.set_daily_settings(7, preset="polish", channel_id=99)
    rows = await store.daily_results("2026-11-01", "2026-11-30", "russian")
    assert [(r.user_id, r.number, r.par, r.name) for r in rows] == [(1, 0, 40, "P1"),
                                                                     (2, 1, 40, "P2")]
    assert await store.daily_results("2026-11-28", "2026-11-30", "russian") == []
    assert await store.daily_settings(7) == DailySettings(7, "polish", 99, "")
    assert await store.daily_settings(8) == DailySettings(8)
    assert await store.daily_summary_guilds() == [DailySettings(7, "polish", 99, "")]


async def test_the_rows_survive_a_reopen(database: str) -> None:
    s = await open_store(database)
    async with s.transaction() as tx:
        await tx.append_daily_move(5, BOARD, 0, ["A", "pass"], NOW)
    await s.close()
    again = await open_store(database)
    assert await again.daily_moves(5, BOARD) == [["A", "pass"]]
    await again.close()
