"""``python -m bot bench daily --players N``: N players play the day's boards through the
Discord emulator, each as fast as the bot answers.

The bot runs as its own process (``python -m bot run``) against the emulator in this
process, with the AI seats and the par's strong AIs in its pool, as in production. Each
emulated player sends ``/daily``, then presses a random choice of each board's message
(a button, or an option of a select) until the board's result, then "Next board", until
the day is played. For every interaction the time from sending it to the bot's initial
response is measured at the emulator (Discord's 3-second rule; the bot acknowledges a
press at once and shows the board when its images are drawn), and the time until the
board (or its result) is shown. Errors: answers that are
not a board's message (a refusal, "something went wrong"), interactions not answered,
rule violations the emulator recorded, and ERROR lines in the bot's log. The last line
printed is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.bench_tables import log_problems, percentile, spawn_bot
from tests.fakediscord import FakeDiscord, RateLimitConfig
from tests.fakediscord.models import Channel, Message, User

HEAD = "Daily challenge"
RESULT = "your result"
ALL_DONE = "boards of"
PREFIX = "t1000d:"
PLAYERS_PER_CHANNEL = 10


@dataclass
class Stats:
    acks: list[float] = field(default_factory=list)  # seconds
    answers: list[float] = field(default_factory=list)  # seconds until the board was shown
    errors: list[str] = field(default_factory=list)
    moves: int = 0
    boards: int = 0  # boards whose result a player saw

    def error(self, text: str) -> None:
        if len(self.errors) < 1000:
            self.errors.append(text)


class Bench:
    def __init__(self, fd: FakeDiscord, stats: Stats, seed: int, deadline: float) -> None:
        self.fd, self.stats = fd, stats
        self.rng = random.Random(seed)
        self.deadline = deadline

    async def timed(self, coro: Any) -> Any:
        t0 = time.monotonic()
        try:
            r = await coro
        except Exception as exc:
            self.stats.error(f"{type(exc).__name__}: {exc}"[:300])
            return None
        answered = r.interaction.answered_at if r is not None else None
        self.stats.acks.append((answered or time.monotonic()) - t0)
        if r.type is None:
            self.stats.error(f"interaction {r.interaction.id} not answered")
            return None
        return r

    async def answer(self, r: Any, t0: float) -> Message | None:
        """The message that answers an interaction (a deferred one: its follow-up)."""
        for _ in range(6000):  # the par of a board may take a while to compute
            got = r.followups[-1] if r.followups else r.message
            if got is not None and not got.loading and got.content:
                self.stats.answers.append(time.monotonic() - t0)
                return got  # type: ignore[no-any-return]
            await asyncio.sleep(0.01)
        self.stats.error(f"interaction {r.interaction.id}: no answer within 60 s")
        return None

    async def player(self, user: User, channel: Channel) -> None:
        fd = self.fd
        t0 = time.monotonic()
        r = await self.timed(fd.slash(user, channel, "daily"))
        msg = await self.answer(r, t0) if r is not None else None
        while msg is not None and time.monotonic() < self.deadline:
            if HEAD not in msg.content:
                self.stats.error(f"{user.name}: {msg.content[:200]!r}")
                return
            ids = [c for c in msg.custom_ids if c.startswith(PREFIX)]
            if RESULT in msg.content:
                self.stats.boards += 1
            if not ids:
                if ALL_DONE not in msg.content:
                    self.stats.error(f"{user.name}: no choice offered: {msg.content[:200]!r}")
                return
            cid = self.rng.choice(ids)
            comp = msg.component_by_id(cid)
            assert comp is not None
            t0 = time.monotonic()
            if comp["type"] == 3:
                value = self.rng.choice(comp["options"])["value"]
                r = await self.timed(fd.select(user, msg, cid, [value]))
            else:
                r = await self.timed(fd.click(user, msg, cid))
            self.stats.moves += 1
            msg = await self.answer(r, t0) if r is not None else None


async def run(players: int, *, seed: int = 1, seconds: float = 600.0,
              workdir: Path | None = None) -> dict[str, Any]:
    """Run the benchmark; the result dict (also the last line the CLI prints)."""
    stats = Stats()
    with contextlib.ExitStack() as stack:
        if workdir is None:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-")))
        db, log = workdir / "bot.db", workdir / "bot.log"
        async with FakeDiscord(rate_limit=RateLimitConfig(limit=5, per=5.0),
                               schema_twice=False) as fd:
            users = [fd.add_user(f"u{i}", f"Player {i}") for i in range(players)]
            guild = fd.add_guild("Bench", members=users)
            channels = [fd.add_text_channel(guild, f"d{i}")
                        for i in range(max(1, -(-players // PLAYERS_PER_CHANNEL)))]
            proc = await spawn_bot(fd, db, log)
            try:
                await fd.wait_ready(timeout=60)
                await asyncio.sleep(0.5)
                bench = Bench(fd, stats, seed, time.monotonic() + seconds)
                t0 = time.monotonic()
                await asyncio.gather(*[
                    bench.player(u, channels[i % len(channels)]) for i, u in enumerate(users)])
                elapsed = time.monotonic() - t0
            finally:
                if proc.returncode is None:
                    proc.terminate()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(proc.wait(), 20)
                    if proc.returncode is None:
                        proc.kill()
                        await proc.wait()
            for v in fd.violations:
                stats.error(f"violation {v.rule}: {v.detail}"[:300])
        with sqlite3.connect(db) as con:
            recorded = con.execute("SELECT COUNT(*) FROM daily_results").fetchone()[0]
        for problem in log_problems(log.read_text(errors="replace") if log.exists() else ""):
            stats.error(problem[:300])
    acks_ms = [a * 1000 for a in stats.acks]
    answers_ms = [a * 1000 for a in stats.answers]
    return {
        "players": players,
        "boards_completed": recorded,
        "boards_seen": stats.boards,
        "interactions": len(acks_ms),
        "seconds": round(elapsed, 1),
        "ack_p50_ms": round(percentile(acks_ms, 50), 1),
        "ack_p95_ms": round(percentile(acks_ms, 95), 1),
        "ack_p99_ms": round(percentile(acks_ms, 99), 1),
        "ack_max_ms": round(max(acks_ms), 1) if acks_ms else 0.0,
        "answer_p50_ms": round(percentile(answers_ms, 50), 1),
        "answer_p95_ms": round(percentile(answers_ms, 95), 1),
        "answer_p99_ms": round(percentile(answers_ms, 99), 1),
        "errors": len(stats.errors),
        "first_errors": stats.errors[:5],
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bot bench daily")
    p.add_argument("--players", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seconds", type=float, default=600.0,
                   help="stop the players after this long (default 600)")
    args = p.parse_args(argv)
    result = asyncio.run(run(args.players, seed=args.seed, seconds=args.seconds))
    print(f"players {result['players']}: {result['boards_completed']} boards completed, "
          f"{result['interactions']} interactions in {result['seconds']} s; ack p50 "
          f"{result['ack_p50_ms']} ms, p95 {result['ack_p95_ms']} ms, p99 "
          f"{result['ack_p99_ms']} ms; board shown p50 {result['answer_p50_ms']} ms, p95 "
          f"{result['answer_p95_ms']} ms, p99 {result['answer_p99_ms']} ms; "
          f"{result['errors']} errors")
    for e in result["first_errors"]:
        print("error:", e, file=sys.stderr)
    print(json.dumps(result), flush=True)
    return 0 if result["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
