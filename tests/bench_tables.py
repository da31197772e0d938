"""``python -m bot bench tables --tables N``: N tables at once through the Discord emulator.

The bot runs as its own process (``python -m bot run``, as in production) against the
emulator in this process; each table has its own channel (the emulator enforces Discord's
5 creates/edits per 5 s per channel) and one emulated human (by default) with AI opponents
that move without a pause. The humans play as fast as the bot lets them: they read their
ephemeral hand, press a random enabled card button / choose a random select option / press
Pass or a talon button, and wait for the hand to say it is their turn again.

For every interaction the time from sending it to the bot's initial response is measured
at the emulator, as Discord's 3-second rule counts it: from the INTERACTION_CREATE on the
gateway to the moment the callback request is taken (the gateway, the bot and the callback
request, but not the emulated player's own wake-up after the answer). Errors: refusals of a
move offered as legal, failed or unexpected interaction answers, rule violations the
emulator recorded, and ERROR lines in the bot's log. The bot's event-loop watchdog
(bot/watchdog.py) reports the longest stall of its loop in that log. The last line printed
is one JSON object.

Several processes (``--processes P --shards-per-process S``): the emulator is sharded into
``P * S`` shards with one guild on each, the tables are spread over those guilds, and P bot
processes run ``--shard-count P*S --shard-ids ...`` (S shards each), as a sharded deployment
does. The result then also reports each process's interactions/s and ack percentiles.
``--database`` chooses what the processes share: ``sqlite`` gives each process its own file
(a stand-in: one SQLite file serves one process), ``postgresql`` passes every process the
same ``DATABASE_URL`` (from the environment, or a temporary server the bench starts with
fsync and synchronous commits on, as a production server runs).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.ai import LEVELS
from tests.fakediscord import FakeDiscord, RateLimitConfig
from tests.fakediscord.models import Channel, Message, User

if TYPE_CHECKING:
    from tests.pgserver import PgServer

ROOT = Path(__file__).resolve().parents[1]
YOUR_TURN = "**Your turn.**"
MATCH_OVER = "The match is over."
STALL = 5.0  # seconds without a hand update before asking for the hand again
# bot/watchdog.py: its closing line, and the end of each stall over its threshold
LOOP_SUMMARY = re.compile(r"event loop: longest stall (\d+) ms, (\d+) stalls over (\d+) ms")
LOOP_STALL = re.compile(r"event loop (?:stall over after|stalled) (\d+) ms")


@dataclass
class Stats:
    acks: list[float] = field(default_factory=list)  # seconds
    setup_acks: list[float] = field(default_factory=list)  # of them: opening the tables
    turns: list[float] = field(default_factory=list)  # seconds from a move's answer until
    # the human's hand says it is his turn again (the AIs moved, the hand was refreshed)
    errors: list[str] = field(default_factory=list)
    moves: int = 0
    stalls: int = 0
    deferred: int = 0
    hand_edits: int = 0  # edits of ephemeral hands (answers in place and refreshes)
    table_edits: int = 0  # edits of table messages
    by_process: dict[int, list[float]] = field(default_factory=dict)  # acks of each process
    hands: int = 0  # hands scored (in the database)
    committed: int = 0  # moves in the database (deals, humans, AIs)
    matches: int = 0

    def error(self, text: str) -> None:
        if len(self.errors) < 1000:
            self.errors.append(text)


class Bench:
    def __init__(self, fd: FakeDiscord, stats: Stats, *, preset: str, humans: int, ais: int,
                 seed: int, deadline: float, think: float = 0.0, ramp: float = 0.0,
                 layout: Layout | None = None, ai_level: str = "normal") -> None:
        self.fd, self.stats = fd, stats
        self.layout = layout or Layout()
        self.think, self.ramp = think, ramp
        self.changed: dict[int, asyncio.Event] = {}  # message id -> set on each edit
        edit = fd.store.edit

        def edit_and_wake(msg: Message, rev: Any) -> None:  # the emulator's store, watched
            edit(msg, rev)
            ev = self.changed.get(msg.id)
            if ev is not None:
                ev.set()

        fd.store.edit = edit_and_wake  # type: ignore[method-assign]
        self.preset, self.humans, self.ais = preset, humans, ais
        self.ai_level = ai_level
        self.rng = random.Random(seed)
        self.deadline = deadline

    async def timed(self, coro: Any, *, setup: bool = False) -> Any:
        t0 = time.monotonic()
        try:
            r = await coro
        except Exception as exc:
            self.stats.error(f"{type(exc).__name__}: {exc}"[:300])
            return None
        # Discord's clock: from sending the interaction until the answer reached it (not
        # until this emulated player's own task got its turn on a busy loop afterwards)
        answered = r.interaction.answered_at if r is not None else None
        self.stats.acks.append((answered or time.monotonic()) - t0)
        if r is not None and r.interaction.channel is not None:
            proc = self.layout.process_of(r.interaction.channel.guild_id)
            self.stats.by_process.setdefault(proc, []).append(self.stats.acks[-1])
        if setup:
            self.stats.setup_acks.append(self.stats.acks[-1])
        if r.type is None:
            self.stats.error(f"interaction {r.interaction.id} not answered")
            return None
        return r

    async def table(self, channel: Channel, users: list[User]) -> None:
        fd, host = self.fd, users[0]
        if self.ramp > 0:  # tables open over the first seconds, not all at one instant
            await asyncio.sleep(self.rng.uniform(0, self.ramp))
        r = await self.timed(fd.slash(host, channel, "table new", preset=self.preset, timer=0),
                             setup=True)
        if r is None or r.message is None:
            self.stats.error(f"/table new failed in #{channel.name}: {r and r.content}")
            return
        table_msg = r.message
        # A slow /table new is deferred ("thinking"): the table comes as the bot's follow-up,
        # which replaces the loading message. An acknowledgement all the same, not an error.
        for _ in range(100):
            if not (r.deferred and table_msg.loading):
                break
            await self.changes(table_msg, 0.1)
        ids = [c for c in table_msg.custom_ids if c.startswith("t1000:")]
        if not ids:  # an error answered in place of the table
            self.stats.error(f"/table new in #{channel.name} answered {r.content!r}"[:300])
            return
        tid = ids[0].split(":")[1]
        for u in users[1:]:
            await self.timed(fd.click(u, table_msg, f"t1000:{tid}:join:"), setup=True)
        for _ in range(self.ais):
            if self.ai_level == "normal":  # the Add AI button seats the default level
                r = await self.timed(fd.click(host, table_msg, f"t1000:{tid}:addai:"),
                                     setup=True)
                if r is not None and r.type != 7:  # not the table message updated: refused
                    self.stats.error(f"#{channel.name}: Add AI answered {r.type}: {r.content}")
                continue
            r = await self.timed(fd.slash(host, channel, "table ai", level=self.ai_level),
                                 setup=True)
            if r is not None and f"(AI, {self.ai_level})" not in r.content:  # refused
                self.stats.error(f"#{channel.name}: /table ai answered {r.type}: {r.content}")
        r = await self.timed(fd.click(host, table_msg, f"t1000:{tid}:start:"), setup=True)
        if r is None:
            return
        if r.type != 7:
            self.stats.error(f"#{channel.name}: Start answered {r.type}: {r.content}")
            return
        await asyncio.gather(*[self.human(u, table_msg, tid) for u in users])

    async def changes(self, msg: Message, timeout: float) -> None:  # noqa: ASYNC109
        """Wait until ``msg`` is edited (or ``timeout`` passes)."""
        ev = self.changed.setdefault(msg.id, asyncio.Event())
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):  # no task per wait, as wait_for makes
                await ev.wait()
        ev.clear()

    async def my_hand(self, user: User, table_msg: Message, tid: str) -> Message | None:
        cid = f"t1000:{tid}:hand:"
        for _ in range(100):
            if table_msg.component_by_id(cid) is not None:
                break
            await self.changes(table_msg, 0.1)
        r = await self.timed(self.fd.click(user, table_msg, cid))
        return r.message if r is not None else None

    async def human(self, user: User, table_msg: Message, tid: str) -> None:
        hand = await self.my_hand(user, table_msg, tid)
        seen, since = -1, time.monotonic()
        acted = -1  # the hand's revision count when we last moved: wait for a newer one
        answered: float | None = None  # when our last move was answered
        while hand is not None and time.monotonic() < self.deadline:
            content = hand.content or ""
            if YOUR_TURN in content and len(hand.history) > acted:
                acted = len(hand.history)
                if answered is not None:
                    self.stats.turns.append(time.monotonic() - answered)
                if self.think > 0:  # a person's pace: uniform in [0, 2 * think] seconds
                    await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
                await self.move(user, hand)
                seen, since = len(hand.history), time.monotonic()
                answered = since
                continue
            if MATCH_OVER in content:
                await self.rematch(user, table_msg, tid)
                hand = await self.my_hand(user, table_msg, tid)
                acted, answered = -1, None
                continue
            if len(hand.history) != seen:
                seen, since = len(hand.history), time.monotonic()
            elif time.monotonic() - since > STALL:
                self.stats.stalls += 1
                hand = await self.my_hand(user, table_msg, tid)
                seen, since, acted, answered = -1, time.monotonic(), -1, None
                continue
            await self.changes(hand, 0.5)

    async def rematch(self, user: User, table_msg: Message, tid: str) -> None:
        cid = f"t1000:{tid}:rematch:"
        for _ in range(100):
            if table_msg.component_by_id(cid) is not None:
                break
            if table_msg.component_by_id(f"t1000:{tid}:hand:") is not None and (
                    "over" not in json.dumps(table_msg.embeds)):
                return  # somebody else pressed it already
            await self.changes(table_msg, 0.1)
        else:
            return
        self.stats.matches += 1
        await self.timed(self.fd.click(user, table_msg, cid))

    async def move(self, user: User, hand: Message) -> None:
        """A random legal move from the hand's enabled components."""
        choices: list[tuple[str, str | None]] = []
        for row in hand.components:
            for c in row.get("components", []):
                cid = c.get("custom_id", "")
                verb = cid.split(":")[2] if cid.count(":") >= 3 else ""
                if c.get("disabled") or verb in ("hand", "refresh", "back"):
                    continue
                if c.get("type") == 3:
                    choices += [(cid, o["value"]) for o in c.get("options", [])]
                elif verb in ("spisat", "concede", "rospisat", "redeal"):
                    continue  # legal, but they end hands early; the bench wants play
                else:
                    choices.append((cid, None))
        if not choices:
            self.stats.error(f"{user.name}: my turn but nothing to press: {hand.content[:200]}")
            await asyncio.sleep(0.1)
            return
        # Bidding: mostly pass (or the lowest bid) so that hands get played out.
        passes = [ch for ch in choices if ":pass:" in ch[0]]
        if passes and self.rng.random() < 0.7:
            cid, value = passes[0]
        else:
            cid, value = self.rng.choice(choices)
        fd = self.fd
        coro = fd.click(user, hand, cid) if value is None else fd.select(user, hand, cid,
                                                                        [value])
        r = await self.timed(coro)
        if r is None:
            return
        answer = (r.interaction.response_data or {}).get("content") or r.content or ""
        if r.deferred:  # answered late by a defer: an acknowledgement all the same
            self.stats.moves += 1
            self.stats.deferred += 1
        elif "⚠️" in answer or not answer.startswith("You "):
            self.stats.error(f"{user.name}: {cid} {value}: {answer[:200]}")
        else:
            self.stats.moves += 1


