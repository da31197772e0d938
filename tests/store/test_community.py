"""The community record on both databases: recording, leaderboards, ratings, profiles."""

from __future__ import annotations

import contextlib
import random
from collections import defaultdict

import pytest

from bot.store import (
    HandLine,
    MatchRecord,
    Metric,
    PlayerKind,
    PlayerRef,
    SeatRow,
    StoreAPI,
    open_store,
    rated_seats,
)
from tests.databases import rows

DAY = 86400.0
NOW = 1000 * DAY + 3600.0  # one hour into a day
BOT = PlayerRef(PlayerKind.AI, None, "hard", "Bot")


def human(uid: int) -> PlayerRef:
    return PlayerRef(PlayerKind.HUMAN, uid, "", f"P{uid}")


def record(table_id: int, players, totals, *, match_no: int = 1, guild: int | None = 1,
           preset: str = "russian", at: float = NOW, hands=None, rated_seats=None,
           barrel=None) -> MatchRecord:
    n = len(players)
    if hands is None:
        hands = ((HandLine(totals[0], True, True, False, False),
                  *(HandLine(t, False, None, False, False) for t in totals[1:])),)
    rated_seats = (tuple(i for i, p in enumerate(players) if p.kind is PlayerKind.HUMAN)
                   if rated_seats is None else rated_seats)
    return MatchRecord(guild, table_id, match_no, preset, "russian", at - 600, at,
                       tuple(players), tuple(totals),
                       (max(range(n), key=lambda i: totals[i]),),
                       tuple(barrel or [False] * n), tuple(hands), tuple(rated_seats))


async def _rows(store: StoreAPI, table: str) -> list[tuple]:
    return await rows(store, f"SELECT * FROM {table} ORDER BY 1, 2, 3, 4")


async def test_a_match_recorded_twice_counts_once(store):
    rec = record(1, [human(1), human(2), human(3)], [1000, 400, -50])
    async with store.transaction() as tx:
        first = await tx.record_match(rec, NOW)
    before = {t: await _rows(store, t) for t in
              ("match_records", "match_seats", "player_days", "ratings", "rating_history")}
    async with store.transaction() as tx:  # e.g. the last move replayed after a restart
        again = await tx.record_match(rec, NOW + 5)
    assert again == first == await store.match_id_of(1, 1)
    assert {t: await _rows(store, t) for t in before} == before
    board, total = await store.leaderboard(1, Metric.MATCHES)
    assert total == 3 and [r.value for r in board] == [1, 1, 1]


async def test_a_rolled_back_transaction_records_nothing(store):
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.record_match(record(1, [human(1), human(2)], [1000, 0]), NOW)
            raise RuntimeError("crash before the commit")
    assert await store.match_id_of(1, 1) is None
    assert await store.leaderboard(1, Metric.RATING) == ([], 0)


async def test_ratings_move_the_winner_up_and_the_last_down(store):
    async with store.transaction() as tx:
        await tx.record_match(record(1, [human(1), human(2), human(3)], [300, 1000, -20]), NOW)
    board, _ = await store.leaderboard(1, Metric.RATING, preset="russian")
    assert [r.user_id for r in board] == [2, 1, 3]
    mus = [r[1] for r in await rows(store, "SELECT player_id, mu FROM ratings ORDER BY mu")]
    assert mus[0] < 25 < mus[2]  # a newcomer's mu is 25
    assert board[0].value == pytest.approx(mus[2] - 3 * (await _sigma(store, board[0])))


async def _sigma(store, row) -> float:
    return (await rows(store, "SELECT sigma FROM ratings WHERE player_id = ?",
                       (row.player_id,)))[0][0]


async def test_only_rated_seats_are_rated(store):
    async with store.transaction() as tx:
        # An AI seat: the humans only against each other.
        await tx.record_match(record(1, [human(1), BOT, human(2)], [100, 1000, 400]), NOW)
        # Not rated at all (the guild does not count AI matches).
        await tx.record_match(record(2, [human(3), BOT], [1000, 0], rated_seats=()), NOW)
    board, total = await store.leaderboard(1, Metric.RATING)
    assert [r.user_id for r in board] == [2, 1] and total == 2
    assert all(r.matches == 1 for r in board)
    wins, _ = await store.leaderboard(1, Metric.MATCHES)  # counted, though not rated; no AI
    assert sorted(r.user_id for r in wins) == [1, 2, 3]


