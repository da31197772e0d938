"""End-to-end test helpers: the real bot (cogs + service + SQLite) logged into the Discord
emulator, and users playing through it as people would."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from dataclasses import dataclass, field
from typing import Any

from bot.ai.simple import SimplePlayer
from bot.config import RenderIn, Settings
from bot.game.actions import Action, Flag, Verb
from bot.game.cards import card_str
from bot.tables import FakeClock
from cogs._bot import TysiacBot, point_discord_py_at
from tests.fakediscord import FakeDiscord
from tests.fakediscord.models import Channel, Guild, Message, User


@dataclass
class World:
    fd: FakeDiscord
    guild: Guild
    channel: Channel
    users: list[User]
    db: str
    bot: TysiacBot | None = None
    task: asyncio.Task[Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def service(self):
        return self.bot.service

    def table(self):
        return self.service.in_channel(self.channel.id)

    def user(self, user_id: int) -> User:
        return next(u for u in self.users if u.id == user_id)

    def table_message(self, user: User | None = None) -> Message:
        user = user or self.users[0]
        tid = self.table().id
        msgs = [m for m in self.fd.visible(user, self.channel)
                if not m.ephemeral and any(c.startswith(f"t1000:{tid}:") for c in m.custom_ids)]
        assert msgs, "no table message"
        return msgs[-1]

    async def settle(self) -> None:
        """The service, the publisher and the emulator are all idle."""
        for _ in range(3):
            await self.service.settle()
            await self.bot.publisher.idle()
            await self.fd.settle()


async def start_bot(world: World, **options: Any) -> TysiacBot:
    fd = world.fd
    point_discord_py_at(fd.api_base, fd.gateway_url)
    options.setdefault("ai_delay", 0.0)
    options.setdefault("hand_pause", 0)  # hands follow at once unless a test pauses them
    options.setdefault("guild_ready_timeout", 0.1)
    options.setdefault("edit_debounce", 0.05)
    options.setdefault("seed", 1)
    # In-process bots render in a thread, where tests can slow a renderer down or make it
    # fail; the bot processes of test_process.py render in a worker process, as in production.
    options.setdefault("render_in", RenderIn.THREAD)
    # the service's timers run on a clock the test moves
    clock = FakeClock() if options.pop("clock", None) == "fake" else None
    settings = Settings(token=fd.token, database_path=world.db, api_base=fd.api_base,
                        gateway_url=fd.gateway_url, **options)
    bot = TysiacBot(settings, clock=clock)
    world.bot = bot
    world.task = asyncio.create_task(bot.start(fd.token))
    await asyncio.wait_for(bot.wait_until_ready(), 10)
    await fd.wait_until(lambda: fd.commands_synced > 0, 10)
    return bot


async def stop_bot(world: World) -> None:
    if world.bot is not None:
        await world.bot.close()
    if world.task is not None:
        world.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await world.task
    world.bot = world.task = None


# ---- playing as the users would ----------------------------------------------------------
async def open_table(w: World, preset: str = "russian", humans: int = 3, ais: int = 0,
                     **options: Any) -> None:
    fd, alice = w.fd, w.users[0]
    r = await fd.slash(alice, w.channel, "table new", preset=preset, **options)
    assert r.message is not None and not r.ephemeral
    await w.settle()
    for u in w.users[1:humans]:
        await fd.click(u, w.table_message(u), f"t1000:{w.table().id}:join:")
    for _ in range(ais):
        await fd.click(alice, w.table_message(), f"t1000:{w.table().id}:addai:")
    await fd.click(alice, w.table_message(), f"t1000:{w.table().id}:start:")
    await w.settle()


async def short_match(w: World, *, humans: int = 1, seed: int = 1,
                      options: tuple[tuple[str, str], ...] = ()) -> None:
    """A match to 100 without a barrel (and ``options``), played to its end: Alice and
    ``humans - 1`` friends joined, AIs in the other seats."""
    from bot.game.state import Phase

    fd, alice = w.fd, w.users[0]
    await fd.slash(alice, w.channel, "table new", preset="russian")
    await w.settle()
    for name, value in (("barrel", "none"), ("target", "100"), *options):
        r = await fd.slash(alice, w.channel, "table option", name=name, value=value)
        assert "cannot" not in r.content, r.content
    tid = w.table().id
    for u in w.users[1:humans]:
        await fd.click(u, w.table_message(u), f"t1000:{tid}:join:")
    for _ in range(3 - humans):
        await fd.click(alice, w.table_message(), f"t1000:{tid}:addai:")
    await fd.click(alice, w.table_message(), f"t1000:{tid}:start:")
    table = w.table()
    rng = random.Random(seed)
    for _ in range(600):
        await w.service.settle()
        if table.state.phase is Phase.MATCH_OVER:
            break
        if not await play_turn(w, rng):
            await asyncio.sleep(0)  # an AI is to move
    assert table.state.phase is Phase.MATCH_OVER
    await w.settle()


def hand_of(w: World, user: User) -> Message | None:
    """The user's latest ephemeral hand message."""
    mine = [m for m in w.fd.visible(user, w.channel) if m.ephemeral
            and m.content and "Your hand" in m.content]
    return mine[-1] if mine else None


