"""`python -m bot bench tables` keeps working (a small run: three tables for a few seconds)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot bench tables ARGS` run to its end; it must exit 0."""
    out = subprocess.run([sys.executable, "-m", "bot", "bench", "tables", *args],
                         cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
    return out


def test_bench_tables_cli() -> None:
    out = bench("--tables", "3", "--seconds", "3", "--ramp", "1")
    last = json.loads(out.stdout.strip().splitlines()[-1])
    assert list(last) == ["tables", "interactions_per_s", "ack_p50_ms", "ack_p95_ms",
                          "ack_p99_ms", "errors", "longest_stall_ms"]
    assert isinstance(last["longest_stall_ms"], int)  # the watchdog's closing line was read
    assert f"# longest stall: {last['longest_stall_ms']} ms (" in out.stdout
    assert last["tables"] == 3 and last["errors"] == 0
    assert last["interactions_per_s"] > 0 and 0 < last["ack_p50_ms"] <= last["ack_p99_ms"]
    summary = json.loads(out.stdout.strip().splitlines()[-2].removeprefix("# "))
    assert summary["moves"] > 0 and summary["moves_committed"] > summary["moves"]
    # the CPU of start-up stands apart from the CPU of serving
    assert 0 < summary["bot_start_cpu_s"] <= summary["bot_cpu_s"]


def test_bench_tables_two_processes() -> None:
    """Two bot processes, two shards each (the default): both serve tables, each reported on
    its own."""
    out = bench("--tables", "4", "--seconds", "3", "--ramp", "1", "--processes", "2")
    last = json.loads(out.stdout.strip().splitlines()[-1])
    assert (last["processes"], last["shard_count"], last["database"]) == (2, 4, "sqlite")
    assert last["errors"] == 0 and last["tables"] == 4
    shares = [json.loads(line.removeprefix("# ")) for line in out.stdout.splitlines()
              if line.startswith('# {"process"')]
    assert [s["shards"] for s in shares] == [[0, 1], [2, 3]]
    assert all(s["interactions"] > 0 for s in shares)  # tables on both shards were played
    assert last["per_process_interactions_per_s"] == [s["interactions_per_s"] for s in shares]


def test_a_bot_logs_problems_are_read_whole() -> None:
    """A chained traceback is one problem, and so is an ERROR line with its traceback."""
    from tests.bench_tables import log_problems

    log = "\n".join([
        "2026-11-24 21:00:00,000 INFO bot: restored 0 live tables",
        "Traceback (most recent call last):",
        '  File "x.py", line 1, in put',
        "BrokenPipeError: [Errno 32] Broken pipe",
        "",
        "During handling of the above exception, another exception occurred:",
        "",
        "Traceback (most recent call last):",
        '  File "x.py", line 2, in put',
        "BrokenPipeError: [Errno 32] Broken pipe",
        "2026-11-24 21:00:01,000 ERROR cogs._images: rendering render_hand failed",
        "Traceback (most recent call last):",
        '  File "y.py", line 3, in draw',
        "ValueError: no cards",
        "2026-11-24 21:00:02,000 INFO bot: event loop: longest stall 12 ms, 0 stalls over 250 ms",
    ])
    problems = log_problems(log)
    assert len(problems) == 2
    assert problems[0].count("Traceback") == 2 and problems[0].endswith("Broken pipe")
    assert problems[1].startswith("2026-11-24 21:00:01,000 ERROR cogs._images: rendering")
    assert problems[1].endswith("ValueError: no cards")


def test_bench_tables_with_strong_ai_seats() -> None:
    """`--ai-level strong` seats the searching AI (through `/table ai`), and play goes on."""
    out = bench("--tables", "2", "--seconds", "4", "--ramp", "1", "--ai-level", "strong")
    last = json.loads(out.stdout.strip().splitlines()[-1])
    assert last["errors"] == 0 and last["tables"] == 2
    summary = json.loads(out.stdout.strip().splitlines()[-2].removeprefix("# "))
    assert summary["moves"] > 0 and summary["setup_interactions"] == 2 * 4
