"""The score sheet, drawn like the paper sheet players keep.

One column per player, one row per hand with the running total in pen ink. The declarer's
contract is boxed (green made, red failed); a barrel total is circled with one stroke per
barrel hand; a zero hand is a dash; a rospisat is a red "Р"; penalties are written in red
where they happened. The bottom row repeats the final totals and highlights the winner.
Long matches wrap into two or three blocks side by side (up to 20 rows a block before they
do, up to 30 with two). A sitter's cell says "sat" (with his bonus, if any); a zero change
is not written.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from render import _draw, fonts
from render._draw import GRID, PAPER, PEN, PEN_RED
from render.model import SheetCell, SheetView

ROWS_PER_BLOCK = 20
GREEN = (20, 130, 60)
GREY = (140, 140, 150)
HIGHLIGHT = (255, 236, 120)


def render_sheet(view: SheetView, *, scale: float = 1.0) -> bytes:
    """Render the score sheet as PNG bytes (mode "P", 64 colours; size grows with players
    and hands: one block up to 20 hands, then two or three blocks side by side)."""
    return _draw.to_png(draw_sheet(view, scale=scale), palette=64)


def draw_sheet(view: SheetView, *, scale: float = 1.0) -> Image.Image:
    k = scale
    n = max(1, len(view.players))
    rows = view.rows
    blocks = _blocks(len(rows))
    per = max(1, math.ceil(len(rows) / blocks))
    num_w, col_w, row_h = round(30 * k), round(max(106, 360 // n) * k), round(25 * k)
    head_h, title_h, foot_h = round(36 * k), round(36 * k), round(44 * k)
    block_w = num_w + n * col_w
    gap = round(22 * k)
    margin = round(16 * k)
    width = 2 * margin + blocks * block_w + (blocks - 1) * gap
    height = title_h + head_h + per * row_h + foot_h + margin
    img = _draw.paper(width, height)
    d = ImageDraw.Draw(img)
    title = view.title or "Score sheet"
    fonts.draw_text(
        img,
        (margin, title_h / 2 + 2 * k),
        title,
        round(22 * k),
        fill=PEN,
        bold=True,
        max_width=width - 2 * margin,
    )
    for b in range(blocks):
        x0 = margin + b * (block_w + gap)
        chunk = rows[b * per : (b + 1) * per]
        _grid(d, x0, title_h, n, per, num_w, col_w, row_h, head_h, k)
        for p, name in enumerate(view.players):
            cx = x0 + num_w + p * col_w + col_w / 2
            fonts.draw_text(
                img,
                (cx, title_h + head_h / 2),
                name,
                round(17 * k),
                fill=PEN,
                bold=True,
                anchor="mm",
                max_width=col_w - round(10 * k),
            )
        for r, row in enumerate(chunk):
            y = title_h + head_h + r * row_h + row_h / 2
            fonts.draw_text(
                img, (x0 + num_w - 8 * k, y), str(row.hand), round(14 * k), fill=GREY, anchor="rm"
            )
            for p, cell in enumerate(row.cells[:n]):
                cx0 = x0 + num_w + p * col_w
                _cell(img, d, cell, cx0, y, col_w, row_h, k, row.dealer == p)
    _footer(
        img,
        d,
        view,
        margin + (blocks - 1) * (block_w + gap),
        height - foot_h - margin // 2,
        num_w,
        col_w,
        foot_h,
        k,
    )
    return img


def _blocks(rows: int) -> int:
    """One block up to 20 hands, two up to 60, then three (long four-player matches)."""
    if rows <= ROWS_PER_BLOCK:
        return 1
    return 2 if rows <= 3 * ROWS_PER_BLOCK else 3


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
) -> None:
    right = x0 + col_w - 10 * k
    size = round(16 * k)
    small = round(12 * k)
    ink = GREY if cell.sitter else PEN
    if cell.dash and not cell.penalty:
        text = "—"
        box = fonts.draw_text(img, (right, y), text, size, fill=ink, bold=True, anchor="rm")
    else:
        box = fonts.draw_text(img, (right, y), str(cell.total), size, fill=ink, anchor="rm")
    if cell.barrel:
        pad = 4 * k
        d.ellipse(
            (box[0] - pad, y - row_h * 0.45, box[2] + pad, y + row_h * 0.45),
            outline=PEN,
            width=max(1, round(2 * k)),
        )
        fonts.draw_text(
            img,
            (box[0] - pad - 3 * k, y),
            "|" * cell.barrel,
            small,
            fill=PEN,
            bold=True,
            anchor="rm",
        )
        box = (round(box[0] - pad - 3 * k - 4 * k * cell.barrel), *box[1:])
    left = x0 + 6 * k
    if cell.contract is not None:
        made = cell.made is not False
        col = GREEN if made else PEN_RED
        text = (
            f"{cell.contract}{'✓' if made else '✗'}"
            if cell.made is not None
            else str(cell.contract)
        )
        b = _draw.badge(img, (left, y), text, small, fill=PAPER, ink=col, pad=0.3)
        d.rounded_rectangle(b, radius=(b[3] - b[1]) // 2, outline=col, width=max(1, round(k)))
        left = b[2] + 4 * k
    if cell.rospisat:
        r = 10 * k
        d.ellipse((left, y - r, left + 2 * r, y + r), outline=PEN_RED, width=max(1, round(2 * k)))
        fonts.draw_text(img, (left + r, y), "Р", small, fill=PEN_RED, bold=True, anchor="mm")
        left += 2 * r + 4 * k
    if cell.penalty:
        b2 = fonts.draw_text(img, (left, y), f"{cell.penalty:+d}", small, fill=PEN_RED, bold=True)
        left = b2[2] + 4 * k
    if cell.barrel_fell:
        fonts.draw_text(img, (left, y), "↓", small, fill=PEN_RED, bold=True)
    elif cell.sitter:
        sat = f"sat {cell.delta:+d}" if cell.delta else "sat"
        fonts.draw_text(img, (left, y), sat, small, fill=GREY)
    elif cell.delta and cell.contract is None and not (cell.penalty or cell.dash):
        fonts.draw_text(img, (left, y), f"{cell.delta:+d}", small, fill=GREY)
    if dealer:
        d.ellipse(
            (x0 + col_w - 6 * k, y - row_h / 2 + 3 * k, x0 + col_w - 2 * k, y - row_h / 2 + 7 * k),
            fill=GREY,
        )


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
    fonts.draw_text(img, (x0 + 4 * k, y), "Σ", round(20 * k), fill=PEN, bold=True)
    for p, cell in enumerate(last.cells):
        cx0 = x0 + num_w + p * col_w
        if p in view.winner:
            d.rounded_rectangle(
                (cx0 + 6 * k, y - 17 * k, cx0 + col_w - 6 * k, y + 17 * k),
                radius=round(8 * k),
                fill=HIGHLIGHT,
            )
            fonts.draw_text(img, (cx0 + 12 * k, y), "★", round(20 * k), fill=(200, 140, 0))
        fonts.draw_text(
            img,
            (cx0 + col_w - 12 * k, y),
            str(cell.total),
            round(22 * k),
            fill=PEN,
            bold=True,
            anchor="rm",
        )
