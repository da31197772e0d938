"""/sheet /history /leaderboard /stats /optin: the community's records.

Replies are ephemeral unless the user asks to post them (``post:True``); images come from
``render`` with a text fallback. Listings page with buttons whose ids carry the query, so
that paging works after a restart.
"""

from __future__ import annotations

import datetime as dt
import io
import math
import re
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import formats, t
from bot.tables import (
    LeaderboardQuery,
    LeaderRow,
    MatchInfo,
    Metric,
    Page,
    Period,
    Profile,
    Scope,
    Sheet,
    TableError,
    TableService,
    presets,
    whole_number,
)
from bot.web import page_url
from cogs._bot import TysiacBot
from cogs._ids import PAGE_TEMPLATE, page_id
from cogs._images import image_file, labels_for
from cogs._interaction import actor_of, locale_of, within
from cogs._plain import plain
from cogs._tree import ls, preset_choices, report_error
from render.model import LeaderboardRow, LeaderboardView
from render.sheet import ROWS as SHEET_ROWS  # hands on one page of a sheet

PRESET_CHOICES = preset_choices(presets())
METRIC_CHOICES = [app_commands.Choice(name=ls(f"metric.{m.value}"), value=m.value)
                  for m in Metric]
PERIOD_CHOICES = [app_commands.Choice(name=ls(f"period.{p.value}"), value=p.value)
                  for p in Period]
SCOPE_CHOICES = [app_commands.Choice(name=ls(f"scope.{s.value}"), value=s.value)
                 for s in Scope]
SHEET_FILE, BOARD_FILE = "1000-sheet.png", "1000-leaderboard.png"

_SEP = "~"


def board_key(query: LeaderboardQuery) -> str:
    """A leaderboard's choices as its page buttons carry them: ``rating~~all~guild``."""
    return _SEP.join([query.metric.value, query.preset or "", query.period.value,
                      query.scope.value])


def board_query(key: str) -> LeaderboardQuery:
    """The choices a page button carries (TableError for an id this bot did not make)."""
    parts = key.split(_SEP)
    if len(parts) != 4:
        raise TableError("error.inactive_button")
    return LeaderboardQuery.parse(*parts)


def _date(ts: float, loc: str | None) -> str:
    return formats.date(dt.datetime.fromtimestamp(ts, dt.UTC), loc)


def match_line(m: MatchInfo, loc: str | None) -> str:
    """``#12 · 2026-11-20 · Russian 1000 · Ann 1005 🏆, Bob 640, Cid 300``."""
    title = dict(presets()).get(m.preset, m.preset)
    seats = ", ".join(f"{plain(n)} {total}{' 🏆' if i in m.winners else ''}"
                      for i, (n, total) in enumerate(zip(m.names, m.totals, strict=False)))
    return f"**#{m.match_id}** · {_date(m.finished_at, loc)} · {title} · {seats}"


