"""/table rules: the preset and what differs from it by phase, and a page with every option."""

from __future__ import annotations

from bot.game.rules import OPTION_NAMES
from tests.helpers.cogs import start_bot, stop_bot


def _embed(msg) -> dict:
    assert msg is not None and msg.embeds
    return msg.embeds[0]


def _text(embed: dict) -> str:
    fields = "\n".join(f"{f['name']}\n{f['value']}" for f in embed.get("fields", []))
    return f"{embed.get('title', '')}\n{embed.get('description', '')}\n{fields}"


async def test_rules_summary_then_all_options_and_back(world):
    w = world
    fd, alice = w.fd, w.users[0]
    await fd.slash(alice, w.channel, "table new", preset="russian", timer=0)
    await w.settle()
    tid = w.table().id
    r = await fd.slash(alice, w.channel, "table rules")
    await r.wait_final()
    assert r.ephemeral and "No changes from the preset." in _text(_embed(r.message))
    for name, value in (("barrel", "none"), ("bid_step", "10")):
        o = await fd.slash(alice, w.channel, "table option", name=name, value=value)
        assert "cannot" not in o.content, o.content

    r = await fd.slash(w.users[1], w.channel, "table rules")
    await r.wait_final()
    msg = r.message
    summary = _text(_embed(msg))
    assert "Russian" in summary and "No changes" not in summary
    bidding = summary.index("**Bidding**")
    barrel = summary.index("**Barrel and lock**")
    step = summary.index("Bids and raised contracts go up in multiples of this. Here: **10**")
    zone = summary.index("or none. Here: **none**")
    assert bidding < step < barrel < zone  # each sentence under its own phase
    assert "min_bid" not in summary and "hand_size" not in summary  # not the raw list
    assert msg.custom_ids == [f"t1000:{tid}:rulesall:"]

    # the page buttons work after a restart: their ids carry the table and the page
    await stop_bot(w)
    await start_bot(w, edit_limit=45)
    c = await fd.click(w.users[1], msg, f"t1000:{tid}:rulesall:")
    await c.wait_final()
    assert c.type == 7  # the same message, edited
    full = _text(_embed(msg))
    assert "All options" in full
    for name in OPTION_NAMES:
        assert f"{name} = " in full, name
    assert "*barrel = none" in full and "*bid_step = 10" in full and " min_bid = 100" in full
    assert msg.custom_ids == [f"t1000:{tid}:rules:"]

    c = await fd.click(w.users[1], msg, f"t1000:{tid}:rules:")
    await c.wait_final()
    assert _text(_embed(msg)) == summary
    assert msg.custom_ids == [f"t1000:{tid}:rulesall:"]


async def test_the_rules_page_is_written_from_the_tables_own_rules(world):
    w = world
    fd, alice, bob = w.fd, w.users[0], w.users[1]
    await fd.slash(alice, w.channel, "table new", preset="russian", timer=0)
    await w.settle()
    for name, value in (("barrel_at", "200"), ("bid_step", "10"), ("rospisat_max", "2")):
        o = await fd.slash(alice, w.channel, "table option", name=name, value=value)
        assert "cannot" not in o.content, o.content
    r = await fd.slash(bob, w.channel, "table rules")
    await r.wait_final()
    page = _text(_embed(r.message))
    assert "880" not in page  # the preset's number, no longer this table's
    assert "from 200 on the barrel: 3 hands to finish." in page
    assert "Bids from 100 in steps of 10;" in page
    assert "at most 2 times a match." in page
    assert page.index("from 200 on the barrel") < page.index("Here: **200** (`barrel_at`)")

    bob.locale = "ru"
    r = await fd.slash(bob, w.channel, "table rules")
    await r.wait_final()
    page = _text(_embed(r.message))
    assert "880" not in page and "с 200 — бочка: 3 раздачи, чтобы выиграть." in page
    assert "Торговля от 100 с шагом 10;" in page
