"""The seats' name plates on the table image: the name, the total, the badges of the
bottom row (dealer, declarer, sitter, barrel, dashes), the points taken or the cards held,
and the seat's bid beside the plate."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import _draw, cards, fonts
from render._draw import GOLD, INK, INK_DIM, TURN
from render._table_units import LETTER, px
from render.labels import Labels
from render.model import SeatView, TableView

PLATE_H = 44
PLATE_W = {2: 240, 3: 112, 4: 150}
"""Plate widths: a two-player table has 600 image px of felt for a name."""
_SIDE_W, _SIDE_H = 106, 60
"""The side plates of four players: narrow (the trick lies beside them) and tall, the name
on a row of its own, so that a name of some fifteen letters shows whole at 360 px."""
_PLATE = (10, 48, 32)
_PLATE_TURN = (40, 66, 40)


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


def draw_plate(img: Image.Image, sv: SeatView, spot: tuple[float, float], k: float, n: int,
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
    marks = _badges(sv, lab)
    dash_text = "".join("—" * sv.dashes)
    dash_w = fonts.text_width(dash_text, s, bold=True) + gap if sv.dashes else 0
    taken_text = _taken_text(sv, lab, contract)
    reserve = _right_reserve(sv, taken_text, s, gap, k)

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
    _right_mark(img, sv, taken_text, contract, (right, y), s, k)


def _badges(sv: SeatView, lab: Labels) -> list[_MARK]:
    """The seat's badges, each with its full and short label and colours."""
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
    return marks


def _taken_text(sv: SeatView, lab: Labels, contract: int | None) -> str:
    """The points taken so far in play ("" once the hand is scored, or before play)."""
    if sv.taken is None or sv.delta is not None:
        return ""
    return f"{sv.taken}/{contract}" if contract else lab.say(lab.points, points=sv.taken)


def _delta_text(sv: SeatView) -> str:
    """The hand's change of the seat's total ("" before the hand is scored)."""
    if sv.delta is None:
        return ""
    return f"{sv.delta:+d}" if sv.delta else "±0"


def _right_reserve(sv: SeatView, taken_text: str, s: int, gap: int, k: float) -> int:
    """Room the right end of the row takes (with its gap), kept free of badges."""
    if taken_text:
        return _draw.badge_width(taken_text, s, pad=0.3) + gap
    if sv.delta is not None:
        return _draw.badge_width(_delta_text(sv), s, pad=0.3) + gap
    if sv.hand_count:
        return _backs_width(sv.hand_count, k) + gap
    return 0


def _right_mark(img: Image.Image, sv: SeatView, taken_text: str, contract: int | None,
                right_mid: tuple[int, int], s: int, k: float) -> None:
    """The right end of the row: the points taken, the hand's change or the cards held."""
    if taken_text:
        _draw.badge(img, right_mid, taken_text, s, anchor="rm",
                    fill=GOLD if contract else (70, 90, 80),
                    ink=(40, 30, 0) if contract else INK, pad=0.3)
    elif sv.delta is not None:
        good = sv.delta > 0
        _draw.badge(
            img,
            right_mid,
            _delta_text(sv),
            s,
            anchor="rm",
            fill=(46, 140, 80) if good else (170, 50, 50) if sv.delta < 0 else (70, 90, 80),
            ink=INK,
            pad=0.3,
        )
    elif sv.hand_count:
        _backs(img, sv.hand_count, right_mid, k)


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