def metric_value(metric: Metric, value: float, loc: str | None = None) -> str:
    """A leaderboard value in ``loc``'s number format ("1 234,5" in Russian)."""
    if metric in (Metric.WIN_RATE, Metric.CONTRACTS_MADE):
        return f"{formats.number(round(value), loc)}%"
    if metric in (Metric.RATING, Metric.POINTS_PER_HAND):
        return formats.number(value, loc, decimals=1)
    return formats.number(round(value), loc)


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGE_TEMPLATE):
    """Previous / next page of a listing; the query and page travel in the id."""

    def __init__(self, kind: str, query: str, page: int, *, label: str = "?",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, disabled=disabled,
                                           custom_id=page_id(kind, query, page)))
        self.kind, self.query, self.page = kind, query, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> PageButton:
        return cls(match["kind"], match["query"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Records")
        try:
            if not isinstance(cog, Records):
                raise TableError("error.inactive_button")
            await cog.turn_page(interaction, self.kind, self.query, self.page)
        except Exception as exc:
            await report_error(interaction, exc)


def _pager(kind: str, query: str, page: Page[Any], loc: str | None) -> discord.ui.View | None:
    if page.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(kind, query, max(1, page.page - 1), label=t("button.prev", loc),
                             disabled=page.page <= 1))
    view.add_item(PageButton(kind, query, min(page.pages, page.page + 1),
                             label=t("button.next", loc), disabled=page.page >= page.pages))
    return view


class Records(commands.Cog):
    def __init__(self, bot: TysiacBot) -> None:
        self.bot = bot

    @property
    def service(self) -> TableService:
        return self.bot.service

    # ---- /sheet ------------------------------------------------------------------------------
    @app_commands.command(name="sheet", description=ls("cmd.sheet"))
    @app_commands.describe(match=ls("cmd.sheet.match"), export=ls("cmd.sheet.export"),
                           post=ls("cmd.post"))
    @app_commands.guild_only()
    async def sheet(self, interaction: discord.Interaction[Any],
                    match: app_commands.Range[int, 1] | None = None, export: bool = False,
                    post: bool = False) -> None:
        embed, files, view = await within(
            interaction, self._sheet(interaction, match, export, None), ephemeral=not post)
        await _reply(interaction, embed=embed, files=files, view=view, ephemeral=not post)

    async def _sheet(self, interaction: discord.Interaction[Any], match: int | None,
                     export: bool, page: int | None
                     ) -> tuple[discord.Embed, list[discord.File], discord.ui.View | None]:
        """The sheet's page ``page`` (20 hands; None: the last) with paging buttons."""
        actor, loc = actor_of(interaction), locale_of(interaction)
        records = self.service.records
        got = await records.sheet(actor, match)
        pages = max(1, math.ceil(len(got.results) / SHEET_ROWS))
        if page is not None and not 1 <= page <= pages:
            raise TableError("error.page_past", page=page, pages=pages)
        page = pages if page is None else page
        first = (page - 1) * SHEET_ROWS
        files = []
        if export:
            out = await records.export(actor, match)
            files += [discord.File(io.BytesIO(out.csv.encode()), filename=f"{out.name}.csv"),
                      discord.File(io.BytesIO(out.scenario.encode()),
                                   filename=f"{out.name}.json")]
        embed = self._sheet_embed(got, loc, first)
        await self._link(embed, interaction.guild_id, loc,
                         got.info.match_id if got.info is not None else None)
        data = await self.bot.publisher.images.any_sheet_png(
            got.names, got.rules, got.results, got.title, first=first, locale=loc)
        if data is not None:
            files.append(image_file(data, SHEET_FILE, "the score sheet"))
            embed.set_image(url=f"attachment://{SHEET_FILE}")
        if pages > 1:
            embed.set_footer(text=t("leaderboard.page", loc, page=page, pages=pages))
        query = str(got.info.match_id) if got.info is not None else "live"
        view = _pager("s", query, Page((), page, pages, len(got.results)), loc)
        return embed, files, view

    async def _link(self, embed: discord.Embed, guild_id: int | None, loc: str | None,
                    match_id: int | None = None) -> None:
        """The web page's address under the listing, where the guild turned its pages on."""
        base = self.bot.settings.web_base_url
        if not base or guild_id is None or self.bot.web is None:
            return
        if not (await self.service.records.settings(guild_id)).web:
            return
        url = page_url(base, guild_id, match_id)
        embed.url = url
        embed.description = (f"{embed.description or ''}\n"
                             f"{t('web.link', loc, url=url)}").strip()[:4000]

    def _sheet_embed(self, got: Sheet, loc: str | None, first: int) -> discord.Embed:
        head = (t("sheet.match", loc, id=got.info.match_id) if got.info is not None
                else t("sheet.live", loc))
        embed = discord.Embed(title=f"{got.title} · {head}"[:256])
        if not got.results:
            embed.description = t("sheet.empty", loc)
            return embed
        last = got.results[-1]
        totals = ", ".join(f"**{plain(n)}** {v}"
                           for n, v in zip(got.names, last.totals, strict=False))
        lines = [t("sheet.totals", loc, hands=len(got.results), totals=totals)]
        for r in got.results[first:first + SHEET_ROWS]:
            deltas = " · ".join(f"{d:+d}" for d in r.delta)
            who = plain(got.names[r.declarer]) if 0 <= r.declarer < len(got.names) else "—"
            lines.append(t("sheet.row", loc, no=r.hand_no, declarer=who,
                           contract=r.contract or "—", deltas=deltas))
        embed.description = "\n".join(lines)[:4000]
        return embed

    # ---- /history ----------------------------------------------------------------------------
    @app_commands.command(name="history", description=ls("cmd.history"))
    @app_commands.describe(user=ls("cmd.history.user"), preset=ls("cmd.history.preset"),
                           post=ls("cmd.post"))
    @app_commands.choices(preset=PRESET_CHOICES)
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction[Any],
                      user: discord.User | None = None,
                      preset: app_commands.Choice[str] | None = None,
                      post: bool = False) -> None:
        query = _SEP.join([str(user.id) if user else "", preset.value if preset else ""])
        await self._history(interaction, query, 1, edit=False, ephemeral=not post)

    async def _history(self, interaction: discord.Interaction[Any], query: str, page: int, *,
                       edit: bool, ephemeral: bool = True) -> None:
        user_raw, _, preset = query.partition(_SEP)
        loc = locale_of(interaction)
        got = await self.service.records.history(
            actor_of(interaction), user_id=whole_number(user_raw),
            preset=preset or None, page=page)
        embed = discord.Embed(title=t("history.title", loc, page=got.page, pages=got.pages))
        embed.description = ("\n".join(match_line(m, loc) for m in got.items)
                             or t("history.empty", loc))[:4000]
        view = _pager("h", query, got, loc)
        await _reply(interaction, embed=embed, view=view, edit=edit, ephemeral=ephemeral)

    # ---- /leaderboard ------------------------------------------------------------------------
    @app_commands.command(name="leaderboard", description=ls("cmd.leaderboard"))
    @app_commands.describe(metric=ls("cmd.leaderboard.metric"),
                           preset=ls("cmd.leaderboard.preset"),
                           period=ls("cmd.leaderboard.period"),
                           scope=ls("cmd.leaderboard.scope"), post=ls("cmd.post"))
    @app_commands.choices(metric=METRIC_CHOICES, preset=PRESET_CHOICES, period=PERIOD_CHOICES,
                          scope=SCOPE_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction[Any],
                          metric: app_commands.Choice[str] | None = None,
                          preset: app_commands.Choice[str] | None = None,
                          period: app_commands.Choice[str] | None = None,
                          scope: app_commands.Choice[str] | None = None,
                          post: bool = False) -> None:
        query = LeaderboardQuery.parse(*(c.value if c else None
                                         for c in (metric, preset, period, scope)))
        await self._leaderboard(interaction, query, 1, edit=False, ephemeral=not post)

    async def _leaderboard(self, interaction: discord.Interaction[Any],
                           query: LeaderboardQuery, page: int, *, edit: bool,
                           ephemeral: bool = True) -> None:
        embed, files, view = await within(
            interaction, self._board(interaction, query, page), update=edit,
            ephemeral=ephemeral)
        await _reply(interaction, embed=embed, files=files, view=view, edit=edit,
                     ephemeral=ephemeral)

    async def _board(self, interaction: discord.Interaction[Any], query: LeaderboardQuery,
                     page: int) -> tuple[discord.Embed, list[discord.File],
                                         discord.ui.View | None]:
        loc = locale_of(interaction)
        got = await self.service.records.leaderboard(actor_of(interaction), query, page)
        m = query.metric
        title = t("leaderboard.title", loc, metric=t(f"metric.{m.value}", loc),
                  period=t(f"period.{query.period.value}", loc),
                  scope=t(f"scope.{query.scope.value}", loc))
        embed = discord.Embed(title=title[:256])
        view = _pager("l", board_key(query), got, loc)
        if got.items:
            embed.description = "\n".join(_leader_line(r, m, loc) for r in got.items)[:4000]
        else:  # say why, and what would fill it
            why = await self.service.records.why_empty(actor_of(interaction), query)
            embed.description = t(why.key, loc)[:4000]
            if why.wins_instead:
                view = discord.ui.View(timeout=None)
                wins = board_key(replace(query, metric=Metric.WINS))
                view.add_item(PageButton("l", wins, 1, label=t("button.by_wins", loc)))
        embed.set_footer(text=t("leaderboard.page", loc, page=got.page, pages=got.pages))
        await self._link(embed, interaction.guild_id, loc)
        files = []
        if got.items:
            me = next((r.rank for r in got.items if r.user_id == interaction.user.id), None)
            view_model = LeaderboardView(
                tuple(LeaderboardRow(r.rank, r.name, round(r.value), r.matches, 0,
                                     value_text=metric_value(m, r.value, loc))
                      for r in got.items),
                title=title, highlight=me,
                value_label=_capital(t(f"metric.{m.value}", loc))[:24],
                show_wins=False, labels=labels_for(loc))
            data = await self.bot.publisher.images.leaderboard_png(view_model)
            if data is not None:
                files.append(image_file(data, BOARD_FILE, "the leaderboard"))
                embed.set_image(url=f"attachment://{BOARD_FILE}")
        return embed, files, view

    async def turn_page(self, interaction: discord.Interaction[Any], kind: str, query: str,
                        page: int) -> None:
        if kind == "s":
            match = whole_number(query)
            embed, files, view = await within(
                interaction, self._sheet(interaction, match, False, page), update=True)
            await _reply(interaction, embed=embed, files=files, view=view, edit=True)
        elif kind == "h":
            await self._history(interaction, query, page, edit=True)
        else:
            await self._leaderboard(interaction, board_query(query), page, edit=True)

    # ---- /stats and /optin -------------------------------------------------------------------
    @app_commands.command(name="stats", description=ls("cmd.stats"))
    @app_commands.describe(user=ls("cmd.stats.user"), post=ls("cmd.post"))
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction[Any],
                    user: discord.User | None = None, post: bool = False) -> None:
        who = user or interaction.user
        loc = locale_of(interaction)
        played, best = await self.bot.tournaments.history(interaction.guild_id or 0, who.id)
        try:
            embed = _profile_embed(await self.service.records.profile(
                actor_of(interaction), who.id), loc)
        except TableError:  # no match played: the tournaments are still worth a line
            if not played:
                raise
            embed = discord.Embed(title=t("stats.title", loc, name=plain(who.display_name)))
        if played:
            embed.add_field(name=t("stats.tournaments", loc), value=t(
                "stats.tournaments_value", loc, played=played, best=best or "—"))
        await _reply(interaction, embed=embed, ephemeral=not post)

    @app_commands.command(name="optin", description=ls("cmd.optin"))
    @app_commands.describe(show=ls("cmd.optin.show"), ping=ls("cmd.optin.ping"))
    async def optin(self, interaction: discord.Interaction[Any], show: bool | None = None,
                    ping: bool | None = None) -> None:
        """Change the choices given (none: just say what they are); the answer says both."""
        now = await self.service.records.set_opt_in(actor_of(interaction), show=show,
                                                    ping=ping)
        loc = locale_of(interaction)
        shown = "ok.optin_on" if now.global_opt_in else (
            "ok.optin_off" if show is False else "ok.optin_hidden")
        lines = [t(shown, loc), t("ok.ping_on" if now.turn_ping else "ok.ping_off", loc)]
        await _reply(interaction, content="\n".join(lines))


