"""Card pictures for the pages, drawn by ``render`` once (in a thread) and served under
their content hash, so that browsers may keep them for a year."""

from __future__ import annotations

import asyncio
import hashlib
import threading

from bot.game.cards import card_str
from render.pictures import back_png, card_png

DECK = range(32)  # every card the engine knows (the smaller decks are subsets)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:20]


def _draw_all() -> tuple[dict[int, bytes], bytes]:
    return {c: card_png(card_str(c)) for c in DECK}, back_png()


class Pictures:
    """Card faces and back by content hash (``/img/{hash}.png``)."""

    def __init__(self) -> None:
        self.by_hash: dict[str, bytes] = {}
        self._urls: dict[int, str] = {}
        self._back = ""
        self._lock = threading.Lock()  # any loop, any thread may ask first

    async def ready(self) -> None:
        """Draw the cards once (off the event loop)."""
        if not self._back:
            await asyncio.to_thread(self._draw)

    def _draw(self) -> None:
        with self._lock:
            if self._back:
                return
            faces, back = _draw_all()
            for c, data in faces.items():
                h = _digest(data)
                self.by_hash[h] = data
                self._urls[c] = f"/img/{h}.png"
            h = _digest(back)
            self.by_hash[h] = back
            self._back = f"/img/{h}.png"  # set last: the others are complete

    def url(self, card: int | None) -> str:
        """A card's picture (None: the back); call :meth:`ready` first."""
        return self._back if card is None else self._urls[card]