async def _seeded_history(store, seed: int = 7) -> list[MatchRecord]:
    rng = random.Random(seed)
    recs = []
    for i in range(60):
        seats = rng.sample(range(1, 9), rng.choice([3, 4]))
        hands = []
        for _ in range(rng.randint(1, 6)):
            declarer = rng.randrange(len(seats))
            made = rng.choice([True, False, None])
            hands.append(tuple(HandLine(rng.randint(-120, 200), s == declarer,
                                        made if s == declarer else None,
                                        s == declarer and made is None,
                                        rng.random() < 0.2) for s in range(len(seats))))
        totals = [rng.randint(-100, 900) for _ in seats]
        win = rng.randrange(len(seats))
        totals[win] = 1000
        recs.append(MatchRecord(
            1, 100 + i, 1, rng.choice(["russian", "polish"]), "russian",
            NOW - rng.uniform(0, 40) * DAY - 600, NOW - rng.uniform(0, 40) * DAY,
            tuple(human(u) for u in seats), tuple(totals), (win,),
            tuple(s == win and rng.random() < 0.5 for s in range(len(seats))),
            tuple(hands), tuple(range(len(seats)))))
    async with store.transaction() as tx:
        for rec in sorted(recs, key=lambda r: r.finished_at):
            await tx.record_match(rec, NOW)
    return recs


def _expected(recs, metric: Metric, since=None, preset=None) -> list[tuple[int, float, int]]:
    """(user_id, value, matches) in leaderboard order, computed from the raw matches."""
    sums: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for rec in recs:
        if (since is not None and rec.finished_at < since) or (preset and rec.preset != preset):
            continue
        for seat, p in enumerate(rec.players):
            s = sums[p.user_id]
            s["matches"] += 1
            s["wins"] += seat in rec.winners
            s["barrel"] += rec.barrel_wins[seat]
            for hand in rec.hands:
                line = hand[seat]
                s["hands"] += 1
                s["points"] += line.delta
                s["made"] += line.declarer and line.made is True
                s["failed"] += line.declarer and line.made is False
    out = []
    for uid, s in sums.items():
        value = {Metric.WINS: s["wins"], Metric.MATCHES: s["matches"],
                 Metric.BARREL_WINS: s["barrel"],
                 Metric.WIN_RATE: 100 * s["wins"] / s["matches"],
                 Metric.POINTS_PER_HAND: s["points"] / s["hands"],
                 Metric.CONTRACTS_MADE: (100 * s["made"] / (s["made"] + s["failed"])
                                         if s["made"] + s["failed"] else None)}[metric]
        if value is not None:
            out.append((uid, float(value), s["matches"]))
    return sorted(out, key=lambda r: (-r[1], -r[2], f"P{r[0]}"))


@pytest.mark.parametrize("metric", [m for m in Metric if m is not Metric.RATING])
@pytest.mark.parametrize(("days", "preset"), [(None, None), (7, None), (30, "polish")])
async def test_each_metric_orders_a_seeded_history(store, metric, days, preset):
    recs = await _seeded_history(store)
    since = None if days is None else NOW - days * DAY - 1800  # mid-day: part of a day counts
    want = _expected(recs, metric, since, preset)
    board, total = await store.leaderboard(1, metric, since=since, preset=preset, limit=50)
    assert total == len(want) > 0
    assert [(r.user_id, r.matches) for r in board] == [(u, m) for u, _, m in want]
    assert [r.value for r in board] == pytest.approx([v for _, v, _ in want])
    assert [r.rank for r in board] == list(range(1, len(want) + 1))
    page, again = await store.leaderboard(1, metric, since=since, preset=preset, limit=2,
                                          offset=2)
    assert again == total and [r.user_id for r in page] == [u for u, _, _ in want[2:4]]
    empty, past = await store.leaderboard(1, metric, since=since, preset=preset, offset=99)
    assert empty == [] and past == total