def hand_id(table: Any, verb: str, arg: str = "") -> str:
    """The custom id of a component of ``table``'s current hand."""
    return f"t1000:{table.id}:{verb}:{arg}:{table.hand_key}"


def component_for(a: Action, table: Any) -> tuple[str, str | None]:
    """(custom_id, select value or None) of the hand component that makes action ``a``."""
    c = card_str(a.card) if a.card >= 0 else ""
    if a.verb is Verb.PLAY:
        verb = {Flag.MARRIAGE: "playm", Flag.ACES: "playa"}.get(a.flag, "play")
        return hand_id(table, verb, c), None
    if a.verb is Verb.BID:
        return hand_id(table, "choose", "bid"), f"{a.amount}{'b' if a.flag is Flag.BLIND else ''}"
    if a.verb is Verb.CONTRACT:
        return hand_id(table, "choose", "contract"), str(a.amount)
    if a.verb is Verb.GIVE:
        return hand_id(table, "choose", f"give{a.target}"), c
    if a.verb is Verb.DISCARD:
        return hand_id(table, "choose", "discard"), c
    if a.verb is Verb.TALON:
        return hand_id(table, "talon", str(a.amount)), None
    return hand_id(table, a.verb.value), None


async def play_turn(w: World, rng: random.Random, *, use_slash: bool = False,
                    policy: Any = None) -> bool:
    """The human to act moves: via his hand's components, or slash commands. False if none."""
    table = w.table()
    seat = table.to_act()
    if seat < 0 or table.seats[seat].automatic:
        return False
    user = w.user(table.seats[seat].user_id)
    obs = table.observation(seat)
    a = (policy or SimplePlayer()).choose(obs, rng)
    fd = w.fd
    if use_slash and a.verb in (Verb.PLAY, Verb.BID, Verb.PASS, Verb.CONTRACT, Verb.GIVE,
                                Verb.ROSPISAT, Verb.REDEAL):
        if a.verb is Verb.PLAY:
            opts = {"card": card_str(a.card)}
            if a.flag is not Flag.NONE:
                opts["declare"] = a.flag.value
            r = await fd.slash(user, w.channel, "play", **opts)
        elif a.verb in (Verb.BID, Verb.CONTRACT) and a.flag is Flag.NONE:
            r = await fd.slash(user, w.channel, a.verb.value, amount=a.amount)
        elif a.verb is Verb.GIVE:
            r = await fd.slash(user, w.channel, "give", card=card_str(a.card), to=str(a.target))
        elif a.verb is Verb.BID:
            return await click_action(w, user, a)
        else:
            r = await fd.slash(user, w.channel, a.verb.value)
            if a.verb is Verb.ROSPISAT:  # the first one asks for a confirmation
                r = await fd.slash(user, w.channel, a.verb.value)
        assert r.ephemeral and "You " in r.content, r.content
        return True
    return await click_action(w, user, a)


async def click_action(w: World, user: User, a: Action) -> bool:
    fd, tid = w.fd, w.table().id
    hand = hand_of(w, user)
    cid, value = component_for(a, w.table())
    comp = hand.component_by_id(cid) if hand is not None else None
    if comp is None or comp.get("disabled"):
        r = await fd.click(user, w.table_message(user), f"t1000:{tid}:hand:")
        hand = r.message
        assert hand is not None and hand.ephemeral
        if cid not in hand.custom_ids and a.verb is Verb.PLAY:  # more declarations than fit
            r = await fd.slash(user, w.channel, "play", card=card_str(a.card),
                               declare=a.flag.value)
            assert r.ephemeral and "You play" in r.content, r.content
            return True
        assert cid in hand.custom_ids, (a, hand.custom_ids, hand.content)
    if value is None:
        r = await fd.click(user, hand, cid)
        if a.verb is Verb.ROSPISAT:  # the first press asks for a confirmation
            r = await fd.click(user, r.message, cid)
    else:
        r = await fd.select(user, hand, cid, [value])
    assert "⚠️" not in (r.content or ""), r.content
    return True


CARD_RE = re.compile(r"(?:10|[7-9JQKA])[♣♦♥♠]")
