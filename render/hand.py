"""The ephemeral hand image: one player's cards, sorted, with legal/new/marriage marks.

Cards are sorted by suit (spades, hearts, clubs, diamonds: colours alternate) and by rank
(A 10 K Q J 9 8 7) and overlap so that every corner index stays visible. Legal cards are
raised with a gold rim, illegal ones are dimmed, cards received in the exchange carry a
"new" tag, and each declarable marriage is bracketed under its K and Q.
"""

from __future__ import annotations

import threading

from PIL import Image, ImageDraw

from bot.game.cards import DISPLAY_SUITS, SUITS, display_key, parse_card
from render import _draw, cards, fonts
from render._draw import GOLD, INK, INK_DIM
from render.labels import Labels
from render.model import HandView, split_card

SUIT_ORDER = tuple(SUITS[s] for s in DISPLAY_SUITS)  # ♠ ♥ ♣ ♦
NEW = (64, 160, 255)
_LOCK = threading.Lock()
_DIMMED: dict[tuple[str, int, int, str], Image.Image] = {}


def card_key(card: str) -> tuple[int, int]:
    """The one card order of the bot (image, text and buttons): suits ♠ ♥ ♣ ♦ (the colours
    alternate), then rank high to low."""
    return display_key(parse_card(card))


def sort_cards(hand: tuple[str, ...] | list[str], trump: str | None = None) -> list[str]:
    """Sorted as shown: by suit (alternating colours), then rank high to low."""
    return sorted(hand, key=card_key)


MAX_WIDTH = 850
"""The widest hand image: at a phone's 360 px its 26 px letters still show 11 px tall."""
MIN_WIDTH = 420
LETTER = 26
"""The smallest font size of the hand image (see ``render.display``)."""


def _dimmed(card: str, size: tuple[int, int], labels: Labels) -> Image.Image:
    key = (card, *size, labels.rank(split_card(card)[0]))
    with _LOCK:
        hit = _DIMMED.get(key)
        if hit is None:
            f = cards.face(card, size, labels)
            # a light grey veil: the card reads as "not now" and its index stays legible
            grey = Image.new("RGBA", size, (150, 160, 154, 255))
            hit = Image.blend(f, grey, 0.42)
            hit.putalpha(f.getchannel("A"))
            _DIMMED[key] = hit
        else:
            fonts.note(cards.index_px(size[0]))
        return hit


def render_hand(view: HandView, *, scale: float = 1.0, palette: int = 0) -> bytes:
    """Render the hand as PNG bytes (RGB; width grows with the number of cards up to
    ``MAX_WIDTH``, then the cards close up).

    ``palette`` > 0 quantizes to that many colours (mode "P"): the Discord hand, refreshed
    after every move, is then about 2.5 times smaller and faster to encode."""
    return _draw.to_png(draw_hand(view, scale=scale), palette=palette)


def header_lines(view: HandView, width: int, *, scale: float = 1.0) -> tuple[str, list[str]]:
    """The header as drawn in an image ``width`` px wide: the name (shortened with "…" to
    leave room for the trump chip) and the instruction, wrapped but never cut."""
    k = scale
    margin = round(18 * k)
    size = round(LETTER * k)
    room = width - 2 * margin
    name_room = room - (_trump_w(k, view.labels.trump) if view.trump is not None else 0)
    name = fonts.fit(view.name, size, max(10, name_room)) if view.name else ""
    note = view.note or (view.labels.your_turn if view.legal is not None else "")
    return name, fonts.wrap(note, round(28 * k), room, bold=True) if note else []


def _trump_w(k: float, word: str) -> int:
    return round(34 * k) + fonts.text_width(word, round(LETTER * k), bold=True) + round(
        20 * k
    )