def _without(values: list[float], some: list[float]) -> list[float]:
    rest = collections.Counter(values)
    rest.subtract(some)
    return list(rest.elements())


def _cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) the process used so far (Linux; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


STOP_WAIT = 20.0  # seconds a bot may take to close after SIGTERM
_LOGGED = re.compile(r"\d{4}-\d\d-\d\d ")  # a logging line (the bot's format starts so)


def log_problems(log: str) -> list[str]:
    """The problems of a bot log, each whole: an ERROR line with the traceback logged with
    it, or a traceback printed without a logger (a chained one as one problem)."""
    entries: list[list[str]] = []
    for line in log.splitlines():
        after_problem = bool(entries) and (
            " ERROR " in entries[-1][0] or entries[-1][0].startswith("Traceback"))
        if not entries or _LOGGED.match(line) or (
                line.startswith("Traceback") and not after_problem):
            entries.append([line])
        else:  # a traceback's lines, the text between chained ones, or its error line
            entries[-1].append(line)
    return ["\n".join(line for line in e if line.strip()) for e in entries
            if " ERROR " in e[0] or e[0].startswith("Traceback")]


def loop_stalls(log: str) -> tuple[int | None, str]:
    """The bot's longest event-loop stall in ms (None: not in its log) and a note on it."""
    if closing := LOOP_SUMMARY.findall(log):
        longest, count, threshold = closing[-1]
        return int(longest), f"{count} stalls over {threshold} ms"
    ends = [int(ms) for ms in LOOP_STALL.findall(log)]  # the bot did not close cleanly
    if ends:
        return max(ends), f"{len(ends)} stalls over the threshold, no closing line"
    return None, "no watchdog lines in the bot's log"


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(q / 100 * (len(values) - 1))))
    return values[k]


