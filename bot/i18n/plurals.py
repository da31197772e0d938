"""Plural forms by the CLDR rules (through Babel), and the catalogs' plural syntax.

A catalog string names the forms of a word next to the number it counts:
``"{count} {count|one:ход|few:хода|many:ходов|other:хода}"``. Each ``{param|cat:text|...}``
becomes the text of the category CLDR gives ``param``'s value in that language (``one``,
``few``, ``many``, ``other``...), so no message decides with ``n == 1``. Every plural field
lists exactly the categories of its language (the catalog check enforces it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from babel import Locale

# {name|one:...|other:...}: a field name followed by at least one "|category:text"
PLURAL_FIELD = re.compile(r"\{(\w+)((?:\|[a-z]+:[^{}|]*)+)\}")


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang.replace("-", "_"))


def categories(lang: str) -> frozenset[str]:
    """The CLDR plural categories of ``lang`` ("ru" -> one, few, many, other)."""
    return frozenset(_locale(lang).plural_form.tags) | {"other"}


def category(lang: str, count: int | float) -> str:
    """The CLDR plural category of ``count`` in ``lang``: 21 in "ru" -> "one", 22 -> "few"."""
    return str(_locale(lang).plural_form(count))


def forms(field: str) -> dict[str, str]:
    """The ``category -> text`` pairs of one plural field's ``|cat:text`` tail."""
    pairs = (part.split(":", 1) for part in field.split("|")[1:])
    return {cat: text for cat, text in pairs}  # noqa: C416 (the pairs are lists)


def expand(text: str, lang: str, params: Mapping[str, Any]) -> str:
    """``text`` with each plural field replaced by the form its count takes in ``lang``;
    a field whose parameter is missing or not a number is left as it is."""
    if "|" not in text:
        return text

    def choose(m: re.Match[str]) -> str:
        value = params.get(m.group(1))
        if isinstance(value, bool) or not isinstance(value, int | float):
            return m.group(0)
        got = forms(m.group(2))
        return got.get(category(lang, value), got.get("other", ""))

    return PLURAL_FIELD.sub(choose, text)


__all__ = ["PLURAL_FIELD", "categories", "category", "expand", "forms"]