async def test_periods_and_min_matches_filter(store):
    async with store.transaction() as tx:
        await tx.record_match(record(1, [human(1), human(2)], [1000, 0], at=NOW - 20 * DAY), NOW)
        await tx.record_match(record(2, [human(1), human(3)], [1000, 0], at=NOW - 3 * DAY), NOW)
        await tx.record_match(record(3, [human(3), human(2)], [1000, 0], at=NOW - 60), NOW)
    week, _ = await store.leaderboard(1, Metric.WINS, since=NOW - 7 * DAY)
    assert [(r.user_id, r.value) for r in week] == [(3, 1), (1, 1), (2, 0)]  # more matches
    month, _ = await store.leaderboard(1, Metric.WINS, since=NOW - 30 * DAY)
    assert [(r.user_id, r.value) for r in month] == [(1, 2), (3, 1), (2, 0)]
    hour, _ = await store.leaderboard(1, Metric.MATCHES, since=NOW - 120)
    assert sorted(r.user_id for r in hour) == [2, 3]
    busy, total = await store.leaderboard(1, Metric.WINS, min_matches=2)
    assert total == 3 and {r.user_id for r in busy} == {1, 2, 3}
    busy, total = await store.leaderboard(1, Metric.WINS, since=NOW - 7 * DAY, min_matches=2)
    assert [r.user_id for r in busy] == [3] and total == 1


async def test_global_scope_shows_only_players_who_opted_in(store):
    async with store.transaction() as tx:
        await tx.record_match(record(1, [human(1), human(2)], [1000, 0], guild=1), NOW)
        await tx.record_match(record(2, [human(1), human(3)], [1000, 0], guild=2), NOW)
        await tx.set_global_opt_in(1, True)
        await tx.set_global_opt_in(3, True)
        await tx.set_global_opt_in(3, False)
        await tx.set_global_opt_in(9, True)  # never played: nothing to show
    board, total = await store.leaderboard(None, Metric.WINS)
    assert [(r.user_id, r.value, r.matches) for r in board] == [(1, 2, 2)] and total == 1
    rating, _ = await store.leaderboard(None, Metric.RATING)
    assert [r.user_id for r in rating] == [1]
    local, _ = await store.leaderboard(2, Metric.WINS)
    assert [r.user_id for r in local] == [1, 3]  # a guild shows everyone


async def _boards(store, guild: int) -> list:
    """Every leaderboard, values rounded (a replay may differ in the last bits)."""
    out = []
    for metric in Metric:
        rows, total = await store.leaderboard(guild, metric, limit=100)
        out.append(([(r.user_id, round(r.value, 9), r.matches) for r in rows], total))
    return out


async def test_remove_match_recomputes_as_if_it_never_counted(new_database):
    recs = [record(10 + i, [human(a), human(b), human(c)], totals, at=NOW - (9 - i) * 3600)
            for i, (a, b, c, totals) in enumerate([
                (1, 2, 3, [1000, 5, 0]), (2, 3, 4, [1000, 20, 10]), (1, 3, 4, [0, 1000, 9]),
                (1, 2, 4, [1000, 0, 50]), (2, 3, 1, [1000, 3, 500]), (4, 1, 2, [1000, 0, 0])])]
    full = await open_store(await new_database())
    fresh = await open_store(await new_database())
    try:
        async with full.transaction() as tx:
            ids = [await tx.record_match(r, NOW) for r in recs]
        async with fresh.transaction() as tx:
            for i, r in enumerate(recs):
                if i != 2:
                    await tx.record_match(r, NOW)
        async with full.transaction() as tx:
            assert not await tx.remove_match(2, ids[2], NOW)  # another guild's match
            assert await tx.remove_match(1, ids[2], NOW)
            assert not await tx.remove_match(1, ids[2], NOW)  # already removed
        got, want = await _boards(full, 1), await _boards(fresh, 1)
        assert got == want
        assert (await full.match_info(ids[2])).excluded
        history, count = await full.history(1, limit=100)
        assert count == 5 and ids[2] not in [m.match_id for m in history]
        trend = (await full.profile(1, 1)).trend
        assert [p.value for p in trend] == pytest.approx(
            [p.value for p in (await fresh.profile(1, 1)).trend])
    finally:
        await full.close()
        await fresh.close()


