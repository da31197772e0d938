"""The table image's size and its unit: sizes are written in phone pixels."""

from __future__ import annotations

WIDTH, HEIGHT = 900, 600
U = WIDTH / 360
"""Image pixels per pixel on a phone (the table shows 360 px wide there): sizes below are
written in phone pixels, ``11.2 * U`` being the smallest letter (see ``render.display``)."""
LETTER = 11.2


def px(v: float, k: float) -> int:
    """Phone pixels to image pixels at ``scale`` k."""
    return round(v * U * k)
