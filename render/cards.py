"""Card faces and the card back, drawn by the project itself and cached once per size.

Two standard sizes: ``HAND`` (the ephemeral hand) and ``TABLE`` (tricks and talon on the
table image); ``scale`` multiplies both. Faces are RGBA with transparent rounded corners.

Design for phones: a large corner index (rank over suit) that stays visible when cards
overlap, big pips, red hearts/diamonds and near-black spades/clubs; court cards show the
figure of the SVG-cards design (LGPL, see ``render/court/README.md``) in a framed panel.
"""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path

from PIL import Image, ImageDraw

from render import _draw, fonts
from render.labels import ENGLISH, Labels
from render.model import split_card

HAND = (100, 140)
TABLE = (100, 140)
FACE = (253, 252, 248)
EDGE = (120, 120, 128)
COURT_TINT = {
    "C": (222, 232, 226),
    "D": (250, 226, 222),
    "H": (250, 226, 222),
    "S": (222, 232, 226),
}
INDEX = 0.3
"""Corner index height as a fraction of the card's width: large, so that a hand shrunk to
a phone's width still reads (see ``render.display``)."""
BACK_MAIN = (150, 28, 40)
BACK_LINE = (198, 70, 78)

COURT_DIR = Path(__file__).with_name("court")
_LOCK = threading.Lock()
_CACHE: dict[tuple[str, int, int, str], Image.Image] = {}
DRAWN: Counter[str] = Counter()
"""How many times each card was drawn in this process (a cache check for tests)."""

# Pip positions (fractions of the pip area) for the number cards, standard layouts.
_L, _C, _R = 0.0, 0.5, 1.0
_PIP_LAYOUT: dict[str, list[tuple[float, float]]] = {
    "7": [(_L, 0), (_R, 0), (_C, 0.25), (_L, 0.5), (_R, 0.5), (_L, 1), (_R, 1)],
    "8": [(_L, 0), (_R, 0), (_C, 0.25), (_L, 0.5), (_R, 0.5), (_C, 0.75), (_L, 1), (_R, 1)],
    "9": [
        (_L, 0),
        (_R, 0),
        (_L, 1 / 3),
        (_R, 1 / 3),
        (_C, 0.5),
        (_L, 2 / 3),
        (_R, 2 / 3),
        (_L, 1),
        (_R, 1),
    ],
    "10": [
        (_L, 0),
        (_R, 0),
        (_C, 1 / 6),
        (_L, 1 / 3),
        (_R, 1 / 3),
        (_L, 2 / 3),
        (_R, 2 / 3),
        (_C, 5 / 6),
        (_L, 1),
        (_R, 1),
    ],
}


def size_for(kind: str, scale: float = 1.0) -> tuple[int, int]:
    w, h = HAND if kind == "hand" else TABLE
    return round(w * scale), round(h * scale)


def index_px(width: int) -> int:
    """Font size of the corner index (rank) on a card ``width`` px wide."""
    return round(width * INDEX)


def face(card: str, size: tuple[int, int], labels: Labels = ENGLISH) -> Image.Image:
    """The face of ``card`` (``"10H"``) at ``size``, its index in ``labels``' rank letters
    (``"Т"`` for the ace in Russian): cached, do not modify."""
    rank, suit = split_card(card)
    fonts.note(index_px(size[0]))
    return _cached(rank + suit, size, labels.rank(rank))


def back(size: tuple[int, int]) -> Image.Image:
    return _cached("back", size)


def _cached(key: str, size: tuple[int, int], letter: str = "") -> Image.Image:
    ck = (key, size[0], size[1], letter)
    hit = _CACHE.get(ck)
    if hit is not None:
        return hit
    with _LOCK:
        hit = _CACHE.get(ck)
        if hit is None:
            hit = (_draw_back(size) if key == "back"
                   else _draw_face(key[:-1], key[-1], size, letter or key[:-1]))
            DRAWN[key] += 1
            _CACHE[ck] = hit
        return hit


def _blank(size: tuple[int, int], fill: tuple[int, int, int]) -> Image.Image:
    w, h = size
    img = Image.new("RGBA", size, (0, 0, 0, 0))
    r = max(4, round(w * 0.08))
    big = Image.new("L", (w * 4, h * 4), 0)
    ImageDraw.Draw(big).rounded_rectangle((0, 0, w * 4 - 1, h * 4 - 1), radius=r * 4, fill=255)
    mask = big.resize(size, Image.Resampling.LANCZOS)
    body = Image.new("RGBA", size, (*EDGE, 255))
    img.paste(body, (0, 0), mask)
    inner = Image.new("L", (w * 4, h * 4), 0)
    b = max(4, round(w * 4 * 0.012))
    ImageDraw.Draw(inner).rounded_rectangle(
        (b, b, w * 4 - 1 - b, h * 4 - 1 - b), radius=r * 4 - b, fill=255
    )
    img.paste(
        Image.new("RGBA", size, (*fill, 255)), (0, 0), inner.resize(size, Image.Resampling.LANCZOS)
    )
    return img


