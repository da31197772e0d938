"""What people type or press, read into values, with a polite refusal for anything else.

Discord lets a string option carry 6,000 characters and a crafted button any text: a refusal
quotes at most a short prefix of it, so that no reply grows past Discord's limits.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.game.cards import parse_card
from bot.i18n import language
from bot.i18n.values import typed_ranks
from bot.tables._model import TableError

QUOTE_LIMIT = 24


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """A short, single-line prefix of user input, fit to quote in a reply."""
    flat = " ".join(str(text).split())
    flat = flat.replace("`", "'")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def whole_number(text: str, digits: int = 19) -> int | None:
    """A whole number of at most ``digits`` ASCII digits, or None: ``str.isdigit`` and ``int``
    also take other scripts' digits (``١٠٥`` would be 105) and superscripts."""
    raw = text.strip()
    if not (0 < len(raw) <= digits and raw.isascii() and raw.isdigit()):
        return None
    return int(raw)


def card_from_text(text: str, locale: str | None = None) -> int:
    """A card as people write it (``10H``, ``q♠``, ``T♣``), or with the rank letters of
    ``locale``'s language, the ones its reader sees (``Т♠`` in Russian, ``W♥`` in Polish)."""
    try:
        return parse_card(text, typed_ranks(language(locale)))
    except ValueError:
        raise TableError("error.bad_card", text=quote(text)) from None


def amount_from_text(text: str) -> int:
    """A bid or contract amount from a menu value."""
    amount = whole_number(text, 6)
    if amount is None:
        raise TableError("error.bad_amount", text=quote(text))
    return amount


def index_from_text(text: str, count: int) -> int:
    """A small index (a talon number, a seat) from a button or menu value."""
    index = whole_number(text, 3)
    if index is None or index >= count:
        raise TableError("error.no_such_action")
    return index


def seat_from_text(names: Sequence[str], text: str) -> int:
    """A seat by number or by its player's name (case-insensitive)."""
    raw = text.strip()
    index = whole_number(raw, 3)
    if index is not None and index < len(names):
        return index
    for i, n in enumerate(names):
        if n.lower() == raw.lower():
            return i
    raise TableError("error.user_not_seated")


def option_value(raw: str) -> Any:
    """A typed option value: JSON where it parses (true, 110, null, [2, 2]), else the text."""
    text = raw.strip()
    try:
        return json.loads(text)
    except ValueError:
        low = text.lower()
        if low in ("yes", "on"):
            return True
        if low == "no":
            return False
        return text
