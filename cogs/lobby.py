"""/table …: open, seat, configure, start and close tables; the table message's buttons."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import language, t
from bot.tables import RulesSummary, Table, TableService, TableStatus, ai_levels, presets
from cogs._bot import TysiacBot
from cogs._interaction import actor_of, guild_locale_of, locale_of, public_locale, send, within
from cogs._plain import say
from cogs._tree import ls, preset_choices
from cogs._views import (
    ComponentPress,
    MessageParts,
    Rows,
    confirm_view,
    table_message,
)

log = logging.getLogger(__name__)
PRESET_CHOICES = preset_choices(presets())
LEVEL_CHOICES = [app_commands.Choice(name=ls(f"choice.level.{level}"), value=level)
                 for level in ai_levels()]


class Lobby(commands.Cog):
    table = app_commands.Group(name="table", description=ls("cmd.table"), guild_only=True)

    def __init__(self, bot: TysiacBot) -> None:
        self.bot = bot

    @property
    def service(self) -> TableService:
        return self.bot.service

    async def cog_load(self) -> None:
        on = self.bot.on_component
        on("join")(self._join_button)
        on("leave")(self._leave_button)
        on("addai")(self._ai_button)
        on("start")(self._start_button)
        on("rematch")(self._rematch_button)
        on("endyes")(self._end_yes)
        on("endno")(self._end_no)
        on("leaveyes")(self._leave_yes)
        on("leaveno")(self._leave_no)
        on("rules", "rulesall")(self._rules_page)

    # ---- posting the table message ---------------------------------------------------------
    async def post_table(self, interaction: discord.Interaction[Any], table: Table) -> None:
        parts = table_message(table, table.locale)
        assert parts.embed is not None and parts.view is not None
        if interaction.response.is_done():
            msg = await interaction.followup.send(embed=parts.embed, view=parts.view, wait=True)
            await self.service.set_message(table, msg.id)
            return
        resp = await interaction.response.send_message(embed=parts.embed, view=parts.view)
        message_id = getattr(resp, "message_id", None)
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await self.service.set_message(table, message_id)

    async def _update_table_message(self, interaction: discord.Interaction[Any],
                                    table: Table) -> None:
        """Answer a click on the table message by editing it in place (no channel budget)."""
        version = table.version
        parts = table_message(table, table.locale)
        await send(interaction, parts, update=True)
        if interaction.message is not None and interaction.message.id == table.message_id:
            self.bot.publisher.tables.settled(table, version, interaction)

    # ---- commands ------------------------------------------------------------------------------
    @table.command(name="new", description=ls("cmd.table.new"))
    @app_commands.describe(preset=ls("cmd.table.new.preset"), players=ls("cmd.table.new.players"),
                           timer=ls("cmd.table.new.timer"))
    @app_commands.choices(preset=PRESET_CHOICES)
    async def new(self, interaction: discord.Interaction[Any],
                  preset: app_commands.Choice[str] | None = None,
                  players: app_commands.Range[int, 2, 4] | None = None,
                  timer: app_commands.Range[int, 0, 3600] | None = None) -> None:
        out = await within(interaction, self.service.create(
            actor_of(interaction), channel_id=interaction.channel_id or 0,
            guild_id=interaction.guild_id, preset=preset.value if preset else None,
            players=players, timer=timer, locale=public_locale(interaction),
            guild_locale=guild_locale_of(interaction)), ephemeral=False)
        await self.post_table(interaction, out.table)

    @table.command(name="join", description=ls("cmd.table.join"))
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        table = self.service.in_channel(interaction.channel_id or 0)
        out = await self.service.join(table.id, actor_of(interaction))
        await self._say(interaction, out.key, out.params)

    @table.command(name="leave", description=ls("cmd.table.leave"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        table = self.service.in_channel(interaction.channel_id or 0)
        if table.status is TableStatus.PLAYING and table.seat_of(interaction.user.id) is not None:
            loc = locale_of(interaction)
            await send(interaction, MessageParts(content=t("ok.leave_confirm", loc),
                                                 view=confirm_view(table, "leave", loc)))
            return
        out = await self.service.leave(table.id, actor_of(interaction))
        await self._say(interaction, out.key, out.params)

    @table.command(name="ai", description=ls("cmd.table.ai"))
    @app_commands.describe(level=ls("cmd.table.ai.level"))
    @app_commands.choices(level=LEVEL_CHOICES)
    async def ai(self, interaction: discord.Interaction[Any],
                 level: app_commands.Choice[str] | None = None) -> None:
        table = self.service.in_channel(interaction.channel_id or 0)
        out = await self.service.add_ai(table.id, actor_of(interaction),
                                        level.value if level else "normal")
        await self._say(interaction, out.key, out.params)

    @table.command(name="kick", description=ls("cmd.table.kick"))
    @app_commands.describe(user=ls("cmd.table.kick.user"))
    async def kick(self, interaction: discord.Interaction[Any], user: discord.User) -> None:
        table = self.service.in_channel(interaction.channel_id or 0)
        out = await self.service.kick(table.id, actor_of(interaction), user.id)
        await self._say(interaction, out.key, out.params)

    @table.command(name="start", description=ls("cmd.table.start"))
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        table = self.service.in_channel(interaction.channel_id or 0)
        out = await within(interaction, self.service.start(table.id, actor_of(interaction)))
        await self._say(interaction, out.key, out.params)

    @table.command(name="end", description=ls("cmd.table.end"))
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        table = self.service.in_channel(interaction.channel_id or 0)
        self.service.may_end(table.id, actor_of(interaction))
        loc = locale_of(interaction)
        await send(interaction, MessageParts(content=t("ok.end_confirm", loc),
                                             view=confirm_view(table, "end", loc)))

    @table.command(name="rules", description=ls("cmd.table.rules"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        table = self.service.in_channel(interaction.channel_id or 0)
        await send(interaction, rules_page(self.service, table, locale_of(interaction)))

    @table.command(name="option", description=ls("cmd.table.option"))
    @app_commands.describe(name=ls("cmd.table.option.name"), value=ls("cmd.table.option.value"))
    async def option(self, interaction: discord.Interaction[Any], name: str,
                     value: str) -> None:
        table = self.service.in_channel(interaction.channel_id or 0)
        out = await self.service.set_option(table.id, actor_of(interaction), name, value)
        await self._say(interaction, out.key, out.params)

    @option.autocomplete("name")
    async def option_name(self, interaction: discord.Interaction[Any],
                          current: str) -> list[app_commands.Choice[str]]:
        names = self.service.option_names(current[:100])
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]

    @option.autocomplete("value")
    async def option_value(self, interaction: discord.Interaction[Any],
                           current: str) -> list[app_commands.Choice[str]]:
        name = str(getattr(interaction.namespace, "name", "") or "")
        values = self.service.option_values(interaction.channel_id or 0, name, current[:100])
        return [app_commands.Choice(name=v[:100], value=v[:100]) for v in values[:25]]

    @table.command(name="show", description=ls("cmd.table.show"))
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        """Re-post the table message at the bottom; the old one is deleted (one live copy)."""
        table = self.service.in_channel(interaction.channel_id or 0)
        old = table.message_id
        await self.post_table(interaction, table)
        self.bot.publisher.tables.refresh(table)  # the answer carried no image: a paced edit
        if old is not None and old != table.message_id:
            channel = self.bot.get_partial_messageable(table.channel_id)
            try:
                await channel.get_partial_message(old).delete()
            except discord.HTTPException as exc:  # gone already, or no permission
                log.info("could not delete the old table message %s: %s", old, exc)

    async def _say(self, interaction: discord.Interaction[Any], key: str,
                   params: dict[str, Any]) -> None:
        await send(interaction, MessageParts(content=say(key, locale_of(interaction), params)))

    # ---- buttons of the table message -------------------------------------------------------
    async def _join_button(self, interaction: discord.Interaction[Any], p: ComponentPress) -> None:
        out = await self.service.join(p.table_id, actor_of(interaction))
        await self._update_table_message(interaction, out.table)

    async def _ai_button(self, interaction: discord.Interaction[Any], p: ComponentPress) -> None:
        out = await self.service.add_ai(p.table_id, actor_of(interaction))
        await self._update_table_message(interaction, out.table)

    async def _start_button(self, interaction: discord.Interaction[Any], p: ComponentPress) -> None:
        out = await within(interaction, self.service.start(p.table_id, actor_of(interaction)),
                           update=True)
        await self._update_table_message(interaction, out.table)

    async def _rematch_button(self, interaction: discord.Interaction[Any],
                              p: ComponentPress) -> None:
        out = await within(interaction, self.service.rematch(p.table_id, actor_of(interaction)),
                           update=True)
        await self._update_table_message(interaction, out.table)

    async def _leave_button(self, interaction: discord.Interaction[Any], p: ComponentPress) -> None:
        table = self.service.get(p.table_id, actor_of(interaction))
        if table.status is TableStatus.PLAYING:  # ask first, in a message of his own
            loc = locale_of(interaction)
            await send(interaction, MessageParts(content=t("ok.leave_confirm", loc),
                                                 view=confirm_view(table, "leave", loc)))
            return
        out = await self.service.leave(p.table_id, actor_of(interaction))
        await self._update_table_message(interaction, out.table)

    async def _leave_yes(self, interaction: discord.Interaction[Any], p: ComponentPress) -> None:
        out = await self.service.leave(p.table_id, actor_of(interaction))
        await interaction.response.edit_message(
            content=say(out.key, locale_of(interaction), out.params), view=None)

    async def _leave_no(self, interaction: discord.Interaction[Any], p: ComponentPress) -> None:
        await interaction.response.edit_message(
            content=t("ok.leave_cancelled", locale_of(interaction)), view=None)

    async def _end_no(self, interaction: discord.Interaction[Any], p: ComponentPress) -> None:
        self.service.may_end(p.table_id, actor_of(interaction))  # only who may end it
        await interaction.response.edit_message(
            content=t("ok.end_cancelled", locale_of(interaction)), view=None)

    async def _rules_page(self, interaction: discord.Interaction[Any], p: ComponentPress) -> None:
        """The rules message's button: the other page, in place."""
        table = self.service.get(p.table_id, actor_of(interaction))
        await send(interaction, rules_page(self.service, table, locale_of(interaction),
                                          full=p.verb == "rulesall"), update=True)

    async def _end_yes(self, interaction: discord.Interaction[Any], p: ComponentPress) -> None:
        await self.service.end(p.table_id, actor_of(interaction))
        await interaction.response.edit_message(content=t("ok.ended", locale_of(interaction)),
                                                view=None)


