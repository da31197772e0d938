"""Tournaments: what is refused (one place), and the views and reports made of stored rows."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.game.presets import PRESETS
from bot.game.tournament import MAX_BOARDS, MAX_ROUNDS, SeatResult, score_results, standings
from bot.store import (
    BoardResultRow,
    EntrantRow,
    EventTableRow,
    TournamentRow,
    TournamentSettings,
)
from bot.tables._model import Actor, TableError
from bot.tables._tournament_model import (
    BoardLine,
    Entrant,
    EventStatus,
    EventTable,
    EventView,
    RoundReport,
    StandingLine,
)

NAME_LENGTH = 40
CHECKIN_MINUTES = (1, 1440)  # the least and most minutes of check-in before the start
ROUND_MINUTES = (5, 600)  # of the round deadline
START_FORMAT = "%Y-%m-%d %H:%M"


# ---- refusals ------------------------------------------------------------------------------
def may_organise(actor: Actor, settings: TournamentSettings) -> bool:
    """Manage Server, or the role the server chose with /admin tournaments."""
    return actor.can_manage_guild or (settings.role_id != 0
                                      and settings.role_id in actor.role_ids)


def need_organiser(actor: Actor, settings: TournamentSettings) -> None:
    """TableError unless ``actor`` may organise tournaments in the server."""
    if not may_organise(actor, settings):
        raise TableError("tournament.error.no_right")


def clean_name(name: str) -> str:
    """An event's name, trimmed; refused when empty or too long."""
    name = " ".join(name.split())
    if not 1 <= len(name) <= NAME_LENGTH:
        raise TableError("tournament.error.name", most=NAME_LENGTH)
    return name


def check_timezone(name: str) -> str:
    """A time zone typed by an admin, as its IANA name ('' for UTC); TableError otherwise."""
    name = name.strip()
    if name.upper() in ("", "UTC"):
        return ""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise TableError("tournament.error.timezone", text=name[:20]) from None
    return name


def timezones(typed: str, most: int = 25) -> list[str]:
    """Time zone names containing what was typed (UTC first), for autocomplete."""
    typed = typed.strip().casefold()
    names = ["UTC", *sorted(z for z in available_timezones()
                            if "/" in z and not z.startswith(("Etc/", "SystemV/", "posix/",
                                                               "right/")))]
    return [z for z in names if typed in z.casefold()][:most]


