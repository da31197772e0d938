"""Numbers and dates in a locale's own format (Babel): 1 000 in "ru", 1.000 in "de"."""

from __future__ import annotations

import datetime as dt

from babel.dates import format_date
from babel.numbers import format_decimal

from bot.i18n import language


def number(value: int | float, locale: str | None, *, decimals: int | None = None) -> str:
    """``value`` with the grouping and decimal sign of ``locale``'s language (with exactly
    ``decimals`` digits after the sign where given)."""
    pattern = None if decimals is None else "#,##0" + ("." + "0" * decimals if decimals else "")
    return str(format_decimal(value, format=pattern, locale=language(locale)))


def date(value: dt.date | dt.datetime, locale: str | None) -> str:
    """A date in ``locale``'s medium format: "24 Nov 2026", "24 нояб. 2026 г."."""
    return str(format_date(value, format="medium", locale=language(locale)))


__all__ = ["date", "number"]
