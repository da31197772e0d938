"""Pictures for the web pages: the same card faces as the Discord images (PNG), and the
rating chart as SVG text. Pure functions: data in, bytes or text out."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from render import _draw, cards

CARD_SIZE = (100, 140)
"""Cards are drawn at the table image's size and shown at half of it (sharp on HiDPI)."""


def card_png(card: str) -> bytes:
    """The face of ``card`` ("10H") as PNG bytes, as the table image draws it."""
    return _draw.to_png(cards.face(card, CARD_SIZE))


def back_png() -> bytes:
    """The card back as PNG bytes."""
    return _draw.to_png(cards.back(CARD_SIZE))


def rating_chart_svg(values: Sequence[float], labels: Sequence[str], *, title: str,
                     width: int = 640, height: int = 220) -> str:
    """A line chart of ratings (oldest first) as an SVG element; ``labels`` name the points
    (shown as tooltips) and ``title`` is its accessible name."""
    left, right, top, bottom = 48, 12, 14, 26
    w, h = width - left - right, height - top - bottom
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    if hi - lo < 1:
        lo, hi = lo - 1, hi + 1
    pad = (hi - lo) * 0.08
    lo, hi = lo - pad, hi + pad
    n = len(values)

    def x(i: int) -> float:
        return left + (w * i / (n - 1) if n > 1 else w / 2)

    def y(v: float) -> float:
        return top + h * (hi - v) / (hi - lo)

    out = [f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" role="img" aria-label="{escape(title)}" '
           f'xmlns="http://www.w3.org/2000/svg">',
           f'<rect x="{left}" y="{top}" width="{w}" height="{h}" class="plot"/>']
    for k in range(5):  # grid lines with their values
        v = lo + (hi - lo) * k / 4
        out.append(f'<line x1="{left}" x2="{left + w}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                   f'class="grid"/><text x="{left - 6}" y="{y(v) + 4:.1f}" '
                   f'text-anchor="end" class="tick">{v:.0f}</text>')
    if n:
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        out.append(f'<polyline points="{points}" class="line"/>')
        for i, v in enumerate(values):
            label = escape(labels[i] if i < len(labels) else "")
            out.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3.5" class="dot">'
                       f'<title>{label}: {v:.1f}</title></circle>')
        out.append(f'<text x="{left}" y="{height - 8}" class="tick">'
                   f'{escape(labels[0] if labels else "")}</text>')
        out.append(f'<text x="{left + w}" y="{height - 8}" text-anchor="end" class="tick">'
                   f'{escape(labels[-1] if labels else "")}</text>')
    out.append("</svg>")
    return "".join(out)