DATABASES = ("sqlite", "postgresql")


@dataclass(frozen=True)
class Layout:
    """How the bot is deployed: ``processes`` of ``shards_per_process`` shards each, over
    ``database`` (sqlite: a file per process; postgresql: one server for all)."""

    processes: int = 1
    shards_per_process: int = 1
    database: str = "sqlite"
    url: str = ""  # postgresql: the database every process shares

    @property
    def sharded(self) -> bool:
        return self.processes > 1 or self.shards_per_process > 1

    @property
    def shard_count(self) -> int:
        return self.processes * self.shards_per_process

    def shard_ids(self, process: int) -> list[int]:
        first = process * self.shards_per_process
        return list(range(first, first + self.shards_per_process))

    def process_of(self, guild_id: int | None) -> int:
        """The process Discord sends a guild's interactions to (its shard's)."""
        if not self.sharded:
            return 0
        shard = 0 if guild_id is None else (guild_id >> 22) % self.shard_count
        return shard // self.shards_per_process

    def database_env(self, workdir: Path, process: int) -> dict[str, str]:
        """The settings that point process ``process`` at its database."""
        if self.database == "postgresql":
            return {"DATABASE_URL": self.url}
        name = "bench.db" if process == 0 else f"bench-{process}.db"
        return {"DATABASE_PATH": str(workdir / name)}

    def shard_env(self, process: int) -> dict[str, str]:
        if not self.sharded:
            return {}
        return {"SHARD_COUNT": str(self.shard_count),
                "SHARD_IDS": ",".join(map(str, self.shard_ids(process)))}


