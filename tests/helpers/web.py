"""Web test helpers: a seeded guild with its pages on, matches played through the real
service over a real SQLite file, and the web server listening on a free port of 127.0.0.1."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.store import Store
from bot.tables import Actor, FakeClock, TableService, TableStatus
from bot.web import WebServer
from tests.helpers.tables import play_human_turn

GUILD = 420_000_000_000_000_042
# Discord-sized ids, so that a page showing one would be caught
ANN = Actor(310_000_000_000_000_001, "Ann", can_manage=True, guild_id=GUILD,
            can_manage_guild=True)
BOB = Actor(310_000_000_000_000_002, "Bob", guild_id=GUILD)
CID = Actor(310_000_000_000_000_003, "Cid", guild_id=GUILD)
ACTORS = {a.user_id: a for a in (ANN, BOB, CID)}


@dataclass
class Site:
    store: Store
    service: TableService
    web: WebServer
    matches: list[int]  # recorded match ids, oldest first
    live_table: int | None = None

    @property
    def url(self) -> str:
        return self.web.url


async def play_match(service: TableService, channel: int, seed: int, *,
                     target: str = "200", until_hand: int | None = None) -> int:
    """A match of Ann, Bob and Cid in the guild, played to its end (or into a hand)."""
    tid = (await service.create(ANN, channel_id=channel, guild_id=GUILD)).table.id
    for a in (BOB, CID):
        await service.join(tid, a)
    for name, value in (("barrel", "none"), ("target", target)):
        await service.set_option(tid, ANN, name, value)
    await service.start(tid, ANN)
    rng = random.Random(seed)
    for _ in range(5000):
        table = service.get(tid)
        if table.status is TableStatus.FINISHED:
            return tid
        if until_hand is not None and table.hand_no >= until_hand and table.state.trick:
            return tid
        await service.settle()
        if service.get(tid).status is TableStatus.PLAYING:
            await play_human_turn(service, tid, ACTORS, rng)
    raise AssertionError("the match did not end")


async def open_site(path: str, *, web_on: bool = True, live: bool = False) -> Site:
    clock = FakeClock()
    store = await Store.open(path)
    service = TableService(store, clock=clock, seed=7, ai_delay=0.0, ai_in_thread=False)
    await service.restore()
    matches = []
    for i, seed in enumerate((3, 5)):
        tid = await play_match(service, 100 + i, seed, target="400")
        mid = await store.match_id_of(tid, 1)
        assert mid is not None
        matches.append(mid)
        await clock.advance(3600)
    live_table = await play_match(service, 200, 9, until_hand=2) if live else None
    if web_on:
        await service.records.set_defaults(ANN, web=True)
    web = WebServer(service.records, port=0,
                    guild_info=lambda gid: ("Card Club", "en-US") if gid == GUILD
                    else (None, None))
    await web.start()
    return Site(store, service, web, matches, live_table)


async def close_site(site: Site) -> None:
    await site.web.close()
    await site.service.close()
    await site.store.close()
