"""The public table image: seats, the trick, trump, contract, auction and talon on felt.

Seats sit clockwise from the bottom (seat 0 at the bottom): two players face each other,
three sit bottom / upper left / upper right, four sit bottom / left / top / right. Each
seat's card of the trick lies between its name plate and the middle of the table. The
plates are drawn by ``render._plates``, the trick, talon and stock by ``render._table_middle``.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import _draw, cards, fonts
from render._draw import GOLD, INK, INK_DIM
from render._plates import draw_plate
from render._table_middle import piles, stock, talon, trick
from render._table_units import HEIGHT, LETTER, WIDTH, px
from render.model import TableView

# Plate centres as fractions of the image, by number of seats (seat order = clockwise).
_SEATS: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.91), (0.62, 0.1)],
    3: [(0.5, 0.91), (0.17, 0.3), (0.83, 0.3)],
    4: [(0.5, 0.91), (0.155, 0.5), (0.56, 0.1), (0.845, 0.5)],
}
_INFO_W = {2: 98, 3: 190, 4: 112}
"""Width of the top-left info column, in phone px (up to the plate or the trump disc)."""
_PHASE_LINES = {2: 4, 3: 1, 4: 3}
"""Lines the phase may take in the info column before it reaches the plates."""


def render_table(view: TableView, *, scale: float = 1.0) -> bytes:
    """Render the public table as PNG bytes (RGB, ``900×600`` times ``scale``)."""
    return _draw.to_png(draw_table(view, scale=scale))


def title_lines(title: str, seats: int, *, scale: float = 1.0) -> list[str]:
    """The title as drawn: whole on one line if it fits, else its short name (the part
    before " ("), else wrapped onto two lines; never cut while two lines hold it."""
    size, room = px(LETTER, scale), px(_INFO_W[seats], scale)
    short = title.split(" (", maxsplit=1)[0]
    for text in (title, short):
        if fonts.text_width(text, size, bold=True) <= room:
            return [text]
    for text in (title, short):
        lines = fonts.wrap(text, size, room, bold=True)
        if len(lines) <= 2 and not any(line.endswith(fonts.ELLIPSIS) for line in lines):
            return lines
    return fonts.wrap(short, size, room, bold=True)[:2]


def draw_table(view: TableView, *, scale: float = 1.0) -> Image.Image:
    n = len(view.seats)
    if n not in _SEATS:
        raise ValueError(f"a table has 2, 3 or 4 seats, not {n}")
    W, H = round(WIDTH * scale), round(HEIGHT * scale)
    img = _draw.felt(W, H)
    k = scale
    centre = (W / 2, H * 0.5)
    spots = [(fx * W, fy * H) for fx, fy in _SEATS[n]]
    _info(img, view, k)
    _trump(img, view, k)
    csize = cards.size_for("table", scale)
    lab = view.labels
    if view.talon is not None and not view.trick:
        talon(img, view.talon, centre, csize, k, view.talon_label, lab)
    elif view.talon_piles and not view.trick:
        piles(img, view.talon_piles, centre, csize, k, view.talon_label)
    elif view.talon_backs and not view.trick:
        talon(img, ("??",) * view.talon_backs, centre, csize, k, view.talon_label, lab)
    if view.stock:
        stock(img, view.stock, view.stock_bottom, (W * 0.12, centre[1] + 10 * k), csize, k,
               lab)
    trick(img, view, centre, csize, k)
    for seat, sv in enumerate(view.seats):
        draw_plate(img, sv, spots[seat], k, n, lab, seat, view)
    return img


def phase_lines(hand: str, tail: list[str], seats: int, *, scale: float = 1.0) -> list[str]:
    """The info column's phase line ("Hand 4 · Play · last trick") as drawn, wrapped; the
    hand number gives way where the words would run into the plates."""
    size, width = px(LETTER, scale), px(_INFO_W[seats], scale)
    lines = fonts.wrap(" · ".join(p for p in [hand, *tail] if p), size, width, bold=True)
    if len(lines) > _PHASE_LINES[seats]:
        lines = fonts.wrap(" · ".join(p for p in tail if p), size, width, bold=True)
    return lines


def _info(img: Image.Image, view: TableView, k: float) -> None:
    """Top left: the title, "Hand 4", the phase, then the contract or the high bid."""
    n = len(view.seats)
    x, y = px(5, k), px(8, k)
    line = px(13.5, k)
    width = px(_INFO_W[n], k)
    size = px(LETTER, k)
    for text in title_lines(view.title, n, scale=k) if view.title else []:
        fonts.draw_text(img, (x, y), text, size, fill=INK_DIM, bold=True, max_width=width)
        y += line
    lab = view.labels
    tail = [view.phase]
    if view.last_trick_winner is not None and view.trick:
        tail.append(lab.last_trick)
    hand = lab.say(lab.hand_no, no=view.hand_number) if view.hand_number else ""
    lines = phase_lines(hand, tail, n, scale=k)
    for text in lines:
        fonts.draw_text(img, (x, y), text, size, fill=INK, bold=True)
        y += line
    y += px(3, k)
    if view.contract is not None and view.declarer is not None:
        who = view.seats[view.declarer].name
        text = f"{view.contract}"
        fill, ink = GOLD, (40, 30, 0)
        if view.made is not None:
            text += " ✓" if view.made else " ✗"
            fill, ink = ((60, 170, 90), INK) if view.made else ((200, 60, 60), INK)
        box = _draw.badge(img, (x, y), text, px(12, k), fill=fill, ink=ink, pad=0.3)
        fonts.draw_text(
            img,
            (box[2] + px(4, k), y),
            who,
            size,
            fill=INK,
            bold=True,
            max_width=round(width - (box[2] - x) - px(4, k)),
        )
    elif view.high_bid is not None:
        fonts.draw_text(img, (x, y), lab.say(lab.high_bid, bid=view.high_bid), px(12, k),
                        fill=GOLD, bold=True, max_width=width)


def _trump(img: Image.Image, view: TableView, k: float) -> None:
    """Top right (right middle on a two-player table): the trump disc and its label."""
    W = img.width
    r = px(13, k)
    two = len(view.seats) == 2
    cx = W - px(5, k) - r
    cy = img.height * 0.5 - px(8, k) if two else px(5, k) + r
    d = ImageDraw.Draw(img)
    label_y = cy + r + px(9, k)
    size = px(LETTER, k)
    if view.trump is None:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=INK_DIM, width=max(1, round(3 * k)))
        fonts.draw_text(img, (cx, cy), "—", size, fill=INK_DIM, anchor="mm", bold=True)
        fonts.draw_text(
            img, (cx + r, label_y), view.labels.no_trump, size, fill=INK_DIM, bold=True,
            anchor="rm"
        )
        return
    d.ellipse(
        (cx - r, cy - r, cx + r, cy + r),
        fill=(253, 252, 248),
        outline=GOLD,
        width=max(2, round(3 * k)),
    )
    p = round(r * 1.15)
    _draw.paste(img, _draw.pip(view.trump, p), (cx - p / 2, cy - p / 2))
    fonts.draw_text(img, (cx + r, label_y), view.labels.trump, size, fill=GOLD, bold=True,
                    anchor="rm")
