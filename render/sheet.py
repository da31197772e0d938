"""The score sheet, drawn like the paper sheet players keep.

One column per player, one row per hand with the running total in pen ink. The declarer's
contract is boxed (green made, red failed); a barrel total is circled with one stroke per
barrel hand; a zero hand is a dash; a rospisat is a red "Р"; penalties are written in red
where they happened; the dealer's cell carries the dealer's letter. The bottom row
repeats the final totals and highlights the winner.
The channel's sheet shows the last 20 hands and the totals, 720 px wide whatever the number
of players, so that it reads on a phone (``render.display``); ``first`` picks an earlier
page of 20 (for a paging command). A sitter's cell says "sat" (with his bonus, if any); a
zero change is not written.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import _draw, fonts
from render._draw import GRID, PAPER, PEN, PEN_RED
from render.labels import Labels
from render.model import SheetCell, SheetView

ROWS = 20
"""Hands the channel's sheet shows: the last 20 and the totals (``first`` pages back)."""
WIDTH = 720
"""Every sheet is 720 px wide: at a phone's 360 px its 22 px letters show 11 px tall."""
LETTER = 22
GREEN = (20, 130, 60)
GREY = (110, 110, 122)
HIGHLIGHT = (255, 236, 120)


def render_sheet(view: SheetView, *, scale: float = 1.0, first: int | None = None) -> bytes:
    """Render the score sheet as PNG bytes (mode "P", 64 colours, ``WIDTH`` px wide): up to
    ``ROWS`` hands from row index ``first`` (default: the last ones) and the totals."""
    return _draw.to_png(draw_sheet(view, scale=scale, first=first), palette=64)


def title_lines(title: str, width: int, size: int) -> list[str]:
    """The title whole on one line, else its short name (before " (") with the rest,
    else wrapped onto two lines."""
    short = title.split(" (", maxsplit=1)[0]
    if " (" in title and ")" in title:
        short += title[title.index(")") + 1 :]
    for text in (title, short):
        if fonts.text_width(text, size, bold=True) <= width:
            return [text]
    return fonts.wrap(short, size, width, bold=True)[:2]


def draw_sheet(view: SheetView, *, scale: float = 1.0, first: int | None = None) -> Image.Image:
    k = scale
    n = max(1, len(view.players))
    total_rows = len(view.rows)
    start = max(0, total_rows - ROWS) if first is None else max(0, min(first, total_rows - 1))
    rows = view.rows[start : start + ROWS]
    per = max(1, len(rows))
    width = round(WIDTH * k)
    margin = round(14 * k)
    num_w = round(50 * k)
    col_w = (width - 2 * margin - num_w) // n
    row_h = round(40 * k)
    tsize = round(26 * k)
    title = title_lines(view.title or view.labels.sheet, width - 2 * margin, tsize)
    title_h = round(12 * k) + round(36 * k) * len(title)
    head_h, foot_h = round(46 * k), round(56 * k)
    note_h = round(34 * k) if len(rows) < total_rows else 0
    height = title_h + head_h + per * row_h + foot_h + note_h + margin
    img = _draw.paper(width, height)
    d = ImageDraw.Draw(img)
    y = round(12 * k) + round(18 * k)
    for line in title:
        fonts.draw_text(img, (margin, y), line, tsize, fill=PEN, bold=True)
        y += round(36 * k)
    x0 = margin
    _grid(d, x0, title_h, n, per, num_w, col_w, row_h, head_h, k)
    for p, name in enumerate(view.players):
        cx = x0 + num_w + p * col_w + col_w / 2
        fonts.draw_text(
            img,
            (cx, title_h + head_h / 2),
            name,
            round(24 * k),
            fill=PEN,
            bold=True,
            anchor="mm",
            max_width=col_w - round(10 * k),
        )
    for r, row in enumerate(rows):
        ry = title_h + head_h + r * row_h + row_h / 2
        fonts.draw_text(
            img, (x0 + num_w - 8 * k, ry), str(row.hand), round(LETTER * k), fill=GREY, anchor="rm"
        )
        for p, cell in enumerate(row.cells[:n]):
            cx0 = x0 + num_w + p * col_w
            _cell(img, d, cell, cx0, ry, col_w, row_h, k, row.dealer == p, view.labels)
    foot_y = title_h + head_h + per * row_h
    _footer(img, d, view, x0, foot_y, num_w, col_w, foot_h, k)
    if note_h:
        lab = view.labels
        shown = lab.say(lab.sheet_pages, first=rows[0].hand, last=rows[-1].hand,
                        total=view.rows[-1].hand)
        fonts.draw_text(
            img, (margin, foot_y + foot_h + note_h / 2), shown, round(LETTER * k), fill=GREY
        )
    return img


def _grid(
    d: ImageDraw.ImageDraw,
    x0: int,
    y0: int,
    n: int,
    per: int,
    num_w: int,
    col_w: int,
    row_h: int,
    head_h: int,
    k: float,
) -> None:
    x1 = x0 + num_w + n * col_w
    yb = y0 + head_h + per * row_h
    for r in range(per + 1):
        y = y0 + head_h + r * row_h
        d.line((x0, y, x1, y), fill=GRID, width=1)
    lw = max(2, round(2 * k))
    d.line((x0, y0 + head_h - 3 * k, x1, y0 + head_h - 3 * k), fill=PEN, width=lw)
    for p in range(n + 1):
        x = x0 + num_w + p * col_w
        d.line((x, y0, x, yb), fill=(200, 90, 90) if p == 0 else GRID, width=lw if p == 0 else 1)


