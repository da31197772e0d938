"""Tables' test helpers: four players, a table service over a real database (a SQLite file
unless a test gives a postgresql:// URL) with a fake clock, and a human's turn played."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bot.ai.simple import SimplePlayer
from bot.store import StoreAPI, open_store
from bot.tables import Actor, FakeClock, TableService, Update

ANN, BOB, CID, DOT = (Actor(1, "Ann", can_manage=True), Actor(2, "Bob"), Actor(3, "Cid"),
                      Actor(4, "Dot"))


@dataclass
class Harness:
    path: str
    clock: FakeClock
    store: StoreAPI
    service: TableService
    updates: list[Update] = field(default_factory=list)

    async def restart(self) -> Harness:
        """A new service over the same database file (the old one is dropped)."""
        await self.service.close()
        await self.store.close()
        return await make_harness(self.path, self.clock)

    def notices(self) -> list[str]:
        return [n.key for u in self.updates for n in u.notices]


async def make_harness(path: str, clock: FakeClock | None = None, **kw) -> Harness:
    clock = clock or FakeClock()
    store = await open_store(path)
    h = Harness(path, clock, store, None)  # type: ignore[arg-type]
    kw.setdefault("ai_delay", 0.0)
    kw.setdefault("ai_in_thread", False)
    h.service = TableService(store, clock=clock, seed=7, listener=h.updates.append, **kw)
    await h.service.restore()
    return h


async def play_human_turn(service: TableService, table_id: int, actors: dict[int, Actor],
                          rng: random.Random) -> bool:
    """The seat to act moves (as its human would, with the simple policy); False if none."""
    table = service.get(table_id)
    seat = table.to_act()
    if seat < 0 or table.seats[seat].automatic:
        return False
    obs = table.observation(seat)
    a = SimplePlayer().choose(obs, rng)
    await service.act(table_id, actors[table.seats[seat].user_id], a.verb, card=a.card,
                      amount=a.amount, target=a.target, flag=a.flag)
    return True
