"""``Rows``: a message's components as the API's rows, laid out as discord.py lays out
``discord.ui`` items, read back by discord.py, and routed by our templates."""

from __future__ import annotations

import asyncio
import random
import re

import discord
from discord.components import ActionRow, _component_factory

from cogs._ids import BUTTON_TEMPLATE, SELECT_TEMPLATE
from cogs._views import Rows
from tests.helpers.cogs import open_table, play_turn


def _parsed(view: Rows) -> list[list[discord.Component]]:
    """The rows as discord.py reads them from a message (what a client receives)."""
    out = []
    for payload in view.to_components():
        row = _component_factory(payload)  # type: ignore[arg-type]
        assert isinstance(row, ActionRow)
        out.append(list(row.children))
    return out


async def test_rows_lay_out_as_discord_ui_items_do() -> None:
    """Buttons without a row fill rows of five; a select takes a row alone; an explicit
    row is kept. The same buttons as discord.ui items give the same payload."""
    rows, items = Rows(), discord.ui.View(timeout=None)
    for n in range(7):
        rows.button(12, "play", f"{n}S", label=f"{n}♠", hand="1.2")
        items.add_item(discord.ui.Button(label=f"{n}♠", custom_id=f"t1000:12:play:{n}S:1.2"))
    rows.select(12, "bid", [("100", "100"), ("105", "105")], placeholder="Bid…", hand="1.2")
    items.add_item(discord.ui.Select(
        custom_id="t1000:12:choose:bid:1.2", placeholder="Bid…", min_values=1, max_values=1,
        options=[discord.SelectOption(label=v, value=v) for v in ("100", "105")]))
    rows.button(12, "pass", label="Pass", style=discord.ButtonStyle.danger, row=4, hand="1.2")
    items.add_item(discord.ui.Button(label="Pass", style=discord.ButtonStyle.danger, row=4,
                                     custom_id="t1000:12:pass::1.2"))
    assert rows.to_components() == items.to_components()

    parsed = _parsed(rows)
    assert [len(r) for r in parsed] == [5, 2, 1, 1]
    assert isinstance(parsed[2][0], discord.SelectMenu)
    assert [o.value for o in parsed[2][0].options] == ["100", "105"]
    assert parsed[3][0].style is discord.ButtonStyle.danger  # type: ignore[union-attr]


async def test_every_id_is_routed_by_a_template() -> None:
    """A press on any of them reaches ``TableButton``/``TableSelect`` (after a restart too:
    the id is all there is)."""
    view = Rows()
    view.button(7, "start", label="Start")
    view.button(7, "play", "10H", label="10♥", hand="3.1")
    view.select(7, "give1", [("K♣", "KC")], placeholder="Give", hand="3.1")
    ids = [c.custom_id for row in _parsed(view) for c in row]  # type: ignore[attr-defined]
    buttons, selects = re.compile(BUTTON_TEMPLATE), re.compile(SELECT_TEMPLATE)
    assert buttons.fullmatch(ids[0]) and buttons.fullmatch(ids[1])
    assert selects.fullmatch(ids[2]) and not buttons.fullmatch(ids[2])
    assert not view.is_dispatchable()  # nothing for discord.py to keep per message


async def test_presses_are_read_from_their_ids(world, monkeypatch) -> None:
    """A table's buttons and menus act from their ids alone: discord.py never builds the
    pressed message's ``discord.ui`` view for them (it did for every press, the largest
    single cost of answering one)."""
    built = []
    from_message = discord.ui.View.from_message.__func__  # type: ignore[attr-defined]

    def counted(cls, message, /, *, timeout=180.0):  # type: ignore[no-untyped-def]
        built.append(message.id)
        return from_message(cls, message, timeout=timeout)

    monkeypatch.setattr(discord.ui.View, "from_message", classmethod(counted))
    w = world
    await open_table(w)  # Join and Start: buttons of the table message
    table = w.table()
    version = table.version
    rng = random.Random(3)
    moves = 0
    while moves < 12:  # the bids (a menu) and the first cards (buttons)
        await w.service.settle()
        if await play_turn(w, rng):
            moves += 1
    await w.settle()
    assert table.version >= version + 12  # each press moved
    assert not built


async def test_hand_answers_leave_discord_py_nothing_to_keep(world) -> None:
    """An ephemeral hand answered through the interaction leaves no view, task or timer
    with discord.py (it kept each for 15 minutes: thousands at a busy table's pace)."""
    w = world
    await open_table(w)
    tid = w.table().id
    for _ in range(3):
        for u in w.users[:3]:
            r = await w.fd.click(u, w.table_message(u), f"t1000:{tid}:hand:")
            assert r.message is not None and r.message.ephemeral and r.message.components
    await w.settle()
    waiting = [t for t in asyncio.all_tasks()
               if "timeout_task_impl" in getattr(t.get_coro(), "__qualname__", "")]
    assert not waiting
