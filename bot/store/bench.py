"""Benchmark of the store at a community's size: ``python -m bot bench store``.

Fills a fresh database (seeded) with recorded matches, their hands and move logs through
the same ``Tx`` methods the service uses, then times appending one move the way
``Ledger.move`` does and answering every leaderboard. Prints p50/p95 lines and, as the last
line, one JSON object ``{"hands": ..., "append_p50_ms": ..., "append_p95_ms": ...,
"leaderboard_p50_ms": ..., "leaderboard_p95_ms": ..., "db_mb": ...}`` (the leaderboard
numbers are those of the slowest metric). ``--database postgresql://...`` runs it on an
empty PostgreSQL database instead of a temporary SQLite file.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.store._community import (
    HandLine,
    MatchRecord,
    Metric,
    PlayerKind,
    PlayerRef,
    rated_seats,
)
from bot.store._interface import StoreAPI
from bot.store._open import open_store
from bot.store._status import TableStatus
from bot.store._store import Store

NOW = 1_750_000_000.0
DAY = 86400.0
SPAN_DAYS = 180  # the matches finish over the last half year
MOVES_PER_HAND = 32  # a deal and ~31 bids, exchanges and card plays
PRESETS = (("russian", "russian", 3), ("russian4", "russian", 4), ("polish", "polish", 3))
_DEAL = {"deal": [["JC", "QC", "KC", "AC", "9D", "AH", "JS"],
                  ["10C", "JD", "QD", "JH", "KH", "9S", "AS"],
                  ["9C", "10D", "AD", "9H", "QS", "KS", "10S"]],
         "talons": [["KD", "QH", "10H"]], "stock": []}
_CARDS = [r + s for s in "CDHS" for r in ("9", "10", "J", "Q", "K", "A")]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _hand_counts(rng: random.Random, matches: int, hands: int) -> list[int]:
    """Hands per match (10..30), summing to ``hands`` exactly."""
    counts = [hands // matches] * matches
    for i in range(hands - sum(counts)):
        counts[i % matches] += 1
    for _ in range(matches):  # move hands around, keeping the sum
        a, b = rng.randrange(matches), rng.randrange(matches)
        k = rng.randint(0, 5)
        if counts[a] - k >= 10 and counts[b] + k <= 30:
            counts[a] -= k
            counts[b] += k
    return counts


def _hands(rng: random.Random, seats: int, n: int) -> tuple[tuple[HandLine, ...], ...]:
    out = []
    for _ in range(n):
        declarer = rng.randrange(seats)
        made = rng.choice((True, True, False, None))
        out.append(tuple(HandLine(rng.randint(-120, 160), s == declarer,
                                  made if s == declarer else None,
                                  s == declarer and made is None, rng.random() < 0.05)
                         for s in range(seats)))
    return tuple(out)


_POOL: list[tuple[dict[str, Any], int | None]] = [
    ({"seat": seat, "verb": "play", "card": card}, 10**17 + seat)
    for seat in range(4) for card in _CARDS]


def _moves(rng: random.Random, hands: int) -> list[tuple[dict[str, Any], int | None]]:
    moves: list[tuple[dict[str, Any], int | None]] = []
    for _ in range(hands):
        moves.append((_DEAL, None))
        moves += rng.choices(_POOL, k=MOVES_PER_HAND - 1)
    return moves


async def fill(store: StoreAPI, *, hands: int, matches: int, players: int, guilds: int,
               seed: int) -> tuple[int, list[float]]:
    """Record ``matches`` won matches with ``hands`` hands in all; the last table id and
    the milliseconds each ``record_match`` took."""
    recording: list[float] = []
    rng = random.Random(seed)
    users = [10**17 + i for i in range(players)]
    home = {u: 1000 + i % guilds for i, u in enumerate(users)}
    members: dict[int, list[int]] = {}
    for u, g in home.items():
        members.setdefault(g, []).append(u)
    async with store.transaction() as tx:
        for i, u in enumerate(users):
            if i % 2 == 0:
                await tx.set_global_opt_in(u, True)
    tables: dict[int, list[int]] = {}  # guild -> [table id, match_no]
    ends = sorted(NOW - rng.uniform(0, SPAN_DAYS) * DAY for _ in range(matches))
    tid = 0
    for n_hands, end in zip(_hand_counts(rng, matches, hands), ends, strict=True):
        guild = 1000 + rng.randrange(guilds)
        preset, family, seats = rng.choice(PRESETS)
        pool = members[guild] + rng.sample(users, 3)  # now and then a visitor
        chosen = rng.sample(sorted(set(pool)), seats)
        refs = [PlayerRef(PlayerKind.HUMAN, u, "", f"player{u % 1000}") for u in chosen]
        if rng.random() < 0.1:
            refs[-1] = PlayerRef(PlayerKind.AI, None, rng.choice(("easy", "hard")), "Bot")
        totals = [rng.randint(-200, 950) for _ in refs]
        winner = rng.randrange(seats)
        totals[winner] = 1000 + rng.randint(0, 120)
        async with store.transaction() as tx:
            if guild not in tables:
                tid = await tx.create_table(guild_id=guild, channel_id=guild * 10,
                                            host_id=chosen[0], preset=preset, rules={},
                                            timer=300, now=end)
                tables[guild] = [tid, 0]
            tid, no = tables[guild][0], tables[guild][1] + 1
            tables[guild][1] = no
            start = end - n_hands * 90.0
            await tx.start_match(tid, no, rules={}, dealer=0, seats=[], now=start)
            await tx.append_moves(tid, no, 0, _moves(rng, n_hands), end)
            for h in range(n_hands):
                await tx.add_hand(tid, no, h + 1, {"delta": [0] * seats}, end)
            await tx.finish_match(tid, no, status="won", winners=[winner], totals=totals,
                                  now=end)
            await tx.update_table(tid, match_no=no, status=TableStatus.FINISHED,
                                  updated_at=end)
            rec = MatchRecord(
                guild, tid, no, preset, family, start, end, tuple(refs), tuple(totals),
                (winner,), tuple(s == winner and rng.random() < 0.3 for s in range(seats)),
                _hands(rng, seats, n_hands), rated_seats(refs, ai_rated=True))
            t0 = time.perf_counter()
            await tx.record_match(rec, end)
            recording.append((time.perf_counter() - t0) * 1000)
    return tid, recording


async def _time_appends(store: StoreAPI, table_id: int, count: int) -> list[float]:
    """Milliseconds of one move appended the way ``Ledger.move`` does."""
    async with store.transaction() as tx:
        row = await store.table(table_id)
        assert row is not None
        no = row.match_no + 1
        await tx.start_match(table_id, no, rules={}, dealer=0, seats=[], now=NOW)
        await tx.update_table(table_id, match_no=no, status=TableStatus.PLAYING)
    out = []
    for seq in range(count):
        move = {"seat": seq % 3, "verb": "play", "card": _CARDS[seq % len(_CARDS)]}
        t0 = time.perf_counter()
        async with store.transaction() as tx:
            await tx.append_moves(table_id, no, seq, [(move, 10**17)], NOW + seq)
            await tx.update_table(table_id, updated_at=NOW + seq, last_human_at=NOW + seq)
        out.append((time.perf_counter() - t0) * 1000)
    return out


async def _time_leaderboards(store: StoreAPI, guilds: int, rounds: int,
                             seed: int) -> dict[Metric, list[float]]:
    rng = random.Random(seed)
    out: dict[Metric, list[float]] = {m: [] for m in Metric}
    for _ in range(rounds):
        for metric in Metric:
            guild = None if rng.random() < 0.2 else 1000 + rng.randrange(guilds)
            since = rng.choice((None, NOW - 7 * DAY - 3600, NOW - 30 * DAY - 3600))
            names = [family if metric is Metric.RATING else name
                     for name, family, _ in PRESETS]
            preset = rng.choice([None, *names])
            t0 = time.perf_counter()
            await store.leaderboard(guild, metric, preset=preset, since=since)
            out[metric].append((time.perf_counter() - t0) * 1000)
    return out


async def _time_reads(store: StoreAPI, guilds: int, rounds: int, seed: int,
                      say: Callable[[str], None]) -> None:
    """Profiles, histories, and removing a guild's oldest match (ratings replayed)."""
    rng = random.Random(seed)
    pairs = sorted({(r[0], r[1]) for r in await store.fetch(
        "SELECT m.guild_id, p.user_id FROM match_seats s"
        " JOIN match_records m ON m.id = s.match_id"
        " JOIN players p ON p.id = s.player_id WHERE p.kind = 'human'")})
    profile, history = [], []
    for _ in range(rounds):
        guild, user = rng.choice(pairs)
        t0 = time.perf_counter()
        await store.profile(guild, user)
        profile.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        await store.history(guild, user_id=user if rng.random() < 0.5 else None)
        history.append((time.perf_counter() - t0) * 1000)
    for name, times in (("profile", profile), ("history", history)):
        say(f"{name}: p50 {statistics.median(times):.2f} ms,"
            f" p95 {_percentile(times, 0.95):.2f} ms")
    guild = 1000 + rng.randrange(guilds)
    found = await store.fetch("SELECT MIN(id) FROM match_records WHERE guild_id = ?"
                              " AND rated = 1", (guild,))
    row = found[0] if found else None
    if row is None or row[0] is None:
        return
    oldest = int(row[0])
    t0 = time.perf_counter()
    async with store.transaction() as tx:
        await tx.remove_match(guild, oldest, NOW)
    say(f"remove a guild's oldest match: {(time.perf_counter() - t0) * 1000:.1f} ms")


