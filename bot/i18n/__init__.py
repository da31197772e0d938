"""The message catalog: every user-facing string by key, English first.

``t(key, locale, **params)`` formats the string of ``key`` in the best catalog for
``locale`` ("pl", "en-US", ...), falling back to English, then to the key itself.
Add a language by adding a module with a ``MESSAGES`` dict and listing it in ``CATALOGS``:
the cogs pass each user's Discord locale (``interaction.locale``) to ``t`` for everything
that user reads, and the bot's command translator (``translation``) localizes the slash
commands' descriptions and choices, so no cog changes when a language is added.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.i18n import de, en, pl, ru, uk
from bot.i18n.plurals import expand

log = logging.getLogger(__name__)

DEFAULT = "en"
CATALOGS: dict[str, dict[str, str]] = {
    "en": en.MESSAGES, "ru": ru.MESSAGES, "pl": pl.MESSAGES, "uk": uk.MESSAGES, "de": de.MESSAGES}


# locale -> catalog, computed once per locale for the catalogs of that moment (a test may
# add a catalog: the count of catalogs is part of the key)
_CHOSEN: dict[tuple[str, int], str] = {}


def language(locale: str | None) -> str:
    """The catalog for a Discord locale: "en-US" -> "en", unknown -> the default."""
    if not locale:
        return DEFAULT
    key = (locale, len(CATALOGS))
    got = _CHOSEN.get(key)
    if got is None:
        got = _language(locale)
        if len(_CHOSEN) < 1024:
            _CHOSEN[key] = got
    return got


def _language(locale: str) -> str:
    code = str(locale).replace("_", "-")
    if code in CATALOGS:
        return code
    base = code.split("-", 1)[0].lower()
    return base if base in CATALOGS else DEFAULT


def has(key: str) -> bool:
    return key in CATALOGS[DEFAULT]


def t(key: str, locale: str | None = None, /, **params: Any) -> str:
    """The message ``key`` in ``locale`` with ``params`` filled in."""
    lang = language(locale)
    text = CATALOGS[lang].get(key) or CATALOGS[DEFAULT].get(key)
    if text is None:
        log.warning("missing message %r", key)
        return key
    try:
        return expand(text, lang, params).format(**params)
    except (KeyError, IndexError, ValueError):
        log.warning("message %r lacks parameters: %r", key, params)
        return text


def translation(key: str, locale: str | None) -> str | None:
    """The text of ``key`` in the catalog for ``locale``, or None where that is the default
    catalog or lacks the key (Discord then shows the default: command descriptions)."""
    lang = language(locale)
    if lang == DEFAULT:
        return None
    return CATALOGS[lang].get(key)


__all__ = ["CATALOGS", "DEFAULT", "has", "language", "t", "translation"]
