"""/daily: the day's duplicate boards, played privately against AI seats, and the standings.

Every message is ephemeral and every press is a new interaction whose id carries the day,
the board, the moves seen and the choice, so a break of any length (a restart included) is
resumed by ``/daily`` or by the last message's components.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.game.actions import Action, Verb
from bot.game.presets import PRESETS
from bot.i18n import t
from bot.i18n.rule_text import move_message
from bot.i18n.values import PresetTitle
from bot.tables import Finished, Playing, StandingRow, Standings, TableError, parse_day
from cogs._bot import TysiacBot
from cogs._format import cards_text
from cogs._ids import DAILY_TEMPLATE, PREFIX
from cogs._images import image_file, labels_for
from cogs._interaction import actor_of, locale_of, within
from cogs._plain import plain, say
from cogs._tree import ls, report_error
from render.adapter import hand_view, table_view
from render.model import LeaderboardRow, LeaderboardView

TEMPLATE = DAILY_TEMPLATE
TABLE_FILE, HAND_FILE = "1000-daily-table.png", "1000-daily-hand.png"
STANDINGS_FILE = "1000-daily-standings.png"
SHOW_CHOICES = [app_commands.Choice(name=ls("choice.daily.play"), value="play"),
                app_commands.Choice(name=ls("choice.daily.standings"), value="standings")]
PERIOD_CHOICES = [app_commands.Choice(name=ls(f"choice.daily.{p}"), value=p)
                  for p in ("day", "week", "month")]
SCOPE_CHOICES = [app_commands.Choice(name=ls("scope.guild"), value="guild"),
                 app_commands.Choice(name=ls("scope.global"), value="global")]
OPTIONS = 25  # a select's options
SUMMARY_EVERY = 300.0  # seconds between looks for a closed day to summarize
MEDALS = ("🥇", "🥈", "🥉")
log = logging.getLogger(__name__)


def custom_id(day: dt.date, number: int, seen: int, kind: str, arg: int | None = None) -> str:
    """The id of a daily component: which board, after how many moves, which choice."""
    tail = "" if arg is None else f":{arg}"
    return f"{PREFIX}d:{day.isoformat()}:{number}:{seen}:{kind}{tail}"


def _names(count: int, loc: str | None) -> list[str]:
    return [t("daily.ai", loc, number=i + 1) for i in range(count)]


def _percent(x: float) -> str:
    return f"{x:.1f}"


def _signed(x: int) -> str:
    return f"{x:+d}"


class DailyItem(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A daily board's button or select: the choice travels in its id."""

    def __init__(self, item: Any) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> DailyItem:
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Daily")
        data: dict[str, Any] = dict(interaction.data or {})
        m = re.fullmatch(TEMPLATE, str(data.get("custom_id", "")))
        try:
            if not isinstance(cog, Daily) or m is None:
                raise TableError("error.inactive_button")
            values: list[str] = list(data.get("values") or [])
            arg = int(values[0]) if values else (int(m["arg"]) if m["arg"] else None)
            await cog.press(interaction, dt.date.fromisoformat(m["day"]), int(m["no"]),
                            int(m["seen"]), m["kind"], arg)
        except Exception as exc:
            await report_error(interaction, exc)


