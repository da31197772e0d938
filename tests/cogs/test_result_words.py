"""A hand's result speaks the table's language: every line of it, and the rule set's title."""

from __future__ import annotations

import asyncio
import random
import re

from bot.game.state import Phase
from bot.i18n import CATALOGS

from .conftest import play_turn

# the engine's English result lines, which a Russian table must no longer show
ENGLISH = re.compile(r"\b(made|failed|took|loses|climbed|barrel|wins the match|share|"
                     r"annulled|thrown in|everyone passed|dash|stick)\b")


async def test_a_russian_table_reads_its_results_and_title_in_russian(world):
    w = world
    fd, alice = w.fd, w.users[0]
    await fd.slash(alice, w.channel, "table new", preset="russian")
    await w.settle()
    for name, value in (("language", "ru"), ("barrel", "none"), ("target", "100")):
        r = await fd.slash(alice, w.channel, "table option", name=name, value=value)
        assert "cannot" not in r.content, r.content
    tid = w.table().id
    for _ in range(2):
        await fd.click(alice, w.table_message(), f"t1000:{tid}:addai:")
    await fd.click(alice, w.table_message(), f"t1000:{tid}:start:")
    table = w.table()
    assert table.locale == "ru"
    rng = random.Random(4)
    for _ in range(600):
        await w.service.settle()
        if table.state.phase is Phase.MATCH_OVER:
            break
        if not await play_turn(w, rng):
            await asyncio.sleep(0)  # an AI is to move
    assert table.state.phase is Phase.MATCH_OVER
    await w.settle()

    title = CATALOGS["ru"]["choice.preset.russian"]
    embed = w.table_message().embeds[0]
    assert embed["title"].startswith(f"Тысяча — {title}"), embed["title"]
    assert "Russian 1000" not in embed["title"]

    posts = [m.content for m in fd.visible(alice, w.channel)
             if not m.ephemeral and m.content.startswith("**Раздача ")]
    assert posts, "no hand result"
    lines = [line for post in posts for line in post.splitlines() if line.startswith("· ")]
    assert lines, "no result line besides the headline"
    for line in lines:
        assert not ENGLISH.search(line), line
    # the match's end is said too, naming the winner
    winner = table.names()[table.state.match.winners[0]]
    assert f"· победа в матче: {winner}" in posts[-1], posts[-1]
