"""A tournament's standings and its podium, on felt.

The standings: rank, name, mean matchpoint percentage, the tie-break (the sum of the
differences from each board's average) and boards played, with the sentence that explains
the ranking under the table; entrants who are not ranked (withdrawn, the AI fillers) come
last with a dash for a rank. The podium: the first three on steps of 2-1-3, as a prize
ceremony shows them. Every word arrives in the view (the caller's language); this module
only draws.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import _draw, fonts
from render._draw import GOLD, INK, INK_DIM

WIDTH = 720
"""As the leaderboard: at a phone's 360 px the smallest letters (20 px) show 10 px tall."""
MAX_ROWS = 40
"""Rows drawn at most; the rest is said in one line (the text and the web page list all)."""
MEDALS = {1: (247, 197, 72), 2: (200, 206, 214), 3: (205, 127, 50)}
_COLUMNS = (0.66, 0.83, 0.975)
"""The right edges of the percentage, tie-break and boards columns (a share of the width)."""
_LETTER, _SMALL, _TITLE = 22, 20, 28
_VALUE = 100
"""Room kept for the percentage ("100.0%") left of its column's right edge."""
_HEADING = 195
"""Room for the percentage's heading ("Matchpoints" and its translations)."""


@dataclass(frozen=True, slots=True)
class RankRow:
    """One entrant's line: ``rank`` None when not ranked; ``note`` a short mark after the
    name ("h2h" where head-to-head broke a tie, "AI", "withdrawn")."""

    rank: int | None
    name: str
    percent: float
    butler: int
    boards: int
    note: str = ""


@dataclass(frozen=True, slots=True)
class StandingsView:
    """The standings image's content; ``headings``: player, percentage, tie-break, boards."""

    rows: tuple[RankRow, ...]
    title: str
    subtitle: str
    headings: tuple[str, str, str, str]
    explanation: str
    more: str = ""
    """The line said in place of the rows beyond ``MAX_ROWS`` ("and 12 more")."""
    highlight: int | None = None
    """The rank to highlight, or None."""


@dataclass(frozen=True, slots=True)
class PodiumPlace:
    rank: int
    name: str
    score: str
    """What is written under the name ("61.5%")."""


@dataclass(frozen=True, slots=True)
class PodiumView:
    title: str
    subtitle: str
    places: tuple[PodiumPlace, ...]
    """The first three (fewer where fewer were ranked), by rank."""


def render_standings(view: StandingsView, *, scale: float = 1.0) -> bytes:
    """Render the standings as PNG bytes (RGB, 720 px wide times ``scale``)."""
    return _draw.to_png(draw_standings(view, scale=scale))


def render_podium(view: PodiumView, *, scale: float = 1.0) -> bytes:
    """Render the podium as PNG bytes (RGB, 720 px wide times ``scale``)."""
    return _draw.to_png(draw_podium(view, scale=scale))


def explanation_lines(view: StandingsView, k: float = 1.0) -> list[str]:
    """The explanation as it is wrapped under the table."""
    return fonts.wrap(view.explanation, round(_SMALL * k), round((WIDTH - 44) * k))


def draw_standings(view: StandingsView, *, scale: float = 1.0) -> Image.Image:
    k = scale
    row_h, head_h, title_h, margin = round(46 * k), round(40 * k), round(84 * k), round(22 * k)
    width = round(WIDTH * k)
    rows = view.rows[:MAX_ROWS]
    more = view.more if len(view.rows) > MAX_ROWS else ""
    notes = explanation_lines(view, k)
    line_h = round(28 * k)
    body = max(1, len(rows)) * row_h + (row_h if more else 0)
    height = title_h + head_h + body + round(14 * k) + len(notes) * line_h + margin
    img = _draw.felt(width, height)
    fonts.draw_text(img, (margin, 30 * k), view.title, round(_TITLE * k), fill=GOLD,
                    bold=True, max_width=width - 2 * margin)
    fonts.draw_text(img, (margin, 64 * k), view.subtitle, round(_SMALL * k), fill=INK_DIM,
                    max_width=width - 2 * margin)
    _headings(img, view, title_h + head_h / 2, k)
    for i, row in enumerate(rows):
        _row(img, view, row, title_h + head_h + i * row_h, row_h, i, k)
    y = title_h + head_h + len(rows) * row_h
    if more:
        fonts.draw_text(img, (width / 2, y + row_h / 2), more, round(_SMALL * k), fill=INK_DIM,
                        anchor="mm", max_width=width - 2 * margin)
        y += row_h
    y += round(14 * k)
    for line in notes:
        fonts.draw_text(img, (margin, y + line_h / 2), line, round(_SMALL * k), fill=INK_DIM)
        y += line_h
    return img


def _name_room(width: int, k: float) -> int:
    """How wide a name may be: from its column to the percentage's, less the values."""
    return round(width * _COLUMNS[0] - 52 * k - 22 * k - _VALUE * k)


