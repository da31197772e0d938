"""The public table image: seats, the trick, trump, contract, auction and talon on felt.

Seats sit clockwise from the bottom (seat 0 at the bottom): two players face each other,
three sit bottom / upper left / upper right, four sit bottom / left / top / right. Each
seat's card of the trick lies between its name plate and the middle of the table.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import _draw, cards, fonts
from render._draw import GOLD, INK, INK_DIM, TURN
from render.model import SeatView, TableView, split_card

WIDTH, HEIGHT = 900, 600
PLATE_W, PLATE_H = 272, 88

# Plate centres as fractions of the image, by number of seats (seat order = clockwise).
_SEATS: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.9), (0.5, 0.1)],
    3: [(0.5, 0.9), (0.17, 0.27), (0.83, 0.27)],
    4: [(0.5, 0.9), (0.16, 0.5), (0.5, 0.1), (0.84, 0.5)],
}
_PLATE = (10, 48, 32)
_PLATE_TURN = (40, 66, 40)


def render_table(view: TableView, *, scale: float = 1.0) -> bytes:
    """Render the public table as PNG bytes (RGB, ``900×600`` times ``scale``)."""
    return _draw.to_png(draw_table(view, scale=scale))


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
    if view.talon is not None and not view.trick:
        _talon(img, view.talon, centre, csize, k, view.talon_label)
    elif view.talon_piles and not view.trick:
        _piles(img, view.talon_piles, centre, csize, k, view.talon_label)
    elif view.talon_backs and not view.trick:
        _talon(img, ("??",) * view.talon_backs, centre, csize, k, view.talon_label)
    if view.stock:
        _stock(img, view.stock, view.stock_bottom, (W * 0.13, centre[1]), csize, k)
    for seat, card in view.trick:
        px, py = spots[seat]
        t = 0.4 if n == 2 else 0.45 if n == 3 and seat == 0 else 0.42
        cx = centre[0] + (px - centre[0]) * t
        cy = centre[1] + (py - centre[1]) * t
        if n == 4 and seat in (1, 3):
            cx = centre[0] + (px - centre[0]) * 0.33
        if n == 3 and seat in (1, 2):
            cx, cy = centre[0] + (px - centre[0]) * 0.36, centre[1] - 32 * k
        x0, y0 = cx - csize[0] / 2, cy - csize[1] / 2
        if view.last_trick_winner == seat:
            ImageDraw.Draw(img).rounded_rectangle(
                (x0 - 5 * k, y0 - 5 * k, x0 + csize[0] + 5 * k, y0 + csize[1] + 5 * k),
                radius=round(10 * k),
                fill=GOLD,
            )
        _draw.paste(img, cards.face(card, csize), (x0, y0))
    if view.last_trick_winner is not None and view.trick:
        fonts.draw_text(
            img, centre, "last trick", round(16 * k), fill=INK_DIM, bold=True, anchor="mm"
        )
    for seat, sv in enumerate(view.seats):
        _plate(img, sv, spots[seat], k, n)
    return img


def _info(img: Image.Image, view: TableView, k: float) -> None:
    """Top left: the title, "Hand 4 · Play · trick 3/7", then the contract or the high bid.

    With three seats the top edge is free up to the trump disc; with two or four a name
    plate sits in the middle of it, so the lines stop short of that plate.
    """
    x, y = 16 * k, 20 * k
    wide = len(view.seats) == 3
    width = round((560 if wide else 284) * k)
    if view.title:
        fonts.draw_text(
            img, (x, y), view.title, round(18 * k), fill=INK_DIM, bold=True, max_width=width
        )
        y += 27 * k
    sub = " · ".join(
        p for p in (f"Hand {view.hand_number}" if view.hand_number else "", view.phase) if p
    )
    if sub:
        fonts.draw_text(img, (x, y), sub, round(18 * k), fill=INK, bold=True, max_width=width)
        y += 36 * k
    if view.contract is not None and view.declarer is not None:
        who = view.seats[view.declarer].name
        text = f"{view.contract}"
        fill, ink = GOLD, (40, 30, 0)
        if view.made is not None:
            text += " ✓" if view.made else " ✗"
            fill, ink = ((60, 170, 90), INK) if view.made else ((200, 60, 60), INK)
        box = _draw.badge(img, (x, y), text, round(22 * k), fill=fill, ink=ink)
        fonts.draw_text(
            img,
            (box[2] + 8 * k, y),
            who,
            round(20 * k),
            fill=INK,
            bold=True,
            max_width=round(width - (box[2] - x) - 8 * k),
        )
    elif view.high_bid is not None:
        fonts.draw_text(
            img, (x, y), f"High bid {view.high_bid}", round(20 * k), fill=INK, bold=True
        )


def _trump(img: Image.Image, view: TableView, k: float) -> None:
    W = img.width
    r = round(34 * k)
    cx, cy = W - 16 * k - r, 16 * k + r
    d = ImageDraw.Draw(img)
    if view.trump is None:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=INK_DIM, width=max(1, round(2 * k)))
        fonts.draw_text(img, (cx, cy), "—", round(22 * k), fill=INK_DIM, anchor="mm")
        fonts.draw_text(
            img, (cx - r - 10 * k, cy), "no trump yet", round(20 * k), fill=INK_DIM, anchor="rm"
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
    fonts.draw_text(
        img, (cx - r - 10 * k, cy), "trump", round(22 * k), fill=GOLD, bold=True, anchor="rm"
    )


def _talon(
    img: Image.Image,
    talon: tuple[str, ...],
    centre: tuple[float, float],
    csize: tuple[int, int],
    k: float,
    label: str,
) -> None:
    n = max(1, len(talon))
    gap = 8 * k
    total = n * csize[0] + (n - 1) * gap
    x = centre[0] - total / 2
    y = centre[1] - csize[1] / 2 - 8 * k
    fonts.draw_text(
        img, (centre[0], y - 14 * k), label, round(20 * k), fill=INK_DIM, bold=True, anchor="mb"
    )
    for c in talon or ("??",):
        im = cards.back(csize) if c == "??" else cards.face(c, csize)
        _draw.paste(img, im, (x, y))
        x += csize[0] + gap


def _piles(
    img: Image.Image,
    piles: tuple[int, ...],
    centre: tuple[float, float],
    csize: tuple[int, int],
    k: float,
    label: str,
) -> None:
    """Several face-down talons side by side, each fanned a little and numbered."""
    step = round(csize[0] * 0.42)
    widths = [csize[0] + step * (max(1, p) - 1) for p in piles]
    gap = 48 * k
    x = centre[0] - (sum(widths) + gap * (len(piles) - 1)) / 2
    y = centre[1] - csize[1] / 2 - 8 * k
    back = cards.back(csize)
    for i, (count, w) in enumerate(zip(piles, widths, strict=True)):
        fonts.draw_text(
            img,
            (x + w / 2, y - 14 * k),
            f"{label} {i + 1}",
            round(20 * k),
            fill=INK_DIM,
            bold=True,
            anchor="mb",
        )
        for j in range(max(1, count)):
            _draw.paste(img, back, (x + j * step, y))
        x += w + gap


def _stock(
    img: Image.Image,
    count: int,
    bottom: str | None,
    spot: tuple[float, float],
    csize: tuple[int, int],
    k: float,
) -> None:
    """The draw stock: a squared pile of backs, the exposed bottom card across under it."""
    cx, cy = spot
    x0, y0 = cx - csize[0] / 2, cy - csize[1] / 2
    if bottom is not None:
        across = cards.face(bottom, csize).rotate(90, expand=True)
        _draw.paste(img, across, (cx - across.width / 2 + 22 * k, cy - across.height / 2))
    back = cards.back(csize)
    layers = min(4, max(1, count // 3))
    for i in range(layers):
        _draw.paste(img, back, (x0 - i * 2 * k, y0 - i * 2 * k))
    fonts.draw_text(
        img,
        (cx, y0 + csize[1] + 22 * k),
        f"stock {count}",
        round(20 * k),
        fill=INK_DIM,
        bold=True,
        anchor="mm",
    )


def _plate(img: Image.Image, sv: SeatView, spot: tuple[float, float], k: float, n: int) -> None:
    cx, cy = spot
    w, h = PLATE_W * k, PLATE_H * k
    x0, y0 = cx - w / 2, cy - h / 2
    d = ImageDraw.Draw(img)
    box = (round(x0), round(y0), round(x0 + w), round(y0 + h))
    if sv.is_turn:
        d.rounded_rectangle(
            (box[0] - 4 * k, box[1] - 4 * k, box[2] + 4 * k, box[3] + 4 * k),
            radius=round(16 * k),
            fill=TURN,
        )
    d.rounded_rectangle(box, radius=round(13 * k), fill=_PLATE_TURN if sv.is_turn else _PLATE)
    dim = sv.is_sitter
    name_col = INK_DIM if dim else INK
    total = f"{sv.total}"
    tw = fonts.text_width(total, round(30 * k), bold=True)
    pad = 12 * k
    fonts.draw_text(
        img,
        (box[0] + pad, box[1] + 27 * k),
        sv.name,
        round(24 * k),
        fill=name_col,
        bold=True,
        max_width=round(w - 3 * pad - tw),
    )
    fonts.draw_text(
        img,
        (box[2] - pad, box[1] + 27 * k),
        total,
        round(30 * k),
        fill=GOLD if sv.on_barrel else INK,
        bold=True,
        anchor="rm",
    )
    _markers(img, sv, box, k)
    if sv.bid is not None:
        _bid(img, sv.bid, (cx, cy), h, k, n)


_MARK = tuple[str, str, tuple[int, int, int], tuple[int, int, int]]
_DASH = (255, 150, 150)


def _markers(img: Image.Image, sv: SeatView, box: tuple[int, int, int, int], k: float) -> None:
    """The plate's bottom row: badges on the left, card backs (or the hand's change) on the
    right. Badges switch to short labels and the backs close up rather than overlap."""
    pad = 12 * k
    left, right, y = box[0] + pad, box[2] - pad, box[3] - 22 * k
    s = round(16 * k)
    gap = 6 * k
    attempt = f"{min(sv.barrel_hands + 1, sv.barrel_limit)}/{sv.barrel_limit}"
    marks: list[_MARK] = []
    if sv.is_dealer:
        marks.append(("D", "D", INK, (20, 30, 25)))
    if sv.is_declarer:
        marks.append(("declarer", "decl.", GOLD, (40, 30, 0)))
    if sv.is_sitter:
        marks.append(("sits out", "out", (90, 110, 100), INK))
    if sv.on_barrel and sv.barrel_limit > 0:
        marks.append((f"barrel {attempt}", attempt, (150, 96, 40), INK))
    elif sv.on_barrel:
        marks.append(("barrel", "barrel", (150, 96, 40), INK))
    if sv.locked:
        marks.append(("locked", "lock", (120, 60, 60), INK))
    dash_text = " ".join("—" * sv.dashes)
    dash_size = round(20 * k)
    dash_w = fonts.text_width(dash_text, dash_size, bold=True) + 2 * k if sv.dashes else 0
    delta_text = (f"{sv.delta:+d}" if sv.delta else "±0") if sv.delta is not None else ""
    delta_size = round(18 * k)
    back_w = round(17 * k)
    if sv.delta is not None:
        reserve = _draw.badge_width(delta_text, delta_size) + 8 * k
    elif sv.hand_count:
        reserve = back_w + 3 * k * (sv.hand_count - 1) + 8 * k  # the closest the backs get
    else:
        reserve = 0

    def width(short: bool) -> float:
        return sum(_draw.badge_width(m[1] if short else m[0], s) + gap for m in marks) + dash_w

    short = width(False) > right - left - reserve
    x = left
    for full, brief, fill, ink in marks:
        b = _draw.badge(img, (x, y), brief if short else full, s, fill=fill, ink=ink)
        x = b[2] + gap
    if sv.dashes:
        box_d = fonts.draw_text(img, (x + 2 * k, y), dash_text, dash_size, fill=_DASH, bold=True)
        x = box_d[2] + gap
    if sv.delta is not None:
        good = sv.delta > 0
        _draw.badge(
            img,
            (right, y),
            delta_text,
            delta_size,
            anchor="rm",
            fill=(46, 140, 80) if good else (170, 50, 50) if sv.delta < 0 else (70, 90, 80),
            ink=INK,
        )
    elif sv.hand_count:
        room = right - x - 2 * k - back_w
        step = 6 * k if sv.hand_count < 2 else min(6 * k, room / (sv.hand_count - 1))
        _mini_backs(img, sv.hand_count, (right, y), k, max(2 * k, step))


def _mini_backs(
    img: Image.Image, count: int, right_mid: tuple[float, float], k: float, step: float
) -> None:
    size = (round(17 * k), round(24 * k))
    x = right_mid[0] - size[0] - step * (count - 1)
    for _ in range(count):
        _draw.paste(img, cards.back(size), (x, right_mid[1] - size[1] / 2))
        x += step


def _bid(img: Image.Image, bid: str, spot: tuple[float, float], h: float, k: float, n: int) -> None:
    cx, cy = spot
    passed = bid.lower().startswith("pass")
    above = cy > img.height / 2
    y = cy - h / 2 - 26 * k if above else cy + h / 2 + 26 * k
    if n == 4 and abs(cy - img.height / 2) < 5:
        y = cy + h / 2 + 26 * k
    _draw.badge(
        img,
        (cx, y),
        bid,
        round(22 * k),
        anchor="mm",
        fill=(70, 90, 80) if passed else (253, 252, 248),
        ink=INK_DIM if passed else (20, 20, 24),
    )


def trump_names() -> dict[str, str]:
    return {s: _draw.suit_label(s) for s in ("C", "D", "H", "S")}


def check_cards(view: TableView) -> None:
    """Raise ``ValueError`` on a malformed card in ``view`` (the renderer would too)."""
    for _seat, c in view.trick:
        split_card(c)
