"""The public table image: seats, the trick, trump, contract, auction and talon on felt.

Seats sit clockwise from the bottom (seat 0 at the bottom): two players face each other,
three sit bottom / upper left / upper right, four sit bottom / left / top / right. Each
seat's card of the trick lies between its name plate and the middle of the table.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import _draw, cards, fonts
from render._draw import GOLD, INK, INK_DIM, TURN
from render.labels import Labels
from render.model import SeatView, TableView

WIDTH, HEIGHT = 900, 600
U = WIDTH / 360
"""Image pixels per pixel on a phone (the table shows 360 px wide there): sizes below are
written in phone pixels, ``11.2 * U`` being the smallest letter (see ``render.display``)."""
LETTER = 11.2
PLATE_H = 44
PLATE_W = {2: 240, 3: 112, 4: 150}
"""Plate widths: a two-player table has 600 image px of felt for a name."""
_SIDE_W, _SIDE_H = 106, 60
"""The side plates of four players: narrow (the trick lies beside them) and tall, the name
on a row of its own, so that a name of some fifteen letters shows whole at 360 px."""

# Plate centres as fractions of the image, by number of seats (seat order = clockwise).
_SEATS: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.91), (0.62, 0.1)],
    3: [(0.5, 0.91), (0.17, 0.3), (0.83, 0.3)],
    4: [(0.5, 0.91), (0.155, 0.5), (0.56, 0.1), (0.845, 0.5)],
}
_PLATE = (10, 48, 32)
_PLATE_TURN = (40, 66, 40)
_INFO_W = {2: 98, 3: 190, 4: 112}
"""Width of the top-left info column, in phone px (up to the plate or the trump disc)."""
_PHASE_LINES = {2: 4, 3: 1, 4: 3}
"""Lines the phase may take in the info column before it reaches the plates."""


def px(v: float, k: float) -> int:
    """Phone pixels to image pixels at ``scale`` k."""
    return round(v * U * k)


def render_table(view: TableView, *, scale: float = 1.0) -> bytes:
    """Render the public table as PNG bytes (RGB, ``900×600`` times ``scale``)."""
    return _draw.to_png(draw_table(view, scale=scale))


def plate_size(seats: int, seat: int = 0) -> tuple[int, int]:
    """A seat's plate, width and height in phone px."""
    if seats == 4 and seat % 2:
        return _SIDE_W, _SIDE_H
    return PLATE_W[seats], PLATE_H


def name_room(seats: int, *, scale: float = 1.0, seat: int = 0) -> int:
    """Image pixels a seat's name may take on its plate (the rest shows "…")."""
    w, h = plate_size(seats, seat)
    if h > PLATE_H:  # the name has its row alone
        return px(w - 2 * 5, scale)
    return px(w - 2 * 5 - 4, scale) - _total_w(scale)


def _total_w(k: float) -> int:
    return fonts.text_width("-1000", px(14, k), bold=True)


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
        _talon(img, view.talon, centre, csize, k, view.talon_label, lab)
    elif view.talon_piles and not view.trick:
        _piles(img, view.talon_piles, centre, csize, k, view.talon_label)
    elif view.talon_backs and not view.trick:
        _talon(img, ("??",) * view.talon_backs, centre, csize, k, view.talon_label, lab)
    if view.stock:
        _stock(img, view.stock, view.stock_bottom, (W * 0.12, centre[1] + 10 * k), csize, k,
               lab)
    _trick(img, view, centre, csize, k)
    for seat, sv in enumerate(view.seats):
        _plate(img, sv, spots[seat], k, n, lab, seat, view)
    return img


_TRICK: dict[int, list[tuple[float, float]]] = {
    2: [(0.6, 0.5), (-0.6, -0.62)],
    3: [(0, 0.56), (-1.1, -0.4), (1.1, -0.4)],
    4: [(0, 0.58), (-1.25, -0.14), (0, -0.72), (1.25, -0.14)],
}
"""Each seat's card of the trick: offset from the middle in card widths / heights; room is
left below each card for its name tag."""


def _card_spot(
    seat: int, n: int, centre: tuple[float, float], csize: tuple[int, int]
) -> tuple[float, float]:
    """Where ``seat``'s card of the trick lies: between its plate and the middle."""
    fx, fy = _TRICK[n][seat]
    return centre[0] + fx * csize[0], centre[1] + fy * csize[1]