def _headings(img: Image.Image, view: StandingsView, y: float, k: float) -> None:
    width, margin = img.width, round(22 * k)
    size = round(_SMALL * k)
    fonts.draw_text(img, (margin + 8 * k, y), "#", size, fill=INK_DIM, bold=True)
    player, *values = view.headings
    fonts.draw_text(img, (margin + 52 * k, y), player, size, fill=INK_DIM, bold=True,
                    max_width=round(width * _COLUMNS[0] - (_HEADING + 52 + 34) * k - margin))
    lefts = [width * _COLUMNS[0] - _HEADING * k, *(width * fx for fx in _COLUMNS[:-1])]
    for label, fx, left in zip(values, _COLUMNS, lefts, strict=True):
        fonts.draw_text(img, (width * fx, y), label, size, fill=INK_DIM, bold=True,
                        anchor="rm", max_width=round(width * fx - left - 12 * k))


def _row(img: Image.Image, view: StandingsView, row: RankRow, y0: float, row_h: int,
         i: int, k: float) -> None:
    d = ImageDraw.Draw(img)
    width, margin = img.width, round(22 * k)
    y = y0 + row_h / 2
    box = (margin / 2, y0 + 2 * k, width - margin / 2, y0 + row_h - 2 * k)
    if row.rank is not None and row.rank == view.highlight:
        d.rounded_rectangle(box, radius=round(10 * k), fill=(40, 66, 40), outline=GOLD,
                            width=max(1, round(2 * k)))
    elif i % 2 == 0:
        d.rounded_rectangle(box, radius=round(10 * k), fill=(16, 74, 49))
    size = round(_LETTER * k)
    cx = margin + 22 * k
    medal = MEDALS.get(row.rank or 0)
    if medal is not None:
        r = 17 * k
        d.ellipse((cx - r, y - r, cx + r, y + r), fill=medal)
    rank = "–" if row.rank is None else str(row.rank)
    fonts.draw_text(img, (cx, y), rank, size, fill=(40, 30, 10) if medal else INK_DIM,
                    bold=True, anchor="mm")
    dim = row.rank is None
    room = _name_room(width, k)
    note_w = fonts.text_width(row.note, round(_SMALL * k)) + round(8 * k) if row.note else 0
    box_name = fonts.draw_text(img, (margin + 52 * k, y), row.name, size,
                               fill=INK_DIM if dim else INK, bold=not dim,
                               max_width=max(round(40 * k), room - note_w))
    if row.note:
        fonts.draw_text(img, (box_name[2] + 8 * k, y), row.note, round(_SMALL * k),
                        fill=INK_DIM)
    values = (f"{row.percent:.1f}%", f"{row.butler:+d}", str(row.boards))
    for j, (text, fx) in enumerate(zip(values, _COLUMNS, strict=True)):
        fonts.draw_text(img, (width * fx, y), text, size,
                        fill=GOLD if j == 0 and not dim else INK if not dim else INK_DIM,
                        bold=j == 0, anchor="rm")


_STEPS = {1: (0.5, 1.0), 2: (0.18, 0.72), 3: (0.82, 0.52)}
"""Each place's step: its centre (a share of the width) and its height (of the tallest)."""


def draw_podium(view: PodiumView, *, scale: float = 1.0) -> Image.Image:
    k = scale
    width, height, margin = round(WIDTH * k), round(380 * k), round(22 * k)
    img = _draw.felt(width, height)
    d = ImageDraw.Draw(img)
    fonts.draw_text(img, (width / 2, 34 * k), view.title, round(_TITLE * k), fill=GOLD,
                    bold=True, anchor="mm", max_width=width - 2 * margin)
    fonts.draw_text(img, (width / 2, 68 * k), view.subtitle, round(_SMALL * k), fill=INK_DIM,
                    anchor="mm", max_width=width - 2 * margin)
    floor, tallest, step_w = height - margin, 170 * k, width * 0.3
    for place in view.places:
        fx, share = _STEPS.get(place.rank, _STEPS[3])
        medal = MEDALS.get(place.rank, MEDALS[3])
        cx, top = width * fx, floor - tallest * share
        d.rounded_rectangle((cx - step_w / 2, top, cx + step_w / 2, floor),
                            radius=round(8 * k), fill=(16, 74, 49), outline=medal,
                            width=max(1, round(3 * k)))
        fonts.draw_text(img, (cx, top + 46 * k), str(place.rank), round(48 * k), fill=medal,
                        bold=True, anchor="mm")
        fonts.draw_text(img, (cx, top - 52 * k), place.name, round(_LETTER * k), fill=INK,
                        bold=True, anchor="mm", max_width=round(step_w - 8 * k))
        fonts.draw_text(img, (cx, top - 22 * k), place.score, round(_SMALL * k), fill=GOLD,
                        anchor="mm", max_width=round(step_w - 8 * k))
    return img