def rules_page(service: TableService, table: Table, loc: str | None, *,
               full: bool = False) -> MessageParts:
    """/table rules: the summary (what differs from the preset) or every option, and the
    button to the other page."""
    summary = service.rules_summary(table)
    title = table.title_word().localize(language(loc))  # the preset as the reader names it
    summary = dataclasses.replace(summary, title=title)
    embed = all_options_embed(summary, loc) if full else rules_embed(summary, loc)
    view = Rows()
    view.button(table.id, "rules" if full else "rulesall",
                label=t("button.rules_summary" if full else "button.rules_all", loc))
    return MessageParts(embed=embed, view=view)


def rules_embed(summary: RulesSummary, loc: str | None) -> discord.Embed:
    """The rules in five sentences, then each changed option as a sentence under the heading
    of its phase."""
    lang = language(loc)
    parts = ["\n".join(line.localize(lang) for line in summary.digest)]
    if not summary.by_phase:
        parts.append(t("rules.unchanged", loc))
    shown = 0
    for phase, rows in summary.by_phase:
        lines = [f"**{t(f'rules.phase.{phase}', loc)}**"]
        lines += [t("rules.line", loc, sentence=why or name, value=value, name=name)
                  for name, value, why in rows]
        block = "\n".join(lines)
        # room for the note on what did not fit
        if len("\n\n".join([*parts, block])) > 3900:
            rest = sum(len(r) for _, r in summary.by_phase) - shown
            parts.append(t("rules.more", loc, count=rest))
            break
        parts.append(block)
        shown += len(rows)
    return discord.Embed(title=t("rules.title", loc, title=summary.title)[:256],
                         description="\n\n".join(parts)[:4096],
                         colour=discord.Colour.dark_green())


def all_options_embed(summary: RulesSummary, loc: str | None) -> discord.Embed:
    """Every option as ``name = value`` (``*``: changed), a field per phase."""
    changed = {name for name, _ in summary.changed}
    embed = discord.Embed(title=t("rules.all_title", loc, title=summary.title)[:256],
                          description=t("rules.all_legend", loc),
                          colour=discord.Colour.dark_green())
    for phase, rows in summary.options_by_phase:
        heading = t(f"rules.phase.{phase}", loc)[:256]
        chunk: list[str] = []
        for name, value in rows:
            line = f"{'*' if name in changed else ' '}{name} = {value}"[:1000]
            # a field holds 1024 characters, code fence included: a long phase takes two
            if len("\n".join([*chunk, line])) > 1000:
                embed.add_field(name=heading, value=_code(chunk), inline=False)
                chunk = []
            chunk.append(line)
        if chunk:
            embed.add_field(name=heading, value=_code(chunk), inline=False)
    return embed


def _code(lines: list[str]) -> str:
    return "```\n" + "\n".join(lines) + "\n```"


async def setup(bot: TysiacBot) -> None:
    await bot.add_cog(Lobby(bot))
