"""One way in: a database setting (a file path, or a postgresql:// URL) to an open store."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store._health import check_database_path
from bot.store._interface import StoreAPI
from bot.store._pg import CONNECT_DELAYS, PgStore
from bot.store._pg_url import check_database_url, is_database_url
from bot.store._store import CHECKPOINT_AFTER, Store, check_schema_log


def check_database(database: str) -> None:
    """Raise :class:`DatabaseUnusable` (one line) if ``database`` cannot be what it says:
    a URL that is not postgresql://..., a file path that cannot be opened, or a file that
    lost its migration log."""
    if is_database_url(database):
        check_database_url(database)
    else:
        check_database_path(database)
        check_schema_log(database)


async def open_store(database: str, *,
                     connect_delays: Sequence[float] = CONNECT_DELAYS,
                     checkpoint_after: float = CHECKPOINT_AFTER,
                     allow_async_commit: bool = False) -> StoreAPI:
    """Open (creating and migrating) the database: PostgreSQL for a ``postgresql://`` URL,
    else the SQLite file at that path. ``connect_delays``: seconds between tries to reach a
    PostgreSQL server that is not up yet; ``checkpoint_after`` (SQLite): seconds from a
    commit to the checkpoint that copies it into the file; ``allow_async_commit``
    (PostgreSQL): accept a server with ``synchronous_commit=off``."""
    if is_database_url(database):
        return await PgStore.open(database, connect_delays=connect_delays,
                                  allow_async_commit=allow_async_commit)
    return await Store.open(database, checkpoint_after=checkpoint_after)
