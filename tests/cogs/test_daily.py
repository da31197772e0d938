"""/daily through the emulator: the day's boards played privately against the AI seats,
resumed after a restart, scored against other players and par, and the standings."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from tests.fakediscord.models import Message, User
from tests.helpers.cogs import start_bot, stop_bot

BOARDS = 6


def fast_par(w: Any) -> None:
    # The par's strong AIs think half a second a move; the tests take the normal level.
    w.service.daily.par_level = "normal"


def latest(w: Any, user: User) -> Message:
    """The user's latest ephemeral daily message."""
    mine = [m for m in w.fd.visible(user, w.channel)
            if m.ephemeral and m.content and "Daily challenge" in m.content]
    assert mine, "no daily message"
    return mine[-1]


async def move(w: Any, user: User, msg: Message) -> Message:
    """Make the first choice the message offers; the answer."""
    ids = [c for c in msg.custom_ids if c.startswith("t1000d:")]
    comp = msg.component_by_id(ids[0])
    assert comp is not None
    if comp["type"] == 3:
        r = await w.fd.select(user, msg, ids[0], [comp["options"][0]["value"]])
    else:
        r = await w.fd.click(user, msg, ids[0])
    await r.wait_final()
    got = latest(w, user)
    assert got.ephemeral and "Something went wrong" not in got.content, got.content
    return got


async def play_board(w: Any, user: User, msg: Message) -> Message:
    """Play on until the board's result is shown."""
    for _ in range(60):
        if "your result" in msg.content:
            return msg
        msg = await move(w, user, msg)
    raise AssertionError("the board did not end")


async def test_a_day_of_boards_resumed_after_a_restart_and_scored(world, tmp_path) -> None:
    w = world
    fd, alice, bob, cid = w.fd, *w.users[:3]
    fast_par(w)
    for u in (bob, cid):  # two players finish the first board before Alice
        r = await fd.slash(u, w.channel, "daily")
        await r.wait_final()
        done = await play_board(w, u, latest(w, u))
        assert "Board 1" in done.content
    r = await fd.slash(alice, w.channel, "daily")
    await r.wait_final()
    msg = latest(w, alice)
    assert "Board 1 of 6" in msg.content and "only you see this game" in msg.content
    assert "Your cards:" in msg.content and len(msg.attachments) == 2  # table and hand
    assert msg.ephemeral and all(m.ephemeral for m in fd.visible(bob, w.channel)
                                 if "Daily challenge" in (m.content or ""))
    msg = await play_board(w, alice, msg)
    # two other players and par: 3 results compared
    assert "against 3 results (par included)" in msg.content, msg.content
    old = msg
    r = await fd.click(alice, msg, next(c for c in msg.custom_ids if c.endswith(":next")))
    await r.wait_final()
    msg = latest(w, alice)
    assert "Board 2 of 6" in msg.content, (r.content, r.followups)
    msg = await move(w, alice, msg)
    before = msg.content
    # a restart in the middle of board 2: /daily shows the same position
    await stop_bot(w)
    await start_bot(w, edit_limit=45)
    fast_par(w)
    r = await fd.slash(alice, w.channel, "daily")
    await r.wait_final()
    msg = latest(w, alice)
    assert msg.content == before
    # a finished board is not played again
    r = await fd.click(alice, old, next(c for c in old.custom_ids if c.endswith(":next")))
    await r.wait_final()
    for number in range(2, BOARDS + 1):
        msg = await play_board(w, alice, latest(w, alice))
        assert f"**Board {number}**" in msg.content
        if number < BOARDS:
            r = await fd.click(alice, msg, next(c for c in msg.custom_ids
                                                if c.endswith(":next")))
            await r.wait_final()
    assert "All 6 boards of" in msg.content
    r = await fd.slash(alice, w.channel, "daily")
    await r.wait_final()
    shown = r.followups[-1] if r.followups else r.message
    assert shown.ephemeral and "All 6 boards of" in shown.content
    rows = await w.service.store.daily_results("2000-01-01", "2999-12-31", "russian")
    assert sorted((r.user_id, r.number) for r in rows) == sorted(
        [(bob.id, 0), (cid.id, 0)] + [(alice.id, n) for n in range(BOARDS)])
    r = await fd.slash(alice, w.channel, "daily", show="standings")
    await r.wait_final()
    text = r.content
    assert r.ephemeral and "Daily standings" in text
    assert "Alice — " in text and "6 boards" in text and "Bob — " in text
    assert "Your streak: 1 day in a row." in text
    assert len(r.message.attachments) == 1  # the day's ranking as an image
    with Image.open(io.BytesIO(r.message.attachments[0].data)) as image:
        assert image.width >= 400
    (tmp_path / "daily-standings.png").write_bytes(r.message.attachments[0].data)


