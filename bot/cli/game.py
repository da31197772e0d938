"""The game's tools on the command line: ``replay``, ``analyze``, ``boards``, ``simulate``
and ``presets``."""

from __future__ import annotations

import argparse
import json
import sys


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The five subcommands, in the order ``--help`` lists them."""
    p = sub.add_parser("replay", help="replay scenario files, one JSON result per line")
    p.add_argument("files", nargs="+")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("analyze", help="each decision of a finished hand of a scenario file "
                                       "against the best one: a JSON line per decision and "
                                       "a summary line per seat")
    p.add_argument("file", metavar="SCENARIO.json")
    p.add_argument("--hand", type=int, default=None,
                   help="the hand, counting from 1 (default: the last finished one)")
    p.add_argument("--seat", default=None,
                   help="a player's name or seat number (default: every player)")
    p.add_argument("--seed", type=int, default=0, help="the sampled worlds' seed")
    p.set_defaults(func=cmd_analyze)
    p = sub.add_parser("boards", help="the day's duplicate boards as scenario files (deal "
                                      "only), one JSON object per line (docs/daily.md)")
    p.add_argument("--date", default=None, help="the day, YYYY-MM-DD (default: today, UTC)")
    p.add_argument("--preset", default="russian")
    p.add_argument("--count", type=int, default=None,
                   help="boards, a multiple of the seats (default: twice the seats)")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="write one file per board into DIR instead, and print the paths")
    p.set_defaults(func=cmd_boards)
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
    p.set_defaults(func=cmd_simulate)
    p = sub.add_parser("presets", help="list the rule presets")
    p.add_argument("--markdown", action="store_true",
                   help="print the whole rules reference (options and presets), as docs/rules.md")
    p.set_defaults(func=cmd_presets)


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay scenario files: a JSON result per line; 2 if one fails."""
    from bot.game.scenario import replay_file

    status = 0
    for path in args.files:
        result = replay_file(path)
        print(json.dumps(result, ensure_ascii=False), flush=True)
        if not result["ok"]:
            status = 2
    return status


def cmd_analyze(args: argparse.Namespace) -> int:
    """Each decision of a finished hand against the best one, as JSON lines."""
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


def cmd_boards(args: argparse.Namespace) -> int:
    """The day's duplicate boards, as JSON lines or files."""
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


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play random legal hands (or whole matches) and print the counts and speed."""
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


def cmd_presets(args: argparse.Namespace) -> int:
    """The presets, one a line, or the whole rules reference in Markdown."""
    from bot.game.presets import PRESETS

    if args.markdown:
        from bot.game.reference import rules_markdown

        sys.stdout.write(rules_markdown())
        return 0

    width = max(len(n) for n in PRESETS)
    for p in PRESETS.values():
        print(f"{p.name:<{width}}  {p.title}: {p.description}")
    return 0