def _layout(n: int, k: float) -> tuple[int, int]:
    """(step between cards, image width) for ``n`` cards."""
    cw = cards.size_for("hand", k)[0]
    margin = round(18 * k)
    step = round(cw * 0.62)
    if n > 1:
        step = min(step, (round(MAX_WIDTH * k) - 2 * margin - cw) // (n - 1))
    return step, max(round(MIN_WIDTH * k), 2 * margin + step * max(0, n - 1) + cw)


def image_width(n: int, *, scale: float = 1.0) -> int:
    """Width of the hand image of ``n`` cards."""
    return _layout(n, scale)[1]


def draw_hand(view: HandView, *, scale: float = 1.0) -> Image.Image:
    """The hand image: the header (name, notes, trump), the fan of cards, the marriages."""
    k = scale
    ch = cards.size_for("hand", scale)[1]
    ordered = sort_cards(view.cards, view.trump)
    n = len(ordered)
    margin = round(18 * k)
    step, width = _layout(n, k)
    name, notes = header_lines(view, width, scale=k)
    line = round(40 * k)
    header = round(14 * k) + line * (int(bool(name) or view.trump is not None) + len(notes))
    lift = round(16 * k)
    tag = round(34 * k) if view.new_cards else round(8 * k)
    bracket = round(48 * k)
    height = header + tag + lift + ch + bracket + margin // 2
    img = _draw.felt(width, height)
    _header(img, view, k, margin, name, notes, line)
    top = header + tag + lift
    positions = _fan(img, view, ordered, k, (margin, top), step, lift)
    _marriages(img, view, positions, k, top + ch, step, margin)
    return img


def _fan(img: Image.Image, view: HandView, ordered: list[str], k: float,
         origin: tuple[int, int], step: int, lift: int) -> dict[str, tuple[int, int]]:
    """The cards side by side from ``origin``: those that may be played raised on gold,
    the others dimmed, new ones tagged; returns where each card lies."""
    size = cards.size_for("hand", k)
    cw, ch = size
    margin, top = origin
    d = ImageDraw.Draw(img)
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
        _draw.paste(img, cards.face(c, size, view.labels) if legal
                    else _dimmed(c, size, view.labels), (x, y))
        if c in view.new_cards:
            _new_tag(img, view, (x, y), cw if i == len(ordered) - 1 else step, k)
    return positions


def _new_tag(img: Image.Image, view: HandView, xy: tuple[int, int], seen: int,
             k: float) -> None:
    """The "new" tag over a card: it starts at the card's own left edge, and a bar under
    it spans the card's visible strip (``seen`` px), so it cannot be read as the
    neighbour's."""
    x, y = xy
    r = round(4 * k)
    ImageDraw.Draw(img).rounded_rectangle(
        (x, y - round(8 * k), x + seen - r, y + round(2 * k)), radius=r, fill=NEW
    )
    _draw.badge(
        img,
        (x, y - round(4 * k)),
        view.labels.new,
        round(LETTER * k),
        fill=NEW,
        ink=(255, 255, 255),
        anchor="lb",
        pad=0.25,
    )


def _marriages(img: Image.Image, view: HandView, positions: dict[str, tuple[int, int]],
               k: float, bottom: int, step: int, margin: int) -> None:
    """A bracket under each marriage held (king and queen), with its suit and value."""
    d = ImageDraw.Draw(img)
    width = img.width
    values = dict(view.marriage_values)
    for suit in SUIT_ORDER:
        kq = (f"K{suit}", f"Q{suit}")
        if suit not in view.marriages or not all(c in positions for c in kq):
            continue
        x0 = min(positions[c][0] for c in kq)
        x1 = max(positions[c][0] for c in kq) + step
        yb = bottom + round(8 * k)
        lw = max(2, round(3 * k))
        d.line((x0 + 6 * k, yb, x1 - 6 * k, yb), fill=GOLD, width=lw)
        for xx in (x0 + 6 * k, x1 - 6 * k):
            d.line((xx, yb - 8 * k, xx, yb), fill=GOLD, width=lw)
        label = f"{_draw.SUIT_SYMBOL[suit]} {view.labels.marriage}" + (
            f" {values[suit]}" if suit in values else ""
        )
        mid = min(max((x0 + x1) / 2, margin + 90 * k), width - margin - 90 * k)
        fonts.draw_text(
            img, (mid, yb + 20 * k), label, round(LETTER * k), fill=GOLD, bold=True, anchor="mm"
        )

def _header(
    img: Image.Image,
    view: HandView,
    k: float,
    margin: int,
    name: str,
    notes: list[str],
    line: int,
) -> None:
    y = round(14 * k) + line / 2
    right = img.width - margin
    if view.trump is not None:
        p = round(34 * k)
        _draw.paste(img, _trump_chip(view.trump, p), (right - p, y - p / 2))
        fonts.draw_text(
            img,
            (right - p - 8 * k, y),
            view.labels.trump,
            round(LETTER * k),
            fill=GOLD,
            bold=True,
            anchor="rm",
        )
    if name or view.trump is not None:
        if name:
            fonts.draw_text(img, (margin, y), name, round(LETTER * k), fill=INK_DIM, bold=True)
        y += line
    for text in notes:
        fonts.draw_text(img, (margin, y), text, round(28 * k), fill=INK, bold=True)
        y += line


def _trump_chip(suit: str, p: int) -> Image.Image:
    chip = Image.new("RGBA", (p, p), (0, 0, 0, 0))
    ImageDraw.Draw(chip).ellipse((0, 0, p - 1, p - 1), fill=(253, 252, 248))
    q = round(p * 0.7)
    _draw.paste(chip, _draw.pip(suit, q), ((p - q) / 2, (p - q) / 2 + p * 0.02))
    return chip
