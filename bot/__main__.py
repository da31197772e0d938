"""Command line: ``python -m bot run|replay|simulate|presets|render|bench``."""

from __future__ import annotations

import argparse
import json
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


def _cmd_simulate(args: argparse.Namespace) -> int:
    from bot.game.presets import preset
    from bot.game.rules import RulesError
    from bot.game.simulate import simulate

    try:
        rules = preset(args.preset)
    except RulesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    hands = args.hands if args.hands is not None else (0 if args.matches else 1000)
    stats = simulate(rules, hands=hands, matches=args.matches or 0, seed=args.seed)
    print(f"preset: {args.preset}")
    print(f"hands: {stats.hands}")
    print(f"actions: {stats.actions}")
    if args.matches:
        print(f"matches: {stats.matches}")
        print(f"unfinished: {stats.unfinished}")
    print(f"seconds: {stats.seconds:.3f}")
    print(f"hands/s: {stats.hands_per_s:.0f}")
    return 0


def _cmd_presets(_: argparse.Namespace) -> int:
    from bot.game.presets import PRESETS

    width = max(len(n) for n in PRESETS)
    for p in PRESETS.values():
        print(f"{p.name:<{width}}  {p.title}: {p.description}")
    return 0


def _cmd_run(_: argparse.Namespace) -> int:
    from bot.config import run_bot

    return run_bot()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN in .env)")
    p.set_defaults(func=_cmd_run)
    p = sub.add_parser("replay", help="replay scenario files, one JSON result per line")
    p.add_argument("files", nargs="+")
    p.set_defaults(func=_cmd_replay)
    p = sub.add_parser("simulate", help="play random legal hands and measure the speed")
    p.add_argument("--preset", default="russian")
    p.add_argument("--hands", type=int, default=None)
    p.add_argument("--matches", type=int, default=None)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=_cmd_simulate)
    p = sub.add_parser("presets", help="list the rule presets")
    p.set_defaults(func=_cmd_presets)
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
