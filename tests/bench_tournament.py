"""``python -m bot bench tournament --entrants N --boards B --rounds R``: a whole tournament
through the Discord emulator, its players answering as fast as the bot does.

The bot runs as its own process (``python -m bot run``) against the emulator in this
process, holding exactly the permissions its invite link asks for. The organiser creates
the event (start "now", check-in one minute), every entrant presses **Join** and, once
check-in opens, **Check in**; at the start each player finds his table's private thread,
asks for his hand there and plays a random legal move whenever the hand says it is his turn
(bench_tables' players), round after round, until the podium is posted. For every
interaction the time from sending it to the bot's initial response is measured at the
emulator (Discord's 3-second rule). Errors: refusals of a move offered as legal, answers
missing, a player without a thread, rule violations the emulator recorded, and ERROR lines
in the bot's log. The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from cogs._invite import PERMISSIONS
from tests.bench_tables import (
    YOUR_TURN,
    Bench,
    Stats,
    _without,
    log_problems,
    percentile,
    spawn_bot,
)
from tests.fakediscord import FakeDiscord, RateLimitConfig
from tests.fakediscord.models import Channel, Message, User

NAME = "Bench Cup"
STALL = 5.0  # seconds without a hand update before asking for the hand again


class Event:
    """The emulated entrants of one event, and what the tournament channel shows."""

    def __init__(self, fd: FakeDiscord, stats: Stats, channel: Channel, rounds: int,
                 seed: int, deadline: float) -> None:
        self.fd, self.stats, self.channel, self.rounds = fd, stats, channel, rounds
        self.deadline = deadline
        self.play = Bench(fd, stats, preset="russian", humans=3, ais=0, seed=seed,
                          deadline=deadline)

    def posts(self, text: str) -> list[Message]:
        return [m for m in self.fd.store.channel_messages(self.channel)
                if not m.ephemeral and text in (m.content or "")]

    def round_over(self, round_no: int) -> bool:
        return bool(self.posts(f"standings after round {round_no} of"))

    async def until(self, test: Any, what: str, timeout: float = 180.0) -> Any:  # noqa: ASYNC109
        end = time.monotonic() + timeout
        while time.monotonic() < min(end, self.deadline):
            got = test()
            if got:
                return got
            await asyncio.sleep(0.1)
        self.stats.error(f"waited {timeout:.0f} s in vain for {what}")
        return None

    def signup(self) -> Message | None:
        got = [m for m in self.fd.store.channel_messages(self.channel)
               if any(c.startswith("t1000t:") for c in m.custom_ids)]
        return got[0] if got else None

    async def press(self, user: User, verb: str, want: str) -> None:
        msg = await self.until(lambda: (m := self.signup()) and any(
            c.endswith(f":{verb}") for c in m.custom_ids) and m, f"the {verb} button")
        if msg is None:
            return
        cid = next(c for c in msg.custom_ids if c.endswith(f":{verb}"))
        r = await self.play.timed(self.fd.click(user, msg, cid), setup=True)
        if r is None:
            return
        # a deferred answer replaces the "thinking…" message (or follows it)
        said = await self.until(lambda: (r.followups and r.followups[-1].content) or (
            r.message is not None and not r.message.loading and r.message.content),
            f"the answer to {user.name}'s {verb}", 60)
        if said is None or want not in said:
            self.stats.error(f"{user.name} {verb}: {str(said)[:200]!r}")

    def thread_of(self, user: User, round_no: int) -> Channel | None:
        for c in self.fd.store.channels.values():
            if (c.is_thread and c.parent_id == self.channel.id and user.id in c.members
                    and f"round {round_no} " in c.name and not c.archived):
                return c
        return None

    async def entrant(self, user: User) -> None:
        await self.press(user, "join", "You are in")
        await self.press(user, "checkin", "checked in")
        for round_no in range(1, self.rounds + 1):
            thread = await self.until(lambda r=round_no: self.thread_of(user, r),
                                      f"{user.name}'s thread in round {round_no}")
            if thread is None:
                return
            await self.table(user, thread, round_no)
            await self.until(lambda r=round_no: self.round_over(r), f"round {round_no}'s end")

    async def table(self, user: User, thread: Channel, round_no: int) -> None:
        """Play at the thread's table until the round is over."""
        table_msg = await self.until(lambda: next((
            m for m in self.fd.store.channel_messages(thread) if not m.ephemeral
            and any(c.startswith("t1000:") for c in m.custom_ids)), None), "a table message")
        if table_msg is None:
            return
        tid = next(c for c in table_msg.custom_ids if c.startswith("t1000:")).split(":")[1]
        hand, acted, since = None, -1, time.monotonic()
        while not self.round_over(round_no) and time.monotonic() < self.deadline:
            if hand is None or time.monotonic() - since > STALL:
                if table_msg.component_by_id(f"t1000:{tid}:hand:") is None:
                    await self.play.changes(table_msg, 0.5)  # between boards, or done
                    continue
                hand = await self.play.my_hand(user, table_msg, tid)
                acted, since = -1, time.monotonic()
                continue
            if YOUR_TURN in (hand.content or "") and len(hand.history) > acted:
                acted = len(hand.history)
                await self.play.move(user, hand)
                since = time.monotonic()
                continue
            await self.play.changes(hand, 0.5)
            if len(hand.history) > acted and YOUR_TURN not in (hand.content or ""):
                since = time.monotonic()


