"""/help and the table message's Help button: a legend of the marks on the images."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from cogs._bot import TysiacBot, locale_of, ls, send
from cogs._views import MessageParts, Pressed


def help_embed(loc: str | None) -> discord.Embed:
    """The legend, in the reader's language: table marks, sheet marks, hand marks."""
    embed = discord.Embed(title=t("help.title", loc), colour=discord.Colour.dark_green())
    for key in ("help.table", "help.sheet", "help.hand"):
        embed.add_field(name=t(key, loc), value=t(f"{key}_text", loc)[:1024], inline=False)
    return embed


class Help(commands.Cog):
    def __init__(self, bot: TysiacBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.on_component("help")(self._help_button)

    @app_commands.command(name="help", description=ls("cmd.help"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await send(interaction, MessageParts(embed=help_embed(locale_of(interaction))))

    async def _help_button(self, interaction: discord.Interaction[Any], p: Pressed) -> None:
        await send(interaction, MessageParts(embed=help_embed(locale_of(interaction))))


async def setup(bot: TysiacBot) -> None:
    await bot.add_cog(Help(bot))