async def spawn_bot(fd: FakeDiscord, db: Path | dict[str, str], log: Path,
                    extra: dict[str, str] | None = None) -> asyncio.subprocess.Process:
    """A bot process; ``db``: its SQLite file, or the settings naming its database."""
    # INFO for the watchdog's closing line (the longest stall); little else logs at INFO
    where = {"DATABASE_PATH": str(db)} if isinstance(db, Path) else db
    env = {**os.environ, **fd.env, **where, "LOG_LEVEL": "INFO", "TYSIAC_AI_DELAY": "0",
           "TYSIAC_HAND_PAUSE": "0",  # the emulated players never wait between hands
           **(extra or {})}
    env.pop("DEV_GUILD_ID", None)
    for key in ("SHARD_COUNT", "SHARD_IDS", "DATABASE_URL", "DATABASE_PATH"):
        if key not in where and key not in (extra or {}):
            env.pop(key, None)  # the operator's own settings must not leak into the bench
    profile = os.environ.get("BENCH_PROFILE")  # a path: profile the bot with cProfile
    pre = ["-m", "cProfile", "-o", profile] if profile else []
    if os.environ.get("BENCH_BOT_SCRIPT"):  # experiments: a script that runs the bot
        pre = [os.environ["BENCH_BOT_SCRIPT"], *pre]
    with log.open("wb") as err:
        return await asyncio.create_subprocess_exec(
            sys.executable, *pre, *([] if os.environ.get("BENCH_BOT_SCRIPT") else
                                    ["-m", "bot", "run"]), cwd=str(ROOT), env=env,
            stdout=asyncio.subprocess.DEVNULL, stderr=err)