def parse_start(text: str, timezone: str | None, now: float, checkin_minutes: int) -> float:
    """When an event starts: "now" (check-in opens at once and lasts ``checkin_minutes``)
    or ``YYYY-MM-DD HH:MM`` in ``timezone`` (None: UTC), not in the past."""
    if text.strip().lower() == "now":
        return now + 60.0 * checkin_minutes
    try:
        zone = ZoneInfo(timezone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        raise TableError("tournament.error.timezone", text=(timezone or "")[:20]) from None
    try:
        local = dt.datetime.strptime(" ".join(text.split()), START_FORMAT)
    except ValueError:
        raise TableError("tournament.error.start_format", text=text[:20]) from None
    start = local.replace(tzinfo=zone).timestamp()
    if start <= now:
        raise TableError("tournament.error.start_past", text=text[:20])
    return start


def check_shape(preset_name: str, boards: int, rounds: int) -> int:
    """The preset's seats, where the boards and rounds are allowed (TableError otherwise)."""
    p = PRESETS.get(preset_name)
    if p is None:
        raise TableError("error.unknown_preset", name=preset_name[:20],
                         presets=", ".join(PRESETS))
    seats = p.rules.seats
    if boards <= 0 or boards % seats or boards > MAX_BOARDS:
        raise TableError("tournament.error.boards", boards=boards, seats=seats,
                         most=MAX_BOARDS - MAX_BOARDS % seats)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise TableError("tournament.error.rounds", rounds=rounds, most=MAX_ROUNDS)
    return seats


def check_minutes(checkin: int, round_minutes: int) -> None:
    """Check-in and round deadline in their ranges (TableError otherwise)."""
    if not CHECKIN_MINUTES[0] <= checkin <= CHECKIN_MINUTES[1]:
        raise TableError("tournament.error.checkin_minutes", minutes=checkin,
                         least=CHECKIN_MINUTES[0], most=CHECKIN_MINUTES[1])
    if not ROUND_MINUTES[0] <= round_minutes <= ROUND_MINUTES[1]:
        raise TableError("tournament.error.round_minutes", minutes=round_minutes,
                         least=ROUND_MINUTES[0], most=ROUND_MINUTES[1])


@dataclass(frozen=True, slots=True)
class Loaded:
    """An event's stored rows."""

    row: TournamentRow
    entrants: list[EntrantRow]
    tables: list[EventTableRow]  # of every round
    posted: set[str]

    def round_tables(self, round_no: int | None = None) -> list[EventTableRow]:
        """The tables of a round (default: the current)."""
        r = self.row.round_no if round_no is None else round_no
        return [t for t in self.tables if t.round_no == r]


# ---- views ---------------------------------------------------------------------------------
def entrant_of(r: EntrantRow) -> Entrant:
    """The view of an entrant's row."""
    return Entrant(r.user_id, r.name, r.rating, r.checked_in, r.strikes, r.withdrawn,
                   r.dropped)


def table_of(r: EventTableRow) -> EventTable:
    """The view of a round's table row."""
    return EventTable(r.round_no, r.table_no, r.channel_id, r.table_id, r.user_ids, r.done)


def view_of(row: TournamentRow, entrants: Sequence[EntrantRow],
            tables: Sequence[EventTableRow], round_no: int | None = None) -> EventView:
    """An event with its entrants and the tables of ``round_no`` (default: the current)."""
    shown = row.round_no if round_no is None else round_no
    return EventView(row.id, row.guild_id, row.channel_id, row.message_id, row.organiser_id,
                     row.name, row.preset, row.boards, row.rounds, row.start_at,
                     row.checkin_minutes, row.round_minutes, EventStatus(row.status),
                     row.round_no, tuple(entrant_of(e) for e in entrants),
                     tuple(table_of(t) for t in tables if t.round_no == shown))


def seat_results(results: Sequence[BoardResultRow],
                 tables: Sequence[EventTableRow]) -> list[SeatResult]:
    """Each stored board result split by seat, with who sat there."""
    seated = {(t.round_no, t.table_no): t.user_ids for t in tables}
    out: list[SeatResult] = []
    for r in results:
        users = seated.get((r.round_no, r.table_no), ())
        out.extend(SeatResult(r.round_no, r.board_no, r.table_no, s, users[s], d)
                   for s, d in enumerate(r.delta) if s < len(users))
    return out


def standing_lines(results: Sequence[SeatResult], pars: dict[tuple[int, int], list[int]],
                   entrants: Sequence[EntrantRow]) -> tuple[StandingLine, ...]:
    """The standings over these results: ranked entrants first, then the withdrawn."""
    names = {e.user_id: e.name for e in entrants}
    ranked = {e.user_id for e in entrants if not (e.withdrawn or e.dropped)}
    lines = standings(score_results(results, {k: tuple(v) for k, v in pars.items()}), ranked)
    return tuple(StandingLine(x.rank, x.user_id, names.get(x.user_id, "?"), x.percent,
                              x.butler, x.boards, x.tie_note) for x in lines)


def report_of(row: TournamentRow, entrants: Sequence[EntrantRow],
              tables: Sequence[EventTableRow], results: Sequence[BoardResultRow],
              pars: dict[tuple[int, int], list[int]], round_no: int) -> RoundReport:
    """A round's report: the standings after it and each of its boards at every table."""
    upto = [r for r in results if r.round_no <= round_no]
    lines = standing_lines(seat_results(upto, tables), pars, entrants)
    names = {(t.round_no, t.table_no): t.names for t in tables}
    boards = []
    for b in range(1, row.boards + 1):
        at = [r for r in results if r.round_no == round_no and r.board_no == b]
        boards.append(BoardLine(
            round_no, b, tuple(pars.get((round_no, b), ())),
            tuple((r.table_no, r.delta, tuple(names.get((round_no, r.table_no), ())))
                  for r in at), f"t/{row.id}/{round_no}/{b}"))
    view = view_of(row, entrants, tables, round_no)
    return RoundReport(view, round_no, lines, tuple(boards), round_no >= row.rounds)
