"""Command line: ``python -m bot run|invite|db|replay|analyze|boards|simulate|presets|
render|i18n|bench|arena``."""

from __future__ import annotations

import argparse
import sys

from bot.cli import bench, db, game


def main(argv: list[str] | None = None) -> int:
    from bot import __version__
    from bot.ai.arena import add_arguments

    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_run(sub)
    _add_invite(sub)
    db.add_command(sub)
    game.add_commands(sub)
    _add_render(sub)
    p = sub.add_parser("i18n", help="the message catalogs: `check` reports missing keys, "
                                    "placeholders that differ, plural forms and strings "
                                    "longer than Discord allows (exit 1 on a problem)")
    p.add_argument("what", choices=("check",))
    p.set_defaults(func=_cmd_i18n)
    bench.add_command(sub, run=_cmd_bench)
    add_arguments(sub.add_parser("arena", help="AI levels against each other on duplicate "
                                               "deals"))
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


# The subcommands below reach Discord (cogs/) or the images (render/): only the entry point
# may import those.
def _add_run(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN in .env)")
    p.add_argument("--shard-count", metavar="N",
                   help="shards in all, over every process (default: SHARD_COUNT, else as "
                        "Discord recommends, all in this process)")
    p.add_argument("--shard-ids", metavar="0,1",
                   help="the shards this process runs, out of --shard-count (default: "
                        "SHARD_IDS, else all)")
    p.set_defaults(func=_cmd_run)


def _add_invite(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("invite", help="print the link that adds the bot to a server with "
                                      "the permissions it needs")
    p.add_argument("--client-id", type=int, metavar="ID",
                   help="the application id (default: read from DISCORD_TOKEN)")
    p.set_defaults(func=_cmd_invite)


def _add_render(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from bot.i18n import CATALOGS

    p = sub.add_parser("render", help="write a sample of every image into OUTDIR")
    p.add_argument("outdir")
    p.add_argument("--lang", choices=sorted(CATALOGS), default="en",
                   help="the language of the words drawn (default en)")
    p.set_defaults(func=_cmd_render)


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
    """The benchmark ``args.what``: ``render`` here, the others in bot/cli/bench.py."""
    if args.what == "render":
        from render.bench import run_bench

        run_bench(args.repeats)
        return 0
    return bench.cmd_bench(args)


if __name__ == "__main__":
    sys.exit(main())
