"""/sheet /history /leaderboard /stats /optin and /admin through the emulator."""

from __future__ import annotations

import json

import pytest

from bot.game.scenario import run
from bot.store import HandLine, MatchRecord, PlayerKind, PlayerRef
from bot.tables import Metric
from tests.helpers.cogs import open_table, short_match, start_bot, stop_bot


async def finish_match(w, seed: int = 1) -> None:
    """Alice, Bob and Cid play a short match (target 100, no barrel) to its end."""
    await short_match(w, humans=3, seed=seed)


async def seed_matches(w, count: int) -> None:
    """Recorded matches of this guild, written through the store's own API."""
    store, now = w.service.store, w.service.clock.now()
    people = [PlayerRef(PlayerKind.HUMAN, u.id, "", u.display_name) for u in w.users[:3]]
    async with store.transaction() as tx:
        for i in range(count):
            line = HandLine(delta=40, declarer=False, made=None, rospisat=False, dash=False)
            winner = i % 3
            totals = tuple(1000 if p == winner else 300 for p in range(3))
            await tx.touch_players(people, now)
            await tx.record_match(MatchRecord(
                guild_id=w.guild.id, table_id=10_000 + i, match_no=1, preset="russian",
                family="russian", started_at=now - 3600, finished_at=now - 60 * (count - i),
                players=tuple(people), totals=totals, winners=(winner,),
                barrel_wins=(False, False, False), hands=((line, line, line),),
                rated_seats=(0, 1, 2)), now)


async def test_a_finished_match_has_its_sheet_history_stats_and_leaderboard(world):
    w = world
    fd, alice, bob = w.fd, w.users[0], w.users[1]
    await finish_match(w)
    table = w.table()
    # the sheet of this channel's match, with its export
    r = await fd.slash(alice, w.channel, "sheet", export=True)
    assert r.ephemeral
    names = sorted(a.filename for a in r.message.attachments)
    assert names == ["1000-sheet.png", "match-1.csv", "match-1.json"], names
    scenario = json.loads(next(a for a in r.message.attachments
                               if a.filename.endswith(".json")).data)
    replayed = run(scenario)
    assert replayed["ok"], replayed
    assert list(replayed["totals"].values()) == list(table.state.match.totals)
    csv_text = next(a for a in r.message.attachments if a.filename.endswith(".csv")).data
    assert csv_text.decode().count("\n") == len(table.results) + 1
    # the history lists it, with its number
    r = await fd.slash(bob, w.channel, "history")
    assert r.ephemeral and "#1" in r.message.embeds[0]["description"]
    r = await fd.slash(bob, w.channel, "sheet", match=1)
    assert "match #1" in r.message.embeds[0]["title"]
    # profiles and the leaderboard: the winner rates highest
    winner = w.user(table.seats[table.state.match.winners[0]].user_id)
    r = await fd.slash(bob, w.channel, "stats", user=winner)
    assert r.ephemeral and winner.display_name in r.message.embeds[0]["title"]
    r = await fd.slash(bob, w.channel, "leaderboard")
    lines = r.message.embeds[0]["description"].splitlines()
    assert len(lines) == 3 and winner.display_name in lines[0]
    assert [a.filename for a in r.message.attachments] == ["1000-leaderboard.png"]
    for metric in Metric:
        r = await fd.slash(bob, w.channel, "leaderboard", metric=metric.value, period="7d")
        assert r.ephemeral and r.message.embeds, metric
    # posted for everyone when asked
    r = await fd.slash(bob, w.channel, "leaderboard", post=True)
    assert not r.ephemeral


async def test_refusals_change_nothing(world):
    w = world
    fd, alice, eve = w.fd, w.users[0], w.users[4]
    await open_table(w)
    r = await fd.slash(alice, w.channel, "sheet", export=True)
    assert r.ephemeral and "cannot be exported while cards are hidden" in r.content
    for match in (999, 2**40):
        r = await fd.slash(alice, w.channel, "sheet", match=match)
        assert "There is no match" in r.content
    r = await fd.slash(alice, w.channel, "stats", user=eve)
    assert "no recorded match" in r.content
    r = await fd.slash(alice, w.channel, "history", user=eve)
    assert "no recorded match" in r.content
    # another guild's match is as unknown as a made-up one
    await seed_matches(w, 1)
    guild2 = fd.add_guild("Other", members=w.users)
    chan2 = fd.add_text_channel(guild2, "lobby")
    await w.settle()
    r = await fd.slash(alice, chan2, "sheet", match=1)
    assert "There is no match #1 in this server" in r.content


