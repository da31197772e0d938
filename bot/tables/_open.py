"""Opening the service on its database (so that the cogs never touch the store)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store import CHECKPOINT_AFTER, CONNECT_DELAYS, open_store
from bot.tables._autoplay import Gate
from bot.tables._service import Listener, TableService
from bot.tables._shards import ALL_SHARDS, Shards
from bot.tables.clock import Clock


async def open_service(database_path: str, *, clock: Clock | None = None,
                       ai_delay: float = 1.5, seed: int | str | None = None,
                       listener: Listener | None = None, gate: Gate | None = None,
                       ai_in_thread: bool = False, pause: int = 0,
                       shards: Shards = ALL_SHARDS,
                       connect_delays: Sequence[float] = CONNECT_DELAYS,
                       checkpoint_after: float = CHECKPOINT_AFTER,
                       allow_async_commit: bool = False) -> TableService:
    """Open the database (migrating it) and a service over it; ``close_service`` ends both.

    ``database_path``: a SQLite file, or a ``postgresql://`` URL (``Settings.database``);
    ``pause``: seconds a new table keeps a finished hand on show;
    ``shards``: the shards of this process (it holds their guilds' tables only);
    ``connect_delays``: seconds between tries to reach a PostgreSQL server at start-up;
    ``checkpoint_after``, ``allow_async_commit``: see :func:`bot.store.open_store`."""
    store = await open_store(database_path, connect_delays=connect_delays,
                             checkpoint_after=checkpoint_after,
                             allow_async_commit=allow_async_commit)
    try:
        return TableService(store, clock=clock, ai_delay=ai_delay, seed=seed,
                            listener=listener, gate=gate, ai_in_thread=ai_in_thread,
                            owns=shards.owns, pause=pause)
    except BaseException:
        await store.close()
        raise