class Daily(commands.Cog):
    def __init__(self, bot: TysiacBot) -> None:
        self.bot = bot
        self._summaries: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self._summaries = asyncio.create_task(self._summary_loop())

    async def cog_unload(self) -> None:
        if self._summaries is not None:
            self._summaries.cancel()

    async def _summary_loop(self) -> None:
        """Each closed day's summary, posted in the channels the servers chose."""
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.post_summaries()
            except Exception:
                log.exception("daily summaries failed")
            # the service's clock: tests move it past midnight while the bot runs
            await self.daily.clock.sleep(SUMMARY_EVERY)

    async def post_summaries(self) -> None:
        """Post every summary that is due (once each: marked before it is sent)."""
        for s in await self.daily.summaries_due():
            guild = self.bot.get_guild(s.guild_id)
            if guild is None:  # another process's server, or one the bot left
                continue
            await self.daily.summarized(s.guild_id, s.day)
            channel = guild.get_channel(s.channel_id)
            if not isinstance(channel, discord.TextChannel):
                continue
            loc = str(guild.preferred_locale)
            title = PresetTitle(s.preset, PRESETS[s.preset].title).localize(loc)
            lines = [f"**{t('daily.summary.title', loc, day=s.day.isoformat(), preset=title)}**"]
            if not s.podium:
                lines.append(t("daily.summary.nobody", loc))
            for rank, r in enumerate(s.podium, 1):
                lines.append(f"{MEDALS[rank - 1]} " + t(
                    "daily.standings.line", loc, rank=rank, name=plain(r.name),
                    percent=_percent(r.score.percent), boards=r.score.boards,
                    vs_par=_signed(r.score.vs_par)))
            if s.players:
                lines.append(t("daily.summary.players", loc, count=s.players))
            if s.worst_board is not None:
                lines.append(t("daily.summary.worst", loc, number=s.worst_board + 1,
                               vs_par=f"{s.worst_vs_par:+.0f}"))
            with contextlib.suppress(discord.HTTPException):
                await channel.send("\n".join(lines)[:2000],
                                   allowed_mentions=discord.AllowedMentions.none())

    @property
    def daily(self) -> Any:
        return self.bot.service.daily

    @app_commands.command(name="daily", description=ls("cmd.daily"))
    @app_commands.describe(show=ls("cmd.daily.show"), date=ls("cmd.daily.date"),
                           scope=ls("cmd.daily.scope"), period=ls("cmd.daily.period"))
    @app_commands.choices(show=SHOW_CHOICES, scope=SCOPE_CHOICES, period=PERIOD_CHOICES)
    async def daily_command(self, interaction: discord.Interaction[Any],
                            show: str = "play", date: str | None = None,
                            scope: str = "guild", period: str = "day") -> None:
        day = parse_day(date) if date else None  # a bad date is refused whatever is asked
        if show == "standings":
            content, files = await within(interaction, self._standings(
                interaction, day, scope == "global", period))
            await interaction.response.send_message(content, files=files, ephemeral=True)
            return
        actor = actor_of(interaction)
        # The board's images take a moment to draw: answered at once, shown when drawn.
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.daily.day(actor.user_id, interaction.guild_id)
        number = view.next_board
        loc = locale_of(interaction)
        if number is None:
            await interaction.followup.send(
                t("daily.all_done", loc, count=len(view.boards), day=view.day.isoformat()),
                ephemeral=True)
            return
        got = await self.daily.play(actor.user_id, interaction.guild_id, actor.name,
                                    view.day, number)
        await self._answer(interaction, got)

    async def press(self, interaction: discord.Interaction[Any], day: dt.date, number: int,
                    seen: int, kind: str, arg: int | None) -> None:
        """A component of a board's message: a choice, or the next board."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        if kind == "next":
            view = await self.daily.day(actor.user_id, interaction.guild_id, day)
            if view.next_board is None:
                raise TableError("daily.error.played", number=number + 1)
            number = view.next_board
            got = await self.daily.play(actor.user_id, interaction.guild_id, actor.name, day,
                                        number)
        else:
            got = await self.daily.choose(actor.user_id, interaction.guild_id, actor.name,
                                          day, number, seen, arg or 0)
        await self._answer(interaction, got)

    async def _answer(self, interaction: discord.Interaction[Any],
                      got: Playing | Finished) -> None:
        loc = locale_of(interaction)
        if isinstance(got, Finished):
            content, view, files = await self._finished(interaction, got, loc)
        else:
            content, view, files = await self._playing(got, loc)
        if interaction.response.is_done():
            await interaction.followup.send(content, view=view, files=files, ephemeral=True)
        else:
            await interaction.response.send_message(content, view=view, files=files,
                                                    ephemeral=True)

    def _head(self, got: Playing | Finished, loc: str | None) -> str:
        b = got.board
        title = PresetTitle(b.preset, PRESETS[b.preset].title).localize(loc or "en")
        count = 2 * b.rules.seats
        return (f"**{t('daily.title', loc, day=b.day.isoformat(), preset=title)}**\n"
                + t("daily.board", loc, number=b.number + 1, count=count))

    async def _playing(self, got: Playing, loc: str | None
                       ) -> tuple[str, discord.ui.View, list[discord.File]]:
        b, obs = got.board, got.observation
        names = _names(b.rules.seats, loc)
        names[b.seat] = t("daily.you_name", loc)
        lines = [self._head(got, loc), t("daily.hand", loc, cards=cards_text(obs.hand, loc))]
        if obs.declarer >= 0 and obs.contract:
            lines.append(t("daily.contract", loc, contract=obs.contract,
                           declarer=names[obs.declarer]))
        elif obs.bids:
            lines.append(t("daily.bids", loc, bids=", ".join(
                f"{names[s]} {a or t('button.pass', loc)}" for s, a, _ in obs.bids)))
        if obs.trick:
            lines.append(t("daily.trick", loc, cards=cards_text((c for _, c in obs.trick), loc)))
        lines.append(t("daily.your_move", loc))
        view = discord.ui.View(timeout=None)
        legal = list(enumerate(obs.legal))
        talon = PRESETS[b.preset].talon_name
        bids = [(i, a) for i, a in legal if a.verb is Verb.BID]
        others = [(i, a) for i, a in legal if a.verb is not Verb.BID]
        plays = [(i, a) for i, a in others if a.verb is Verb.PLAY]
        if plays and len(others) <= 20:  # cards as buttons, like a table's hand
            for i, a in others:
                label = _label(a, names, b.preset, talon, loc)
                view.add_item(DailyItem(discord.ui.Button(
                    label=label[:80], custom_id=custom_id(b.day, b.number, got.moves, "act", i))))
            others = []
        groups = [("bid", "daily.select.bid", bids[k:k + OPTIONS])
                  for k in range(0, len(bids), OPTIONS)][:2]
        groups += [("act", "daily.select.other", others[k:k + OPTIONS])
                   for k in range(0, len(others), OPTIONS)][:5 - len(groups)]
        for n, (kind, placeholder, chunk) in enumerate(groups):
            if not chunk:
                continue
            options = [discord.SelectOption(
                label=(str(a.amount) if a.verb is Verb.BID and a.amount else
                       _label(a, names, b.preset, talon, loc))[:100], value=str(i))
                for i, a in chunk]
            view.add_item(DailyItem(discord.ui.Select(
                placeholder=t(placeholder, loc), options=options,
                custom_id=custom_id(b.day, b.number, got.moves, kind, n))))
        files = await self._images(got, names, loc)
        return "\n".join(lines), view, files

    async def _images(self, got: Playing, names: list[str],
                      loc: str | None) -> list[discord.File]:
        b, obs = got.board, got.observation
        labels = labels_for(loc)
        tv = table_view(obs, names, title=f"{b.day.isoformat()} · {b.number + 1}/"
                                                f"{2 * b.rules.seats}",
                        talon_label=PRESETS[b.preset].talon_name, labels=labels)
        hv = hand_view(obs, names[b.seat], labels)
        table_png, hand_png = await self.bot.publisher.images.view_pngs(tv, hv)
        files = []
        if table_png is not None:
            files.append(image_file(table_png, TABLE_FILE, "the table"))
        if hand_png is not None:
            files.append(image_file(hand_png, HAND_FILE, "your hand"))
        return files

    async def _finished(self, interaction: discord.Interaction[Any], got: Finished,
                        loc: str | None) -> tuple[str, discord.ui.View, list[discord.File]]:
        b, s = got.board, got.score
        par = s.result - s.vs_par
        lines = [self._head(got, loc), t(
            "daily.finished", loc, number=b.number + 1, result=_signed(s.result),
            par=_signed(par), vs_par=_signed(s.vs_par), percent=_percent(s.percent),
            field=got.field)]
        view = discord.ui.View(timeout=None)
        actor = actor_of(interaction)
        day = await self.daily.day(actor.user_id, interaction.guild_id, b.day)
        if day.next_board is not None:
            lines.append(t("daily.next", loc, number=day.next_board + 1))
            view.add_item(DailyItem(discord.ui.Button(
                label=t("daily.button.next", loc), style=discord.ButtonStyle.primary,
                custom_id=custom_id(b.day, b.number, 0, "next"))))
        else:
            lines.append(t("daily.all_done", loc, count=len(day.boards),
                           day=b.day.isoformat()))
        return "\n".join(lines), view, []

    async def _standings(self, interaction: discord.Interaction[Any], day: dt.date | None,
                         global_scope: bool, period: str = "day"
                         ) -> tuple[str, list[discord.File]]:
        loc = locale_of(interaction)
        actor = actor_of(interaction)
        st: Standings = await self.daily.standings(interaction.guild_id, actor.user_id, day,
                                                   global_scope=global_scope)
        scope = t("scope.global" if global_scope else "scope.guild", loc)
        lines = [f"**{t('daily.standings.title', loc, day=st.day.isoformat(), scope=scope)}**"]
        for key, rows in (("daily.standings.day", st.today), ("daily.standings.week", st.week),
                          ("daily.standings.month", st.month)):
            lines.append(f"__{t(key, loc)}__")
            if not rows:
                lines.append(t("daily.standings.empty", loc))
            for rank, r in enumerate(rows[:10], 1):
                lines.append(t("daily.standings.line", loc, rank=rank, name=plain(r.name),
                               percent=_percent(r.score.percent), boards=r.score.boards,
                               vs_par=_signed(r.score.vs_par)))
        lines.append(t("daily.standings.streak", loc, days=st.streak))
        files: list[discord.File | None] = []
        # the image: the period asked (the text above has all three)
        first = {"day": st.day, "week": st.day - dt.timedelta(days=st.day.weekday()),
                 "month": st.day.replace(day=1)}[period]
        rows = {"day": st.today, "week": st.week, "month": st.month}[period]
        if rows:
            files.append(await self._standings_image(rows, period, first, st.day, scope,
                                                     actor.user_id, loc))
        return "\n".join(lines)[:2000], [f for f in files if f is not None]

    async def _standings_image(self, rows: list[StandingRow], period: str, first: dt.date,
                               last: dt.date, scope: str, user_id: int,
                               loc: str | None) -> discord.File | None:
        """A period's ranking drawn: mean %, boards played and difference from par."""
        view = standings_view(rows, period, first, last, scope, user_id, loc)
        data = await self.bot.publisher.images.leaderboard_png(view)
        return None if data is None else image_file(data, STANDINGS_FILE, "the standings")


