"""Command line: ``python -m bot run|invite|db|replay|analyze|boards|simulate|presets|
render|i18n|bench|arena``."""

from __future__ import annotations

import argparse
import json
import os
import sys


def _cmd_replay(args: argparse.Namespace) -> int:
    from bot.game.scenario import replay_file

    status = 0
    for path in args.files:
        result = replay_file(path)
        print(json.dumps(result, ensure_ascii=False), flush=True)
        if not result["ok"]:
            status = 2
    return status


def _cmd_analyze(args: argparse.Namespace) -> int:
    from pathlib import Path

    from bot.ai.analysis import analyse, decision_json, scenario_hands, summary_json
    from bot.game.scenario import ScenarioError

    try:
        data = json.loads(Path(args.file).read_text(encoding="utf-8"))
        names, hands = scenario_hands(data)
    except (OSError, json.JSONDecodeError, ScenarioError) as exc:
        print(f"error: {args.file}: {exc}", file=sys.stderr)
        return 2
    played = [i for i, h in enumerate(hands, 1) if h.complete]
    number = args.hand if args.hand is not None else (played[-1] if played else 0)
    if number not in played:
        print(f"error: hand {args.hand} is not a finished hand of {args.file}; the finished "
              f"ones are {', '.join(map(str, played)) or 'none'}", file=sys.stderr)
        return 2
    hand = hands[number - 1]
    if args.seat is None:
        seats = sorted(hand.start.active)
    elif args.seat in names:
        seats = [names.index(args.seat)]
    elif args.seat.isdigit() and int(args.seat) in hand.start.active:
        seats = [int(args.seat)]
    else:
        print(f"error: --seat {args.seat} is not a player of this hand; the players are "
              f"{', '.join(names[p] for p in sorted(hand.start.active))} (or their seat numbers "
              f"{', '.join(map(str, sorted(hand.start.active)))})", file=sys.stderr)
        return 2
    for seat in seats:
        result = analyse(hand.start, hand.actions, seat, real=True, seed=args.seed)
        for d in result.decisions:
            print(json.dumps(decision_json(d, names), ensure_ascii=False), flush=True)
        print(json.dumps(summary_json(result, names, number), ensure_ascii=False), flush=True)
    return 0


def _cmd_boards(args: argparse.Namespace) -> int:
    import datetime as dt
    from pathlib import Path

    from bot.game.boards import day_boards
    from bot.game.rules import RulesError

    try:
        day = dt.date.fromisoformat(args.date) if args.date else dt.datetime.now(dt.UTC).date()
    except ValueError:
        print(f"error: --date {args.date!r} is not a date like 2026-11-27", file=sys.stderr)
        return 2
    try:
        boards = day_boards(day, args.preset, args.count)
    except RulesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for b in boards:
        text = json.dumps(b.scenario(), ensure_ascii=False)
        if args.out:
            path = Path(args.out) / f"board-{day.isoformat()}-{b.preset}-{b.number + 1}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(b.scenario(), ensure_ascii=False, indent=1) + "\n",
                            encoding="utf-8")
            print(path)
        else:
            print(text)
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    from bot.game.presets import preset
    from bot.game.rules import RulesError
    from bot.game.simulate import simulate

    try:
        rules = preset(args.preset)
        options = {}
        for text in getattr(args, "option", None) or ():
            name, _, raw = text.partition("=")
            try:
                options[name] = json.loads(raw)
            except json.JSONDecodeError:
                options[name] = raw
        if options:
            rules = rules.with_options(**options)
    except RulesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    hands = args.hands if args.hands is not None else (0 if args.matches else 1000)
    policy = args.policy or ("greedy" if args.matches else "random")
    stats = simulate(rules, hands=hands, matches=args.matches or 0, seed=args.seed,
                     policy=policy)
    print(f"preset: {args.preset}")
    print(f"policy: {policy}")
    print(f"hands: {stats.hands}")
    print(f"actions: {stats.actions}")
    if args.matches:
        print(f"matches: {stats.matches}")
        print(f"unfinished: {stats.unfinished}")
    print(f"seconds: {stats.seconds:.3f}")
    print(f"hands/s: {stats.hands_per_s:.0f}")
    return 0


