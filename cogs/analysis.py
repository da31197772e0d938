"""Hand analysis: the **Analyse** button on a hand's result and on the match summary, and
``/analyze [match] [hand] [seat]``.

The answer is ephemeral and deferred while the analysis runs (seconds, in its own
process): one line per marked decision, the unmarked ones folded into a count, the
summary, and a picture of the seat's cards and decisions. A hand with many decisions is
paged; a page button asks the service again, which keeps recent analyses. Who may see
which analysis is the service's rule (``bot/tables/_analysis.py``).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.game.cards import card_str
from bot.i18n import t
from bot.i18n.rule_text import action_phrase
from bot.i18n.values import Msg
from bot.tables import HandAnalysis, TableError, TableService
from cogs._bot import TysiacBot
from cogs._images import image_file, labels_for
from cogs._interaction import actor_of, locale_of, within
from cogs._plain import plain
from cogs._tree import ls
from cogs._views import ComponentPress, Rows
from render.analysis import AnalysisRow, AnalysisView

ANALYSIS_FILE = "1000-analysis.png"
PAGE = 12  # decisions on one page of the answer


def analyse_arg(match_no: int, hand_no: int, seat: int | None = None, page: int = 1) -> str:
    """The argument of an Analyse button: ``match.hand`` (the presser's own seat), or with
    the seat (from 1) and the page."""
    if seat is None:
        return f"{match_no}.{hand_no}"
    return f"{match_no}.{hand_no}.{seat}.{page}"


def read_arg(arg: str) -> tuple[int, int, int | None, int]:
    """(match, hand, seat from 1 or None, page) of an Analyse button (TableError if malformed)."""
    parts = arg.split(".")
    if len(parts) not in (2, 4) or not all(p.isdigit() and len(p) <= 6 for p in parts):
        raise TableError("error.inactive_button")
    n = [int(p) for p in parts]
    return (n[0], n[1], n[2], n[3]) if len(n) == 4 else (n[0], n[1], None, 1)


def _pages(got: HandAnalysis) -> int:
    return max(1, -(-len(got.analysis.decisions) // PAGE))


def answer_text(got: HandAnalysis, loc: str | None, page: int) -> str:
    """The answer's text: the marked decisions of the page, the rest folded, the summary."""
    a = got.analysis
    names = list(got.names)
    decisions = a.decisions[(page - 1) * PAGE: page * PAGE]
    lines = [f"**{t('analysis.title', loc, name=plain(names[a.seat]), hand=got.hand_no)}**"]
    for d in decisions:
        if not d.mark:
            continue
        line = t("analysis.line", loc, mark=d.mark, step=d.step + 1,
                 action=action_phrase(d.action, names, got.talon),
                 best=action_phrase(d.best, names, got.talon), loss=d.loss)
        if d.real_loss is not None and d.real_loss > 0:
            line += t("analysis.real", loc, loss=d.real_loss)
        lines.append(line)
    folded = sum(1 for d in decisions if not d.mark)
    if not any(d.mark for d in decisions):
        lines.append(t("analysis.clean", loc))
    if folded:
        lines.append(t("analysis.folded", loc, n=folded))
    lines.append(t("analysis.summary", loc, auction=_lost(got, "auction"),
                   exchange=_lost(got, "exchange"), play=_lost(got, "play")))
    worst = a.worst
    if worst is not None and worst.mark:
        lines.append(t("analysis.worst", loc, step=worst.step + 1, loss=worst.loss,
                       action=action_phrase(worst.action, names, got.talon)))
    lines.append(t("analysis.marks", loc))
    if not got.finished:
        lines.append(t("analysis.own_info", loc))
    pages = _pages(got)
    if pages > 1:
        lines.append(t("analysis.page", loc, page=page, pages=pages))
    return "\n".join(lines)[:2000]


def _lost(got: HandAnalysis, stage: str) -> int:
    return sum(d.loss for d in got.analysis.decisions if d.stage.value == stage)


def answer_view(got: HandAnalysis, loc: str | None, page: int) -> AnalysisView:
    """The picture of one page."""
    names = list(got.names)
    a = got.analysis
    rows = tuple(
        AnalysisRow(d.step + 1, d.mark, _said(action_phrase(d.action, names, got.talon), loc),
                    "" if d.best == d.action else _said(
                        action_phrase(d.best, names, got.talon), loc), d.loss)
        for d in a.decisions[(page - 1) * PAGE: page * PAGE])
    summary = t("analysis.summary", loc, auction=_lost(got, "auction"),
                exchange=_lost(got, "exchange"), play=_lost(got, "play"))
    return AnalysisView(
        title=t("analysis.title", loc, name=names[a.seat], hand=got.hand_no),
        cards=tuple(card_str(c) for c in got.dealt), rows=rows, summary=summary,
        footer=t("analysis.marks", loc).replace("`", ""), labels=labels_for(loc))


def _said(msg: Msg, loc: str | None) -> str:
    return t(msg.key, loc, **msg.params)


def pager(got: HandAnalysis, loc: str | None, page: int) -> Rows | None:
    pages = _pages(got)
    if pages <= 1:
        return None
    view = Rows()
    seat = got.seat + 1
    view.button(got.table_id, "analyse", analyse_arg(got.match_no, got.hand_no, seat,
                                                      max(1, page - 1)),
                label=t("button.prev", loc), disabled=page <= 1)
    view.button(got.table_id, "analyse", analyse_arg(got.match_no, got.hand_no, seat,
                                                      min(pages, page + 1)),
                label=t("button.next", loc), disabled=page >= pages)
    return view


class Analysis(commands.Cog):
    def __init__(self, bot: TysiacBot) -> None:
        self.bot = bot

    @property
    def service(self) -> TableService:
        return self.bot.service

    async def cog_load(self) -> None:
        self.bot.on_component("analyse")(self._button)

    @app_commands.command(name="analyze", description=ls("cmd.analyze"))
    @app_commands.describe(match=ls("cmd.analyze.match"), hand=ls("cmd.analyze.hand"),
                           seat=ls("cmd.analyze.seat"))
    @app_commands.guild_only()
    async def analyze(self, interaction: discord.Interaction[Any],
                      match: app_commands.Range[int, 1] | None = None,
                      hand: app_commands.Range[int, 1] | None = None,
                      seat: app_commands.Range[int, 1, 4] | None = None) -> None:
        actor = actor_of(interaction)
        got = await within(interaction, self.service.analyses.request(
            actor, match_id=match, hand_no=hand, seat=seat))
        await self._send(interaction, got, 1, edit=False)

    async def _button(self, interaction: discord.Interaction[Any], p: ComponentPress) -> None:
        match_no, hand_no, seat, page = read_arg(p.arg)
        paging = seat is not None
        got = await within(interaction, self.service.analyses.analyse(
            p.table_id, actor_of(interaction), match_no=match_no, hand_no=hand_no,
            seat=None if seat is None else seat - 1), update=paging)
        await self._send(interaction, got, min(page, _pages(got)), edit=paging)

    async def _send(self, interaction: discord.Interaction[Any], got: HandAnalysis,
                    page: int, *, edit: bool) -> None:
        loc = locale_of(interaction)
        content = answer_text(got, loc, page)
        files = []
        data = await self.bot.publisher.images.analysis_png(answer_view(got, loc, page))
        if data is not None:
            files.append(image_file(data, ANALYSIS_FILE, "the hand's analysis"))
        view = pager(got, loc, page)
        if edit:
            kwargs: dict[str, Any] = {"content": content, "attachments": files,
                                      "view": view or Rows()}
            if interaction.response.is_done():
                await interaction.edit_original_response(**kwargs)
            else:
                await interaction.response.edit_message(**kwargs)
            return
        send: dict[str, Any] = {"content": content, "files": files}
        if view is not None:
            send["view"] = view
        if interaction.response.is_done():
            await interaction.followup.send(ephemeral=True, **send)
        else:
            await interaction.response.send_message(ephemeral=True, **send)


async def setup(bot: TysiacBot) -> None:
    await bot.add_cog(Analysis(bot))