def standings_view(rows: list[StandingRow], period: str, first: dt.date, last: dt.date,
                   scope: str, user_id: int, loc: str | None) -> LeaderboardView:
    """The standings image's content: the top ten of a period, the reader highlighted."""
    me = next((rank for rank, r in enumerate(rows, 1) if r.user_id == user_id), None)
    # short enough for the title's line in every language: 2026-11, 2026-11-23 – 11-27
    dates = {"day": last.isoformat(), "month": f"{last:%Y-%m}"}.get(
        period, f"{first.isoformat()} – {last:%m-%d}")
    return LeaderboardView(
        tuple(LeaderboardRow(rank, r.name, round(r.score.percent), r.score.boards, 0,
                             value_text=f"{_percent(r.score.percent)}%",
                             extra_text=_signed(r.score.vs_par))
              for rank, r in enumerate(rows[:10], 1)),
        title=t("daily.standings.image", loc, period=t(f"daily.standings.{period}", loc),
                dates=dates, scope=scope),
        highlight=me, value_label=t("daily.standings.value", loc),
        games_label=t("daily.standings.boards", loc),
        extra_label=t("daily.standings.vs_par", loc), show_wins=False, labels=labels_for(loc))


def _label(a: Action, names: list[str], preset: str, talon: str, loc: str | None) -> str:
    """An action as its player reads it ("You bid 120.")."""
    msg = move_message(a, names, preset=preset, talon=talon)
    return say(msg.key, loc, msg.params)


async def setup(bot: TysiacBot) -> None:
    await bot.add_cog(Daily(bot))
    bot.add_dynamic_items(DailyItem)
