"""Component ids: ``t1000:{table}:{verb}:{arg}`` (and ``:{hand}`` on a hand's components).

Every button and select carries its whole meaning in its id, so that a click works after a
restart. The components of a hand message also name the hand they were drawn for
(``{match}.{hand}``): a press on an older hand's message is refused instead of acting on
cards the player no longer sees. Discord normally sends back only ids the bot made, but
the bot must not rely on the client: every id and value is parsed here, in one place, and
anything malformed is refused politely.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.game.actions import Flag, Verb
from bot.tables import TableError, amount_from_text, card_from_text, index_from_text

PREFIX = "t1000"
BUTTON_TEMPLATE = (rf"{PREFIX}:(?P<table>[0-9]{{1,18}}):(?P<verb>(?!choose:)[a-z]{{1,12}}):"
                   r"(?P<arg>[^:]{0,16})(?::(?P<hand>[0-9]{1,6}\.[0-9]{1,6}))?")
SELECT_TEMPLATE = (rf"{PREFIX}:(?P<table>[0-9]{{1,18}}):choose:(?P<arg>[a-z0-9]{{1,12}})"
                   r"(?::(?P<hand>[0-9]{1,6}\.[0-9]{1,6}))?")
# Pages of a listing (history, leaderboard): the query travels in the id, so that paging
# works after a restart; and the admins' confirmations.
PAGE_TEMPLATE = (rf"{PREFIX}p:(?P<kind>[hls]):(?P<query>[a-z0-9_~]{{0,80}}):"
                 r"(?P<page>[0-9]{1,6})")
ADMIN_TEMPLATE = rf"{PREFIX}a:(?P<verb>reset|keep):(?P<guild>[0-9]{{1,20}})"
# A daily board's choices (cogs/daily.py): the day, the board, the moves seen, the choice.
DAILY_TEMPLATE = (rf"{PREFIX}d:(?P<day>[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}):(?P<no>[0-9]{{1,2}}):"
                  r"(?P<seen>[0-9]{1,4}):(?P<kind>[a-z]{1,5})(?::(?P<arg>[0-9]{1,3}))?")
# A tournament's sign-up buttons (cogs/tournament.py): the event and what is asked.
TOURNAMENT_TEMPLATE = rf"{PREFIX}t:(?P<event>[0-9]{{1,18}}):(?P<verb>join|leave|checkin)"
_PATTERNS = tuple(re.compile(t) for t in (BUTTON_TEMPLATE, SELECT_TEMPLATE, PAGE_TEMPLATE,
                                          ADMIN_TEMPLATE, DAILY_TEMPLATE, TOURNAMENT_TEMPLATE))

# Table-message buttons and the hand's buttons that are not moves.
TABLE_VERBS = frozenset({"join", "leave", "addai", "start", "rematch", "endyes", "endno",
                         "hand", "refresh", "back", "look", "leaveyes", "leaveno",
                         "help", "rules", "rulesall", "next", "analyse"})
_SIMPLE = {"pass": Verb.PASS, "redeal": Verb.REDEAL, "rospisat": Verb.ROSPISAT,
           "spisat": Verb.SPISAT, "concede": Verb.CONCEDE, "contra": Verb.CONTRA,
           "redouble": Verb.REDOUBLE}
_PLAYS = {"play": Flag.NONE, "playm": Flag.MARRIAGE, "playa": Flag.ACES}
MOVE_VERBS = frozenset({*_SIMPLE, *_PLAYS, "talon", "choose", "misere"})


def custom_id(table_id: int, verb: str, arg: str = "", hand: str | None = None) -> str:
    """The id of a component; ``hand`` ties it to one hand (``Table.hand_key``)."""
    base = f"{PREFIX}:{table_id}:{verb}:{arg}"
    return base if hand is None else f"{base}:{hand}"


def page_id(kind: str, query: str, page: int) -> str:
    """The id of a paging button (``kind``: h history, l leaderboard, s score sheet)."""
    return f"{PREFIX}p:{kind}:{query}:{page}"


def admin_id(verb: str, guild_id: int) -> str:
    return f"{PREFIX}a:{verb}:{guild_id}"


def is_ours(cid: str) -> bool:
    """An id this bot could have made (and so routes)."""
    return any(p.fullmatch(cid) is not None for p in _PATTERNS)


def known_verb(verb: str) -> bool:
    return verb in TABLE_VERBS or verb in MOVE_VERBS


@dataclass(frozen=True, slots=True)
class ChosenMove:
    """A move read from a hand's component: what the service's ``act`` takes."""

    verb: Verb
    card: int = -1
    amount: int = 0
    target: int = -1
    flag: Flag = Flag.NONE


def read_move(verb: str, arg: str, values: list[str]) -> ChosenMove:
    """The move a pressed button or chosen menu value stands for (TableError if malformed)."""
    if verb in _SIMPLE:
        return ChosenMove(_SIMPLE[verb])
    if verb in _PLAYS:
        return ChosenMove(Verb.PLAY, card=card_from_text(arg), flag=_PLAYS[verb])
    if verb == "talon":
        return ChosenMove(Verb.TALON, amount=index_from_text(arg or "0", 4))
    if verb == "misere":
        return ChosenMove(Verb.BID, amount=amount_from_text(arg), flag=Flag.MISERE)
    if verb != "choose":
        raise TableError("error.no_such_action")
    if len(values) != 1:
        raise TableError("error.no_such_action")
    value = values[0]
    if arg == "bid":
        blind = value.endswith("b")
        return ChosenMove(Verb.BID, amount=amount_from_text(value.removesuffix("b")),
                     flag=Flag.BLIND if blind else Flag.NONE)
    if arg == "contract":
        return ChosenMove(Verb.CONTRACT, amount=amount_from_text(value))
    if arg == "discard":
        return ChosenMove(Verb.DISCARD, card=card_from_text(value))
    if arg.startswith("give"):
        return ChosenMove(Verb.GIVE, card=card_from_text(value),
                     target=index_from_text(arg.removeprefix("give"), 4))
    raise TableError("error.no_such_action")