def _cmd_presets(args: argparse.Namespace) -> int:
    from bot.game.presets import PRESETS

    if args.markdown:
        from bot.game.reference import rules_markdown

        sys.stdout.write(rules_markdown())
        return 0

    width = max(len(n) for n in PRESETS)
    for p in PRESETS.values():
        print(f"{p.name:<{width}}  {p.title}: {p.description}")
    return 0


def _cmd_render(args: argparse.Namespace) -> int:
    from pathlib import Path

    from bot.game.presets import PRESETS
    from bot.i18n import CATALOGS, DEFAULT
    from bot.i18n.values import PresetTitle
    from render.labels import Labels
    from render.samples import write_samples

    lang = args.lang
    labels = Labels.from_catalog(lang, lambda key: CATALOGS[lang].get(key) or
                                 CATALOGS[DEFAULT][key])
    titles = {name: PresetTitle(name, p.title).localize(lang) for name, p in PRESETS.items()}
    paths = write_samples(Path(args.outdir), labels, titles)
    for path in paths:
        print(path)
    print(f"{len(paths)} images written to {args.outdir}")
    return 0


def _cmd_i18n(args: argparse.Namespace) -> int:
    from bot.i18n.check import report

    text, status = report()
    print(text)
    return status


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.what == "render":
        from render.bench import run_bench

        run_bench(args.repeats)
        return 0
    if args.what in ("tables", "web", "daily", "tournament"):
        # Dev tools of the repository (they drive the emulator in tests/): run as their own
        # program, so that the product never imports the tests.
        import subprocess
        from pathlib import Path

        root = Path(__file__).resolve().parents[1]
        module = f"bench_{args.what}"
        if not (root / "tests" / f"{module}.py").is_file():
            print(f"bench {args.what} needs the repository's tests/ (run it from a clone of "
                  "the repository)", file=sys.stderr)
            return 2
        if args.what == "daily":
            argv = ["--players", str(args.players)]
        elif args.what == "tournament":
            argv = ["--entrants", str(args.entrants), "--boards", str(args.boards),
                    "--rounds", str(args.rounds)]
        elif args.what == "web":
            argv = ["--tables", str(args.tables or 100), "--seconds", str(args.seconds),
                    "--hands", str(args.hands or 100_000)]
        else:
            argv = ["--tables", str(args.tables or 200), "--seconds", str(args.seconds),
                    "--preset", args.preset, "--humans", str(args.humans),
                    "--think", str(args.think), "--ramp", str(args.ramp),
                    "--latency", str(args.latency), "--processes", str(args.processes),
                    "--database", args.database, "--ai-level", args.ai_level]
            if args.shards_per_process is not None:
                argv += ["--shards-per-process", str(args.shards_per_process)]
        return subprocess.call([sys.executable, "-m", f"tests.{module}", *argv], cwd=root)
    if args.what == "store":
        from bot.store.bench import run_bench as run_store_bench

        database = "" if args.database == "sqlite" else args.database
        if database == "postgresql":
            database = os.environ.get("DATABASE_URL", "")
            if not database:
                print("bench store --database postgresql needs DATABASE_URL (an empty "
                      "database), or give the postgresql:// URL itself", file=sys.stderr)
                return 2
        run_store_bench(database=database)
        return 0
    if args.what == "solver":
        from bot.ai.bench import run_bench as run_solver_bench
        from bot.game.rules import RulesError

        if args.positions < 1:
            print("bench solver --positions must be 1 or more", file=sys.stderr)
            return 2
        try:
            return run_solver_bench(args.positions, args.preset)
        except RulesError as exc:
            print(exc, file=sys.stderr)
            return 2
    if args.what == "analysis":
        from bot.ai.analysis_bench import run_bench as run_analysis_bench
        from bot.game.rules import RulesError

        if (args.hands or 50) < 1:
            print("bench analysis --hands must be 1 or more", file=sys.stderr)
            return 2
        try:
            return run_analysis_bench(args.hands or 50, args.preset)
        except RulesError as exc:
            print(exc, file=sys.stderr)
            return 2
    if args.what == "engine":
        return _cmd_simulate(argparse.Namespace(
            preset=args.preset, hands=args.hands or 20000, matches=None, seed=1, policy="random"))
    print(f"unknown benchmark {args.what!r}", file=sys.stderr)
    return 2


