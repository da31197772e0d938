"""Shared drawing helpers: palette, PNG encoding, suit shapes, backgrounds, badges."""

from __future__ import annotations

import io
import math
import threading

from PIL import Image, ImageDraw

from render import fonts

RGB = tuple[int, int, int]

# Table felt: a deep green that reads as "card table" and keeps contrast with white cards
# and light text in both Discord themes (the images are opaque, so the theme never shows
# through them).
FELT = (22, 88, 58)
FELT_DARK = (14, 62, 41)
INK = (245, 245, 240)
INK_DIM = (178, 206, 190)
GOLD = (247, 197, 72)
RED = (200, 24, 38)
BLACK = (22, 22, 28)
TURN = (255, 214, 90)
PAPER = (250, 246, 232)
PEN = (28, 44, 110)
PEN_RED = (190, 30, 40)
GRID = (176, 196, 222)

SUIT_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SS = 4  # supersampling factor for shapes

_LOCK = threading.Lock()
_PIPS: dict[tuple[str, int, RGB | None], Image.Image] = {}
_BACKGROUNDS: dict[tuple[str, int, int], Image.Image] = {}


def suit_color(suit: str) -> RGB:
    return RED if suit in ("D", "H") else BLACK


def to_png(img: Image.Image, *, palette: int = 0) -> bytes:
    """Encode as PNG: deterministic bytes, moderate compression (speed).

    ``palette`` > 0 quantizes to that many colours first (mode "P"): for big flat images
    (the score sheet) this is both faster to encode and far smaller than RGB.
    """
    if palette:
        img = img.quantize(
            colors=palette, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=False, compress_level=1 if palette else 3)
    return buf.getvalue()


def _suit_polygon(draw: ImageDraw.ImageDraw, suit: str, s: float, fill: RGB) -> None:
    """Draw a suit symbol filling an s×s square at the origin."""
    c = s / 2
    if suit == "D":
        draw.polygon([(c, 0), (s * 0.86, c), (c, s), (s * 0.14, c)], fill=fill)
        return
    if suit == "H":
        r = s * 0.26
        for cx in (c - r * 0.98, c + r * 0.98):
            draw.ellipse((cx - r, s * 0.08, cx + r, s * 0.08 + 2 * r), fill=fill)
        draw.polygon(
            [
                (c - 2 * r * 0.98 + s * 0.005, s * 0.08 + r * 1.25),
                (c, s * 0.95),
                (c + 2 * r * 0.98 - s * 0.005, s * 0.08 + r * 1.25),
                (c, s * 0.3),
            ],
            fill=fill,
        )
        return
    stem = [(c, s * 0.55), (c - s * 0.2, s * 0.98), (c + s * 0.2, s * 0.98)]
    if suit == "S":
        r = s * 0.23
        y = s * 0.44
        for cx in (c - r * 0.98, c + r * 0.98):
            draw.ellipse((cx - r, y, cx + r, y + 2 * r), fill=fill)
        draw.polygon(
            [
                (c - 2 * r * 0.98 + s * 0.004, y + r * 0.75),
                (c, s * 0.02),
                (c + 2 * r * 0.98 - s * 0.004, y + r * 0.75),
                (c, y + 1.6 * r),
            ],
            fill=fill,
        )
        draw.polygon(stem, fill=fill)
        return
    # clubs: three balls and a stem
    r = s * 0.205
    for cx, cy in ((c, s * 0.25), (c - s * 0.245, s * 0.57), (c + s * 0.245, s * 0.57)):
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    draw.rectangle((c - s * 0.09, s * 0.3, c + s * 0.09, s * 0.65), fill=fill)
    draw.polygon(stem, fill=fill)


def pip(suit: str, size: int, color: RGB | None = None) -> Image.Image:
    """An anti-aliased RGBA suit symbol, size×size, cached."""
    key = (suit, size, color)
    with _LOCK:
        hit = _PIPS.get(key)
        if hit is not None:
            return hit
        big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
        _suit_polygon(ImageDraw.Draw(big), suit, size * SS, color or suit_color(suit))
        out = big.resize((size, size), Image.Resampling.LANCZOS)
        _PIPS[key] = out
        return out


def paste(dst: Image.Image, src: Image.Image, xy: tuple[float, float]) -> None:
    """Alpha-paste ``src`` at integer position (works for RGB and RGBA destinations)."""
    pos = (round(xy[0]), round(xy[1]))
    if dst.mode == "RGBA":
        dst.alpha_composite(src, pos)
    else:
        dst.paste(src, pos, src)


def felt(width: int, height: int) -> Image.Image:
    """A cached table-felt background (soft radial light in the middle); returns a copy."""
    return _background("felt", width, height).copy()


def paper(width: int, height: int) -> Image.Image:
    return _background("paper", width, height).copy()


def _background(kind: str, width: int, height: int) -> Image.Image:
    key = (kind, width, height)
    with _LOCK:
        hit = _BACKGROUNDS.get(key)
        if hit is not None:
            return hit
        if kind == "felt":
            img = Image.new("RGB", (width, height), FELT_DARK)
            # concentric rounded rectangles, lighter toward the middle (compresses well)
            draw = ImageDraw.Draw(img)
            steps = 12
            for i in range(steps):
                t = i / (steps - 1)
                col = tuple(round(a + (b - a) * t) for a, b in zip(FELT_DARK, FELT, strict=True))
                inset = round(min(width, height) * 0.09 * (1 - math.cos(t * math.pi / 2)) * 1.6)
                draw.rounded_rectangle(
                    (inset, inset, width - 1 - inset, height - 1 - inset),
                    radius=max(8, min(width, height) // 6),
                    fill=col,  # type: ignore[arg-type,unused-ignore]
                )
        else:
            img = Image.new("RGB", (width, height), PAPER)
        _BACKGROUNDS[key] = img
        return img


def badge_width(text: str, size: int, pad: float = 0.45) -> int:
    """Width of the pill ``badge`` would draw for this text."""
    return fonts.text_width(text, size, bold=True) + 2 * round(size * pad * 1.3)


def badge(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    *,
    fill: RGB,
    ink: RGB,
    anchor: str = "lm",
    pad: float = 0.45,
) -> tuple[int, int, int, int]:
    """A pill with text; ``anchor`` positions the pill like text. Returns the pill's box."""
    w = fonts.text_width(text, size, bold=True)
    px, py = round(size * pad * 1.3), round(size * pad)
    h = round(size * 0.72) + 2 * py
    bw = w + 2 * px
    x, y = xy
    x0 = {"l": x, "m": x - bw / 2, "r": x - bw}[anchor[0]]
    y0 = {"t": y, "m": y - h / 2, "b": y - h}[anchor[1]]
    box = (round(x0), round(y0), round(x0 + bw), round(y0 + h))
    ImageDraw.Draw(img).rounded_rectangle(box, radius=h // 2, fill=fill)
    fonts.draw_text(img, (box[0] + px, (box[1] + box[3]) / 2), text, size, fill=ink, bold=True)
    return box
