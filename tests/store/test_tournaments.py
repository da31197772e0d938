"""Tournament rows on both databases: events, entrants, tables, results, pars, posts, settings."""

from __future__ import annotations

import pytest

from bot.store import (
    BoardResultRow,
    EntrantRow,
    EventTableRow,
    TournamentRow,
    TournamentSettings,
    open_store,
)

NOW = 1_800_000_000.0
BIG = 2**62  # Discord ids need 64 bits


def event(event_id: int = 5, guild_id: int = BIG, status: str = "signup",
          name: str = "Friday cup") -> TournamentRow:
    return TournamentRow(event_id, guild_id, 11, 0, 12, name, "russian", 6, 2, NOW + 3600,
                         15, 60, status, 0, 0.0, NOW + event_id)


async def test_an_event_and_its_changes(store) -> None:
    async with store.transaction() as tx:
        await tx.add_tournament(event())
        await tx.add_tournament(event(6, 99, "finished", "Old"))
    assert await store.tournament(5) == event()
    async with store.transaction() as tx:
        await tx.update_tournament(5, status="running", round_no=1, round_started_at=NOW,
                                   message_id=BIG)
    got = await store.tournament(5)
    assert got is not None and (got.status, got.round_no, got.message_id) == (
        "running", 1, BIG)
    assert [e.id for e in await store.open_tournaments()] == [5]
    assert [e.id for e in await store.tournaments(99)] == [6]
    with pytest.raises(ValueError, match="organiser_id"):
        async with store.transaction() as tx:
            await tx.update_tournament(5, organiser_id=1)


async def test_entrants_join_change_and_leave(store) -> None:
    async with store.transaction() as tx:
        await tx.add_tournament(event())
        await tx.add_entrant(EntrantRow(5, BIG, "Ann", 1512.5, joined_at=NOW))
        await tx.add_entrant(EntrantRow(5, 2, "Bob", 1500.0, joined_at=NOW + 1))
        await tx.add_entrant(EntrantRow(5, 3, "Cid", 1400.0, joined_at=NOW + 2))
    with pytest.raises(Exception):  # noqa: B017 - joining twice: each database its own error
        async with store.transaction() as tx:
            await tx.add_entrant(EntrantRow(5, 2, "Bob", 1500.0, joined_at=NOW + 3))
    async with store.transaction() as tx:
        await tx.update_entrant(5, BIG, checked_in=True, strikes=2, withdrawn=True)
        await tx.remove_entrant(5, 3)
    rows = await store.tournament_entrants(5)
    assert rows == [EntrantRow(5, BIG, "Ann", 1512.5, True, 2, True, False, NOW),
                    EntrantRow(5, 2, "Bob", 1500.0, joined_at=NOW + 1)]


async def test_tables_results_and_pars_are_kept_once(store) -> None:
    table = EventTableRow(5, 1, 2, 0, 0, (BIG, 2, -6), ("Ann", "Bob", "AI 1"))
    async with store.transaction() as tx:
        await tx.add_tournament(event())
        await tx.add_tournament_table(table)
        await tx.add_tournament_table(table)  # a retried round start changes nothing
    async with store.transaction() as tx:
        await tx.update_tournament_table(5, 1, 2, channel_id=BIG - 1, table_id=77)
    assert await store.tournament_tables(5) == [
        EventTableRow(5, 1, 2, BIG - 1, 77, (BIG, 2, -6), ("Ann", "Bob", "AI 1"))]
    assert await store.tournament_table_of(77) == (await store.tournament_tables(5))[0]
    assert await store.tournament_table_of(78) is None
    result = BoardResultRow(5, 1, 1, 2, (120, -60, 0), 1)
    async with store.transaction() as tx:
        await tx.add_board_result(result, NOW)
        await tx.add_board_result(BoardResultRow(5, 1, 1, 2, (0, 0, 0), 1), NOW)
        await tx.put_tournament_par(5, 1, 1, [{"v": "pass"}], [60, -120, 0], NOW)
        await tx.put_tournament_par(5, 1, 1, [], [0, 0, 0], NOW)
        await tx.update_tournament_table(5, 1, 2, done=True)
    assert await store.tournament_results(5) == [result]
    assert await store.tournament_pars(5) == {(1, 1): [60, -120, 0]}
    assert await store.tournament_par_moves(5, 1, 1) == [{"v": "pass"}]
    assert await store.tournament_par_moves(5, 1, 2) is None
    assert (await store.tournament_tables(5))[0].done


async def test_posts_settings_and_history(store) -> None:
    async with store.transaction() as tx:
        await tx.add_tournament(event(5, 7, "finished"))
        await tx.add_tournament(event(6, 7, "finished", "Second"))
        await tx.add_tournament(event(8, 7, "running", "Third"))
        await tx.add_entrant(EntrantRow(5, 1, "Ann", 1500.0, final_rank=3))
        await tx.add_entrant(EntrantRow(6, 1, "Ann", 1500.0, final_rank=2))
        await tx.add_entrant(EntrantRow(8, 1, "Ann", 1500.0))
        await tx.add_entrant(EntrantRow(6, 2, "Bob", 1500.0, dropped=True))
        await tx.mark_posted(5, "round:1", NOW)
        await tx.mark_posted(5, "round:1", NOW + 1)
        await tx.set_tournament_settings(7, role_id=BIG)
    async with store.transaction() as tx:
        await tx.set_tournament_settings(7, rated=True)
        await tx.set_tournament_settings(7, timezone="Europe/Warsaw")
    assert await store.tournament_posted(5) == {"round:1"}
    assert await store.tournament_posted(6) == set()
    assert await store.tournament_settings(7) == TournamentSettings(7, BIG, True,
                                                                    "Europe/Warsaw")
    assert await store.tournament_settings(8) == TournamentSettings(8)
    assert await store.tournament_history(7, 1) == (2, 2)  # the running one does not count
    assert await store.tournament_history(7, 2) == (0, None)  # dropped: not played


async def test_the_rows_survive_a_reopen(database: str) -> None:
    s = await open_store(database)
    try:
        async with s.transaction() as tx:
            await tx.add_tournament(event())
            await tx.add_entrant(EntrantRow(5, 1, "Ann", 1500.0))
    finally:
        await s.close()
    s = await open_store(database)
    try:
        assert await s.tournament(5) == event()
        assert [e.name for e in await s.tournament_entrants(5)] == ["Ann"]
    finally:
        await s.close()