async def test_a_bad_date_is_refused_politely(world) -> None:
    w = world
    r = await w.fd.slash(w.users[0], w.channel, "daily", show="standings", date="yesterday")
    assert r.ephemeral and "`yesterday` is not a date" in r.content


async def test_admin_daily_and_the_end_of_day_summary(world) -> None:
    import datetime as dt

    from bot.store import DailyResultRow

    w = world
    fd, alice, bob = w.fd, *w.users[:2]
    fd.set_permissions(w.guild, alice, ["manage_guild", "manage_channels"])
    r = await fd.slash(alice, w.channel, "admin daily", preset="polish", channel=w.channel)
    assert r.ephemeral and "**Polish Tysiąc**" in r.content and f"<#{w.channel.id}>" in r.content
    yesterday = dt.datetime.now(dt.UTC).date() - dt.timedelta(days=1)
    store = w.service.store
    async with store.transaction() as tx:  # yesterday: Bob and Alice played two boards
        for user, name, board, result, par in ((bob.id, "Bob", 0, 120, 60),
                                               (alice.id, "Alice", 0, 60, 60),
                                               (bob.id, "Bob", 1, -120, 40),
                                               (alice.id, "Alice", 1, -60, 40)):
            await tx.add_daily_result(DailyResultRow(
                user, f"{yesterday}/polish/{board}", yesterday.isoformat(), "polish", board,
                w.guild.id, name, result, par, 0.0))
        await tx.set_daily_settings(w.guild.id, summary_day="2000-01-01")
    await stop_bot(w)
    await start_bot(w, edit_limit=45)
    await fd.wait_until(lambda: any("the results" in (m.content or "")
                                    for m in fd.store.channel_messages(w.channel)), 10)
    posted = [m for m in fd.store.channel_messages(w.channel)
              if "the results" in (m.content or "")]
    assert len(posted) == 1 and not posted[0].ephemeral
    text = posted[0].content
    assert "🥇 1. Bob" in text and "🥈 2. Alice" in text
    assert "The hardest board: board 2, -130 against par on average." in text
    await stop_bot(w)  # once a day only
    await start_bot(w, edit_limit=45)
    await w.fd.settle()
    assert len([m for m in fd.store.channel_messages(w.channel)
                if "the results" in (m.content or "")]) == 1


