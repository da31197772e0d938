"""Moves: /bid /pass /hand /play /give /contract /rospisat /redeal and the hand's components.

Slash commands and components go through the same ``_move``, which calls the service once
and answers with a fresh ephemeral hand (a component click on a hand edits it in place).
Giving a hand up (rospisat) takes two presses: the first only asks, in the hand it
answers with; a second one within ``CONFIRM_SECONDS`` (the hand's button or ``/rospisat``
again) gives the hand up.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.game.actions import Action, Flag, Verb
from bot.game.cards import card_str
from bot.i18n import language, t
from bot.i18n.values import card_text, typed_ranks
from bot.tables import (
    Table,
    TableError,
    TableService,
    TableStatus,
    card_from_text,
    seat_from_text,
)
from cogs._bot import TysiacBot
from cogs._ids import ChosenMove, read_move
from cogs._interaction import actor_of, locale_of, send, within
from cogs._plain import say
from cogs._tree import ls
from cogs._views import ComponentPress, hand_message

CONFIRM_SECONDS = 10  # a second press of Give up within this many seconds gives the hand up
DECLARE_CHOICES = [
    app_commands.Choice(name=ls("choice.declare.marriage"), value="marriage"),
    app_commands.Choice(name=ls("choice.declare.aces"), value="aces"),
]


def _from_hand(interaction: discord.Interaction[Any]) -> bool:
    msg = interaction.message
    return msg is not None and msg.flags.ephemeral


class Play(commands.Cog):
    def __init__(self, bot: TysiacBot) -> None:
        self.bot = bot
        # (table, user): the hand a first press of Give up was made in, and until when a
        # second one confirms it (lost in a restart: the player is asked again)
        self._asked: dict[tuple[int, int], tuple[str, float]] = {}

    @property
    def service(self) -> TableService:
        return self.bot.service

    async def cog_load(self) -> None:
        on = self.bot.on_component
        on("hand", "refresh")(self._hand_button)
        on("back")(self._back_button)
        on("look")(self._look_button)
        on("next")(self._next_button)
        on("play", "playm", "playa", "pass", "redeal", "rospisat", "spisat", "concede",
           "talon", "choose")(self._press)

    # ---- the one path of every move ------------------------------------------------------
    async def _move(self, interaction: discord.Interaction[Any], table_id: int, press: ChosenMove,
                    *, update: bool = False, hand: str | None = None) -> None:
        actor = actor_of(interaction)
        loc = locale_of(interaction)
        if press.verb is not Verb.ROSPISAT:  # another move: a later Give up asks again
            self._asked.pop((table_id, actor.user_id), None)
        elif self._first_press(table_id, actor.user_id, hand):
            notice = t("ok.rospisat_confirm", loc, button=t("button.rospisat", loc),
                       seconds=CONFIRM_SECONDS)
            await self._show_hand(interaction, self.service.get(table_id, actor), notice,
                                  update=update)
            return
        self.bot.publisher.hands.forget(table_id, actor.user_id)
        try:
            out = await within(interaction, self.service.act(
                table_id, actor, press.verb, card=press.card, amount=press.amount,
                target=press.target, flag=press.flag, hand=hand), update=update)
            notice = say(out.key, loc, out.params)
        except TableError as err:
            if not update or err.key in ("error.table_closed", "error.other_channel"):
                raise
            notice = "⚠️ " + say(err.key, loc, err.params)  # an old hand still answers
        await self._show_hand(interaction, self.service.get(table_id), notice, update=update)

    def _first_press(self, table_id: int, user_id: int, hand: str | None) -> bool:
        """A press of Give up that only asks for a confirmation (True): the first, or one
        after the time to confirm ran out. False for the confirming press, and for one the
        service refuses anyway (not offered now: it says why)."""
        try:
            table = self.service.get(table_id)
        except TableError:
            return False
        seat = table.seat_of(user_id)
        if (seat is None or table.status is not TableStatus.PLAYING
                or table.state is None or hand not in (None, table.hand_key)
                or not any(a.verb is Verb.ROSPISAT for a in table.offer(seat).actions)):
            return False
        now = self.service.clock.now()
        key = (table_id, user_id)
        asked = self._asked.pop(key, None)
        if asked is not None and asked[0] == table.hand_key and now <= asked[1]:
            return False
        for k in [k for k, (_, until) in self._asked.items() if until < now]:
            del self._asked[k]
        self._asked[key] = (table.hand_key, now + CONFIRM_SECONDS)
        return True

    async def _show_hand(self, interaction: discord.Interaction[Any], table: Table,
                         notice: str | None = None, *, update: bool = False) -> None:
        seat = table.seat_of(interaction.user.id)
        parts = hand_message(table, seat, locale_of(interaction), notice)
        publisher = self.bot.publisher
        ref = publisher.hands.remember(interaction, table, seat) if seat is not None else None
        try:
            await send(interaction, parts, update=update)
        except BaseException:
            if ref is not None:
                publisher.hands.forget(table.id, interaction.user.id)
            raise
        if ref is not None:
            publisher.hands.answered(ref, table)

    def _table(self, interaction: discord.Interaction[Any]) -> Table:
        return self.service.in_channel(interaction.channel_id or 0)

    def _offered(self, interaction: discord.Interaction[Any]) -> tuple[Table | None,
                                                                        list[Action]]:
        """What the user is offered at this channel's table (for autocomplete)."""
        table = self.service.find(interaction.channel_id or 0)
        if table is None:
            return None, []
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.state is None:
            return table, []
        return table, list(table.offer(seat).actions)

    # ---- slash commands ----------------------------------------------------------------------
    @app_commands.command(name="bid", description=ls("cmd.bid"))
    @app_commands.describe(amount=ls("cmd.bid.amount"), blind=ls("cmd.bid.blind"))
    @app_commands.guild_only()
    async def bid(self, interaction: discord.Interaction[Any], amount: int,
                  blind: bool = False) -> None:
        await self._move(interaction, self._table(interaction).id, ChosenMove(
            Verb.BID, amount=amount, flag=Flag.BLIND if blind else Flag.NONE))

    @bid.autocomplete("amount")
    async def bid_amounts(self, interaction: discord.Interaction[Any],
                          current: str) -> list[app_commands.Choice[int]]:
        _, legal = self._offered(interaction)
        flag = Flag.BLIND if getattr(interaction.namespace, "blind", False) else Flag.NONE
        amounts = sorted({a.amount for a in legal if a.verb is Verb.BID and a.flag is flag})
        return [app_commands.Choice(name=str(n), value=n) for n in amounts
                if str(n).startswith(current.strip())][:25]

    @app_commands.command(name="pass", description=ls("cmd.pass"))
    @app_commands.guild_only()
    async def pass_(self, interaction: discord.Interaction[Any]) -> None:
        await self._move(interaction, self._table(interaction).id, ChosenMove(Verb.PASS))

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
        flag = _declared(declare.value) if declare else Flag.NONE
        await self._move(interaction, self._table(interaction).id, ChosenMove(
            Verb.PLAY, card=card_from_text(card, locale_of(interaction)), flag=flag))

    @play.autocomplete("card")
    async def play_cards(self, interaction: discord.Interaction[Any],
                         current: str) -> list[app_commands.Choice[str]]:
        _, legal = self._offered(interaction)
        return _card_choices([a.card for a in legal if a.verb is Verb.PLAY], current,
                             locale_of(interaction))

    @app_commands.command(name="give", description=ls("cmd.give"))
    @app_commands.describe(card=ls("cmd.give.card"), to=ls("cmd.give.to"))
    @app_commands.guild_only()
    async def give(self, interaction: discord.Interaction[Any], card: str, to: str) -> None:
        table = self._table(interaction)
        await self._move(interaction, table.id, ChosenMove(
            Verb.GIVE, card=card_from_text(card, locale_of(interaction)),
            target=seat_from_text(table.names(), to)))

    @give.autocomplete("card")
    async def give_cards(self, interaction: discord.Interaction[Any],
                         current: str) -> list[app_commands.Choice[str]]:
        _, legal = self._offered(interaction)
        return _card_choices([a.card for a in legal if a.verb is Verb.GIVE], current,
                             locale_of(interaction))

    @give.autocomplete("to")
    async def give_targets(self, interaction: discord.Interaction[Any],
                           current: str) -> list[app_commands.Choice[str]]:
        table, legal = self._offered(interaction)
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
        await self._move(interaction, self._table(interaction).id, ChosenMove(
            Verb.CONTRACT, amount=amount))

    @contract.autocomplete("amount")
    async def contract_amounts(self, interaction: discord.Interaction[Any],
                               current: str) -> list[app_commands.Choice[int]]:
        _, legal = self._offered(interaction)
        amounts = sorted({a.amount for a in legal if a.verb is Verb.CONTRACT})
        return [app_commands.Choice(name=str(n), value=n) for n in amounts
                if str(n).startswith(current.strip())][:25]

    @app_commands.command(name="rospisat", description=ls("cmd.rospisat"))
    @app_commands.guild_only()
    async def rospisat(self, interaction: discord.Interaction[Any]) -> None:
        await self._move(interaction, self._table(interaction).id, ChosenMove(Verb.ROSPISAT))

    @app_commands.command(name="redeal", description=ls("cmd.redeal"))
    @app_commands.guild_only()
    async def redeal(self, interaction: discord.Interaction[Any]) -> None:
        await self._move(interaction, self._table(interaction).id, ChosenMove(Verb.REDEAL))

    # ---- components ----------------------------------------------------------------------------
    async def _hand_button(self, interaction: discord.Interaction[Any], p: ComponentPress) -> None:
        await self._show_hand(interaction, self.service.get(p.table_id, actor_of(interaction)),
                              update=_from_hand(interaction))

    async def _back_button(self, interaction: discord.Interaction[Any], p: ComponentPress) -> None:
        out = await self.service.back(p.table_id, actor_of(interaction))
        notice = t(out.key, locale_of(interaction))
        await self._show_hand(interaction, out.table, notice, update=_from_hand(interaction))

    async def _look_button(self, interaction: discord.Interaction[Any], p: ComponentPress) -> None:
        actor, update = actor_of(interaction), _from_hand(interaction)
        self.bot.publisher.hands.forget(p.table_id, actor.user_id)  # no refresh repaints it
        out = await within(interaction, self.service.look(p.table_id, actor), update=update)
        await self._show_hand(interaction, out.table, t(out.key, locale_of(interaction)),
                              update=update)

    async def _next_button(self, interaction: discord.Interaction[Any], p: ComponentPress) -> None:
        """"Next hand" (on the table message or the hand): answered with the player's hand,
        the new one if this press dealt it."""
        actor, update = actor_of(interaction), _from_hand(interaction)
        self.bot.publisher.hands.forget(p.table_id, actor.user_id)
        out = await within(interaction, self.service.next_hand(p.table_id, actor),
                           update=update)
        await self._show_hand(interaction, out.table,
                              t(out.key, locale_of(interaction), **out.params), update=update)

    async def _press(self, interaction: discord.Interaction[Any], p: ComponentPress) -> None:
        """A move from a hand's button or menu (its id and value parsed in ``read_move``)."""
        press = read_move(p.verb, p.arg, list(p.values))
        await self._move(interaction, p.table_id, press, update=_from_hand(interaction),
                         hand=p.hand)


def _declared(value: str) -> Flag:
    if value == "marriage":
        return Flag.MARRIAGE
    if value == "aces":
        return Flag.ACES
    raise TableError("error.no_such_action")


def _card_choices(cards: list[int], current: str,
                  loc: str | None) -> list[app_commands.Choice[str]]:
    cur = current.strip().upper()
    lang = language(loc)
    ranks = typed_ranks(lang)
    # the rank as typed in the reader's letters, the suit's letter kept: "ТS" in Russian: "AS"
    head, tail = (cur[:-1], cur[-1]) if len(cur) > 1 else (cur, "")
    english = "".join(ranks.get(ch, ch) for ch in head) + tail
    out: list[app_commands.Choice[str]] = []
    for c in dict.fromkeys(cards):
        shown, code = card_text(c, lang), card_str(c)
        if not cur or code.startswith(english) or shown.upper().startswith(cur):
            out.append(app_commands.Choice(name=shown, value=card_str(c)))
    return out[:25]


async def setup(bot: TysiacBot) -> None:
    await bot.add_cog(Play(bot))
