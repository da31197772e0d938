"""How Discord shows each image, and the smallest letter a player can still read there.

Discord never shows our PNGs at their own size: the table image is an embed image, about
400 px wide on a desktop and as wide as the phone's chat column (about 360 px) on a
phone; the hand image is the image of the player's ephemeral message (the same sizes);
the score sheet, the match summary and the leaderboard are plain attachments in the
channel, shown at most about 400 px wide on a desktop (the height is capped too, so a
tall image shows narrower, never wider) and about 360 px on a phone. An image narrower
than its display width is shown at its own size, never enlarged.

Each renderer draws every letter at least ``MIN_LETTER_PX`` tall at the phone's width:
``min_font_px * display_scale(kind, width) >= MIN_LETTER_PX``. ``tests/render`` checks it
for every image kind and every preset's sample, with ``fonts.recording()``.
"""

from __future__ import annotations

from dataclasses import dataclass

MIN_LETTER_PX = 11
"""The smallest font size (in displayed pixels) a player reads without zooming."""


@dataclass(frozen=True)
class Display:
    """Where one kind of image appears and how wide Discord draws it there."""

    how: str
    desktop: int
    phone: int


DISPLAYS: dict[str, Display] = {
    "table": Display("embed image of the table message", 400, 360),
    "hand": Display("image of the player's ephemeral hand message", 400, 360),
    "sheet": Display("attachment of the hand-result message", 400, 360),
    "summary": Display("attachment of the match-over message", 400, 360),
    "leaderboard": Display("attachment of the leaderboard reply", 400, 360),
    "help": Display("image of the /help reply", 400, 360),
    "analysis": Display("attachment of a hand's analysis (Analyse, /analyze)", 400, 360),
}


def display_scale(kind: str, image_width: int, *, phone: bool = True) -> float:
    """How much Discord shrinks an ``image_width`` px wide image of ``kind`` (≤ 1)."""
    d = DISPLAYS[kind]
    return min(1.0, (d.phone if phone else d.desktop) / max(1, image_width))