async def test_paging_buttons_work_after_a_restart(world):
    w = world
    fd, alice = w.fd, w.users[0]
    await seed_matches(w, 12)
    r = await fd.slash(alice, w.channel, "history")
    assert "page 1 of 2" in r.message.embeds[0]["title"]
    first = r.message
    nxt = next(c for c in first.custom_ids if c.endswith(":2"))
    await stop_bot(w)
    await start_bot(w, edit_limit=45)
    r = await fd.click(alice, first, nxt)
    assert r.type == 7 and "page 2 of 2" in r.interaction.response_data["embeds"][0]["title"]
    r = await fd.slash(alice, w.channel, "leaderboard", metric="wins")
    assert r.ephemeral and r.message.embeds[0]["description"].count("\n") == 2


async def test_admin_commands_and_their_refusal(world):
    w = world
    fd, alice, bob = w.fd, w.users[0], w.users[1]
    fd.set_permissions(w.guild, alice, ["manage_guild", "manage_channels"])
    r = await fd.slash(alice, w.channel, "admin defaults", preset="polish", timer=60)
    assert "Polish" in r.content and "60" in r.content
    r = await fd.slash(alice, w.channel, "admin defaults", language="Polish please")
    assert "not a language code" in r.content
    r = await fd.slash(alice, w.channel, "table new")
    assert w.table().preset == "polish" and w.table().timer == 60
    r = await fd.slash(alice, w.channel, "admin ai_rated", count=True)
    assert "count for ratings: yes" in r.content
    await seed_matches(w, 3)
    r = await fd.slash(alice, w.channel, "admin remove", match=2)
    assert "#2 no longer counts" in r.content
    r = await fd.slash(alice, w.channel, "history")
    desc = r.message.embeds[0]["description"]
    assert "#2 " not in desc.replace("**", "") + " " and "#3" in desc and "#1" in desc
    r = await fd.slash(alice, w.channel, "admin reset")
    assert r.ephemeral and "Reset this server's leaderboard" in r.content
    yes = next(c for c in r.message.custom_ids if ":reset:" in c)
    r = await fd.click(alice, r.message, yes)
    assert "leaderboard is reset" in r.interaction.response_data["content"]
    r = await fd.slash(alice, w.channel, "leaderboard")
    assert "No finished match is on record" in r.message.embeds[0]["description"]
    # Bob may not, even once the server lets everyone see /admin
    with pytest.raises(Exception, match="lacks the permissions"):
        await fd.slash(bob, w.channel, "admin reset")
    fd.open_command(w.guild, "admin")
    for words, opts in (("admin reset", {}), ("admin remove", {"match": 1}),
                        ("admin defaults", {"preset": "russian"}),
                        ("admin ai_rated", {"count": False}), ("admin show", {})):
        r = await fd.slash(bob, w.channel, words, **opts)
        assert r.ephemeral and "Only someone with Manage Server" in r.content, words
    r = await fd.forge(bob, w.channel, yes, w.table_message())
    assert "Only someone with Manage Server" in r.content


async def test_an_empty_leaderboard_says_why_and_offers_wins(world):
    w = world
    fd, alice, bob = w.fd, w.users[0], w.users[1]
    r = await fd.slash(bob, w.channel, "leaderboard")
    assert r.ephemeral and r.message.embeds[0]["description"] == (
        "No finished match is on record in this server yet: the leaderboard fills as matches "
        "are played to the end (`/table new` opens a table).")
    assert r.message.custom_ids == []

    await short_match(w, humans=1)  # Alice and two AI players: not rated here
    r = await fd.slash(bob, w.channel, "leaderboard")
    text = r.message.embeds[0]["description"]
    assert "matches with AI players are not rated in this server" in text
    assert "an admin can turn that on with `/admin ai_rated`" in text
    assert r.message.attachments == []  # no empty picture
    by_wins = r.message.component_by_id("t1000p:l:wins~~all~guild:1")
    assert by_wins is not None and by_wins["label"] == "Rank by wins"
    c = await fd.click(bob, r.message, "t1000p:l:wins~~all~guild:1")
    await c.wait_final()
    board = r.message.embeds[0]
    assert "wins" in board["title"] and alice.display_name in board["description"]

    w.user(bob.id).locale = "pl"
    r = await fd.slash(bob, w.channel, "leaderboard")
    assert "partie z botami nie liczą się na tym serwerze do rankingu" in (
        r.message.embeds[0]["description"])
    assert r.message.component_by_id("t1000p:l:wins~~all~guild:1")["label"] == (
        "Według wygranych")


def test_a_leaderboard_page_button_carries_its_choices_as_before() -> None:
    from bot.tables import LeaderboardQuery, Period, Scope, TableError
    from cogs.records import board_key, board_query

    default = LeaderboardQuery()
    assert board_key(default) == "rating~~all~guild"  # ids of messages already posted
    chosen = LeaderboardQuery(Metric.WINS, "polish", Period.DAYS_7, Scope.GLOBAL)
    assert board_key(chosen) == "wins~polish~7d~global"
    assert board_query(board_key(chosen)) == chosen
    assert board_query("rating~~all~guild") == default
    for made_up in ("rating~~all", "speed~~all~guild", "wins~chess~all~guild"):
        with pytest.raises(TableError):
            board_query(made_up)