async def run(tables: int, seconds: float, *, preset: str = "russian", humans: int = 1,
              seed: int = 1, workdir: Path | None = None, verbose: bool = True,
              think: float = 0.0, ramp: float = 0.0, latency: float = 0.0,
              layout: Layout | None = None, ai_level: str = "normal") -> dict[str, Any]:
    """Run the benchmark; the result dict (also the last line the CLI prints)."""
    from bot.game.presets import PRESETS

    layout = layout or Layout()
    seats = PRESETS[preset].rules.seats
    humans = max(1, min(humans, seats))
    stats = Stats()
    with contextlib.ExitStack() as stack:
        server: PgServer | None = None
        if layout.database == "postgresql" and not layout.url:
            url, server = await _own_postgresql(stack)
            layout = replace(layout, url=url)
        if workdir is None:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-")))
        procs_n = layout.processes
        wheres = [layout.database_env(workdir, i) for i in range(procs_n)]
        logs = [workdir / ("bot.log" if i == 0 else f"bot-{i}.log") for i in range(procs_n)]
        async with FakeDiscord(rate_limit=RateLimitConfig(limit=5, per=5.0),
                               latency=latency,
                               recommended_shards=layout.shard_count,
                               schema_twice=False) as fd:
            users = [fd.add_user(f"u{i}", f"Player {i}") for i in range(tables * humans)]
            if layout.sharded:  # a guild on every shard, the tables dealt round them
                guilds = [fd.guild_on_shard(i, layout.shard_count, f"Bench {i}",
                                            members=users)
                          for i in range(layout.shard_count)]
            else:
                guilds = [fd.add_guild("Bench", members=users)]
            channels = [fd.add_text_channel(guilds[i % len(guilds)], f"t{i}")
                        for i in range(tables)]
            procs = [await spawn_bot(fd, wheres[i], logs[i], layout.shard_env(i))
                     for i in range(procs_n)]
            cpus: list[float | None] = []
            started: list[float | None] = []
            try:
                # every shard connected (discord.py identifies a process's shards 5 s apart)
                await fd.wait_ready(timeout=60 + 6 * layout.shards_per_process)
                await asyncio.sleep(0.5)  # guild create and command sync settled
                started = [_cpu_seconds(proc.pid) for proc in procs]  # start-up's CPU
                if server is not None:  # after the bots' migrations: those written too
                    await server.settle()
                deadline = time.monotonic() + ramp + seconds  # all N play for ``seconds``
                bench = Bench(fd, stats, preset=preset, humans=humans, ais=seats - humans,
                              seed=seed, deadline=deadline, think=think, ramp=ramp,
                              layout=layout, ai_level=ai_level)
                t0 = time.monotonic()
                await asyncio.gather(*[
                    bench.table(ch, users[i * humans:(i + 1) * humans])
                    for i, ch in enumerate(channels)])
                elapsed = time.monotonic() - t0
                with contextlib.suppress(Exception):
                    await fd.settle(timeout=10)
            finally:
                cpus = [_cpu_seconds(proc.pid) for proc in procs]
                # what the logs hold until now was written while serving; the rest, stopping
                served = [log.stat().st_size if log.exists() else 0 for log in logs]
                for problem in await asyncio.gather(*[_stop(proc) for proc in procs]):
                    if problem is not None:
                        stats.error(problem)
            for ch in channels:
                for m in fd.store.channel_messages(ch):
                    if m.ephemeral:
                        stats.hand_edits += len(m.edits)
                    elif m.components:
                        stats.table_edits += len(m.edits)
            for v in fd.violations:
                stats.error(f"violation {v.rule}: {v.detail}"[:300])
        for where in wheres:
            if "DATABASE_PATH" in where:
                with sqlite3.connect(where["DATABASE_PATH"]) as con:
                    stats.hands += con.execute("SELECT COUNT(*) FROM hands").fetchone()[0]
                    stats.committed += con.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
        if layout.database == "postgresql":  # one database shared by every process
            import asyncpg

            conn = await asyncpg.connect(layout.url)
            try:
                stats.hands = await conn.fetchval("SELECT COUNT(*) FROM hands")
                stats.committed = await conn.fetchval("SELECT COUNT(*) FROM moves")
            finally:
                await conn.close()
        stalls = []
        stopping: list[str] = []
        for i, log in enumerate(logs):
            raw = log.read_bytes()
            bot_log = raw.decode(errors="replace")
            stalls.append(loop_stalls(bot_log))
            which = f"bot log{f' {i}' if procs_n > 1 else ''}"
            for problem in log_problems(raw[:served[i]].decode(errors="replace")):
                stats.error(f"{which}: {problem}"[:2000])
            # No player waits on a process that is closing: reported, not counted as errors.
            stopping.extend(f"{which}, after SIGTERM: {problem}"[:2000]
                            for problem in log_problems(raw[served[i]:].decode(errors="replace")))
    known = [st for st in stalls if st[0] is not None]
    longest_stall, stall_note = max(known) if known else stalls[0]
    cpu = sum(c for c in cpus if c is not None) if all(c is not None for c in cpus) else None
    acks_ms = [a * 1000 for a in stats.acks]
    result = {
        "tables": tables,
        "seconds": round(elapsed, 1),
        "interactions": len(acks_ms),
        "moves": stats.moves,
        "hands_scored": stats.hands,
        "moves_committed": stats.committed,
        "stalls": stats.stalls,
        "deferred": stats.deferred,
        "hand_edits": stats.hand_edits,
        "table_edits": stats.table_edits,
        "interactions_per_s": round(len(acks_ms) / elapsed, 1) if elapsed else 0.0,
        "ack_mean_ms": round(statistics.fmean(acks_ms), 1) if acks_ms else 0.0,
        "ack_p50_ms": round(percentile(acks_ms, 50), 1),
        "ack_p95_ms": round(percentile(acks_ms, 95), 1),
        "ack_p99_ms": round(percentile(acks_ms, 99), 1),
        "ack_max_ms": round(max(acks_ms), 1) if acks_ms else 0.0,
        "setup_interactions": len(stats.setup_acks),
        "setup_ack_p99_ms": round(percentile([a * 1000 for a in stats.setup_acks], 99), 1),
        "play_ack_p99_ms": round(percentile(
            [a * 1000 for a in _without(stats.acks, stats.setup_acks)], 99), 1),
        "bot_cpu_s": round(cpu, 1) if cpu is not None else None,
        "bot_cpu_ms_per_interaction": round(cpu * 1000 / len(acks_ms), 2)
        if cpu is not None and acks_ms else None,
        # of it: the start (imports, database, login) before the first table was opened
        "bot_start_cpu_s": round(sum(c for c in started if c is not None), 1)
        if started and all(c is not None for c in started) else None,
        "turn_p50_ms": round(percentile([x * 1000 for x in stats.turns], 50), 1),
        "turn_p99_ms": round(percentile([x * 1000 for x in stats.turns], 99), 1),
        "errors": len(stats.errors),
        "stopping_problems": len(stopping),
        "longest_stall_ms": longest_stall,
        "longest_stall_note": stall_note,
        "processes": procs_n,
        "per_process": [_process_summary(i, layout, stats.by_process.get(i, []), elapsed,
                                         cpus[i], stalls[i][0])
                        for i in range(procs_n)],
    }
    if verbose:
        for e in stats.errors[:20]:
            print("error:", e, file=sys.stderr)
        for w in stopping[:20]:
            print("warning:", w, file=sys.stderr)
    return result


