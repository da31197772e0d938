"""Opening the service on its database (so that the cogs never touch the store)."""

from __future__ import annotations

from bot.store import Store
from bot.tables._autoplay import Gate
from bot.tables._service import Listener, TableService
from bot.tables._shards import ALL_SHARDS, Shards
from bot.tables.clock import Clock


async def open_service(database_path: str, *, clock: Clock | None = None,
                       ai_delay: float = 1.5, seed: int | str | None = None,
                       listener: Listener | None = None, gate: Gate | None = None,
                       ai_in_thread: bool = False,
                       shards: Shards = ALL_SHARDS) -> TableService:
    """Open the database (migrating it) and a service over it; ``close_service`` ends both.
    ``shards``: the shards of this process (it holds their guilds' tables only)."""
    store = await Store.open(database_path)
    try:
        return TableService(store, clock=clock, ai_delay=ai_delay, seed=seed,
                            listener=listener, gate=gate, ai_in_thread=ai_in_thread,
                            owns=shards.owns)
    except BaseException:
        await store.close()
        raise
