"""/tournament new|edit|cancel|show and the sign-up buttons: tournaments with duplicate deals.

The service (``bot.tables.Tournaments``) decides everything (who may organise, what is a
valid setting, seating, scoring); this cog reads the interaction, calls one method and
answers. What the service shows on its own (the sign-up message, the tables' threads, the
results) goes through ``DiscordPort``. Start times are read in UTC: the project has no
per-server time zone; the sign-up message shows the start as a Discord timestamp, which
every reader sees in their own time zone.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.tables import Actor, EventView, TableError, Tournaments, presets, quote
from cogs._bot import TysiacBot
from cogs._images import image_file
from cogs._interaction import actor_of, locale_of
from cogs._plain import plain
from cogs._tournament_port import STANDINGS_FILE, DiscordPort
from cogs._tournament_posts import (
    TournamentButton,
    chunks,
    settings_lines,
    standings_image,
    standings_text,
    status_word,
)
from cogs._tree import ls
from render.standings import render_standings

log = logging.getLogger(__name__)
SCHEDULER_EVERY = 5.0  # seconds between the scheduler's passes (check-in, start, deadlines)
_EDITABLE = ("name", "preset", "boards", "rounds", "start", "checkin_minutes", "round_minutes")


def organiser_of(interaction: discord.Interaction[Any]) -> Actor:
    """The actor with the member's roles: the service decides who may organise."""
    roles = getattr(interaction.user, "roles", ())
    return dataclasses.replace(actor_of(interaction),
                               role_ids=frozenset(r.id for r in roles))