def _trick(
    img: Image.Image,
    view: TableView,
    centre: tuple[float, float],
    csize: tuple[int, int],
    k: float,
) -> None:
    """The trick's cards, each with a tag naming who played it (the leader's says "led")."""
    n = len(view.seats)
    d = ImageDraw.Draw(img)
    tags: list[tuple[float, float, str, bool]] = []
    for order, (seat, card) in enumerate(view.trick):
        cx, cy = _card_spot(seat, n, centre, csize)
        x0, y0 = cx - csize[0] / 2, cy - csize[1] / 2
        won = view.last_trick_winner == seat
        if won:
            d.rounded_rectangle(
                (x0 - 5 * k, y0 - 5 * k, x0 + csize[0] + 5 * k, y0 + csize[1] + 5 * k),
                radius=round(10 * k),
                fill=GOLD,
            )
        _draw.paste(img, cards.face(card, csize, view.labels), (x0, y0))
        name = view.seats[seat].name if seat < n else "?"
        label = f"{name}"
        if order == 0:
            label = f"▸ {name}"
        tags.append((cx, y0 + csize[1], label, won))
    size = px(LETTER, k)
    for cx, y, label, won in tags:
        # below the card, clear of its corner index (upside down there, a 9 reads as 6)
        text = fonts.fit(label, size, round(csize[0] * 1.25), bold=True)
        _draw.badge(
            img,
            (cx, y + (6 if won else 2) * k),
            text,
            size,
            anchor="mt",
            fill=GOLD if won else (12, 40, 28),
            ink=(40, 30, 0) if won else INK,
            pad=0.25,
        )


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


