"""A hand's analysis as a picture: the seat's cards as dealt, then one row per decision
with its mark, what was done, the better choice and the points lost.

720 px wide like the score sheet (``render.display``: at a phone's 360 px the 22 px letters
show 11 px tall). The words come from the caller, already in the reader's language; a
long hand is drawn a page at a time (the caller passes the rows of one page).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import _draw, cards, fonts
from render._draw import GRID, PEN, PEN_RED
from render.labels import ENGLISH, Labels

WIDTH = 720
LETTER = 22
_MARK_COLOURS = {"??": (200, 24, 38), "?": (226, 112, 20), "?!": (196, 160, 0),
                 "": (150, 150, 160)}
_DIM = (110, 110, 122)


@dataclass(frozen=True, slots=True)
class AnalysisRow:
    """One decision: its move number, mark, what was done, the better choice (empty when
    it was the best) and the points lost."""

    step: int
    mark: str
    action: str
    best: str
    loss: int


@dataclass(frozen=True, slots=True)
class AnalysisView:
    """What the picture shows, in the reader's words."""

    title: str
    cards: tuple[str, ...]  # the seat's cards as dealt ("10H")
    rows: tuple[AnalysisRow, ...]
    summary: str
    footer: str = ""
    labels: Labels = ENGLISH


def render_analysis(view: AnalysisView) -> bytes:
    """The picture as PNG bytes (``WIDTH`` px wide, 64 colours)."""
    return _draw.to_png(draw_analysis(view), palette=64)


def draw_analysis(view: AnalysisView) -> Image.Image:
    margin = 16
    inner = WIDTH - 2 * margin
    n = max(1, len(view.cards))
    card_w = min(76, (inner - (n - 1) * 4) // n)
    card_h = round(card_w * 1.45)
    row_h = 44  # a decision; one with a better choice takes a second line
    summary = fonts.wrap(view.summary, LETTER, inner)
    footer = fonts.wrap(view.footer, LETTER, inner) if view.footer else []
    rows_h = sum(row_h + (32 if r.best else 0) for r in view.rows)
    height = (margin + 38 + (card_h + 14 if view.cards else 0) + rows_h
              + 10 + 28 * len(summary) + 28 * len(footer) + margin)
    img = _draw.paper(WIDTH, height).copy()
    draw = ImageDraw.Draw(img)
    y = margin
    fonts.draw_text(img, (margin, y + 16), view.title, LETTER + 4, fill=PEN, bold=True,
                    max_width=inner)
    y += 38
    if view.cards:
        x = margin
        for c in view.cards:
            _draw.paste(img, cards.face(c, (card_w, card_h), view.labels), (x, y))
            x += card_w + 4
        y += card_h + 14
    for row in view.rows:
        draw.line((margin, y, WIDTH - margin, y), fill=GRID, width=1)
        mid = y + row_h / 2
        colour = _MARK_COLOURS.get(row.mark, _DIM)
        fonts.draw_text(img, (margin, mid), str(row.step), LETTER, fill=_DIM)
        if row.mark:
            _draw.badge(img, (margin + 40, mid), row.mark, LETTER, fill=colour,
                        ink=(255, 255, 255))
        left = margin + 100
        loss = f"−{row.loss}" if row.loss else ""
        loss_w = fonts.text_width(loss, LETTER, bold=True) + 12 if loss else 0
        fonts.draw_text(img, (left, mid), row.action, LETTER, fill=PEN, bold=bool(row.mark),
                        max_width=WIDTH - margin - left - loss_w)
        if loss:
            fonts.draw_text(img, (WIDTH - margin, mid), loss, LETTER, bold=True,
                            fill=PEN_RED if row.mark else _DIM, anchor="rm")
        y += row_h
        if row.best:
            fonts.draw_text(img, (left, y + 8), f"→ {row.best}", LETTER,
                            fill=PEN_RED if row.mark else _DIM, max_width=WIDTH - margin - left)
            y += 32
    draw.line((margin, y, WIDTH - margin, y), fill=GRID, width=1)
    y += 10
    for line in summary:
        fonts.draw_text(img, (margin, y + 14), line, LETTER, fill=PEN, bold=True)
        y += 28
    for line in footer:
        fonts.draw_text(img, (margin, y + 14), line, LETTER, fill=_DIM)
        y += 28
    return img
