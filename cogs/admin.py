"""/admin …: a server's defaults and its record (Manage Server; checked by the bot too)."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.tables import (
    GuildSettings,
    TableError,
    TableService,
    preset_of_language,
    presets,
    timezones,
)
from bot.web import page_url
from cogs._bot import TysiacBot
from cogs._ids import ADMIN_TEMPLATE, admin_id
from cogs._interaction import actor_of, guild_locale_of, locale_of
from cogs._tree import ls, preset_choices, report_error

PRESET_CHOICES = preset_choices(presets())
ON_OFF = [app_commands.Choice(name=ls("choice.on"), value="on"),
          app_commands.Choice(name=ls("choice.off"), value="off")]


class AdminButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ADMIN_TEMPLATE):
    """Reset the leaderboard (confirmed) or keep it."""

    def __init__(self, verb: str, guild_id: int, *, label: str = "?",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=admin_id(verb, guild_id)))
        self.verb, self.guild_id = verb, guild_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> AdminButton:
        return cls(match["verb"], int(match["guild"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Admin")
        try:
            if not isinstance(cog, Admin) or interaction.guild_id != self.guild_id:
                raise TableError("error.inactive_button")
            await cog.confirm(interaction, self.verb)
        except Exception as exc:
            await report_error(interaction, exc)


def settings_text(s: GuildSettings, loc: str | None, guild_locale: str | None) -> str:
    """The server's settings; a preset it has not chosen is its language's."""
    titles = dict(presets())
    if s.default_preset:
        title = titles.get(s.default_preset, s.default_preset)
    else:
        by_language = preset_of_language(guild_locale)
        title = t("admin.preset_by_language", loc, preset=titles.get(by_language, by_language))
    return t("admin.settings", loc, preset=title, timer=s.turn_timer or "—",
             language=s.language or t("admin.language_server", loc),
             ai=t("admin.yes" if s.ai_rated else "admin.no", loc))


class Admin(commands.Cog):
    admin = app_commands.Group(name="admin", description=ls("cmd.admin"), guild_only=True,
                               default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: TysiacBot) -> None:
        self.bot = bot

    @property
    def service(self) -> TableService:
        return self.bot.service

    async def _say(self, interaction: discord.Interaction[Any], text: str,
                   view: discord.ui.View | None = None) -> None:
        if view is None:
            await interaction.response.send_message(text[:2000], ephemeral=True)
        else:
            await interaction.response.send_message(text[:2000], ephemeral=True, view=view)

    @admin.command(name="defaults", description=ls("cmd.admin.defaults"))
    @app_commands.describe(preset=ls("cmd.admin.defaults.preset"),
                           timer=ls("cmd.admin.defaults.timer"),
                           language=ls("cmd.admin.defaults.language"))
    @app_commands.choices(preset=PRESET_CHOICES)
    async def defaults(self, interaction: discord.Interaction[Any],
                       preset: app_commands.Choice[str] | None = None,
                       timer: app_commands.Range[int, 0, 3600] | None = None,
                       language: str | None = None) -> None:
        got = await self.service.records.set_defaults(
            actor_of(interaction), preset=preset.value if preset else None, timer=timer,
            language=language)
        await self._say(interaction, settings_text(got, locale_of(interaction),
                                                   guild_locale_of(interaction)))

    @admin.command(name="ai_rated", description=ls("cmd.admin.ai_rated"))
    @app_commands.describe(count=ls("cmd.admin.ai_rated.count"))
    async def ai_rated(self, interaction: discord.Interaction[Any], count: bool) -> None:
        got = await self.service.records.set_defaults(actor_of(interaction), ai_rated=count)
        await self._say(interaction, settings_text(got, locale_of(interaction),
                                                   guild_locale_of(interaction)))

    @admin.command(name="web", description=ls("cmd.admin.web"))
    @app_commands.describe(state=ls("cmd.admin.web.state"))
    @app_commands.choices(state=ON_OFF)
    async def web(self, interaction: discord.Interaction[Any],
                  state: app_commands.Choice[str]) -> None:
        got = await self.service.records.set_defaults(actor_of(interaction),
                                                      web=state.value == "on")
        await self._say(interaction, self._web_text(got, locale_of(interaction)))

    def _web_text(self, s: GuildSettings, loc: str | None) -> str:
        base = self.bot.settings.web_base_url
        if not s.web:
            return t("admin.web_off", loc)
        if base:
            return t("admin.web_on", loc, url=page_url(base, s.guild_id))
        return t("admin.web_on_no_url", loc)

    @admin.command(name="reset", description=ls("cmd.admin.reset"))
    async def reset(self, interaction: discord.Interaction[Any]) -> None:
        actor = actor_of(interaction)
        if not actor.can_manage_guild:
            raise TableError("error.not_admin")
        loc = locale_of(interaction)
        view = discord.ui.View(timeout=None)
        gid = interaction.guild_id or 0
        view.add_item(AdminButton("reset", gid, label=t("button.reset_yes", loc),
                                  style=discord.ButtonStyle.danger))
        view.add_item(AdminButton("keep", gid, label=t("button.reset_no", loc)))
        await self._say(interaction, t("admin.reset_confirm", loc), view)

    async def confirm(self, interaction: discord.Interaction[Any], verb: str) -> None:
        loc = locale_of(interaction)
        actor = actor_of(interaction)
        if verb == "reset":
            count = await self.service.records.reset(actor)
            text = t("admin.reset_done", loc, count=count)
        else:
            if not actor.can_manage_guild:
                raise TableError("error.not_admin")
            text = t("admin.reset_kept", loc)
        await interaction.response.edit_message(content=text, view=None)

    @admin.command(name="remove", description=ls("cmd.admin.remove"))
    @app_commands.describe(match=ls("cmd.admin.remove.match"))
    async def remove(self, interaction: discord.Interaction[Any],
                     match: app_commands.Range[int, 1]) -> None:
        info = await self.service.records.remove_match(actor_of(interaction), match)
        await self._say(interaction, t("admin.removed", locale_of(interaction),
                                       id=info.match_id))

    @admin.command(name="daily", description=ls("cmd.admin.daily"))
    @app_commands.describe(preset=ls("cmd.admin.daily.preset"),
                           channel=ls("cmd.admin.daily.channel"),
                           summary=ls("cmd.admin.daily.summary"))
    @app_commands.choices(preset=PRESET_CHOICES, summary=ON_OFF)
    async def daily(self, interaction: discord.Interaction[Any],
                    preset: app_commands.Choice[str] | None = None,
                    channel: discord.TextChannel | None = None,
                    summary: app_commands.Choice[str] | None = None) -> None:
        channel_id = (0 if summary is not None and summary.value == "off" else
                      channel.id if channel is not None else None)
        got = await self.service.daily.set_settings(
            interaction.guild_id, actor_of(interaction).can_manage_guild,
            preset=preset.value if preset else None, channel_id=channel_id)
        loc = locale_of(interaction)
        chosen = got.preset or await self.service.daily.preset_of(interaction.guild_id)
        where = f"<#{got.channel_id}>" if got.channel_id else t("admin.daily_no_summary", loc)
        await self._say(interaction, t("admin.daily", loc,
                                       preset=dict(presets()).get(chosen, chosen),
                                       channel=where))

    @admin.command(name="tournaments", description=ls("cmd.admin.tournaments"))
    @app_commands.describe(role=ls("cmd.admin.tournaments.role"),
                           rated=ls("cmd.admin.tournaments.rated"),
                           timezone=ls("cmd.admin.tournaments.timezone"))
    async def tournaments(self, interaction: discord.Interaction[Any],
                          role: discord.Role | None = None, rated: bool | None = None,
                          timezone: str | None = None) -> None:
        if role is None and rated is None and timezone is None:
            raise TableError("admin.tournaments_nothing")
        got = await self.bot.tournaments.set_settings(
            actor_of(interaction), role_id=role.id if role is not None else None, rated=rated,
            timezone=timezone)
        loc = locale_of(interaction)
        lines = [] if role is None else [t("admin.tournaments_role", loc, role=role.mention)]
        if rated is not None:
            lines.append(t("admin.tournaments_rated", loc,
                           rated=t("admin.yes" if rated else "admin.no", loc)))
        if timezone is not None:
            lines.append(t("admin.tournaments_timezone", loc, zone=got.timezone or "UTC"))
        await self._say(interaction, "\n".join(lines))

    @tournaments.autocomplete("timezone")
    async def timezone_names(self, interaction: discord.Interaction[Any],
                             current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in timezones(current)]

    @admin.command(name="show", description=ls("cmd.admin.show"))
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        actor = actor_of(interaction)
        if not actor.can_manage_guild:
            raise TableError("error.not_admin")
        got = await self.service.records.settings(interaction.guild_id or 0)
        loc = locale_of(interaction)
        text = settings_text(got, loc, guild_locale_of(interaction))
        await self._say(interaction, f"{text}\n{self._web_text(got, loc)}")


async def setup(bot: TysiacBot) -> None:
    bot.add_dynamic_items(AdminButton)
    await bot.add_cog(Admin(bot))