async def _own_postgresql(stack: contextlib.ExitStack) -> tuple[str, PgServer | None]:
    """DATABASE_URL (or BENCH_DATABASE_URL) if set, else a temporary durable server's URL
    and the server."""
    url = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("DATABASE_URL")
    if url:
        return url, None
    from tests.pgserver import PgServer

    server = await asyncio.to_thread(PgServer, durable=True)
    stack.callback(server.close)
    return await server.new_database(unix_socket=True), server


async def _stop(proc: asyncio.subprocess.Process) -> str | None:
    """Stop a bot as its operator would (SIGTERM); a sentence if it had to be killed."""
    if proc.returncode is None:
        proc.terminate()
        try:
            await asyncio.wait_for(proc.wait(), STOP_WAIT)
        except TimeoutError:
            proc.kill()
            await proc.wait()
            return f"the bot did not stop within {STOP_WAIT:g} s of SIGTERM: killed"
    return None


def _process_summary(index: int, layout: Layout, acks: list[float], elapsed: float,
                     cpu: float | None, stall: int | None) -> dict[str, Any]:
    """One bot process's share: its shards, interactions/s, ack percentiles, CPU, stall."""
    ms = [a * 1000 for a in acks]
    return {
        "process": index,
        "shards": layout.shard_ids(index) if layout.sharded else None,
        "interactions": len(ms),
        "interactions_per_s": round(len(ms) / elapsed, 1) if elapsed else 0.0,
        "ack_p50_ms": round(percentile(ms, 50), 1),
        "ack_p95_ms": round(percentile(ms, 95), 1),
        "ack_p99_ms": round(percentile(ms, 99), 1),
        "bot_cpu_s": round(cpu, 1) if cpu is not None else None,
        "longest_stall_ms": stall,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bot bench tables")
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--seconds", type=float, default=30.0,
                   help="how long all the tables play together (after the ramp)")
    p.add_argument("--preset", default="russian")
    p.add_argument("--humans", type=int, default=1, help="emulated humans per table")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ramp", type=float, default=10.0,
                   help="open the tables at random moments over this many seconds (default "
                        "10: N groups do not open their tables in the same millisecond; 0: "
                        "all at once, 4 setup interactions per table in the first second)")
    p.add_argument("--think", type=float, default=0.0,
                   help="mean seconds a human thinks before each move (default 0: as fast "
                        "as the bot allows)")
    p.add_argument("--latency", type=float, default=0.0,
                   help="milliseconds each REST response of the emulator takes back to the "
                        "bot (default 0: loopback; Discord is some 30-100 ms away)")
    p.add_argument("--workdir", type=Path, default=None,
                   help="keep the database and the bot's log here (default: a temp dir)")
    p.add_argument("--processes", type=int, default=1,
                   help="bot processes, each running its own shards (default 1)")
    p.add_argument("--shards-per-process", type=int, default=None,
                   help="shards each process runs (default: 2 with several processes; one "
                        "process alone runs unsharded)")
    p.add_argument("--database", default="sqlite",
                   help="what the processes share: sqlite (a file per process, a stand-in), "
                        "postgresql (DATABASE_URL or BENCH_DATABASE_URL if set, else a "
                        "temporary server this bench starts), or a postgresql:// URL")
    p.add_argument("--ai-level", default="normal",
                   help="the level of the AI seats (default normal, seated by the Add AI "
                        "button; another level is seated with /table ai level:LEVEL)")
    args = p.parse_args(argv)
    if args.ai_level not in LEVELS:
        p.error(f"--ai-level must be one of {', '.join(LEVELS)}")
    if args.processes < 1 or (args.shards_per_process is not None
                              and args.shards_per_process < 1):
        p.error("--processes and --shards-per-process must be 1 or more")
    database, url = args.database, ""
    if database.startswith(("postgresql://", "postgres://")):
        database, url = "postgresql", args.database
    if database not in DATABASES:
        p.error(f"--database must be one of {', '.join(DATABASES)} or a postgresql:// URL")
    per_process = args.shards_per_process or (2 if args.processes > 1 else 1)
    layout = Layout(args.processes, per_process, database, url)
    result = asyncio.run(run(args.tables, args.seconds, preset=args.preset,
                             humans=args.humans, seed=args.seed,
                             workdir=args.workdir, think=args.think, ramp=args.ramp,
                             latency=args.latency / 1000, layout=layout,
                             ai_level=args.ai_level))
    summary = {k: result[k] for k in ("tables", "seconds", "interactions", "moves",
                                      "hands_scored", "moves_committed", "stalls", "deferred",
                                      "hand_edits", "table_edits",
                                      "ack_mean_ms", "ack_max_ms", "setup_interactions",
                                      "setup_ack_p99_ms", "play_ack_p99_ms",
                                      "turn_p50_ms", "turn_p99_ms", "bot_cpu_s",
                                      "bot_cpu_ms_per_interaction", "bot_start_cpu_s",
                                      "stopping_problems")}
    stall = result["longest_stall_ms"]
    print(f"# longest stall: {'?' if stall is None else stall} ms "
          f"({result['longest_stall_note']})")
    print("# " + json.dumps(summary))
    last = {k: result[k] for k in ("tables", "interactions_per_s", "ack_p50_ms", "ack_p95_ms",
                                   "ack_p99_ms", "errors", "longest_stall_ms")}
    if layout.processes > 1 or layout.sharded:  # each process's share, then the whole
        for share in result["per_process"]:
            print("# " + json.dumps(share))
        last |= {"processes": layout.processes, "shard_count": layout.shard_count,
                 "database": layout.database,
                 "per_process_interactions_per_s": [
                     share["interactions_per_s"] for share in result["per_process"]],
                 "per_process_ack_p99_ms": [
                     share["ack_p99_ms"] for share in result["per_process"]]}
    print(json.dumps(last))
    return 0 if result["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
