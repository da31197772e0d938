"""A hand's result speaks the table's language: every line of it, and the rule set's title."""

from __future__ import annotations

import re

from bot.game.state import Phase
from bot.i18n import CATALOGS
from tests.helpers.cogs import short_match

# the engine's English result lines, which a Russian table must no longer show
ENGLISH = re.compile(r"\b(made|failed|took|loses|climbed|barrel|wins the match|share|"
                     r"annulled|thrown in|everyone passed|dash|stick)\b")


async def test_a_russian_table_reads_its_results_and_title_in_russian(world):
    w = world
    fd, alice = w.fd, w.users[0]
    await short_match(w, seed=4, options=(("language", "ru"),))
    table = w.table()
    assert table.locale == "ru" and table.state.phase is Phase.MATCH_OVER

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
    assert f"· победа в партии: {winner}" in posts[-1], posts[-1]