async def _checkpoint(store: StoreAPI) -> None:
    if isinstance(store, Store):  # SQLite: the WAL into the file (PostgreSQL: nothing)
        async with store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)") as cur:
            await cur.fetchall()


async def run(path: Path | str, *, hands: int = 100_000, matches: int = 5_000, players: int = 300,
              guilds: int = 20, seed: int = 1, appends: int = 2_000, rounds: int = 100,
              echo: bool = True) -> dict[str, Any]:
    """Fill ``path`` (a new file, or an empty PostgreSQL database's URL), measure, print;
    the JSON result as a dict."""
    def say(text: str) -> None:
        if echo:
            print(text, flush=True)

    store = await open_store(str(path))
    try:
        t0 = time.perf_counter()
        last_table, recording = await fill(store, hands=hands, matches=matches, players=players,
                                guilds=guilds, seed=seed)
        await _checkpoint(store)
        say(f"fill: {hands} hands in {matches} matches of {players} players in {guilds}"
            f" guilds, {time.perf_counter() - t0:.1f} s")
        say(f"record one match: p50 {statistics.median(recording):.3f} ms,"
            f" p95 {_percentile(recording, 0.95):.3f} ms")
        append = await _time_appends(store, last_table, appends)
        say(f"append one move: p50 {statistics.median(append):.3f} ms,"
            f" p95 {_percentile(append, 0.95):.3f} ms")
        boards = await _time_leaderboards(store, guilds, rounds, seed)
        for metric, times in boards.items():
            say(f"leaderboard {metric.value}: p50 {statistics.median(times):.2f} ms,"
                f" p95 {_percentile(times, 0.95):.2f} ms")
        await _time_reads(store, guilds, rounds, seed, say)
        await _checkpoint(store)
        size = 0 if isinstance(path, Path) else int((await store.fetch(
            "SELECT pg_database_size(current_database())"))[0][0])
    finally:
        await store.close()
    if isinstance(path, Path):  # once closed: the file alone, its WAL gone
        size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
    result = {
        "hands": hands,
        "append_p50_ms": round(statistics.median(append), 3),
        "append_p95_ms": round(_percentile(append, 0.95), 3),
        "leaderboard_p50_ms": round(max(statistics.median(t) for t in boards.values()), 2),
        "leaderboard_p95_ms": round(max(_percentile(t, 0.95) for t in boards.values()), 2),
        "db_mb": round(size / 2**20, 1),
    }
    say(json.dumps(result))
    return result


def run_bench(seed: int = 1, database: str = "") -> dict[str, Any]:
    """The full-size benchmark in a temporary directory (or on ``database``, an empty
    PostgreSQL database's URL)."""
    if database:
        return asyncio.run(run(database, seed=seed))
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(run(Path(tmp) / "bench.db", seed=seed))
