"""Moves: /bid /pass /hand /play /give /contract /rospisat /redeal and the hand's components.

Slash commands and components go through the same ``_move``, which calls the service once
and answers with a fresh ephemeral hand (a component click on a hand edits it in place).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.game.actions import Action, Flag, Verb
from bot.game.cards import card_pretty, card_str, parse_card
from bot.i18n import t
from bot.tables import Table, TableError
from cogs._bot import TysiacBot, actor_of, locale_of, ls, send, within
from cogs._views import hand_message

DECLARE_CHOICES = [
    app_commands.Choice(name=ls("choice.declare.marriage"), value="marriage"),
    app_commands.Choice(name=ls("choice.declare.aces"), value="aces"),
]
_VERBS = {"pass": Verb.PASS, "redeal": Verb.REDEAL, "rospisat": Verb.ROSPISAT,
          "spisat": Verb.SPISAT, "concede": Verb.CONCEDE}


def _card(text: str) -> int:
    try:
        return parse_card(text)
    except ValueError as exc:
        raise TableError("error.bad_card", message=str(exc)) from None


def _from_hand(interaction: discord.Interaction[Any]) -> bool:
    msg = interaction.message
    return msg is not None and msg.flags.ephemeral


class Play(commands.Cog):
    def __init__(self, bot: TysiacBot) -> None:
        self.bot = bot

    @property
    def service(self):  # type: ignore[no-untyped-def]
        return self.bot.service

    async def cog_load(self) -> None:
        on = self.bot.on_component
        on("hand", "refresh")(self._hand_button)
        on("back")(self._back_button)
        on("look")(self._look_button)
        on("play", "playm", "playa")(self._play_button)
        on(*_VERBS)(self._verb_button)
        on("talon")(self._talon_button)
        on("choose")(self._choose)

    # ---- the one path of every move ------------------------------------------------------
    async def _move(self, interaction: discord.Interaction[Any], table_id: int, verb: Verb, *,
                    card: int = -1, amount: int = 0, target: int = -1,
                    flag: Flag = Flag.NONE, update: bool = False) -> None:
        actor = actor_of(interaction)
        loc = locale_of(interaction)
        self.bot.publisher.forget_hand(table_id, actor.user_id)
        try:
            out = await within(interaction, self.service.act(
                table_id, actor, verb, card=card, amount=amount, target=target, flag=flag),
                update=update)
            notice = t("ok.moved", loc, move=out.params["move"])
        except TableError as err:
            if not update:
                raise
            notice = "⚠️ " + t(err.key, loc, **err.params)  # an old hand still answers
        await self._show_hand(interaction, self.service.get(table_id), notice, update=update)

    async def _show_hand(self, interaction: discord.Interaction[Any], table: Table,
                         notice: str | None = None, *, update: bool = False) -> None:
        seat = table.seat_of(interaction.user.id)
        parts = hand_message(table, seat, locale_of(interaction), notice)
        publisher = self.bot.publisher
        ref = publisher.remember_hand(interaction, table, seat) if seat is not None else None
        try:
            await send(interaction, parts, update=update)
        except BaseException:
            if ref is not None:
                publisher.forget_hand(table.id, interaction.user.id)
            raise
        if ref is not None:
            publisher.answered(ref, table)

    def _table(self, interaction: discord.Interaction[Any]) -> Table:
        return self.service.in_channel(interaction.channel_id or 0)  # type: ignore[no-any-return]

    def _legal(self, interaction: discord.Interaction[Any]) -> tuple[Table | None, list[Action]]:
        table = self.service.find(interaction.channel_id or 0)
        if table is None:
            return None, []
        seat = table.seat_of(interaction.user.id)
        obs = table.observation(seat) if seat is not None else None
        if obs is None:
            return table, []
        legal = [a for a in obs.legal if a.seat == seat]
        if not table.face_down(seat):  # who looked at his cards bids blind no more
            return table, [a for a in legal if a.flag is not Flag.BLIND or a.verb is not Verb.BID]
        # Face down: no offer may depend on the hidden cards (a marriage allows higher bids).
        cap = table.blind_cap(seat)
        return table, [a for a in legal if a.verb is not Verb.BID or a.amount <= cap]

    # ---- slash commands ----------------------------------------------------------------------
    @app_commands.command(name="bid", description=ls("cmd.bid"))
    @app_commands.describe(amount=ls("cmd.bid.amount"), blind=ls("cmd.bid.blind"))
    @app_commands.guild_only()
    async def bid(self, interaction: discord.Interaction[Any], amount: int,
                  blind: bool = False) -> None:
        await self._move(interaction, self._table(interaction).id, Verb.BID, amount=amount,
                         flag=Flag.BLIND if blind else Flag.NONE)

    @bid.autocomplete("amount")
    async def bid_amounts(self, interaction: discord.Interaction[Any],
                          current: str) -> list[app_commands.Choice[int]]:
        _, legal = self._legal(interaction)
        flag = Flag.BLIND if getattr(interaction.namespace, "blind", False) else Flag.NONE
        amounts = sorted({a.amount for a in legal if a.verb is Verb.BID and a.flag is flag})
        return [app_commands.Choice(name=str(n), value=n) for n in amounts
                if str(n).startswith(current.strip())][:25]

    @app_commands.command(name="pass", description=ls("cmd.pass"))
    @app_commands.guild_only()
    async def pass_(self, interaction: discord.Interaction[Any]) -> None:
        await self._move(interaction, self._table(interaction).id, Verb.PASS)

    @app_commands.command(name="hand", description=ls("cmd.hand"))
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        await self._show_hand(interaction, self._table(interaction))

    @app_commands.command(name="play", description=ls("cmd.play"))
    @app_commands.describe(card=ls("cmd.play.card"), declare=ls("cmd.play.declare"))
    @app_commands.choices(declare=DECLARE_CHOICES)
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction[Any], card: str,
                   declare: app_commands.Choice[str] | None = None) -> None:
        flag = Flag(declare.value) if declare else Flag.NONE
        await self._move(interaction, self._table(interaction).id, Verb.PLAY, card=_card(card),
                         flag=flag)

    @play.autocomplete("card")
    async def play_cards(self, interaction: discord.Interaction[Any],
                         current: str) -> list[app_commands.Choice[str]]:
        _, legal = self._legal(interaction)
        return _card_choices([a.card for a in legal if a.verb is Verb.PLAY], current)

    @app_commands.command(name="give", description=ls("cmd.give"))
    @app_commands.describe(card=ls("cmd.give.card"), to=ls("cmd.give.to"))
    @app_commands.guild_only()
    async def give(self, interaction: discord.Interaction[Any], card: str, to: str) -> None:
        table = self._table(interaction)
        await self._move(interaction, table.id, Verb.GIVE, card=_card(card),
                         target=_seat(table, to))

    @give.autocomplete("card")
    async def give_cards(self, interaction: discord.Interaction[Any],
                         current: str) -> list[app_commands.Choice[str]]:
        _, legal = self._legal(interaction)
        return _card_choices([a.card for a in legal if a.verb is Verb.GIVE], current)

    @give.autocomplete("to")
    async def give_targets(self, interaction: discord.Interaction[Any],
                           current: str) -> list[app_commands.Choice[str]]:
        table, legal = self._legal(interaction)
        if table is None:
            return []
        names = table.names()
        targets = sorted({a.target for a in legal if a.verb is Verb.GIVE})
        return [app_commands.Choice(name=names[p][:100], value=str(p)) for p in targets
                if current.lower() in names[p].lower()][:25]

    @app_commands.command(name="contract", description=ls("cmd.contract"))
    @app_commands.describe(amount=ls("cmd.contract.amount"))
    @app_commands.guild_only()
    async def contract(self, interaction: discord.Interaction[Any], amount: int) -> None:
        await self._move(interaction, self._table(interaction).id, Verb.CONTRACT, amount=amount)

    @contract.autocomplete("amount")
    async def contract_amounts(self, interaction: discord.Interaction[Any],
                               current: str) -> list[app_commands.Choice[int]]:
        _, legal = self._legal(interaction)
        amounts = sorted({a.amount for a in legal if a.verb is Verb.CONTRACT})
        return [app_commands.Choice(name=str(n), value=n) for n in amounts
                if str(n).startswith(current.strip())][:25]

    @app_commands.command(name="rospisat", description=ls("cmd.rospisat"))
    @app_commands.guild_only()
    async def rospisat(self, interaction: discord.Interaction[Any]) -> None:
        await self._move(interaction, self._table(interaction).id, Verb.ROSPISAT)

    @app_commands.command(name="redeal", description=ls("cmd.redeal"))
    @app_commands.guild_only()
    async def redeal(self, interaction: discord.Interaction[Any]) -> None:
        await self._move(interaction, self._table(interaction).id, Verb.REDEAL)

    # ---- components ----------------------------------------------------------------------------
    async def _hand_button(self, interaction: discord.Interaction[Any], table_id: int,
                           arg: str, values: list[str]) -> None:
        await self._show_hand(interaction, self.service.get(table_id),
                              update=_from_hand(interaction))

    async def _back_button(self, interaction: discord.Interaction[Any], table_id: int,
                           arg: str, values: list[str]) -> None:
        out = await self.service.back(table_id, actor_of(interaction))
        notice = t(out.key, locale_of(interaction))
        await self._show_hand(interaction, out.table, notice, update=_from_hand(interaction))

    async def _look_button(self, interaction: discord.Interaction[Any], table_id: int,
                           arg: str, values: list[str]) -> None:
        actor, update = actor_of(interaction), _from_hand(interaction)
        self.bot.publisher.forget_hand(table_id, actor.user_id)  # no refresh repaints it
        out = await within(interaction, self.service.look(table_id, actor), update=update)
        await self._show_hand(interaction, out.table, t(out.key, locale_of(interaction)),
                              update=update)

    async def _play_button(self, interaction: discord.Interaction[Any], table_id: int,
                           arg: str, values: list[str]) -> None:
        verb = _custom_id(interaction).split(":")[2]
        flag = {"playm": Flag.MARRIAGE, "playa": Flag.ACES}.get(verb, Flag.NONE)
        await self._move(interaction, table_id, Verb.PLAY, card=_card(arg), flag=flag,
                         update=_from_hand(interaction))

    async def _verb_button(self, interaction: discord.Interaction[Any], table_id: int,
                           arg: str, values: list[str]) -> None:
        verb = _custom_id(interaction).split(":")[2]
        await self._move(interaction, table_id, _VERBS[verb], update=_from_hand(interaction))

    async def _talon_button(self, interaction: discord.Interaction[Any], table_id: int,
                            arg: str, values: list[str]) -> None:
        await self._move(interaction, table_id, Verb.TALON, amount=int(arg or 0),
                         update=_from_hand(interaction))

    async def _choose(self, interaction: discord.Interaction[Any], table_id: int,
                      arg: str, values: list[str]) -> None:
        value = values[0] if values else ""
        update = _from_hand(interaction)
        if arg == "bid":
            flag = Flag.BLIND if value.endswith("b") else Flag.NONE
            await self._move(interaction, table_id, Verb.BID, amount=int(value.rstrip("b")),
                             flag=flag, update=update)
        elif arg == "contract":
            await self._move(interaction, table_id, Verb.CONTRACT, amount=int(value),
                             update=update)
        elif arg.startswith("give"):
            await self._move(interaction, table_id, Verb.GIVE, card=_card(value),
                             target=int(arg[4:]), update=update)
        elif arg == "discard":
            await self._move(interaction, table_id, Verb.DISCARD, card=_card(value),
                             update=update)
        else:
            raise TableError("error.no_such_action")


def _custom_id(interaction: discord.Interaction[Any]) -> str:
    data: dict[str, Any] = dict(interaction.data or {})
    return str(data.get("custom_id", ""))


def _card_choices(cards: list[int], current: str) -> list[app_commands.Choice[str]]:
    cur = current.strip().upper()
    out: list[app_commands.Choice[str]] = []
    for c in dict.fromkeys(cards):
        if not cur or card_str(c).startswith(cur) or card_pretty(c).upper().startswith(cur):
            out.append(app_commands.Choice(name=card_pretty(c), value=card_str(c)))
    return out[:25]


def _seat(table: Table, text: str) -> int:
    names = table.names()
    raw = text.strip()
    if raw.isdigit() and int(raw) < len(names):
        return int(raw)
    for i, n in enumerate(names):
        if n.lower() == raw.lower():
            return i
    raise TableError("error.user_not_seated")


async def setup(bot: TysiacBot) -> None:
    await bot.add_cog(Play(bot))