async def test_reset_guild_clears_only_that_guild(store):
    async with store.transaction() as tx:
        await tx.record_match(record(1, [human(1), human(2)], [1000, 0], guild=1), NOW)
        await tx.record_match(record(2, [human(1), human(2)], [0, 1000], guild=1), NOW)
        kept = await tx.record_match(record(3, [human(1), human(2)], [1000, 0], guild=2), NOW)
        await tx.set_global_opt_in(1, True)
    board, _ = await store.leaderboard(None, Metric.WINS)
    assert [(r.value, r.matches) for r in board] == [(2, 3)]
    async with store.transaction() as tx:
        assert await tx.reset_guild(1, NOW) == 2
        assert await tx.reset_guild(1, NOW) == 0
    for metric in Metric:
        assert await store.leaderboard(1, metric) == ([], 0)
    assert await store.history(1) == ([], 0)
    assert await store.profile(1, 1) is None
    (only,), _ = await store.history(2)
    assert only.match_id == kept
    board, _ = await store.leaderboard(2, Metric.RATING)
    assert [r.user_id for r in board] == [1, 2]
    for since in (None, NOW - DAY):  # the global scope keeps the other guild's match only
        board, _ = await store.leaderboard(None, Metric.WINS, since=since)
        assert [(r.value, r.matches) for r in board] == [(1, 1)]
    async with store.transaction() as tx:  # the record starts again
        await tx.record_match(record(4, [human(1), human(2)], [0, 1000], guild=1), NOW)
    board, _ = await store.leaderboard(1, Metric.WINS)
    assert [(r.user_id, r.value) for r in board] == [(2, 1), (1, 0)]


async def test_history_newest_first_with_filters(store):
    async with store.transaction() as tx:
        a = await tx.record_match(record(1, [human(1), human(2)], [1000, 0], at=NOW - 300), NOW)
        b = await tx.record_match(record(2, [human(2), BOT], [1000, 0], at=NOW - 200,
                                         preset="polish"), NOW)
        c = await tx.record_match(record(3, [human(1), human(3)], [10, 1000], at=NOW - 100),
                                  NOW)
    page, total = await store.history(1)
    assert [m.match_id for m in page] == [c, b, a] and total == 3
    assert page[1].names == ("P2", "Bot") and page[1].user_ids == (2, None)
    assert page[0].winners == (1,) and page[0].totals == (10, 1000)
    page, total = await store.history(1, user_id=1, limit=1)
    assert [m.match_id for m in page] == [c] and total == 2
    page, total = await store.history(1, user_id=1, offset=1)
    assert [m.match_id for m in page] == [a] and total == 2
    assert await store.history(1, preset="polish") == ([await store.match_info(b)], 1)
    assert await store.history(1, user_id=99) == ([], 0)
    assert await store.match_info(999) is None


async def test_profile(store):
    hands = ((HandLine(120, True, True, False, False), HandLine(0, False, None, False, True)),
             (HandLine(-100, True, False, False, False), HandLine(40, False, None, False, False)),
             (HandLine(0, True, None, True, False), HandLine(0, False, None, False, True)))
    async with store.transaction() as tx:
        await tx.record_match(record(1, [human(1), human(2)], [1000, 40], hands=hands,
                                     barrel=[True, False]), NOW)
        best = await tx.record_match(record(2, [human(1), human(2)], [1060, 0],
                                            preset="polish"), NOW)
        await tx.record_match(record(3, [human(1), human(2)], [1020, 0], preset="polish"), NOW)
        await tx.record_match(record(4, [human(2), human(1)], [1000, 0], preset="polish"), NOW)
    p = await store.profile(1, 1)
    assert (p.name, p.matches, p.wins, p.hands, p.barrel_wins) == ("P1", 4, 3, 6, 1)
    assert (p.contracts_made, p.contracts_failed, p.rospisat, p.dashes) == (3, 1, 1, 0)
    assert p.points == 120 - 100 + 1060 + 1020
    assert p.favourite_preset == "polish"
    assert p.best_match is not None and p.best_match.match_id == best
    assert [f for f, _, n in p.ratings] == ["russian"] and p.ratings[0][2] == 4
    assert len(p.trend) == 4 and p.trend[-1].value == pytest.approx(p.ratings[0][1])
    assert p.trend[2].value > p.trend[3].value  # lost the last match
    assert (await store.profile(1, 2)).dashes == 2
    assert await store.profile(2, 1) is None and await store.profile(1, 42) is None


