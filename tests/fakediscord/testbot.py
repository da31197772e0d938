"""A tiny discord.py bot that exercises every feature of the emulator.

Run against a running emulator as its own process::

    DISCORD_API_BASE=http://127.0.0.1:8765/api/v10 \\
    DISCORD_GATEWAY_URL=ws://127.0.0.1:8765/gateway \\
    DISCORD_TOKEN=fake-bot-token python -m tests.fakediscord.testbot

Some commands break Discord's rules on purpose (``/slow``, ``/double``,
``/peek``, ``/toolong``, ``/spam``...) so the self-tests can show that the
emulator reports each breach.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os

import discord
from discord import app_commands
from discord.ext import commands

from .client_setup import point_from_env

TRANSLATIONS = {("ping", "pl"): "pingnij", ("Answers pong", "pl"): "Odpowiada pong",
                ("ping", "ru"): "пинг", ("Answers pong", "ru"): "Отвечает понг"}


class Translator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        return TRANSLATIONS.get((string.message, locale.value.split("-")[0]))


class BoardView(discord.ui.View):
    """A persistent view: clicks route to any bot process, even after a restart."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="+1", custom_id="board:inc", style=discord.ButtonStyle.primary)
    async def inc(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(f"counted by pid {os.getpid()}", ephemeral=True)


class TableView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=600)

    @discord.ui.button(label="Join", custom_id="table:join")
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(
            content=f"{interaction.user.display_name} joined", view=self)

    @discord.ui.button(label="Rules", custom_id="table:rules")
    async def rules(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await asyncio.sleep(0.1)
        await interaction.followup.send("the rules are long", ephemeral=True)

    @discord.ui.button(label="Later", custom_id="table:later")
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()  # type 6: the message itself changes later
        await interaction.edit_original_response(content="updated later")
        note = await interaction.followup.send("a note", ephemeral=True, wait=True)
        await note.edit(content="a note, edited")
        gone = await interaction.followup.send("gone soon", wait=True)
        await gone.delete()

    @discord.ui.button(label="Rename", custom_id="table:rename")
    async def rename(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(NameModal())

    @discord.ui.select(custom_id="table:mode", options=[
        discord.SelectOption(label="Classic", value="classic"),
        discord.SelectOption(label="Quick", value="quick")])
    async def mode(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"mode {select.values[0]}")


class NameModal(discord.ui.Modal, title="Your name"):
    name = discord.ui.TextInput(label="Name", custom_id="name", max_length=20)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Hello {self.name.value}")


def build_bot(guild_ids: list[int] | None = None) -> commands.Bot:
    """The self-test bot; commands are synced globally and, if given, per guild."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    bot.remembered: discord.Interaction | None = None  # type: ignore[attr-defined]
    bot.secret_message: discord.Message | None = None  # type: ignore[attr-defined]
    tree = bot.tree
    table = app_commands.Group(name="table", description="Card tables")
    admin = app_commands.Group(name="admin", description="Administration")
    config = app_commands.Group(name="config", description="Settings", parent=admin)

    @tree.command(name=app_commands.locale_str("ping"),
                  description=app_commands.locale_str("Answers pong"))
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    @table.command(name="new", description="Open a table")
    @app_commands.choices(preset=[app_commands.Choice(name="Russian", value="russian"),
                                  app_commands.Choice(name="Polish", value="polish")])
    async def table_new(interaction: discord.Interaction, preset: app_commands.Choice[str],
                        players: app_commands.Range[int, 2, 4] = 3) -> None:
        await interaction.response.send_message(
            f"table {preset.value} for {players}", view=TableView())

    @config.command(name="set", description="Set a value")
    async def config_set(interaction: discord.Interaction, key: str, value: str) -> None:
        perms = interaction.permissions
        if not perms.manage_channels:
            await interaction.response.send_message("no permission", ephemeral=True)
            return
        await interaction.response.send_message(f"{key}={value}", ephemeral=True)

    @tree.command(description="Bid in the auction")
    async def bid(interaction: discord.Interaction, amount: int) -> None:
        await interaction.response.send_message(f"bid {amount}")

    @bid.autocomplete("amount")
    async def bid_complete(interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=str(v), value=v) for v in range(100, 400, 10)
                if str(v).startswith(current)][:25]

    @tree.command(description="Who am I")
    async def whoami(interaction: discord.Interaction) -> None:
        user = interaction.user
        await interaction.response.send_message(
            f"{user.display_name} {interaction.locale.value} "
            f"manage={interaction.permissions.manage_channels} "
            f"app_manage={interaction.app_permissions.manage_channels}")

    @tree.command(description="A secret")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you", ephemeral=True)
        bot.secret_message = await interaction.original_response()

    @tree.command(description="Edit somebody else's secret (breach)")
    async def peek(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        try:
            await interaction.followup.edit_message(bot.secret_message.id, content="peeked")
        except discord.NotFound:
            await interaction.followup.send("not found", ephemeral=True)

    @tree.command(description="Think, then answer")
    async def think(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.1)
        await interaction.edit_original_response(content="thought")
        await interaction.followup.send("and one more thing")

    @tree.command(description="Answer after a delay (breach when late)")
    async def slow(interaction: discord.Interaction, seconds: float) -> None:
        await asyncio.sleep(seconds)
        await interaction.response.send_message("finally")

    @tree.command(description="Answer twice (breach)")
    async def double(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("once")
        # discord.py itself refuses a second response; a second handler (or a
        # second bot process) answering the same interaction looks like this:
        hooks = discord.webhook.async_
        with contextlib.suppress(discord.HTTPException):
            await hooks.async_context.get().create_interaction_response(
                interaction.id, interaction.token, session=interaction._session,
                params=hooks.interaction_response_params(4, {"content": "twice"}))

    @tree.command(description="Remember this interaction")
    async def remember(interaction: discord.Interaction) -> None:
        bot.remembered = interaction
        await interaction.response.send_message("remembered")

    @tree.command(description="Edit the remembered interaction's answer")
    async def recall(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("recalling")
        with contextlib.suppress(discord.HTTPException):
            await bot.remembered.edit_original_response(content="edited")

    @tree.command(description="Too long a message (breach)")
    async def toolong(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("x" * 2001)
        except discord.HTTPException:
            await interaction.response.send_message("refused")

    @tree.command(description="Send and edit messages without pacing (breach)")
    async def spam(interaction: discord.Interaction, count: int) -> None:
        await interaction.response.send_message("spamming", ephemeral=True)
        for i in range(count):
            msg = await interaction.channel.send(f"spam {i}")
            await msg.edit(content=f"spam {i} edited")

    @tree.command(description="Upload a file")
    async def upload(interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Score", description="a file follows")
        await interaction.response.send_message(
            "file", embed=embed, file=discord.File(io.BytesIO(b"hello"), "a.txt"))
        msg = await interaction.original_response()
        await msg.edit(attachments=[discord.File(io.BytesIO(b"world"), "b.txt")])

    @tree.command(description="Post a board with a persistent button")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("board", view=BoardView())

    @tree.command(description="Open a modal")
    async def form(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @tree.command(description="Open a thread and post there")
    async def thread(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message("opening", ephemeral=True)
        th = await interaction.channel.create_thread(
            name=name, type=discord.ChannelType.public_thread)
        await th.send(f"welcome to {th.name}")

    tree.add_command(table)
    tree.add_command(admin)

    async def setup_hook() -> None:
        bot.add_view(BoardView())
        await tree.set_translator(Translator())
        await tree.sync()
        for gid in guild_ids or []:
            guild = discord.Object(gid)

            @app_commands.command(name="local", description="A guild command")
            async def local(interaction: discord.Interaction) -> None:
                await interaction.response.send_message("local")

            tree.add_command(local, guild=guild)
            await tree.sync(guild=guild)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


def main() -> None:
    point_from_env()
    guilds = [int(g) for g in os.environ.get("TESTBOT_GUILDS", "").split(",") if g]
    build_bot(guilds).run(os.environ.get("DISCORD_TOKEN", "fake-bot-token"), log_handler=None)


if __name__ == "__main__":
    main()
