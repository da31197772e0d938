"""/help and the table message's Help button: how to play (three steps, every command, the
rules in five sentences) and, on a page of its own, a legend of the marks on the images.

The pages switch with buttons whose ids carry the page (``t1000:{table}:help:{page}``; table
0 outside a table channel), so they work after a restart like every other button.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import language, t
from bot.i18n.values import Clauses
from cogs._bot import TysiacBot
from cogs._interaction import guild_locale_of, locale_of, send
from cogs._tree import ls
from cogs._views import ComponentPress, MessageParts, Rows

# Every command the bot registers, by group, in the order a newcomer meets them; each line
# says what the command's own description says (``cmd.<name>``). A test checks that this
# lists exactly the registered commands.
HELP_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("table", ("table new", "table join", "table ai", "table start", "table leave",
               "table kick", "table end", "table rules", "table option", "table show",
               "help")),
    ("play", ("hand", "bid", "pass", "play", "give", "contract", "rospisat", "redeal")),
    ("records", ("sheet", "history", "analyze", "leaderboard", "stats", "optin", "daily")),
    ("tournament", ("tournament new", "tournament show", "tournament edit",
                    "tournament cancel")),
    ("admin", ("admin defaults", "admin ai_rated", "admin web", "admin reset", "admin remove",
               "admin show", "admin daily", "admin tournaments")),
)
START, LEGEND = "", "legend"  # the pages (the button's argument)
FIELD = 1024  # Discord's limit on an embed field's value


def command_lines(loc: str | None) -> list[tuple[str, list[str]]]:
    """(group heading, a line per command) in the reader's language."""
    return [(t(f"help.group.{group}", loc),
             [f"`/{name}` — {t('cmd.' + name.replace(' ', '.'), loc)}" for name in names])
            for group, names in HELP_GROUPS]


def start_embed(title: str, digest: Sequence[Clauses], loc: str | None,
                rules_command: str) -> discord.Embed:
    """How to play: three steps, every command, the rules (``title``: their preset) in five
    sentences (``digest``)."""
    embed = discord.Embed(title=t("help.start_title", loc), colour=discord.Colour.dark_green())
    buttons = {k: t(f"button.{k}", loc) for k in ("join", "add_ai", "start", "hand")}
    embed.add_field(name=t("help.steps", loc),
                    value=t("help.steps_text", loc, **buttons)[:FIELD], inline=False)
    for heading, lines in command_lines(loc):
        chunk: list[str] = []
        for line in lines:  # a long group takes two fields
            if len("\n".join([*chunk, line])) > FIELD:
                embed.add_field(name=heading, value="\n".join(chunk), inline=False)
                chunk = []
            chunk.append(line[:FIELD])
        embed.add_field(name=heading, value="\n".join(chunk), inline=False)
    lang = language(loc)
    rules = [line.localize(lang) for line in digest]
    rules.append(t("help.rules_more", loc, command=rules_command))
    embed.add_field(name=t("help.rules", loc, title=title)[:256],
                    value="\n".join(rules)[:FIELD], inline=False)
    return embed


def legend_embed(loc: str | None) -> discord.Embed:
    """The legend, in the reader's language: table marks, sheet marks, hand marks."""
    embed = discord.Embed(title=t("help.title", loc), colour=discord.Colour.dark_green())
    for key in ("help.table", "help.sheet", "help.hand"):
        embed.add_field(name=t(key, loc), value=t(f"{key}_text", loc)[:FIELD], inline=False)
    return embed


def help_view(table_id: int, page: str, loc: str | None, *, has_table: bool) -> Rows:
    """The buttons between the pages (the page shown greyed out), and the table's rules."""
    view = Rows()
    view.button(table_id, "help", START, label=t("button.help_start", loc),
                disabled=page == START)
    view.button(table_id, "help", LEGEND, label=t("button.help_legend", loc),
                disabled=page == LEGEND)
    if has_table:
        view.button(table_id, "rules", label=t("button.help_rules", loc))
    return view


class Help(commands.Cog):
    def __init__(self, bot: TysiacBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.on_component("help")(self._help_button)

    @app_commands.command(name="help", description=ls("cmd.help"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await send(interaction, await self._page(interaction, START))

    async def _help_button(self, interaction: discord.Interaction[Any], p: ComponentPress) -> None:
        """The table message's Help (a new message of one's own), or a page of the help
        message itself (that message, turned to the page)."""
        msg = interaction.message
        on_help = msg is not None and msg.flags.ephemeral
        page = LEGEND if p.arg == LEGEND else START
        await send(interaction, await self._page(interaction, page), update=on_help)

    async def _page(self, interaction: discord.Interaction[Any], page: str) -> MessageParts:
        loc = locale_of(interaction)
        service = self.bot.service
        table = service.find(interaction.channel_id or 0)
        if page == LEGEND:
            embed = legend_embed(loc)
        else:
            if table is not None:
                digest, title = service.rules_summary(table).digest, table.title_word()
            else:  # not a table's channel: what /table new would open here
                preset = await service.default_preset(interaction.guild_id,
                                                      guild_locale_of(interaction))
                digest, title = service.preset_digest(preset)
            embed = start_embed(title.localize(language(loc)), digest, loc,
                                self.bot.command_mention("table rules"))
        view = help_view(table.id if table is not None else 0, page, loc,
                         has_table=table is not None)
        return MessageParts(embed=embed, view=view)


async def setup(bot: TysiacBot) -> None:
    await bot.add_cog(Help(bot))
