"""The middle of the table image: the trick (each card with a tag naming who played it),
the talon face up or down, several talons as piles, and the draw stock."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import _draw, cards, fonts
from render._draw import GOLD, INK, INK_DIM
from render._table_units import LETTER, px
from render.labels import Labels
from render.model import TableView

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


def trick(
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


def talon(
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


def piles(
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


def stock(
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
