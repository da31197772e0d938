"""What a tournament shows on Discord: the sign-up message and its buttons, the round's
standings and boards, the podium, in one language each (the server's, for public posts).

Pure text and view building from the service's values (``EventView``, ``RoundReport``):
the port (``cogs/_tournament_port.py``) sends them, the cog answers with them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import discord

from bot.game.presets import PRESETS
from bot.i18n import t
from bot.i18n.values import PresetTitle
from bot.tables import EventStatus, EventView, RoundReport, StandingLine, TableError
from cogs._ids import PREFIX, TOURNAMENT_TEMPLATE
from cogs._plain import plain
from cogs._tree import report_error
from render.standings import MAX_ROWS, PodiumPlace, PodiumView, RankRow, StandingsView

LIMIT = 2000  # a message's content
TEXT_ROWS = 20  # standings lines in a post's text (the image has more, the web page all)
MEDALS = ("🥇", "🥈", "🥉")


def button_id(event_id: int, verb: str) -> str:
    """The custom id of a sign-up button: the event and what is asked."""
    return f"{PREFIX}t:{event_id}:{verb}"


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=TOURNAMENT_TEMPLATE):
    """Join, Leave or Check in: the event travels in the id, so a press works after a
    restart."""

    def __init__(self, event_id: int, verb: str, *, label: str = "?",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=button_id(event_id, verb)))
        self.event_id, self.verb = event_id, verb

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> TournamentButton:
        return cls(int(match["event"]), match["verb"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        press = getattr(interaction.client.get_cog("Tournament"), "press", None)
        try:
            if press is None:
                raise TableError("error.inactive_button")
            await press(interaction, self.event_id, self.verb)
        except Exception as exc:
            await report_error(interaction, exc)


def preset_title(preset: str, loc: str | None) -> str:
    rules = PRESETS.get(preset)
    return PresetTitle(preset, rules.title if rules else preset).localize(loc or "en")


def settings_lines(event: EventView, loc: str | None) -> list[str]:
    """The event's title and settings, the start as a Discord timestamp (each reader sees
    it in his own time zone)."""
    start = int(event.start_at)
    return [t("tournament.signup.title", loc, name=plain(event.name)),
            t("tournament.signup.settings", loc, preset=preset_title(event.preset, loc),
              rounds=event.rounds, boards=event.boards, start=f"<t:{start}:f>",
              relative=f"<t:{start}:R>"),
            t("tournament.signup.organiser", loc, organiser=f"<@{event.organiser_id}>")]


def signup_text(event: EventView, loc: str | None) -> str:
    """The sign-up message: settings, where the event is, the entrants."""
    lines = settings_lines(event, loc)
    status = event.status
    if status is EventStatus.SIGNUP:
        opens = int(event.start_at - 60 * event.checkin_minutes)
        lines.append(t("tournament.signup.checkin", loc, time=f"<t:{opens}:R>"))
    elif status is EventStatus.CHECKIN:
        lines.append(t("tournament.signup.checkin_open", loc))
    elif status is EventStatus.RUNNING:
        lines.append(t("tournament.signup.running", loc, round=event.round_no,
                       rounds=event.rounds))
        if event.round_no < 2:
            lines.append(t("tournament.signup.late", loc))
    else:
        lines.append(t(f"tournament.signup.{status.value}", loc))
    people = [e for e in event.entrants if e.user_id > 0 and not e.dropped]
    if not people:
        lines.append(t("tournament.signup.nobody", loc))
        return "\n".join(lines)[:LIMIT]
    mark = status is EventStatus.CHECKIN
    names = [("✅ " if mark and e.checked_in else "") + plain(e.name)
             + (f" ({t('tournament.why.withdrawn', loc)})" if e.withdrawn else "")
             for e in people]
    head = "\n".join(lines) + "\n"
    tail = f"\n{t('tournament.signup.legend', loc)}" if mark else ""
    listed = t("tournament.signup.entrants", loc, count=len(people), names=", ".join(names))
    room = LIMIT - len(head) - len(tail)
    if len(listed) > room:
        listed = listed[:room - 1] + "…"
    return head + listed + tail


def signup_view(event: EventView, loc: str | None) -> discord.ui.View | None:
    """The buttons the event's state offers (none once it is over)."""
    status = event.status
    verbs: list[str] = []
    if status in (EventStatus.SIGNUP, EventStatus.CHECKIN):
        verbs = ["join", "leave"]
    elif status is EventStatus.RUNNING and event.round_no < 2:
        verbs = ["join"]
    if status is EventStatus.CHECKIN:
        verbs.append("checkin")
    if not verbs:
        return None
    view = discord.ui.View(timeout=None)
    styles = {"join": discord.ButtonStyle.primary, "checkin": discord.ButtonStyle.success}
    for verb in verbs:
        view.add_item(TournamentButton(event.id, verb, label=t(f"button.tournament.{verb}", loc),
                                       style=styles.get(verb, discord.ButtonStyle.secondary)))
    return view