def _leader_line(r: LeaderRow, m: Metric, loc: str | None) -> str:
    return f"**{r.rank}.** {plain(r.name)} — {metric_value(m, r.value, loc)} ({r.matches})"


def _profile_embed(p: Profile, loc: str | None) -> discord.Embed:
    embed = discord.Embed(title=t("stats.title", loc, name=plain(p.name))[:256])
    rate = f"{100 * p.wins / p.matches:.0f}%" if p.matches else "—"
    embed.add_field(name=t("stats.matches", loc), value=f"{p.matches} · {p.wins} 🏆 · {rate}")
    ratings = "\n".join(f"{fam}: **{value:.1f}** ({n})" for fam, value, n in p.ratings[:4])
    embed.add_field(name=t("stats.rating", loc), value=ratings or "—")
    if p.trend:
        first, last = p.trend[0].value, p.trend[-1].value
        embed.add_field(name=t("stats.trend", loc),
                        value=f"{first:.1f} → {last:.1f} ({last - first:+.1f})")
    played = p.contracts_made + p.contracts_failed
    embed.add_field(name=t("stats.contracts", loc),
                    value=t("stats.contracts_value", loc, made=p.contracts_made,
                            failed=p.contracts_failed, played=played))
    embed.add_field(name=t("stats.barrel", loc), value=str(p.barrel_wins))
    embed.add_field(name=t("stats.rospisat", loc), value=str(p.rospisat))
    embed.add_field(name=t("stats.dashes", loc), value=str(p.dashes))
    if p.favourite_preset:
        embed.add_field(name=t("stats.favourite", loc),
                        value=dict(presets()).get(p.favourite_preset, p.favourite_preset))
    if p.best_match is not None:
        embed.add_field(name=t("stats.best", loc), value=match_line(p.best_match, loc)[:1024],
                        inline=False)
    return embed


async def _reply(interaction: discord.Interaction[Any], *, content: str | None = None,
                 embed: discord.Embed | None = None, files: list[discord.File] | None = None,
                 view: discord.ui.View | None = None, edit: bool = False,
                 ephemeral: bool = True) -> None:
    """Answer (or edit, for a page button) with the listing; ephemeral unless posted."""
    kwargs: dict[str, Any] = {"content": content, "embed": embed}
    if edit:
        kwargs["attachments"] = files or []
        kwargs["view"] = view
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.edit_message(**kwargs)
        return
    if view is not None:
        kwargs["view"] = view
    if files:
        kwargs["files"] = files
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=ephemeral, **{
            k: v for k, v in kwargs.items() if v is not None})
    else:
        await interaction.response.send_message(ephemeral=ephemeral, **kwargs)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


async def setup(bot: TysiacBot) -> None:
    bot.add_dynamic_items(PageButton)
    await bot.add_cog(Records(bot))