class Tournament(commands.Cog):
    tournament = app_commands.Group(name="tournament", description=ls("cmd.tournament"),
                                    guild_only=True)

    def __init__(self, bot: TysiacBot) -> None:
        self.bot = bot
        self.port = DiscordPort(bot)
        self._scheduler: asyncio.Task[None] | None = None

    @property
    def service(self) -> Tournaments:
        return self.bot.tournaments

    async def cog_load(self) -> None:
        self.service.attach(self.port)
        self._scheduler = asyncio.create_task(self._schedule())

    async def cog_unload(self) -> None:
        if self._scheduler is not None:
            self._scheduler.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._scheduler

    async def _schedule(self) -> None:
        await self.bot.wait_until_ready()  # the threads and posts need the gateway
        self.port.post_missing()
        await self.service.run_scheduler(SCHEDULER_EVERY)

    async def _event(self, guild_id: int | None, name: str | None) -> EventView:
        """The event named (the server's latest without a name), or a polite refusal."""
        got = await self.service.find(guild_id or 0, name)
        if got is None:
            if name:
                raise TableError("tournament.unknown", name=plain(quote(name)))
            raise TableError("tournament.none")
        return got

    async def _say(self, interaction: discord.Interaction[Any], text: str, **kw: Any) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text[:2000], ephemeral=True, **kw)
        else:
            await interaction.response.send_message(text[:2000], ephemeral=True, **kw)

    # ---- the organiser's commands --------------------------------------------------------
    @tournament.command(name="new", description=ls("cmd.tournament.new"))
    @app_commands.describe(name=ls("cmd.tournament.new.name"),
                           preset=ls("cmd.tournament.new.preset"),
                           boards=ls("cmd.tournament.new.boards"),
                           rounds=ls("cmd.tournament.new.rounds"),
                           start=ls("cmd.tournament.new.start"),
                           checkin=ls("cmd.tournament.new.checkin"),
                           deadline=ls("cmd.tournament.new.deadline"))
    async def new(self, interaction: discord.Interaction[Any], name: str, preset: str,
                  boards: int, rounds: int, start: str = "now", checkin: int | None = None,
                  deadline: int | None = None) -> None:
        timing: dict[str, Any] = {k: v for k, v in (("checkin_minutes", checkin),
                                                    ("round_minutes", deadline)) if v is not None}
        event = await self.service.create(organiser_of(interaction), name=name, preset=preset,
                                          boards=boards, rounds=rounds, start=start, **timing)
        await self._say(interaction, t("tournament.created", locale_of(interaction),
                                       name=plain(event.name)))
        await self.port.entrants_changed(event)  # posts the sign-up message

    @new.autocomplete("preset")
    async def preset_names(self, interaction: discord.Interaction[Any],
                           current: str) -> list[app_commands.Choice[str]]:
        typed = current.casefold()[:100]
        return [app_commands.Choice(name=title[:100], value=name)
                for name, title in presets()
                if typed in name.casefold() or typed in title.casefold()][:25]

    @tournament.command(name="edit", description=ls("cmd.tournament.edit"))
    @app_commands.describe(event=ls("cmd.tournament.edit.event"),
                           name=ls("cmd.tournament.edit.name"),
                           preset=ls("cmd.tournament.new.preset"),
                           boards=ls("cmd.tournament.new.boards"),
                           rounds=ls("cmd.tournament.new.rounds"),
                           start=ls("cmd.tournament.new.start"),
                           checkin=ls("cmd.tournament.new.checkin"),
                           deadline=ls("cmd.tournament.new.deadline"))
    async def edit(self, interaction: discord.Interaction[Any], event: str,
                   name: str | None = None, preset: str | None = None,
                   boards: int | None = None, rounds: int | None = None,
                   start: str | None = None, checkin: int | None = None,
                   deadline: int | None = None) -> None:
        given = dict(zip(_EDITABLE, (name, preset, boards, rounds, start, checkin, deadline),
                         strict=True))
        changes = {k: v for k, v in given.items() if v is not None}
        if not changes:
            raise TableError("tournament.no_changes")
        found = await self._event(interaction.guild_id, event)
        got = await self.service.edit(found.id, organiser_of(interaction), **changes)
        await self._say(interaction, t("tournament.edited", locale_of(interaction),
                                       name=plain(got.name)))

    @tournament.command(name="cancel", description=ls("cmd.tournament.cancel"))
    @app_commands.describe(event=ls("cmd.tournament.cancel.event"))
    async def cancel(self, interaction: discord.Interaction[Any], event: str) -> None:
        found = await self._event(interaction.guild_id, event)
        got = await self.service.cancel(found.id, organiser_of(interaction))
        await self._say(interaction, t("tournament.cancelled", locale_of(interaction),
                                       name=plain(got.name)))

    @tournament.command(name="show", description=ls("cmd.tournament.show"))
    @app_commands.describe(event=ls("cmd.tournament.show.event"))
    async def show(self, interaction: discord.Interaction[Any], event: str | None = None) -> None:
        """The settings, where the event is, and the standings after its last round."""
        found = await self._event(interaction.guild_id, event)
        loc = locale_of(interaction)
        lines = [t("tournament.show.title", loc, name=plain(found.name),
                   status=status_word(found, loc)), *settings_lines(found, loc)[1:]]
        report = await self.service.report(found.id)
        if report is None:
            lines.append(t("tournament.show.no_round", loc))
            await self._say(interaction, "\n".join(lines))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        png = await self.bot.publisher.images.any_png(standings_image(report, loc),
                                                      render_standings)
        parts = chunks([*lines, *standings_text(report, loc),
                        *await self.port.web_link(found, loc)])
        for i, part in enumerate(parts):
            kw: dict[str, Any] = {}
            if i == len(parts) - 1 and png is not None:
                kw["file"] = image_file(png, STANDINGS_FILE, "the standings")
            await self._say(interaction, part, **kw)

    @edit.autocomplete("event")
    @cancel.autocomplete("event")
    @show.autocomplete("event")
    async def event_names(self, interaction: discord.Interaction[Any],
                          current: str) -> list[app_commands.Choice[str]]:
        names = await self.service.names(interaction.guild_id or 0, current[:100])
        return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names[:25]]

    # ---- the sign-up buttons -------------------------------------------------------------
    async def press(self, interaction: discord.Interaction[Any], event_id: int,
                    verb: str) -> None:
        """Join, Leave or Check in; the service refreshes the sign-up message."""
        actor = organiser_of(interaction)
        act = {"join": self.service.join, "leave": self.service.leave,
               "checkin": self.service.check_in}[verb]
        # Acknowledged first: a burst of presses (everyone checking in at once) queues on
        # the event, and each is answered when its turn came.
        await interaction.response.defer(ephemeral=True, thinking=True)
        event = await act(event_id, actor)
        key = {"join": "tournament.joined", "leave": "tournament.left",
               "checkin": "tournament.checked_in"}[verb]
        await self._say(interaction, t(key, locale_of(interaction), name=plain(event.name)))


async def setup(bot: TysiacBot) -> None:
    bot.add_dynamic_items(TournamentButton)
    await bot.add_cog(Tournament(bot))