def _cmd_run(args: argparse.Namespace) -> int:
    """The bot: settings read once, then the Discord client composed from them."""
    import os

    from bot.config import NOT_SET_UP, NoToken, SettingsError, load_settings

    env = dict(os.environ)  # the command line wins over the environment and .env
    if args.shard_count is not None:
        env["SHARD_COUNT"] = args.shard_count
    if args.shard_ids is not None:
        env["SHARD_IDS"] = args.shard_ids
    try:
        settings = load_settings(env)
    except NoToken as exc:  # not a failure: the first run of a fresh checkout
        print(exc, file=sys.stderr, end="")
        return NOT_SET_UP
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    from dataclasses import replace

    from bot.ai import solver

    try:  # the strong AI's solver, chosen once for this process and its AI pool
        kind = solver.use(settings.solver)
    except solver.Unavailable as exc:
        print(exc, file=sys.stderr)
        return 2
    settings = replace(settings, solver=kind)
    if not solver.compiled_available():  # the fallback, and why
        print(solver.describe(kind), file=sys.stderr)
    from contextlib import ExitStack

    from bot.store import DatabaseUnusable, check_database, one_process

    with ExitStack() as held:
        try:  # before Discord is contacted: a bad or busy database is one line, not a hang
            check_database(settings.database)
            if not settings.database_url:  # PostgreSQL serves many processes
                held.enter_context(one_process(settings.database_path))
        except DatabaseUnusable as exc:
            print(exc, file=sys.stderr)
            return 1
        # The Discord client lives in cogs/ (the only package that imports discord).
        from cogs._bot import main as discord_main

        return discord_main(settings)


def _cmd_invite(args: argparse.Namespace) -> int:
    """The link that adds the bot to a server with the permissions it needs."""
    from bot.config import merged_env
    from cogs._invite import PLACEHOLDER, client_id_of, invite_url  # the Discord side

    client_id: int | str | None = args.client_id
    if client_id is None:  # the application id is the first part of its bot token
        client_id = client_id_of(merged_env().get("DISCORD_TOKEN", ""))
    print(invite_url(client_id if client_id is not None else PLACEHOLDER))
    if client_id is None:
        print(f"(replace {PLACEHOLDER} with your application's id: Developer Portal -> your "
              "application -> General Information -> Application ID, or pass --client-id)",
              file=sys.stderr)
    return 0


def _database_path(args: argparse.Namespace) -> str:
    """--database, else DATABASE_URL or DATABASE_PATH from the environment or .env, as
    ``run`` reads them."""
    if args.database:
        return str(args.database)
    from bot.config import load_settings

    return load_settings(need_token=False).database


def _cmd_db_check(args: argparse.Namespace) -> int:
    from bot.store.maintenance import check_database

    report = check_database(_database_path(args))
    for line in report.lines():
        print(line)
    return 0 if report.healthy else 1


def _cmd_db_backup(args: argparse.Namespace) -> int:
    from bot.store.maintenance import MaintenanceError, backup_database

    source = _database_path(args)
    try:
        done = backup_database(source, args.file, force=args.force)
    except MaintenanceError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"Backed up {source} to {done.path}: {done.size} bytes, schema version "
          f"{done.version}, {done.tables} table(s).")
    return 0


