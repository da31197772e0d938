"""The ephemeral hand image: one player's cards, sorted, with legal/new/marriage marks.

Cards are sorted by suit (spades, hearts, clubs, diamonds: colours alternate) and by rank
(A 10 K Q J 9 8 7) and overlap so that every corner index stays visible. Legal cards are
raised with a gold rim, illegal ones are dimmed, cards received in the exchange carry a
"new" tag, and each declarable marriage is bracketed under its K and Q.
"""

from __future__ import annotations

import threading

from PIL import Image, ImageDraw

from render import _draw, cards, fonts
from render._draw import GOLD, INK, INK_DIM
from render.model import RANKS, HandView, split_card

SUIT_ORDER = ("S", "H", "C", "D")
NEW = (64, 160, 255)
_LOCK = threading.Lock()
_DIMMED: dict[tuple[str, int, int], Image.Image] = {}


def sort_cards(hand: tuple[str, ...] | list[str], trump: str | None = None) -> list[str]:
    """Sorted as shown: by suit (alternating colours), then rank high to low."""

    def key(c: str) -> tuple[int, int]:
        r, s = split_card(c)
        return SUIT_ORDER.index(s), -RANKS.index(r)

    return sorted(hand, key=key)


def _dimmed(card: str, size: tuple[int, int]) -> Image.Image:
    key = (card, *size)
    with _LOCK:
        hit = _DIMMED.get(key)
        if hit is None:
            f = cards.face(card, size)
            grey = Image.new("RGBA", size, (40, 52, 46, 255))
            hit = Image.blend(f, grey, 0.55)
            hit.putalpha(f.getchannel("A"))
            _DIMMED[key] = hit
        return hit


def render_hand(view: HandView, *, scale: float = 1.0, palette: int = 0) -> bytes:
    """Render the hand as PNG bytes (RGB; width grows with the number of cards).

    ``palette`` > 0 quantizes to that many colours (mode "P"): the Discord hand, refreshed
    after every move, is then about 2.5 times smaller and faster to encode."""
    return _draw.to_png(draw_hand(view, scale=scale), palette=palette)


def draw_hand(view: HandView, *, scale: float = 1.0) -> Image.Image:
    k = scale
    size = cards.size_for("hand", scale)
    cw, ch = size
    ordered = sort_cards(view.cards, view.trump)
    n = len(ordered)
    step = round(cw * 0.66)
    margin = round(18 * k)
    header = round(46 * k)
    lift = round(16 * k)
    tag = round(24 * k)
    bracket = round(40 * k)
    width = max(round(420 * k), 2 * margin + step * max(0, n - 1) + cw)
    height = header + tag + lift + ch + bracket + margin // 2
    img = _draw.felt(width, height)
    _header(img, view, k, margin, header)
    d = ImageDraw.Draw(img)
    top = header + tag + lift
    positions: dict[str, tuple[int, int]] = {}
    for i, c in enumerate(ordered):
        x = margin + i * step
        legal = view.legal is None or c in view.legal
        raised = view.legal is not None and legal
        y = top - lift if raised else top
        positions[c] = (x, y)
        if raised:
            r = round(5 * k)
            d.rounded_rectangle(
                (x - r, y - r, x + cw + r, y + ch + r), radius=round(12 * k), fill=GOLD
            )
        _draw.paste(img, cards.face(c, size) if legal else _dimmed(c, size), (x, y))
        if c in view.new_cards:
            _draw.badge(
                img,
                (x + step / 2 if i < n - 1 else x + cw / 2, y - 6 * k),
                "new",
                round(15 * k),
                fill=NEW,
                ink=(255, 255, 255),
                anchor="mb",
            )
    values = dict(view.marriage_values)
    for suit in SUIT_ORDER:
        kq = (f"K{suit}", f"Q{suit}")
        if suit not in view.marriages or not all(c in positions for c in kq):
            continue
        x0 = min(positions[c][0] for c in kq)
        x1 = max(positions[c][0] for c in kq) + step
        yb = top + ch + round(8 * k)
        lw = max(2, round(3 * k))
        d.line((x0 + 6 * k, yb, x1 - 6 * k, yb), fill=GOLD, width=lw)
        for xx in (x0 + 6 * k, x1 - 6 * k):
            d.line((xx, yb - 8 * k, xx, yb), fill=GOLD, width=lw)
        label = f"{_draw.SUIT_SYMBOL[suit]} marriage" + (
            f" {values[suit]}" if suit in values else ""
        )
        fonts.draw_text(
            img,
            ((x0 + x1) / 2, yb + 15 * k),
            label,
            round(16 * k),
            fill=GOLD,
            bold=True,
            anchor="mm",
        )
    return img


def _header(img: Image.Image, view: HandView, k: float, margin: int, header: int) -> None:
    y = header / 2 + 4 * k
    right = img.width - margin
    if view.trump is not None:
        p = round(28 * k)
        _draw.paste(img, _trump_chip(view.trump, p), (right - p, y - p / 2))
        box = fonts.draw_text(
            img, (right - p - 8 * k, y), "trump", round(19 * k), fill=GOLD, bold=True, anchor="rm"
        )
        right = box[0] - round(12 * k)
    text = " · ".join(t for t in (view.name, view.note) if t)
    if text:
        fonts.draw_text(
            img,
            (margin, y),
            text,
            round(21 * k),
            fill=INK,
            bold=True,
            max_width=max(10, right - margin),
        )
    elif view.legal is not None:
        fonts.draw_text(img, (margin, y), "Your turn", round(21 * k), fill=INK_DIM, bold=True)


def _trump_chip(suit: str, p: int) -> Image.Image:
    chip = Image.new("RGBA", (p, p), (0, 0, 0, 0))
    ImageDraw.Draw(chip).ellipse((0, 0, p - 1, p - 1), fill=(253, 252, 248))
    q = round(p * 0.7)
    _draw.paste(chip, _draw.pip(suit, q), ((p - q) / 2, (p - q) / 2 + p * 0.02))
    return chip
