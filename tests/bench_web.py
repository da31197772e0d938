"""``python -m bot bench web``: page times of the web pages while tables play.

A fresh database gets 100,000 recorded hands (the store benchmark's filler,
``bot.store.bench.fill``: 20 guilds, 300 players) plus a few matches played for real
through the table service (their hands replay), in a guild whose pages are on. The bot
then runs as its own process (``python -m bot run`` with ``WEB_PORT``) against the Discord
emulator, where N tables (default 100) play as in ``bench tables``; meanwhile a client in
another process requests each page kind over and over (leaderboards of every metric and
period, players' pages, match sheets, hand replays, scenario files) and times each answer.
Prints p50/p99 per page kind; the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import random
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.store import Metric, Store
from bot.store.bench import fill
from bot.tables import Actor, FakeClock, TableService, TableStatus
from tests.bench_tables import ROOT, Bench, Stats, percentile, spawn_bot
from tests.fakediscord import FakeDiscord, RateLimitConfig
from tests.helpers.tables import play_human_turn

GUILD = 1000  # the filler's first guild; its pages are on
KINDS = ("board", "player", "match", "hand", "scenario")
BUDGET_MS = 100.0


async def _real_matches(store: Store, count: int, seed: int) -> list[int]:
    """``count`` matches played through the service in GUILD; their record ids."""
    people = [Actor(10**17 + i, f"player{i}", can_manage=True, guild_id=GUILD)
              for i in range(3)]  # the filler's first players: they live in GUILD
    actors = {a.user_id: a for a in people}
    service = TableService(store, clock=FakeClock(1_750_000_000.0), seed=seed, ai_delay=0.0,
                           ai_in_thread=False)
    ids = []
    rng = random.Random(seed)
    for i in range(count):
        host = people[0]
        tid = (await service.create(host, channel_id=90_000 + i, guild_id=GUILD)).table.id
        for a in people[1:]:
            await service.join(tid, a)
        await service.set_option(tid, host, "barrel", "none")
        await service.set_option(tid, host, "target", "500")
        await service.start(tid, host)
        while service.get(tid).status is not TableStatus.FINISHED:
            await service.settle()
            if service.get(tid).status is TableStatus.PLAYING:
                await play_human_turn(service, tid, actors, rng)
        mid = await store.match_id_of(tid, 1)
        assert mid is not None
        ids.append(mid)
    await service.close()
    return ids


async def seed_database(path: Path, *, hands: int, real: int, seed: int
                        ) -> dict[str, Any]:
    """Fill the database; what the client should ask for."""
    store = await Store.open(path)
    try:
        t0 = time.perf_counter()
        await fill(store, hands=hands, matches=max(1, hands // 20), players=300, guilds=20,
                   seed=seed)
        # the filler's tables stay "finished" (live): a restart would replay their
        # made-up move logs; they are over
        async with store.transaction() as tx:
            for table in await store.live_tables():
                await tx.update_table(table.id, status=TableStatus.ENDED)
        mids = await _real_matches(store, real, seed)
        async with store.transaction() as tx:
            await tx.set_guild_settings(GUILD, web=True)
        rows, _ = await store.leaderboard(GUILD, Metric.MATCHES, limit=50)
        players = [r.player_id for r in rows]
        history, total = await store.history(GUILD, limit=200)
        fake = [m.match_id for m in history if m.match_id not in mids][:50]
        hand_counts = {}
        for mid in mids:
            info = await store.match_info(mid)
            assert info is not None
            hand_counts[mid] = len(await store.hands(info.table_id, info.match_no))
        print(f"# seeded {hands} hands ({total} matches in the guild, {len(mids)} played "
              f"for real) in {time.perf_counter() - t0:.1f} s", flush=True)
        return {"players": players, "real": hand_counts, "fake": fake}
    finally:
        await store.close()


def _urls(plan: dict[str, Any], rng: random.Random) -> list[tuple[str, str]]:
    g = f"/g/{GUILD}"
    out: list[tuple[str, str]] = []
    metrics = [m.value for m in Metric]
    for _ in range(400):
        q = f"?metric={rng.choice(metrics)}&period={rng.choice(['all', '30d', '7d'])}"
        if rng.random() < 0.3:
            q += "&page=2"
        out.append(("board", g + q))
        out.append(("player", f"{g}/p/{rng.choice(plan['players'])}"))
        mid = rng.choice([*plan["real"], *plan["fake"]])
        out.append(("match", f"{g}/m/{mid}"))
        real = rng.choice(list(plan["real"]))
        out.append(("hand", f"{g}/m/{real}/h/{rng.randint(1, plan['real'][real])}"))
        out.append(("scenario", f"{g}/m/{real}/scenario.json"))
    return out


def client(port: int, plan_file: str, seconds: float, seed: int) -> int:
    """The page client (its own process): request pages for ``seconds``; timings as JSON."""
    plan = json.loads(Path(plan_file).read_text())
    rng = random.Random(seed)
    urls = _urls(plan, rng)
    times: dict[str, list[float]] = {k: [] for k in KINDS}
    worst: list[tuple[float, float, str]] = []  # (ms, seconds into the run, url)
    start = time.monotonic()
    errors: list[str] = []
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        kind, url = urls[i % len(urls)]
        i += 1
        t0 = time.perf_counter()
        try:
            conn.request("GET", url)
            r = conn.getresponse()
            r.read()
        except (OSError, http.client.HTTPException) as exc:
            errors.append(f"{url}: {exc}")
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        times[kind].append((time.perf_counter() - t0) * 1000)
        worst = sorted([*worst, (times[kind][-1], time.monotonic() - start, url)])[-10:]
        if r.status != 200:
            errors.append(f"{url}: HTTP {r.status}")
        time.sleep(0.005)  # a crowd of readers, not a flood
    print(json.dumps({"times": times, "errors": errors[:50], "worst": worst}))
    return 0


def _write(path: Path, text: str) -> None:
    path.write_text(text)


def _read(path: Path) -> str:
    return path.read_text(errors="replace")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _wait_for_pages(port: int, timeout: float = 60.0) -> None:  # noqa: ASYNC109
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        await asyncio.sleep(0.2)
    raise RuntimeError("the bot's web server did not start")


async def run(*, hands: int, tables: int, seconds: float, real: int, seed: int,
              workdir: Path) -> dict[str, Any]:
    db, log, plan_file = workdir / "bench.db", workdir / "bot.log", workdir / "plan.json"
    plan = await seed_database(db, hands=hands, real=real, seed=seed)
    _write(plan_file, json.dumps(plan))
    port = _free_port()
    os.environ["WEB_PORT"] = str(port)
    os.environ["WEB_HOST"] = "127.0.0.1"
    stats = Stats()
    async with FakeDiscord(rate_limit=RateLimitConfig(limit=5, per=5.0),
                           schema_twice=False) as fd:
        users = [fd.add_user(f"u{i}", f"Player {i}") for i in range(tables)]
        guild = fd.add_guild("Bench", members=users)
        channels = [fd.add_text_channel(guild, f"t{i}") for i in range(tables)]
        proc = await spawn_bot(fd, db, log)
        try:
            await fd.wait_ready(timeout=60)
            await _wait_for_pages(port)
            ramp = min(10.0, seconds / 3)
            bench = Bench(fd, stats, preset="russian", humans=1, ais=2, seed=seed,
                          deadline=time.monotonic() + ramp + seconds, ramp=ramp)
            reader = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.bench_web", "--client", str(port),
                "--plan", str(plan_file), "--seconds", str(ramp + seconds),
                cwd=str(ROOT),
                stdout=asyncio.subprocess.PIPE)
            await asyncio.gather(*[bench.table(ch, [users[i]])
                                   for i, ch in enumerate(channels)])
            out, _ = await reader.communicate()
        finally:
            if proc.returncode is None:
                proc.terminate()
                try:
                    await asyncio.wait_for(proc.wait(), 10)
                except TimeoutError:
                    proc.kill()
                    await proc.wait()
    got = json.loads(out.decode().strip().splitlines()[-1])
    bot_errors = [line for line in _read(log).splitlines()
                  if " ERROR " in line or line.startswith("Traceback")]
    pages = {}
    for kind in KINDS:
        values = got["times"][kind]
        pages[kind] = {"n": len(values), "p50_ms": round(percentile(values, 50), 1),
                       "p99_ms": round(percentile(values, 99), 1)}
        print(f"{kind:9} n={len(values):5}  p50 {pages[kind]['p50_ms']:6.1f} ms  "
              f"p99 {pages[kind]['p99_ms']:6.1f} ms", flush=True)
    for ms, at, url in got["worst"]:
        print(f"# slow: {ms:.0f} ms at {at:.1f} s: {url}")
    for e in [*got["errors"], *bot_errors, *stats.errors][:20]:
        print("error:", e, file=sys.stderr)
    acks = [a * 1000 for a in stats.acks]
    worst = max(p["p99_ms"] for p in pages.values())
    return {"hands": hands, "tables": tables, "seconds": seconds,
            "moves": stats.moves, "ack_p99_ms": round(percentile(acks, 99), 1),
            **{f"{k}_p50_ms": v["p50_ms"] for k, v in pages.items()},
            **{f"{k}_p99_ms": v["p99_ms"] for k, v in pages.items()},
            "max_p99_ms": worst, "within_budget": worst <= BUDGET_MS,
            "errors": len(got["errors"]) + len(bot_errors) + len(stats.errors)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bot bench web")
    p.add_argument("--hands", type=int, default=100_000)
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--real", type=int, default=3, help="matches played for real (replayable)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workdir", type=Path, default=None)
    p.add_argument("--client", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--plan", default="", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.client is not None:
        return client(args.client, args.plan, args.seconds, args.seed)
    with contextlib.ExitStack() as stack:
        workdir = args.workdir or Path(stack.enter_context(
            tempfile.TemporaryDirectory(prefix="bench-web-")))
        result = asyncio.run(run(hands=args.hands, tables=args.tables, seconds=args.seconds,
                                 real=args.real, seed=args.seed, workdir=workdir))
    print(json.dumps(result))
    return 0 if result["errors"] == 0 and result["within_budget"] else 1


if __name__ == "__main__":
    sys.exit(main())