def main(argv: list[str] | None = None) -> int:
    from bot import __version__

    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN in .env)")
    p.add_argument("--shard-count", metavar="N",
                   help="shards in all, over every process (default: SHARD_COUNT, else as "
                        "Discord recommends, all in this process)")
    p.add_argument("--shard-ids", metavar="0,1",
                   help="the shards this process runs, out of --shard-count (default: "
                        "SHARD_IDS, else all)")
    p.set_defaults(func=_cmd_run)
    p = sub.add_parser("invite", help="print the link that adds the bot to a server with "
                                      "the permissions it needs")
    p.add_argument("--client-id", type=int, metavar="ID",
                   help="the application id (default: read from DISCORD_TOKEN)")
    p.set_defaults(func=_cmd_invite)
    p = sub.add_parser("db", help="check the database or back it up (safe while the bot runs)")
    db_sub = p.add_subparsers(dest="db_command", required=True)
    q = db_sub.add_parser("check", help="integrity, schema version, and a replay of every live "
                                        "table; exit 1 if anything is wrong")
    q.add_argument("--database", help="the database file or postgresql:// URL (default: "
                                      "DATABASE_URL or DATABASE_PATH, as for run)")
    q.set_defaults(func=_cmd_db_check)
    q = db_sub.add_parser("backup", help="copy the database into FILE (SQLite online backup)")
    q.add_argument("file", help="where to write the copy (must not exist unless --force)")
    q.add_argument("--database", help="the database file (default: DATABASE_PATH, as for run)")
    q.add_argument("--force", action="store_true", help="replace FILE if it exists")
    q.set_defaults(func=_cmd_db_backup)
    p = sub.add_parser("replay", help="replay scenario files, one JSON result per line")
    p.add_argument("files", nargs="+")
    p.set_defaults(func=_cmd_replay)
    p = sub.add_parser("analyze", help="each decision of a finished hand of a scenario file "
                                       "against the best one: a JSON line per decision and "
                                       "a summary line per seat")
    p.add_argument("file", metavar="SCENARIO.json")
    p.add_argument("--hand", type=int, default=None,
                   help="the hand, counting from 1 (default: the last finished one)")
    p.add_argument("--seat", default=None,
                   help="a player's name or seat number (default: every player)")
    p.add_argument("--seed", type=int, default=0, help="the sampled worlds' seed")
    p.set_defaults(func=_cmd_analyze)
    p = sub.add_parser("boards", help="the day's duplicate boards as scenario files (deal "
                                      "only), one JSON object per line (docs/daily.md)")
    p.add_argument("--date", default=None, help="the day, YYYY-MM-DD (default: today, UTC)")
    p.add_argument("--preset", default="russian")
    p.add_argument("--count", type=int, default=None,
                   help="boards, a multiple of the seats (default: twice the seats)")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="write one file per board into DIR instead, and print the paths")
    p.set_defaults(func=_cmd_boards)
    p = sub.add_parser("simulate", help="play random legal hands and measure the speed")
    p.add_argument("--preset", default="russian")
    p.add_argument("--hands", type=int, default=None)
    p.add_argument("--matches", type=int, default=None)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="change one option of the preset (JSON value), e.g. sticks_penalty=120")
    p.add_argument("--policy", choices=("random", "greedy"), default=None,
                   help="random legal moves (default for --hands) or a simple greedy player "
                        "(default for --matches, so that matches end)")
    p.set_defaults(func=_cmd_simulate)
    p = sub.add_parser("presets", help="list the rule presets")
    p.add_argument("--markdown", action="store_true",
                   help="print the whole rules reference (options and presets), as docs/rules.md")
    p.set_defaults(func=_cmd_presets)
    p = sub.add_parser("render", help="write a sample of every image into OUTDIR")
    p.add_argument("outdir")
    from bot.i18n import CATALOGS

    p.add_argument("--lang", choices=sorted(CATALOGS), default="en",
                   help="the language of the words drawn (default en)")
    p.set_defaults(func=_cmd_render)
    p = sub.add_parser("i18n", help="the message catalogs: `check` reports missing keys, "
                                    "placeholders that differ, plural forms and strings "
                                    "longer than Discord allows (exit 1 on a problem)")
    p.add_argument("what", choices=("check",))
    p.set_defaults(func=_cmd_i18n)
    p = sub.add_parser("bench", help="benchmarks: render (images), engine (random hands), "
                                     "tables (the bot under N simultaneous tables), "
                                     "store (records and leaderboards at 100,000 hands), "
                                     "web (page times at 100,000 hands while 100 tables "
                                     "play), solver (the compiled against the Python "
                                     "double-dummy solver), analysis (seconds per hand "
                                     "of the hand analysis), daily (N players through the "
                                     "daily challenge)")
    p.add_argument("what", choices=("render", "engine", "tables", "store", "web", "solver",
                                    "analysis", "daily", "tournament"))
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
    p.set_defaults(func=_cmd_bench)
    p = sub.add_parser("arena", help="AI levels against each other on duplicate deals")
    from bot.ai.arena import add_arguments

    add_arguments(p)
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
