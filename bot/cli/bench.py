"""``python -m bot bench``: the benchmarks, one runner each (docs/performance.md)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from bot.cli.game import cmd_simulate

BENCHMARKS = ("render", "engine", "tables", "store", "web", "solver", "analysis", "daily",
              "tournament")


Runner = Callable[[argparse.Namespace], int]


def add_command(sub: argparse._SubParsersAction[argparse.ArgumentParser], run: Runner) -> None:
    """The ``bench`` subcommand and the options of every benchmark; ``run`` runs it (the
    entry point's, which runs ``render`` itself and the rest with :func:`cmd_bench`)."""
    p = sub.add_parser("bench", help="benchmarks: render (images), engine (random hands), "
                                     "tables (the bot under N simultaneous tables), "
                                     "store (records and leaderboards at 100,000 hands), "
                                     "web (page times at 100,000 hands while 100 tables "
                                     "play), solver (the compiled against the Python "
                                     "double-dummy solver), analysis (seconds per hand "
                                     "of the hand analysis), daily (N players through the "
                                     "daily challenge), tournament (a whole event through "
                                     "the emulator)")
    p.add_argument("what", choices=BENCHMARKS)
    p.add_argument("--players", type=int, default=100,
                   help="daily: emulated players playing the day's boards (default 100)")
    p.add_argument("--entrants", type=int, default=60,
                   help="tournament: entrants of the event (default 60)")
    p.add_argument("--boards", type=int, default=6,
                   help="tournament: boards per round (default 6)")
    p.add_argument("--rounds", type=int, default=3, help="tournament: rounds (default 3)")
    p.add_argument("--tables", type=int, default=None,
                   help="tables, web: how many at once (default 200; web: 100)")
    p.add_argument("--seconds", type=float, default=30.0, help="tables: how long to play")
    _add_table_options(p)
    p.add_argument("--database", default="sqlite",
                   help="tables, store: sqlite (default; for tables a file per process), "
                        "postgresql (DATABASE_URL; tables start a temporary server without "
                        "it), or a postgresql:// URL")
    p.add_argument("--positions", type=int, default=20,
                   help="solver: positions from the first trick, and as many from mid-hand "
                        "(default 20)")
    p.add_argument("--repeats", type=int, default=30)
    p.add_argument("--preset", default="russian")
    p.add_argument("--hands", type=int, default=None,
                   help="engine: hands to play (default 20000); web: hands stored (100000); "
                        "analysis: hands analysed (50)")
    p.set_defaults(func=run)


def _add_table_options(p: argparse.ArgumentParser) -> None:
    """How ``bench tables`` plays: the emulated humans, the network, the processes."""
    p.add_argument("--humans", type=int, default=1, help="tables: emulated humans per table")
    p.add_argument("--think", type=float, default=0.0,
                   help="tables: mean seconds a human thinks per move (0: none)")
    p.add_argument("--ramp", type=float, default=10.0,
                   help="tables: open the tables at random moments over this many seconds "
                        "(default 10; 0: all in the same instant)")
    p.add_argument("--latency", type=float, default=0.0,
                   help="tables: milliseconds each emulated REST response takes (0: loopback)")
    p.add_argument("--processes", type=int, default=1,
                   help="tables: bot processes, each with its own shards (default 1)")
    p.add_argument("--shards-per-process", type=int, default=None,
                   help="tables: shards each process runs (default 2 with --processes > 1)")
    p.add_argument("--ai-level", default="normal",
                   help="tables: the level of the AI seats (default normal)")


def cmd_bench(args: argparse.Namespace) -> int:
    """Run the benchmark ``args.what`` (all but ``render``, which imports the images)."""
    run = _RUNNERS.get(args.what)
    if run is None:
        print(f"unknown benchmark {args.what!r}", file=sys.stderr)
        return 2
    return run(args)


def _bench_dev_tool(args: argparse.Namespace) -> int:
    """tables, web, daily, tournament: dev tools of the repository (they drive the emulator
    in tests/), run as their own program, so that the product never imports the tests."""
    import subprocess

    root = Path(__file__).resolve().parents[2]
    module = f"bench_{args.what}"
    if not (root / "tests" / f"{module}.py").is_file():
        print(f"bench {args.what} needs the repository's tests/ (run it from a clone of "
              "the repository)", file=sys.stderr)
        return 2
    return subprocess.call([sys.executable, "-m", f"tests.{module}", *_dev_tool_argv(args)],
                           cwd=root)


def _dev_tool_argv(args: argparse.Namespace) -> list[str]:
    """The dev tool's own command line, from the options of ``bench``."""
    if args.what == "daily":
        return ["--players", str(args.players)]
    if args.what == "tournament":
        return ["--entrants", str(args.entrants), "--boards", str(args.boards),
                "--rounds", str(args.rounds)]
    if args.what == "web":
        return ["--tables", str(args.tables or 100), "--seconds", str(args.seconds),
                "--hands", str(args.hands or 100_000)]
    argv = ["--tables", str(args.tables or 200), "--seconds", str(args.seconds),
            "--preset", args.preset, "--humans", str(args.humans),
            "--think", str(args.think), "--ramp", str(args.ramp),
            "--latency", str(args.latency), "--processes", str(args.processes),
            "--database", args.database, "--ai-level", args.ai_level]
    if args.shards_per_process is not None:
        argv += ["--shards-per-process", str(args.shards_per_process)]
    return argv


def _bench_store(args: argparse.Namespace) -> int:
    from bot.store.bench import run_bench

    database = "" if args.database == "sqlite" else args.database
    if database == "postgresql":
        database = os.environ.get("DATABASE_URL", "")
        if not database:
            print("bench store --database postgresql needs DATABASE_URL (an empty "
                  "database), or give the postgresql:// URL itself", file=sys.stderr)
            return 2
    run_bench(database=database)
    return 0


def _bench_solver(args: argparse.Namespace) -> int:
    from bot.ai.bench import run_bench
    from bot.game.rules import RulesError

    if args.positions < 1:
        print("bench solver --positions must be 1 or more", file=sys.stderr)
        return 2
    try:
        return run_bench(args.positions, args.preset)
    except RulesError as exc:
        print(exc, file=sys.stderr)
        return 2


def _bench_analysis(args: argparse.Namespace) -> int:
    from bot.ai.analysis_bench import run_bench
    from bot.game.rules import RulesError

    if (args.hands or 50) < 1:
        print("bench analysis --hands must be 1 or more", file=sys.stderr)
        return 2
    try:
        return run_bench(args.hands or 50, args.preset)
    except RulesError as exc:
        print(exc, file=sys.stderr)
        return 2


def _bench_engine(args: argparse.Namespace) -> int:
    return cmd_simulate(argparse.Namespace(
        preset=args.preset, hands=args.hands or 20000, matches=None, seed=1, policy="random"))


_RUNNERS: dict[str, Runner] = {
    "engine": _bench_engine, "tables": _bench_dev_tool,
    "store": _bench_store, "web": _bench_dev_tool, "solver": _bench_solver,
    "analysis": _bench_analysis, "daily": _bench_dev_tool, "tournament": _bench_dev_tool,
}