@pytest.mark.parametrize("bot_options", [{"edit_limit": 45, "clock": "fake"}])
async def test_the_summary_is_posted_once_when_the_day_closes_while_the_bot_runs(world) -> None:
    """The service's clock moves past 24:00 UTC with the bot running: the day's podium is
    posted in the channel chosen with /admin daily, once."""
    import datetime as dt

    from bot.store import DailyResultRow
    from bot.tables import FakeClock

    w = world
    fd, alice, bob, cid = w.fd, *w.users[:3]
    clock = w.service.clock
    assert isinstance(clock, FakeClock)
    summaries = fd.add_text_channel(w.guild, "daily-results")
    await fd.settle()
    fd.set_permissions(w.guild, alice, ["manage_guild", "manage_channels"])
    r = await fd.slash(alice, w.channel, "admin daily", channel=summaries)
    assert r.ephemeral and f"<#{summaries.id}>" in r.content, r.content
    now = dt.datetime.fromtimestamp(clock.now(), dt.UTC)
    today = now.date()
    async with w.service.store.transaction() as tx:  # today: three players, one board
        for user, result in ((bob, 120), (alice, 60), (cid, -60)):
            await tx.add_daily_result(DailyResultRow(
                user.id, f"{today}/russian/0", today.isoformat(), "russian", 0, w.guild.id,
                user.display_name, result, 40, clock.now()))

    def posted() -> list[Message]:
        return [m for m in fd.store.channel_messages(summaries)
                if "the results" in (m.content or "")]

    midnight = dt.datetime.combine(today + dt.timedelta(days=1), dt.time(), dt.UTC)
    await clock.advance(midnight.timestamp() - clock.now() - 60)  # 23:59: still played
    await w.settle()
    assert not posted()
    await clock.advance(6 * 60)  # 00:05: the day is closed, the loop has looked
    await fd.wait_until(lambda: bool(posted()), 10)
    await clock.advance(3 * 3600)  # later looks post nothing more
    await w.settle()
    got = posted()
    assert len(got) == 1 and not got[0].ephemeral
    text = got[0].content
    assert f"Daily challenge · {today}" in text
    assert "🥇 1. Bob" in text and "🥈 2. Alice" in text and "🥉 3. Cid" in text
    assert "3 players took part." in text
    assert not [m for m in fd.store.channel_messages(w.channel)
                if "the results" in (m.content or "")]


async def test_the_standings_image_shows_the_period_asked(world) -> None:
    """/daily show:standings period:week draws the week's ranking (mean %, boards, against
    par), even on a day nobody has played yet."""
    from bot.store import DailyResultRow

    w = world
    fd, alice, bob = w.fd, *w.users[:2]
    async with w.service.store.transaction() as tx:  # Wednesday of the week of 2026-11-27
        for user, result in ((bob, 120), (alice, -60)):
            await tx.add_daily_result(DailyResultRow(
                user.id, "2026-11-25/russian/0", "2026-11-25", "russian", 0, w.guild.id,
                user.display_name, result, 40, 0.0))
    r = await fd.slash(alice, w.channel, "daily", show="standings", date="2026-11-27")
    assert r.ephemeral and not r.message.attachments  # nobody played that day
    r = await fd.slash(alice, w.channel, "daily", show="standings", date="2026-11-27",
                       period="week")
    assert r.ephemeral and len(r.message.attachments) == 1, r.content
    with Image.open(io.BytesIO(r.message.attachments[0].data)) as image:
        assert image.width == 720  # 400 px on a phone: its 22 px letters show 12 px tall


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "pl", "de"])
@pytest.mark.parametrize("period", ["day", "week", "month"])
def test_the_standings_image_reads_boards_and_par_in_every_language(lang, period) -> None:
    import datetime as dt

    from bot.game.duplicate import DayScore
    from bot.i18n import t
    from bot.tables import StandingRow
    from cogs.daily import standings_view
    from render import fonts
    from render.leaderboard import WIDTH, _columns, heading_room

    rows = [StandingRow(i, f"Player {i}", DayScore(boards=12 - i, percent=90.0 - 10 * i,
                                                   vs_par=80 - 40 * i)) for i in range(3)]
    last = dt.date(2026, 11, 27)
    first = {"day": last, "week": dt.date(2026, 11, 23), "month": dt.date(2026, 11, 1)}[period]
    view = standings_view(rows, period, first, last, t("scope.global", lang), 1, lang)
    heads = [label for label, _ in _columns(view)]
    assert heads == [t("daily.standings.value", lang), t("daily.standings.boards", lang),
                     t("daily.standings.vs_par", lang)]
    assert "Games" not in heads and t("img.games", lang) not in heads
    for label, room in zip(heads, heading_room(view, WIDTH), strict=True):
        assert fonts.fit(label, 22, room, bold=True) == label, (label, room)
    assert view.title.startswith(t(f"daily.standings.{period}", lang))
    assert fonts.fit(view.title, 28, WIDTH - 44, bold=True) == view.title  # nothing cut
    assert [(r.value_text, r.games, r.extra_text) for r in view.rows] == [
        ("90.0%", 12, "+80"), ("80.0%", 11, "+40"), ("70.0%", 10, "+0")]
    assert view.highlight == 2