def chunks(lines: Iterable[str], limit: int = LIMIT) -> list[str]:
    """Lines gathered into as few messages as fit (a longer line is cut)."""
    out: list[str] = []
    current = ""
    for line in lines:
        line = line[:limit]
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out


def mentions(user_ids: Iterable[int]) -> str:
    return ", ".join(f"<@{u}>" for u in user_ids if u > 0)


def _why(s: StandingLine, loc: str | None) -> str:
    return t("tournament.why.ai" if s.user_id < 0 else "tournament.why.withdrawn", loc)


def standing_line(s: StandingLine, loc: str | None) -> str:
    """One line of the standings' text."""
    params: dict[str, Any] = {"name": plain(s.name), "percent": f"{s.percent:.1f}",
                              "butler": f"{s.butler:+d}", "boards": s.boards}
    if s.rank is None:
        return t("tournament.round.unranked", loc, why=_why(s, loc), **params)
    line = t("tournament.round.line", loc, rank=s.rank, **params)
    return f"{line} ({t('tournament.why.h2h', loc)})" if s.tie_note == "h2h" else line


def standings_text(report: RoundReport, loc: str | None) -> list[str]:
    """The round's standings as lines: title, legend, the first ``TEXT_ROWS``, the sentence
    that explains the ranking."""
    ev = report.event
    lines = [t("tournament.round.title", loc, name=plain(ev.name), round=report.round_no,
               rounds=ev.rounds), f"-# {t('tournament.round.head', loc)}"]
    lines += [standing_line(s, loc) for s in report.standings[:TEXT_ROWS]]
    if len(report.standings) > TEXT_ROWS:
        lines.append(t("tournament.more", loc, count=len(report.standings) - TEXT_ROWS))
    lines.append(f"-# {t('tournament.explanation', loc)}")
    return lines


def _signed(values: Sequence[int]) -> str:
    return " · ".join(f"{v:+d}" for v in values)


def boards_text(report: RoundReport, loc: str | None) -> list[str]:
    """Every board of the round: par, then each table's result seat by seat."""
    lines = [t("tournament.boards.title", loc, round=report.round_no)]
    for b in report.boards:
        lines.append(t("tournament.boards.board", loc, board=b.board_no, par=_signed(b.par)))
        for table_no, scores, names in b.results:
            seats = " · ".join(f"{plain(n)} {v:+d}" for n, v in zip(names, scores, strict=False))
            lines.append(t("tournament.boards.table", loc, table=table_no, results=seats))
    return lines


def standings_image(report: RoundReport, loc: str | None) -> StandingsView:
    """The standings image's content in ``loc``'s words."""
    ev = report.event
    notes = {"h2h": t("img.tournament.h2h", loc)}
    rows = tuple(RankRow(
        s.rank, s.name, s.percent, s.butler, s.boards,
        notes.get(s.tie_note, "") if s.rank is not None else
        t("img.tournament.ai" if s.user_id < 0 else "img.tournament.withdrawn", loc))
        for s in report.standings)
    return StandingsView(
        rows, t("img.tournament.standings", loc, name=ev.name),
        t("img.tournament.after", loc, round=report.round_no, rounds=ev.rounds),
        (t("img.tournament.player", loc), t("img.tournament.percent", loc),
         t("img.tournament.butler", loc), t("img.tournament.boards", loc)),
        t("tournament.explanation", loc),
        more=t("tournament.more", loc, count=max(0, len(rows) - MAX_ROWS)))


def podium(report: RoundReport) -> list[StandingLine]:
    """The first three ranked."""
    return sorted((s for s in report.standings if s.rank is not None and s.rank <= 3),
                  key=lambda s: s.rank or 0)[:3]


def podium_text(report: RoundReport, loc: str | None) -> str:
    ev = report.event
    lines = [t("tournament.podium.title", loc, name=plain(ev.name))]
    top = podium(report)
    if not top:
        lines.append(t("tournament.podium.nobody", loc))
    for s in top:
        lines.append(t("tournament.podium.line", loc, medal=MEDALS[(s.rank or 1) - 1],
                       name=plain(s.name), percent=f"{s.percent:.1f}"))
    lines.append(t("tournament.podium.all", loc, name=plain(ev.name)))
    return "\n".join(lines)[:LIMIT]


def podium_image(report: RoundReport, loc: str | None) -> PodiumView:
    ev = report.event
    players = sum(1 for e in ev.entrants if e.user_id > 0 and not e.dropped)
    return PodiumView(
        t("img.tournament.podium", loc, name=ev.name),
        t("img.tournament.podium_sub", loc, rounds=ev.rounds, players=players),
        tuple(PodiumPlace(s.rank or 0, s.name, f"{s.percent:.1f}%") for s in podium(report)))


def status_word(event: EventView, loc: str | None) -> str:
    return t(f"tournament.status.{event.status.value}", loc)
