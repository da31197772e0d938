"""Components and messages: restart-proof ids (``cogs._ids``).

Every button and select carries its whole meaning in its ``custom_id``; a press is read
from its id alone (``pressed_of``) and routed to the handlers the cogs register on the
bot, so a click
works on any bot process, before or after a restart. Messages carry them as plain rows
(``Rows``), built without a ``discord.ui`` item each. What a hand offers comes from the
service (``Table.offer``): this module only lays it out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.game.actions import Action, Flag, Verb
from bot.game.cards import card_str, display_key, is_red
from bot.game.state import Phase
from bot.i18n import t
from bot.tables import Table, TableStatus
from cogs._format import card_word, hand_text, shown_order, table_text
from cogs._ids import BUTTON_TEMPLATE, SELECT_TEMPLATE, custom_id
from cogs._plain import label_text

MAX_OPTIONS = 25  # options a select menu may hold (Discord's limit)
NEAR_BIDS = 15  # bids offered one by one above the current bid before the menu steps


@dataclass(frozen=True, slots=True)
class ComponentPress:
    """A component press as routed to a handler: its table, verb, argument, the hand it was
    made for (None: not tied to a hand) and the values chosen in a menu."""

    table_id: int
    verb: str
    arg: str
    hand: str | None
    values: tuple[str, ...] = ()


_BUTTON, _SELECT = re.compile(BUTTON_TEMPLATE), re.compile(SELECT_TEMPLATE)
_BUTTON_TYPE, _SELECT_TYPE = 2, 3  # the API's component types


def pressed_of(data: dict[str, Any]) -> ComponentPress | None:
    """The press an interaction's component ``data`` stands for, or None (not our button or
    menu). Read straight from the id: discord.py's ``DynamicItem`` routing would first
    build the pressed message's whole ``discord.ui`` view (measured: 6% of the bot's CPU
    at 500 tables)."""
    cid = data.get("custom_id")
    if not isinstance(cid, str):
        return None
    kind = data.get("component_type")
    if kind == _BUTTON_TYPE and (m := _BUTTON.fullmatch(cid)) is not None:
        return ComponentPress(int(m["table"]), m["verb"], m["arg"], m["hand"])
    if kind == _SELECT_TYPE and (m := _SELECT.fullmatch(cid)) is not None:
        values = data.get("values")
        return ComponentPress(int(m["table"]), "choose", m["arg"], m["hand"],
                       tuple(str(v) for v in values) if isinstance(values, list) else ())
    return None


class Rows(discord.ui.View):
    """A message's components as the API's rows, without a ``discord.ui`` item per button.

    A hand's buttons are built by the thousand and pressed once at most, and building each
    as a ``discord.ui`` item cost more than the rest of the hand's answer (measured: a
    hand of ten buttons 195 µs as items, 5 µs as rows). The ids are ``custom_id``'s, read
    back by ``pressed_of``; discord.py needs nothing of this view but its rows (no item to
    dispatch, nothing stored)."""

    def __init__(self) -> None:  # no discord.ui.View set-up: see is_finished
        self.rows: list[list[dict[str, Any]]] = []

    # discord.py keeps a view it was given, with a 15-minute timeout task for an ephemeral
    # answer, unless the view is finished; it then reads nothing of it but these. Rows are
    # "finished" from the start: nothing of theirs is for discord.py to dispatch or time out
    # (measured: no task, timer and future per hand answered, and 24 µs less per view).
    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    def has_components_v2(self) -> bool:
        return False

    @property
    def timeout(self) -> float | None:
        return None

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        pass

    @property
    def children(self) -> list[discord.ui.Item[Any]]:
        return []

    def __repr__(self) -> str:
        return f"<Rows {self.rows!r}>"

    def _place(self, component: dict[str, Any], row: int | None, width: int = 1) -> None:
        """In row ``row``, or (None) the first row from the last with room, as discord.py
        lays items out; a select fills a row alone."""
        if row is None:
            last = self.rows[-1] if self.rows else None
            fits = last is not None and width == 1 and len(last) < 5 and last[0]["type"] == 2
            row = len(self.rows) - 1 if fits else len(self.rows)
        while len(self.rows) <= row:
            self.rows.append([])
        self.rows[row].append(component)

    def button(self, table_id: int, verb: str, arg: str = "", *, label: str,
               style: discord.ButtonStyle = discord.ButtonStyle.secondary,
               disabled: bool = False, row: int | None = None,
               hand: str | None = None) -> None:
        """A button of ours (its id: ``custom_id``)."""
        self._place({"type": 2, "style": style.value, "disabled": disabled, "label": label,
                     "custom_id": custom_id(table_id, verb, arg, hand)}, row)

    def select(self, table_id: int, arg: str, options: list[tuple[str, str]], *,
               placeholder: str, row: int | None = None, hand: str | None = None) -> None:
        """A menu of ours of (label, value) options, one to be chosen."""
        self._place({"type": 3, "custom_id": custom_id(table_id, "choose", arg, hand),
                     "min_values": 1, "max_values": 1, "disabled": False, "required": True,
                     "placeholder": placeholder,
                     "options": [{"label": label, "value": value, "default": False}
                                 for label, value in options]}, row, width=5)

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": row} for row in self.rows if row]


@dataclass
class MessageParts:
    """What to send or edit (the image is attached by the publisher)."""

    content: str | None = None
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None


def table_message(table: Table, loc: str | None = None) -> MessageParts:
    """The public table message (its image is attached by the publisher's paced edit)."""
    text = table_text(table, loc)
    colour = discord.Colour.dark_green() if table.live else discord.Colour.dark_grey()
    embed = discord.Embed(title=text.title, description=text.status or None, colour=colour)
    for name, value in text.fields:
        embed.add_field(name=name, value=value[:1024] or "—", inline=False)
    embed.set_footer(text=text.footer)
    return MessageParts(embed=embed, view=table_view(table, loc))


def table_view(table: Table, loc: str | None = None) -> Rows:
    view = Rows()
    tid = table.id

    def add(verb: str, key: str, style: discord.ButtonStyle, disabled: bool = False) -> None:
        view.button(tid, verb, label=t(key, loc), style=style, disabled=disabled)

    if table.status is TableStatus.SEATING:
        full = len(table.seats) >= table.size
        add("join", "button.join", discord.ButtonStyle.primary, disabled=full)
        add("leave", "button.leave", discord.ButtonStyle.secondary)
        add("addai", "button.add_ai", discord.ButtonStyle.secondary, disabled=full)
        add("start", "button.start", discord.ButtonStyle.success)
    elif table.status is TableStatus.PLAYING:
        if table.paused:  # a finished hand on show: whoever is seated may move on
            add("next", "button.next_hand", discord.ButtonStyle.success)
            _analyse_button(view, table, loc)
        add("hand", "button.hand", discord.ButtonStyle.primary)
        if any(s.away for s in table.seats):
            add("back", "button.back", discord.ButtonStyle.secondary)
    elif table.status is TableStatus.FINISHED:
        add("rematch", "button.rematch", discord.ButtonStyle.success)
        _analyse_button(view, table, loc)
    if table.live:  # a closed table's message keeps no button at all
        add("help", "button.help", discord.ButtonStyle.secondary)
    return view


def _analyse_button(view: Rows, table: Table, loc: str | None) -> None:
    """Analyse the hand just finished (the presser's own seat; any seat once the match is
    over, through ``/analyze``)."""
    if table.results:
        view.button(table.id, "analyse", f"{table.match_no}.{len(table.results)}",
                    label=t("button.analyse", loc), style=discord.ButtonStyle.secondary)


def confirm_view(table: Table, what: str, loc: str | None = None) -> Rows:
    """Yes / No for a step that needs a second thought (``what``: leave, end)."""
    view = Rows()
    view.button(table.id, f"{what}yes", label=t(f"button.{what}_yes", loc),
                style=discord.ButtonStyle.danger)
    view.button(table.id, f"{what}no", label=t(f"button.{what}_no", loc))
    return view


def _card_style(card: int) -> discord.ButtonStyle:
    return discord.ButtonStyle.danger if is_red(card) else discord.ButtonStyle.secondary


def hand_message(table: Table, seat: int | None, loc: str | None = None,
                 notice: str | None = None) -> MessageParts:
    """The ephemeral hand: its text (cards as `10♥`) and exactly what the seat is offered."""
    content = hand_text(table, seat, loc, notice)
    return MessageParts(content=content[:2000], view=hand_view(table, seat, loc))


def hand_view(table: Table, seat: int | None, loc: str | None = None) -> Rows:
    """Exactly what the seat is offered now; every component names the hand it is for."""
    view = Rows()
    obs = table.observation(seat) if seat is not None else None
    if seat is None or obs is None or obs.phase is Phase.MATCH_OVER:
        return view
    offer = table.offer(seat)
    hand = table.hand_key

    def button(verb: str, arg: str, label: str, style: discord.ButtonStyle, row: int,
               disabled: bool = False) -> None:
        view.button(table.id, verb, arg, label=label, style=style, row=row, disabled=disabled,
                    hand=hand)

    def select(arg: str, opts: list[tuple[str, str]], placeholder: str, row: int) -> None:
        view.select(table.id, arg, opts, placeholder=placeholder, row=row, hand=hand)

    if table.paused:
        if seat in table.waiting:
            button("next", "", t("button.next_hand", loc), discord.ButtonStyle.success, 0)
        _analyse_button(view, table, loc)
        return view
    if offer.face_down:
        return _face_down_view(view, offer.actions, loc, button, select)
    legal = list(offer.actions)
    row = _card_buttons(button, obs.phase, obs.hand, legal, loc)
    for arg, placeholder, opts in [*_amount_selects(legal, loc),
                                   *_card_selects(legal, table.names(), loc)]:
        if row < 5 and opts:
            select(arg, opts, placeholder, row)
            row += 1
    declares = _declare_buttons(legal)
    if declares and row < 5:
        for a in declares:
            verb = "playm" if a.flag is Flag.MARRIAGE else "playa"
            label = t("button.marriage" if a.flag is Flag.MARRIAGE else "button.aces", loc,
                      card=card_word(a.card, loc))
            button(verb, card_str(a.card), label, discord.ButtonStyle.success, row)
        row += 1
    others = _other_buttons(legal, table, seat, loc)
    if others and row < 5:
        for verb, arg, label, style in others[:5]:
            button(verb, arg, label, style, row)
    return view


_Select = tuple[str, str, list[tuple[str, str]]]  # (arg, placeholder, options)


def _card_buttons(button: Callable[..., None], phase: Phase, hand: tuple[int, ...],
                  legal: list[Action], loc: str | None) -> int:
    """The hand's cards as buttons, five a row (those that may be played now enabled);
    returns the first free row."""
    if phase is Phase.EXCHANGE or not hand:
        return 0
    plain = {a.card for a in legal if a.verb is Verb.PLAY and a.flag is Flag.NONE}
    for i, c in enumerate(shown_order(hand)[:15]):
        button("play", card_str(c), card_word(c, loc), _card_style(c), i // 5,
               disabled=c not in plain)
    return (min(len(hand), 15) + 4) // 5


def _amount_selects(legal: list[Action], loc: str | None) -> list[_Select]:
    """The menus of amounts: the bids, and the contracts the declarer may set."""
    selects: list[_Select] = []
    bids = [a for a in legal if a.verb is Verb.BID and a.flag is not Flag.MISERE]
    if bids:
        opts = [(str(a.amount), str(a.amount)) for a in stepped_bids(bids)]
        placeholder = t("select.bid" if len(bids) <= MAX_OPTIONS else "select.bid_more", loc)
        selects.append(("bid", placeholder, opts))
    contracts = [a for a in legal if a.verb is Verb.CONTRACT]
    if contracts:
        opts = [(str(a.amount), str(a.amount)) for a in stepped_bids(contracts)]
        placeholder = t("select.contract" if len(contracts) <= MAX_OPTIONS
                        else "select.contract_more", loc)
        selects.append(("contract", placeholder, opts))
    return selects


def _card_selects(legal: list[Action], names: Sequence[str], loc: str | None) -> list[_Select]:
    """The menus of cards: one per player a card may be given to, and the discard."""
    selects: list[_Select] = []
    for target in sorted({a.target for a in legal if a.verb is Verb.GIVE}):
        opts = [(card_word(a.card, loc), card_str(a.card))
                for a in _by_card(legal) if a.verb is Verb.GIVE and a.target == target][:25]
        placeholder = label_text(t("select.give", loc, name=names[target]), 150)
        selects.append((f"give{target}", placeholder, opts))
    discards = [a for a in _by_card(legal) if a.verb is Verb.DISCARD]
    if discards:
        opts = [(card_word(a.card, loc), card_str(a.card)) for a in discards[:25]]
        selects.append(("discard", t("select.discard", loc), opts))
    return selects


def _face_down_view(view: Rows, legal: tuple[Action, ...], loc: str | None,
                    button: Any, select: Any) -> Rows:
    """Blind bidding before the player looked: blind bids, Pass, and Look (no card)."""
    bids = [a for a in legal if a.verb is Verb.BID and a.flag is Flag.BLIND]
    if bids:
        opts = [(t("select.bid_blind_amount", loc, amount=a.amount), f"{a.amount}b")
                for a in stepped_bids(bids)]
        select("bid", opts, t("select.bid_blind", loc), 0)
    button("look", "", t("button.look", loc), discord.ButtonStyle.primary, 1)
    if any(a.verb is Verb.PASS for a in legal):
        button("pass", "", t("button.pass", loc), discord.ButtonStyle.secondary, 1)
    return view


def stepped_bids(bids: list[Action]) -> list[Action]:
    """At most 25 of the bids (or contracts) offered (a menu's limit), lowest first: every
    amount near the lowest, then the higher ones in even steps up to the highest, which is
    always there (any other amount is one ``/bid`` or ``/contract`` away)."""
    bids = sorted(bids, key=lambda a: a.amount)
    if len(bids) <= MAX_OPTIONS:
        return bids
    near, rest = bids[:NEAR_BIDS], bids[NEAR_BIDS:]
    step = -(-len(rest) // (MAX_OPTIONS - NEAR_BIDS))  # ceiling: the rest fit the menu
    return near + rest[len(rest) - 1::-step][::-1]


def _by_card(legal: list[Action]) -> list[Action]:
    """Actions in the image's card order."""
    return sorted(legal, key=lambda a: display_key(a.card) if a.card >= 0 else (9, 0))


def _declare_buttons(legal: list[Action]) -> list[Action]:
    """Leads that declare (marriage with its king or queen, four aces); five fit a row."""
    out = [a for a in legal if a.verb is Verb.PLAY and a.flag is not Flag.NONE]
    out.sort(key=lambda a: (a.flag is not Flag.ACES, display_key(a.card)))
    return out[:5]


def _other_buttons(legal: list[Action], table: Table, seat: int,
                   loc: str | None) -> list[tuple[str, str, str, discord.ButtonStyle]]:
    out = []
    grey, red = discord.ButtonStyle.secondary, discord.ButtonStyle.danger
    verbs = {a.verb for a in legal}
    for a in legal:
        if a.verb is Verb.TALON:
            out.append(("talon", str(a.amount), t("word.talon_no", loc, no=a.amount + 1,
                                                       talon=table.talon_word(capital=True)),
                        discord.ButtonStyle.primary))
    for a in legal:
        if a.flag is Flag.MISERE:
            out.append(("misere", str(a.amount), t("button.misere", loc, amount=a.amount),
                        discord.ButtonStyle.primary))
    if Verb.PASS in verbs:
        out.append(("pass", "", t("button.pass", loc), grey))
    for verb, key in ((Verb.REDEAL, "button.redeal"), (Verb.ROSPISAT, "button.rospisat"),
                      (Verb.SPISAT, "button.spisat"), (Verb.CONCEDE, "button.concede"),
                      (Verb.CONTRA, "button.contra"), (Verb.REDOUBLE, "button.redouble")):
        if verb in verbs:
            out.append((verb.value, "", t(key, loc), red))
    if table.seats[seat].away:
        out.insert(0, ("back", "", t("button.back", loc), discord.ButtonStyle.success))
    return out
