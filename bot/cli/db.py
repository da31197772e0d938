"""``python -m bot db``: check the database or back it up (safe while the bot runs)."""

from __future__ import annotations

import argparse
import sys


def add_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``db`` subcommand and its ``check`` and ``backup``."""
    p = sub.add_parser("db", help="check the database or back it up (safe while the bot runs)")
    db_sub = p.add_subparsers(dest="db_command", required=True)
    q = db_sub.add_parser("check", help="integrity, schema version, and a replay of every live "
                                        "table; exit 1 if anything is wrong")
    q.add_argument("--database", help="the database file or postgresql:// URL (default: "
                                      "DATABASE_URL or DATABASE_PATH, as for run)")
    q.set_defaults(func=cmd_db_check)
    q = db_sub.add_parser("backup", help="copy the database into FILE (SQLite online backup)")
    q.add_argument("file", help="where to write the copy (must not exist unless --force)")
    q.add_argument("--database", help="the database file (default: DATABASE_PATH, as for run)")
    q.add_argument("--force", action="store_true", help="replace FILE if it exists")
    q.set_defaults(func=cmd_db_backup)


def _database_path(args: argparse.Namespace) -> str:
    """--database, else DATABASE_URL or DATABASE_PATH from the environment or .env, as
    ``run`` reads them."""
    if args.database:
        return str(args.database)
    from bot.config import load_settings

    return load_settings(need_token=False).database


def cmd_db_check(args: argparse.Namespace) -> int:
    """Check the database; 1 if anything is wrong."""
    from bot.store.maintenance import check_database

    report = check_database(_database_path(args))
    for line in report.lines():
        print(line)
    return 0 if report.healthy else 1


def cmd_db_backup(args: argparse.Namespace) -> int:
    """Copy the database into a file (SQLite online backup)."""
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