def _draw_face(rank: str, suit: str, size: tuple[int, int], letter: str) -> Image.Image:
    w, h = size
    img = _blank(size, FACE)
    color = _draw.suit_color(suit)
    # corner index: rank over suit, top-left and (rotated) bottom-right; the 10 is
    # condensed to the width of one letter so that it never reaches the pips
    cw = round(w * 0.27)
    corner = Image.new("RGBA", (cw, round(h * 0.42)), (0, 0, 0, 0))
    rs = index_px(w)
    top = round(w * 0.04)
    glyph = fonts.text_sprite(letter, rs, bold=True, fill=color)
    box = glyph.getbbox() or (0, 0, glyph.width, glyph.height)
    glyph = glyph.crop(box)
    if glyph.width > cw:
        glyph = glyph.resize((cw, glyph.height), Image.Resampling.LANCZOS)
    _draw.paste(corner, glyph, ((cw - glyph.width) / 2, top))
    ps = round(w * 0.19)
    _draw.paste(corner, _draw.pip(suit, ps), ((cw - ps) / 2, top + glyph.height + w * 0.04))
    inset = round(w * 0.02)
    _draw.paste(img, corner, (inset, inset))
    _draw.paste(img, corner.rotate(180), (w - inset - corner.width, h - inset - corner.height))
    # centre
    area = (w * 0.385, h * 0.12, w * 0.615, h * 0.88)
    ax0, ay0, ax1, ay1 = area
    if rank in _PIP_LAYOUT:
        psz = round(w * 0.14)
        for fx, fy in _PIP_LAYOUT[rank]:
            cx = ax0 + (ax1 - ax0) * fx
            cy = ay0 + psz / 2 + (ay1 - ay0 - psz) * fy
            p = _draw.pip(suit, psz)
            if fy > 0.5:
                p = p.rotate(180)
            _draw.paste(img, p, (cx - psz / 2, cy - psz / 2))
    elif rank == "A":
        psz = round(w * 0.5)
        _draw.paste(img, _draw.pip(suit, psz), ((w - psz) / 2, (h - psz) / 2))
    else:
        _court(img, rank, suit, color, letter)
    return img


def _court(img: Image.Image, rank: str, suit: str, color: tuple[int, int, int],
           letter: str) -> None:
    """The court panel: the figure, fitted to the panel's height, inside a suit-coloured frame."""
    w, h = img.size
    x0, y0, x1, y1 = round(w * 0.31), round(h * 0.13), round(w * 0.69), round(h * 0.87)
    radius, line = round(w * 0.05), max(1, round(w * 0.015))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((x0, y0, x1, y1), radius=radius, fill=COURT_TINT[suit])
    path = COURT_DIR / f"{rank}{suit}.png"
    if path.is_file():
        with Image.open(path) as src:
            figure = src.convert("RGB")
        ph = y1 - y0 - 2 * line
        pw = min(x1 - x0 - 2 * line, round(figure.width * ph / figure.height))
        figure = figure.resize((pw, ph), Image.Resampling.LANCZOS)
        mask = Image.new("L", (x1 - x0, y1 - y0), 0)
        ImageDraw.Draw(mask).rounded_rectangle(
            (0, 0, x1 - x0 - 1, y1 - y0 - 1), radius=radius, fill=255)
        left = x0 + (x1 - x0 - pw) // 2
        img.paste(figure, (left, y0 + line), mask.crop(
            (left - x0, line, left - x0 + pw, line + ph)))
    else:  # a figure missing from the package: the letter and the pip, as before
        fonts.draw_text(img, (w / 2, h * 0.33), letter, round(w * 0.3), fill=color, bold=True,
                        anchor="mm")
        psz = round(w * 0.3)
        _draw.paste(img, _draw.pip(suit, psz), (w / 2 - psz / 2, h * 0.6 - psz / 2))
    d.rounded_rectangle((x0, y0, x1, y1), radius=radius, outline=color, width=line)


def _draw_back(size: tuple[int, int]) -> Image.Image:
    w, h = size
    img = _blank(size, FACE)
    m = max(3, round(w * 0.07))
    inner = Image.new("RGB", (w - 2 * m, h - 2 * m), BACK_MAIN)
    d = ImageDraw.Draw(inner)
    step = max(6, round(w * 0.14))
    lw = max(1, round(w * 0.02))
    for k in range(-h, w + h, step):
        d.line((k, 0, k + inner.height, inner.height), fill=BACK_LINE, width=lw)
        d.line((k, inner.height, k + inner.height, 0), fill=BACK_LINE, width=lw)
    mask = Image.new("L", inner.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, inner.width - 1, inner.height - 1), radius=max(2, round(w * 0.05)), fill=255
    )
    img.paste(inner, (m, m), mask)
    return img


def all_cards(deck: int = 24) -> list[str]:
    ranks = {
        24: ("9", "J", "Q", "K", "10", "A"),
        20: ("J", "Q", "K", "10", "A"),
        32: ("7", "8", "9", "J", "Q", "K", "10", "A"),
    }[deck]
    return [r + s for s in ("S", "H", "C", "D") for r in ranks]


def sheet(size: tuple[int, int] = HAND, deck: int = 32,
          labels: Labels = ENGLISH) -> Image.Image:
    """Every face and the back on one felt image (for the samples)."""
    cards = all_cards(deck)
    ranks = len(cards) // 4
    w, h = size
    gap = max(4, w // 10)
    img = _draw.felt((ranks + 1) * (w + gap) + gap, 4 * (h + gap) + gap)
    for i, c in enumerate(cards):
        _draw.paste(
            img, face(c, size, labels),
            (gap + (i % ranks) * (w + gap), gap + (i // ranks) * (h + gap))
        )
    _draw.paste(img, back(size), (gap + ranks * (w + gap), gap))
    return img
