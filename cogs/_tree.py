"""The command tree: the commands' words in every language, slash commands of before a
change recognised, and the one place errors of commands and components end up."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable
from typing import Any

import discord
from discord import AppCommandOptionType, app_commands
from discord.ext import commands

from bot.i18n import has, t, translation
from bot.tables import TableError
from cogs._interaction import locale_of
from cogs._plain import plain, say

log = logging.getLogger("tysiac")


def ls(key: str) -> app_commands.locale_str:
    """A command description or choice by catalog key (English now, translated at sync)."""
    return app_commands.locale_str(t(key), key=key)


def preset_choices(presets: Iterable[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """The presets as command choices, named in every language (``choice.preset.<name>``;
    a preset without a catalog entry keeps its title)."""
    return [app_commands.Choice(name=ls(f"choice.preset.{name}") if has(f"choice.preset.{name}")
                                else title[:100], value=name)
            for name, title in presets][:25]


class CatalogTranslator(app_commands.Translator):
    """Command descriptions and choices in every language ``bot.i18n`` has."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        return translation(key, locale.value) if key else None


class StaleCommand(app_commands.AppCommandError):
    """A slash command whose payload does not match the command as it is now (a client with
    the commands of before a change): what did not match."""


_OPTION_TYPES: dict[AppCommandOptionType, type | tuple[type, ...]] = {
    AppCommandOptionType.string: str, AppCommandOptionType.integer: int,
    AppCommandOptionType.number: (int, float), AppCommandOptionType.boolean: bool,
    AppCommandOptionType.user: str, AppCommandOptionType.channel: str,
    AppCommandOptionType.role: str, AppCommandOptionType.mentionable: str,
    AppCommandOptionType.attachment: str,
}
_NUMERIC = (AppCommandOptionType.integer, AppCommandOptionType.number)


def _of_type(value: Any, kind: AppCommandOptionType) -> bool:
    """``value`` is what Discord sends for an option of type ``kind`` (a bool is no number)."""
    if isinstance(value, bool):
        return kind is AppCommandOptionType.boolean
    return isinstance(value, _OPTION_TYPES.get(kind, object))


def stale_options(interaction: discord.Interaction[Any]) -> str | None:
    """What in a slash command's options does not fit the command (an unknown option, a
    value of another type or outside its range or choices, a missing one), or None."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None  # unknown (sub)commands: discord.py raises CommandNotFound
    data: dict[str, Any] = dict(interaction.data or {})
    options: list[dict[str, Any]] = list(data.get("options") or [])
    while options and options[0].get("type") in (1, 2):  # subcommand (group)
        options = list(options[0].get("options") or [])
    params = {p.display_name: p for p in command.parameters}
    for opt in options:
        param = params.get(str(opt.get("name")))
        if param is None:
            return f"unknown option {str(opt.get('name'))[:40]!r}"
        value: Any = opt.get("value")
        if opt.get("type") != param.type.value or not _of_type(value, param.type):
            return f"option {param.display_name!r} is not a {param.type.name}"
        if param.type in _NUMERIC and not (
                (param.min_value is None or value >= param.min_value)
                and (param.max_value is None or value <= param.max_value)):
            return f"option {param.display_name!r} is out of its range"
        if param.choices and value not in [c.value for c in param.choices]:
            return f"option {param.display_name!r} is not one of its choices"
    given = {str(o.get("name")) for o in options}
    missing = [p.display_name for p in command.parameters if p.required and p.display_name
               not in given]
    return f"option {missing[0]!r} is missing" if missing else None


async def report_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Refusals become polite ephemeral answers; anything else is logged with an id."""
    original: BaseException = error
    while isinstance(original, app_commands.AppCommandError | commands.CommandError):
        inner = getattr(original, "original", None)
        if not isinstance(inner, BaseException):
            break
        original = inner
    loc = locale_of(interaction)
    if isinstance(original, TableError):
        text = say(original.key, loc, original.params)
    elif isinstance(original, StaleCommand | app_commands.CommandSignatureMismatch
                    | app_commands.CommandNotFound):
        # not a fault: Discord sends the new commands to the client in a while
        log.warning("a command of before a change in %s: %s", _describe(interaction),
                    str(original)[:120] or type(original).__name__)
        text = t("error.stale_command", loc)
    elif isinstance(original, app_commands.CheckFailure | app_commands.TransformerError):
        text = plain(str(original))
    else:
        ref = secrets.token_hex(4)
        log.error("unexpected error %s in %s", ref, _describe(interaction),
                  exc_info=(type(original), original, original.__traceback__))
        text = t("error.unexpected", loc, id=ref)
    text = text[:2000]  # a reply Discord refuses would leave the user with nothing
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell the user about an error in %s", _describe(interaction))


def _describe(interaction: discord.Interaction[Any]) -> str:
    data: dict[str, Any] = dict(interaction.data or {})
    what = str(data.get("name") or data.get("custom_id") or "?")[:80]
    return f"interaction {interaction.id} ({what}) by {interaction.user.id}"


class TysiacTree(app_commands.CommandTree[Any]):
    """The one place errors of slash commands end up."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """A slash command's options must fit the command as it is now, before anything
        reads them (a stale client sends them as they were)."""
        if interaction.type is discord.InteractionType.application_command:
            stale = stale_options(interaction)
            if stale is not None:
                raise StaleCommand(stale)
        return True

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)