def _cell(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    cell: SheetCell,
    x0: float,
    y: float,
    col_w: int,
    row_h: int,
    k: float,
    dealer: bool,
    labels: Labels,
) -> None:
    """One player's cell of a row: the total on the right (circled on the barrel, with
    its strokes), the marks on the left, and the hand's change in between."""
    box = _cell_total(img, d, cell, (x0 + col_w - 10 * k, y), row_h, k)
    left = _cell_marks(img, d, cell, (x0 + 6 * k, y), k, dealer, labels)
    room = max(10, round(box[0] - 4 * k - left))
    small = round(LETTER * k)
    if cell.barrel_fell:
        fonts.draw_text(img, (left, y), "↓", small, fill=PEN_RED, bold=True)
    elif cell.sitter:
        sat = f"{labels.sat} {cell.delta:+d}" if cell.delta else labels.sat
        fonts.draw_text(img, (left, y), sat, small, fill=GREY, max_width=room)
    elif cell.delta and cell.contract is None and not (cell.penalty or cell.dash):
        fonts.draw_text(img, (left, y), f"{cell.delta:+d}", small, fill=GREY, max_width=room)


def _cell_total(img: Image.Image, d: ImageDraw.ImageDraw, cell: SheetCell,
                right_mid: tuple[float, float], row_h: int,
                k: float) -> tuple[float, float, float, float]:
    """The total (a dash for a defender's zero), circled with its strokes on the barrel;
    returns the box it takes."""
    right, y = right_mid
    size = round(26 * k)
    ink = GREY if cell.sitter else PEN
    if cell.dash and not cell.penalty:
        box = fonts.draw_text(img, (right, y), "—", size, fill=ink, bold=True, anchor="rm")
    else:
        box = fonts.draw_text(img, (right, y), str(cell.total), size, fill=ink, anchor="rm")
    if cell.barrel:
        pad = 4 * k
        d.ellipse(
            (box[0] - pad, y - row_h * 0.46, box[2] + pad, y + row_h * 0.46),
            outline=PEN,
            width=max(1, round(2 * k)),
        )
        strokes = fonts.draw_text(
            img,
            (box[0] - pad - 3 * k, y),
            "|" * cell.barrel,
            round(LETTER * k),
            fill=PEN,
            bold=True,
            anchor="rm",
        )
        box = (strokes[0], *box[1:])
    return box


def _cell_marks(img: Image.Image, d: ImageDraw.ImageDraw, cell: SheetCell,
                left_mid: tuple[float, float], k: float, dealer: bool,
                labels: Labels) -> float:
    """The marks from the left: the dealer, the contract (made or not), a concession and
    a penalty; returns where the next thing may start."""
    left, y = left_mid
    small = round(LETTER * k)
    if dealer:  # a letter tag, as on the table's plates (a dot said nothing)
        b = _draw.badge(img, (left, y), labels.dealer_mark, small, fill=GREY, ink=PAPER,
                        pad=0.2)
        left = b[2] + 4 * k
    if cell.contract is not None:
        made = cell.made is not False
        col = GREEN if made else PEN_RED
        text = (
            f"{cell.contract}{'✓' if made else '✗'}"
            if cell.made is not None
            else str(cell.contract)
        )
        b = _draw.badge(img, (left, y), text, small, fill=PAPER, ink=col, pad=0.2)
        d.rounded_rectangle(b, radius=(b[3] - b[1]) // 2, outline=col, width=max(1, round(k)))
        left = b[2] + 4 * k
    if cell.rospisat:
        r = 15 * k
        d.ellipse((left, y - r, left + 2 * r, y + r), outline=PEN_RED, width=max(1, round(2 * k)))
        fonts.draw_text(img, (left + r, y), labels.rospisat_mark, small, fill=PEN_RED, bold=True,
                        anchor="mm")
        left += 2 * r + 4 * k
    if cell.penalty:
        b2 = fonts.draw_text(img, (left, y), f"{cell.penalty:+d}", small, fill=PEN_RED, bold=True)
        left = b2[2] + 4 * k
    return left

def _footer(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: SheetView,
    x0: int,
    y0: int,
    num_w: int,
    col_w: int,
    foot_h: int,
    k: float,
) -> None:
    if not view.rows:
        return
    last = view.rows[-1]
    x1 = x0 + num_w + len(view.players) * col_w
    lw = max(2, round(2 * k))
    d.line((x0, y0 + 4 * k, x1, y0 + 4 * k), fill=PEN, width=lw)
    d.line((x0, y0 + 8 * k, x1, y0 + 8 * k), fill=PEN, width=lw)
    y = y0 + foot_h / 2 + 4 * k
    fonts.draw_text(img, (x0 + 4 * k, y), "Σ", round(26 * k), fill=PEN, bold=True)
    for p, cell in enumerate(last.cells):
        cx0 = x0 + num_w + p * col_w
        if p in view.winner:
            d.rounded_rectangle(
                (cx0 + 6 * k, y - 17 * k, cx0 + col_w - 6 * k, y + 17 * k),
                radius=round(8 * k),
                fill=HIGHLIGHT,
            )
            fonts.draw_text(img, (cx0 + 12 * k, y), "★", round(26 * k), fill=(200, 140, 0))
        fonts.draw_text(
            img,
            (cx0 + col_w - 12 * k, y),
            str(cell.total),
            round(28 * k),
            fill=PEN,
            bold=True,
            anchor="rm",
        )