async def test_players_and_seats(store):
    async with store.transaction() as tx:
        ids = await tx.touch_players([human(1), BOT], 10.0)
        again = await tx.touch_players([PlayerRef(PlayerKind.HUMAN, 1, "", "Renamed"),
                                        PlayerRef(PlayerKind.AI, None, "hard", "Bot 2"),
                                        PlayerRef(PlayerKind.AI, None, "easy", "Bot")], 20.0)
        tid = await tx.create_table(guild_id=1, channel_id=1, host_id=1, preset="russian",
                                    rules={}, timer=0, now=20.0)
        await tx.save_seats(tid, [SeatRow(0, 1, "Renamed"), SeatRow(1, None, "Bot", True, "easy")])
    assert again[:2] == ids and again[2] not in ids
    assert await store.player_id_of(1) == ids[0] and await store.player_id_of(2) is None
    assert await rows(store, "SELECT name, first_seen, last_seen FROM players WHERE id = ?",
                      (ids[0],)) == [("Renamed", 10.0, 20.0)]
    assert [r[0] for r in await rows(store, "SELECT player_id FROM seats ORDER BY seat")] == [
        ids[0], again[2]]


async def test_guild_settings(store):
    assert (await store.guild_settings(5)).turn_timer == 300
    async with store.transaction() as tx:
        await tx.set_guild_settings(5, turn_timer=60, ai_rated=True, language="pl")
        await tx.set_guild_settings(5, default_preset="polish")
    s = await store.guild_settings(5)
    assert (s.default_preset, s.turn_timer, s.language, s.ai_rated, s.web) == (
        "polish", 60, "pl", True, False)
    with pytest.raises(ValueError, match="colour"):
        async with store.transaction() as tx:
            await tx.set_guild_settings(5, colour="red")
    assert (await store.guild_settings(6)).ai_rated is False
    async with store.transaction() as tx:  # a row made by another setting chose no preset
        await tx.set_guild_settings(7, turn_timer=90)
    assert (await store.guild_settings(7)).default_preset == ""


async def test_player_settings_each_choice_on_its_own(store):
    """/optin's two choices are kept apart, per user, and read fresh after each write."""
    got = await store.player_settings(7)
    assert (got.global_opt_in, got.turn_ping) == (False, False)
    async with store.transaction() as tx:
        await tx.set_turn_ping(7, True)
        await tx.set_turn_ping(7, True)  # again: still one row
    got = await store.player_settings(7)
    assert (got.global_opt_in, got.turn_ping) == (False, True)
    async with store.transaction() as tx:
        await tx.set_global_opt_in(7, True)
        await tx.set_turn_ping(8, True)
    got = await store.player_settings(7)
    assert (got.global_opt_in, got.turn_ping) == (True, True)
    async with store.transaction() as tx:
        await tx.set_turn_ping(7, False)
    got = await store.player_settings(7)
    assert (got.global_opt_in, got.turn_ping) == (True, False)
    assert (await store.player_settings(8)).turn_ping is True
    assert await rows(store, "SELECT user_id FROM turn_pings") == [(8,)]


async def test_guild_settings_read_after_a_write_are_the_new_ones(database):
    """Settings are kept once read; a transaction that writes them makes the next read fresh
    (and a rolled-back one leaves the old ones)."""
    store = await open_store(database)
    try:
        assert (await store.guild_settings(5)).default_preset == ""
        async with store.transaction() as tx:
            await tx.set_guild_settings(5, default_preset="polish")
        assert (await store.guild_settings(5)).default_preset == "polish"
        with contextlib.suppress(RuntimeError):
            async with store.transaction() as tx:
                await tx.set_guild_settings(5, default_preset="elwood2")
                raise RuntimeError("rolled back")
        assert (await store.guild_settings(5)).default_preset == "polish"
    finally:
        await store.close()


def test_a_match_is_rated_when_two_seats_or_more_are_rated_against_each_other():
    people = [human(1), human(2), human(3)]
    with_ai = [human(1), BOT, human(3)]
    assert rated_seats(people, ai_rated=False) == (0, 1, 2)
    assert rated_seats(with_ai, ai_rated=False) == ()
    assert rated_seats(with_ai, ai_rated=True) == (0, 2)
    assert rated_seats([human(1), BOT], ai_rated=True) == (0,)
    assert record(1, people, [1000, 0, 0]).rated
    assert record(1, with_ai, [1000, 0, 0], rated_seats=(0,)).rated is False
    assert record(1, with_ai, [1000, 0, 0], rated_seats=(0, 0)).rated is False