def _talon(
    img: Image.Image,
    talon: tuple[str, ...],
    centre: tuple[float, float],
    csize: tuple[int, int],
    k: float,
    label: str,
    labels: Labels,
) -> None:
    n = max(1, len(talon))
    gap = 8 * k
    total = n * csize[0] + (n - 1) * gap
    x = centre[0] - total / 2
    y = centre[1] - csize[1] / 2 - 8 * k
    fonts.draw_text(
        img, (centre[0], y - 10 * k), label, px(LETTER, k), fill=INK_DIM, bold=True, anchor="mb"
    )
    for c in talon or ("??",):
        im = cards.back(csize) if c == "??" else cards.face(c, csize, labels)
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
            (x + w / 2, y - 10 * k),
            f"{label} {i + 1}",
            px(LETTER, k),
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
    labels: Labels,
) -> None:
    """The draw stock: a squared pile of backs, the exposed bottom card across under it."""
    cx, cy = spot
    x0, y0 = cx - csize[0] / 2, cy - csize[1] / 2
    if bottom is not None:
        across = cards.face(bottom, csize, labels).rotate(90, expand=True)
        _draw.paste(img, across, (cx - across.width / 2 + 22 * k, cy - across.height / 2))
    back = cards.back(csize)
    layers = min(4, max(1, count // 3))
    for i in range(layers):
        _draw.paste(img, back, (x0 - i * 2 * k, y0 - i * 2 * k))
    fonts.draw_text(
        img,
        (cx, y0 + csize[1] + px(10, k)),
        labels.say(labels.stock, count=count),
        px(LETTER, k),
        fill=INK_DIM,
        bold=True,
        anchor="mm",
    )


def _plate(img: Image.Image, sv: SeatView, spot: tuple[float, float], k: float, n: int,
           labels: Labels, seat: int, view: TableView) -> None:
    cx, cy = spot
    pw, ph = plate_size(n, seat)
    w, h = px(pw, k), px(ph, k)
    x0 = min(max(cx - w / 2, 2 * k), img.width - 2 * k - w)
    y0 = cy - h / 2
    d = ImageDraw.Draw(img)
    box = (round(x0), round(y0), round(x0 + w), round(y0 + h))
    if sv.is_turn:
        d.rounded_rectangle(
            (box[0] - 4 * k, box[1] - 4 * k, box[2] + 4 * k, box[3] + 4 * k),
            radius=round(16 * k),
            fill=TURN,
        )
    d.rounded_rectangle(box, radius=round(13 * k), fill=_PLATE_TURN if sv.is_turn else _PLATE)
    name_col = INK_DIM if sv.is_sitter else INK
    pad = px(5, k)
    row1 = box[1] + px(12, k)
    fonts.draw_text(
        img,
        (box[0] + pad, row1),
        sv.name,
        px(LETTER, k),
        fill=name_col,
        bold=True,
        max_width=name_room(n, scale=k, seat=seat),
    )
    fonts.draw_text(
        img,
        (box[2] - pad, row1 if ph == PLATE_H else row1 + px(18, k)),
        f"{sv.total}",
        px(14, k),
        fill=GOLD if sv.on_barrel else INK,
        bold=True,
        anchor="rm",
    )
    contract = view.contract if seat == view.declarer else None
    _markers(img, sv, box, k, labels, contract)
    if sv.bid is not None:
        _bid(img, sv.bid, ((box[0] + box[2]) / 2, cy), h, k, n, sv.bid == labels.passed)


_MARK = tuple[str, str, tuple[int, int, int], tuple[int, int, int]]
_DASH = (255, 150, 150)


def _markers(img: Image.Image, sv: SeatView, box: tuple[int, int, int, int], k: float,
             lab: Labels, contract: int | None = None) -> None:
    """The plate's bottom row: badges on the left; on the right the points taken so far in
    play (the declarer's against his ``contract``), the cards held (a back with the count)
    or the hand's change. Badges switch to short labels rather than overlap."""
    pad = px(5, k)
    left, right, y = box[0] + pad, box[2] - pad, box[3] - px(11, k)
    s = px(LETTER, k)
    gap = px(2.5, k)
    attempt = f"{min(sv.barrel_hands + 1, sv.barrel_limit)}/{sv.barrel_limit}"
    marks: list[_MARK] = []
    if sv.is_dealer:
        marks.append((lab.dealer_mark, lab.dealer_mark, INK, (20, 30, 25)))
    if sv.is_declarer:
        marks.append((lab.declarer, lab.declarer_short, GOLD, (40, 30, 0)))
    if sv.is_sitter:
        marks.append((lab.sitter, lab.sitter_short, (90, 110, 100), INK))
    if sv.on_barrel and sv.barrel_limit > 0:
        marks.append((lab.say(lab.barrel_attempt, attempt=attempt), f"🛢{attempt}",
                      (150, 96, 40), INK))
    elif sv.on_barrel:
        marks.append((lab.barrel, "🛢", (150, 96, 40), INK))
    if sv.locked:
        marks.append((lab.locked, "🔒", (120, 60, 60), INK))
    dash_text = "".join("—" * sv.dashes)
    dash_w = fonts.text_width(dash_text, s, bold=True) + gap if sv.dashes else 0
    delta_text = (f"{sv.delta:+d}" if sv.delta else "±0") if sv.delta is not None else ""
    taken_text = ""
    if sv.taken is not None and sv.delta is None:
        taken_text = (f"{sv.taken}/{contract}" if contract
                      else lab.say(lab.points, points=sv.taken))
    if taken_text:
        reserve = _draw.badge_width(taken_text, s, pad=0.3) + gap
    elif sv.delta is not None:
        reserve = _draw.badge_width(delta_text, s, pad=0.3) + gap
    elif sv.hand_count:
        reserve = _backs_width(sv.hand_count, k) + gap
    else:
        reserve = 0

    def width(short: bool) -> float:
        return (
            sum(_draw.badge_width(m[1] if short else m[0], s, pad=0.3) + gap for m in marks)
            + dash_w
        )

    short = width(False) > right - left - reserve
    x = left
    for full, brief, fill, ink in marks:
        b = _draw.badge(img, (x, y), brief if short else full, s, fill=fill, ink=ink, pad=0.3)
        x = b[2] + gap
    if sv.dashes:
        fonts.draw_text(img, (x, y), dash_text, s, fill=_DASH, bold=True)
    if taken_text:
        _draw.badge(img, (right, y), taken_text, s, anchor="rm",
                    fill=GOLD if contract else (70, 90, 80),
                    ink=(40, 30, 0) if contract else INK, pad=0.3)
    elif sv.delta is not None:
        good = sv.delta > 0
        _draw.badge(
            img,
            (right, y),
            delta_text,
            s,
            anchor="rm",
            fill=(46, 140, 80) if good else (170, 50, 50) if sv.delta < 0 else (70, 90, 80),
            ink=INK,
            pad=0.3,
        )
    elif sv.hand_count:
        _backs(img, sv.hand_count, (right, y), k)


def _backs_width(count: int, k: float) -> int:
    return px(9, k) + fonts.text_width(f"{count}", px(LETTER, k), bold=True) + px(3, k)


def _backs(img: Image.Image, count: int, right_mid: tuple[float, float], k: float) -> None:
    """The cards a seat holds: a small card back and the number beside it."""
    size = (px(9, k), px(13, k))
    x = right_mid[0] - _backs_width(count, k)
    _draw.paste(img, cards.back(size), (x, right_mid[1] - size[1] / 2))
    fonts.draw_text(
        img, (right_mid[0], right_mid[1]), f"{count}", px(LETTER, k), fill=INK, bold=True,
        anchor="rm",
    )


def _bid(img: Image.Image, bid: str, spot: tuple[float, float], h: float, k: float, n: int,
         passed: bool) -> None:
    cx, cy = spot
    above = cy > img.height / 2
    y = cy - h / 2 - px(10, k) if above else cy + h / 2 + px(10, k)
    if n == 4 and abs(cy - img.height / 2) < 5:
        y = cy + h / 2 + px(10, k)
    _draw.badge(
        img,
        (cx, y),
        bid,
        px(12, k),
        anchor="mm",
        fill=(70, 90, 80) if passed else (253, 252, 248),
        ink=INK if passed else (20, 20, 24),
        pad=0.3,
    )