async def run(entrants: int, boards: int, rounds: int, *, seed: int = 1,
              seconds: float = 1800.0, workdir: Path | None = None) -> dict[str, Any]:
    """Run the benchmark; the result dict (also the last line the CLI prints)."""
    stats = Stats()
    elapsed = 0.0
    completed = 0
    with contextlib.ExitStack() as stack:
        if workdir is None:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-")))
        db, log = workdir / "bot.db", workdir / "bot.log"
        async with FakeDiscord(rate_limit=RateLimitConfig(limit=5, per=5.0),
                               schema_twice=False) as fd:
            users = [fd.add_user(f"u{i}", f"Player {i}") for i in range(entrants)]
            guild = fd.add_guild("Bench", members=users, bot_permissions=PERMISSIONS.value)
            fd.set_permissions(guild, users[0], ["manage_guild"])
            channel = fd.add_text_channel(guild, "tournament")
            proc = await spawn_bot(fd, db, log)
            try:
                await fd.wait_ready(timeout=60)
                await asyncio.sleep(0.5)
                event = Event(fd, stats, channel, rounds, seed, time.monotonic() + seconds)
                t0 = time.monotonic()
                r = await event.play.timed(fd.slash(
                    users[0], channel, "tournament new", name=NAME, preset="russian",
                    boards=boards, rounds=rounds, start="now", checkin=1), setup=True)
                if r is None or "created" not in r.content:
                    stats.error(f"/tournament new answered {r and r.content!r}")
                else:
                    await asyncio.gather(*[event.entrant(u) for u in users])
                    await event.until(lambda: event.posts("the podium"), "the podium")
                    await event.until(lambda: all(  # the last round's threads closed
                        c.locked for c in fd.store.channels.values()
                        if c.parent_id == channel.id), "the threads closed", 60)
                completed = sum(event.round_over(n) for n in range(1, rounds + 1))
                elapsed = time.monotonic() - t0
                with contextlib.suppress(Exception):
                    await fd.settle(timeout=10)
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
        for problem in log_problems(log.read_text(errors="replace") if log.exists() else ""):
            stats.error(problem[:300])
    return summary(stats, entrants, boards, rounds, completed, elapsed)


def summary(stats: Stats, entrants: int, boards: int, rounds: int, completed: int,
            elapsed: float) -> dict[str, Any]:
    """The result as the CLI prints it (its last line is this, as JSON)."""
    acks_ms = [a * 1000 for a in stats.acks]
    setup_ms = [a * 1000 for a in stats.setup_acks]  # sign-up and check-in presses
    play_ms = [a * 1000 for a in _without(stats.acks, stats.setup_acks)]
    return {
        "entrants": entrants,
        "boards": boards,
        "rounds": rounds,
        "rounds_completed": completed,
        "interactions": len(acks_ms),
        "moves": stats.moves,
        "seconds": round(elapsed, 1),
        "ack_p50_ms": round(percentile(acks_ms, 50), 1),
        "ack_p95_ms": round(percentile(acks_ms, 95), 1),
        "ack_p99_ms": round(percentile(acks_ms, 99), 1),
        "ack_max_ms": round(max(acks_ms), 1) if acks_ms else 0.0,
        "signup_ack_p99_ms": round(percentile(setup_ms, 99), 1),
        "play_ack_p99_ms": round(percentile(play_ms, 99), 1),
        "stalls": stats.stalls,
        "errors": len(stats.errors),
        "first_errors": stats.errors[:5],
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bot bench tournament")
    p.add_argument("--entrants", type=int, default=60)
    p.add_argument("--boards", type=int, default=6)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seconds", type=float, default=1800.0,
                   help="give up after this long (default 1800)")
    args = p.parse_args(argv)
    result = asyncio.run(run(args.entrants, args.boards, args.rounds, seed=args.seed,
                             seconds=args.seconds))
    print(f"entrants {result['entrants']}: {result['rounds_completed']} of {result['rounds']} "
          f"rounds completed, {result['moves']} moves, {result['interactions']} interactions "
          f"in {result['seconds']} s; ack p50 {result['ack_p50_ms']} ms, p95 "
          f"{result['ack_p95_ms']} ms, p99 {result['ack_p99_ms']} ms (sign-up presses "
          f"{result['signup_ack_p99_ms']} ms, play {result['play_ack_p99_ms']} ms); "
          f"{result['errors']} errors")
    for e in result["first_errors"]:
        print("error:", e, file=sys.stderr)
    print(json.dumps(result), flush=True)
    ok = result["errors"] == 0 and result["rounds_completed"] == result["rounds"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
