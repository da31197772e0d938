"""End-of-match summary: the winner, the final standings and a chart of the running totals."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import _draw, fonts
from render._draw import GOLD, INK, INK_DIM
from render.model import SummaryView

WIDTH, HEIGHT = 720, 600
"""At a phone's 360 px the smallest letters (22 px) show 11 px tall."""
LINE_COLORS = ((247, 197, 72), (120, 200, 255), (255, 130, 150), (170, 240, 160))


def render_summary(view: SummaryView, *, scale: float = 1.0) -> bytes:
    """Render the end-of-match summary as PNG bytes (RGB, ``720×600`` times ``scale``)."""
    return _draw.to_png(draw_summary(view, scale=scale))


def draw_summary(view: SummaryView, *, scale: float = 1.0) -> Image.Image:
    """The match summary: who won, how long it took, the standings and the totals' chart."""
    k = scale
    W, H = round(WIDTH * k), round(HEIGHT * k)
    img = _draw.felt(W, H)
    m = round(22 * k)
    _heading(img, view, k, m)
    # standings (left)
    order = sorted(range(len(view.players)), key=lambda i: -view.players[i].total)
    y = 140 * k
    colw = round(330 * k)
    for place, i in enumerate(order):
        _standing(img, view, i, place, (m, y, colw), k)
        y += 112 * k
    _chart(img, view, (m + colw + 20 * k, 140 * k, W - m, H - m), k)
    return img


def _heading(img: Image.Image, view: SummaryView, k: float, m: int) -> None:
    """The title, the winners, and the hands and minutes the match took."""
    W = img.width
    winners = [view.players[i].name for i in sorted(view.winner) if i < len(view.players)]
    lab = view.labels
    head = lab.winner if len(winners) == 1 else lab.shared_win
    fonts.draw_text(
        img,
        (m, 30 * k),
        view.title or lab.phase_match_over,
        round(22 * k),
        fill=INK_DIM,
        bold=True,
        max_width=W - 2 * m,
    )
    box = fonts.draw_text(img, (m, 72 * k), f"★ {head}:", round(30 * k), fill=GOLD, bold=True)
    fonts.draw_text(
        img,
        (box[2] + 10 * k, 72 * k),
        ", ".join(winners) or "—",
        round(30 * k),
        fill=INK,
        bold=True,
        max_width=round(W - box[2] - 10 * k - m),
    )
    bits = [lab.say(lab.hands, count=view.hands)] if view.hands else []
    if view.duration_minutes is not None:
        bits.append(lab.say(lab.minutes, count=view.duration_minutes))
    if bits:
        fonts.draw_text(img, (m, 110 * k), " · ".join(bits), round(22 * k), fill=INK_DIM)


def _standing(img: Image.Image, view: SummaryView, i: int, place: int,
              spot: tuple[int, float, int], k: float) -> None:
    """Player ``i``'s card in the standings at ``spot`` (left, top, width): place, name,
    total, contracts and the rating's change."""
    m, y, colw = spot
    p = view.players[i]
    lab = view.labels
    d = ImageDraw.Draw(img)
    color = LINE_COLORS[i % len(LINE_COLORS)]
    d.rounded_rectangle(
        (m, y, m + colw, y + 104 * k),
        radius=round(12 * k),
        fill=(40, 66, 40) if i in view.winner else (12, 52, 35),
        outline=GOLD if i in view.winner else None,
        width=max(1, round(2 * k)),
    )
    d.ellipse((m + 12 * k, y + 20 * k, m + 24 * k, y + 32 * k), fill=color)
    fonts.draw_text(
        img,
        (m + 32 * k, y + 26 * k),
        f"{place + 1}. {p.name}",
        round(24 * k),
        fill=INK,
        bold=True,
        max_width=round(colw - 130 * k),
    )
    fonts.draw_text(
        img,
        (m + colw - 12 * k, y + 26 * k),
        str(p.total),
        round(28 * k),
        fill=GOLD if i in view.winner else INK,
        bold=True,
        anchor="rm",
    )
    stats = lab.say(lab.contracts, made=p.contracts_made, failed=p.contracts_failed)
    if p.best_contract:
        stats += " · " + lab.say(lab.best, contract=p.best_contract)
    fonts.draw_text(
        img,
        (m + 14 * k, y + 60 * k),
        stats,
        round(22 * k),
        fill=INK_DIM,
        max_width=round(colw - 28 * k),
    )
    if p.rating_change is not None:
        fonts.draw_text(
            img,
            (m + 14 * k, y + 88 * k),
            lab.say(lab.rating_change, change=f"{p.rating_change:+d}"),
            round(22 * k),
            fill=INK_DIM,
        )


def _chart(
    img: Image.Image, view: SummaryView, box: tuple[float, float, float, float], k: float
) -> None:
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=round(12 * k), fill=(12, 52, 35))
    if not view.history:
        fonts.draw_text(
            img,
            ((x0 + x1) / 2, (y0 + y1) / 2),
            view.labels.no_hands,
            round(22 * k),
            fill=INK_DIM,
            anchor="mm",
        )
        return
    px0, py0, px1, py1 = x0 + 64 * k, y0 + 20 * k, x1 - 16 * k, y1 - 40 * k
    values = [v for row in view.history for v in row] + [0, view.target]
    lo, hi = min(values), max(values)
    span = max(1, hi - lo)

    def sy(v: float) -> float:
        return py1 - (v - lo) / span * (py1 - py0)

    step = 250 if span > 600 else 100 if span > 250 else 50
    for mark in range((lo // step) * step, hi + 1, step):
        if mark < lo:
            continue
        yy = sy(mark)
        d.line((px0, yy, px1, yy), fill=(30, 80, 56), width=1)
        fonts.draw_text(img, (px0 - 6 * k, yy), str(mark), round(22 * k), fill=INK_DIM, anchor="rm")
    barrel = view.barrel_at
    if barrel is not None and lo <= barrel <= hi:
        d.line((px0, sy(barrel), px1, sy(barrel)), fill=(150, 96, 40), width=max(1, round(k)))
    n = len(view.history)
    fonts.draw_text(
        img,
        ((px0 + px1) / 2, y1 - 18 * k),
        view.labels.say(view.labels.chart_hands, count=n),
        round(22 * k),
        fill=INK_DIM,
        anchor="mm",
    )
    for p in range(len(view.players)):
        pts = [
            (px0 + (px1 - px0) * (h + 1) / n, sy(row[p]))
            for h, row in enumerate(view.history)
            if p < len(row)
        ]
        pts.insert(0, (px0, sy(0)))
        d.line(
            pts, fill=LINE_COLORS[p % len(LINE_COLORS)], width=max(2, round(3 * k)), joint="curve"
        )
