"""The catalog check: every language complete, the same placeholders, CLDR plural forms,
and no string longer than Discord allows where it is shown (``python -m bot i18n check``
and ``tests/i18n`` print the same report)."""

from __future__ import annotations

from collections.abc import Mapping

from babel.core import UnknownLocaleError

from bot.i18n import CATALOGS, DEFAULT, fill, plural_fields
from bot.i18n import placeholders as message_placeholders
from bot.i18n.plurals import PLURAL_FIELD, categories, forms

# Parameters a language may leave out: where its community has one word for the talon
# whatever the preset (прикуп, musik), its sentences do not need the preset's word.
OPTIONAL = frozenset({"talon"})

# Where a key is shown, found by its prefix (the longest matching prefix wins), and what
# Discord allows there. Image labels have no Discord limit: theirs keeps a word on the image.
LIMITS: tuple[tuple[str, int, str], ...] = (
    ("", 2000, "message content"),
    ("button.", 80, "button label"),
    ("select.", 100, "select menu placeholder / option"),
    ("choice.", 100, "choice name"),
    ("metric.", 100, "choice name"),
    ("period.", 100, "choice name"),
    ("scope.", 100, "choice name"),
    ("cmd.", 100, "command or option description"),
    ("help.", 256, "embed field name"),
    ("rules.phase.", 256, "embed field name"),
    ("stats.", 256, "embed field name"),
    ("stats.contracts_value", 1024, "embed field value"),
    ("img.", 48, "word drawn on an image"),
)
SUFFIX_LIMITS: tuple[tuple[str, int, str], ...] = (
    ("_text", 1024, "embed field value"),
    (".title", 256, "embed title"),
)


def limit_of(key: str) -> tuple[int, str]:
    """The length Discord allows for ``key`` where it is used, and the name of that place."""
    for suffix, size, where in SUFFIX_LIMITS:
        if key.endswith(suffix):
            return size, where
    best = max((p for p in LIMITS if key.startswith(p[0])), key=lambda p: len(p[0]))
    return best[1], best[2]


def placeholders(text: str) -> set[str]:
    """The parameter names ``text`` uses (a plural field counts as its parameter);
    ValueError if ``text`` is not a valid message."""
    plain = PLURAL_FIELD.sub(lambda m: "{" + m.group(1) + "}", text)
    names = message_placeholders(plain)
    try:
        fill(plain, DEFAULT, dict.fromkeys(names, 1))
    except (KeyError, IndexError, TypeError) as e:
        raise ValueError(str(e)) from e
    return names


def longest(text: str) -> str:
    """``text`` with every plural field replaced by its longest form."""
    return PLURAL_FIELD.sub(lambda m: max(forms(m.group(2)).values(), key=len), text)


def problems(catalogs: Mapping[str, Mapping[str, str]] | None = None) -> list[str]:
    """Every problem of the catalogs, one readable line each (empty: all is well)."""
    cats = CATALOGS if catalogs is None else catalogs
    ref = cats[DEFAULT]
    out: list[str] = []
    for lang, cat in sorted(cats.items()):
        for key in sorted(set(ref) - set(cat)):
            out.append(f"{lang}: missing key {key}")
        for key in sorted(set(cat) - set(ref)):
            out.append(f"{lang}: key {key} is not in {DEFAULT}")
        try:
            wanted = categories(lang)
        except UnknownLocaleError:
            out.append(f"{lang}: not a language CLDR knows (no plural rules)")
            wanted = frozenset({"other"})
        for key, text in sorted(cat.items()):
            try:
                names = placeholders(text)
            except ValueError as e:
                out.append(f"{lang}: {key} is not a valid template ({e})")
                continue
            if key in ref and lang != DEFAULT:
                theirs = placeholders(ref[key])
                if not names <= theirs or theirs - names - OPTIONAL:
                    out.append(f"{lang}: {key} has placeholders {sorted(names)}, "
                               f"{DEFAULT} has {sorted(theirs)}")
            plurals = [(m.group(1), set(forms(m.group(2))))
                       for m in PLURAL_FIELD.finditer(text)]
            full = [(f.name, {c for c in f.forms if not c.startswith("=")})
                    for f in plural_fields(text)]
            for name, got in plurals + full:
                if got != wanted:
                    out.append(f"{lang}: {key} plural of {name} has forms "
                               f"{sorted(got)}; CLDR wants {sorted(wanted)}")
            size, where = limit_of(key)
            length = len(longest(text))
            if length > size:
                out.append(f"{lang}: {key} is {length} characters; a {where} allows {size}")
    return out


def report(catalogs: Mapping[str, Mapping[str, str]] | None = None) -> tuple[str, int]:
    """The check's report as text, and the exit status (1 when there are problems)."""
    cats = CATALOGS if catalogs is None else catalogs
    found = problems(cats)
    head = ", ".join(f"{lang} {len(cat)}" for lang, cat in cats.items())
    if not found:
        return f"catalogs: {head} keys; no problems", 0
    return "\n".join([f"catalogs: {head} keys; {len(found)} problems", *found]), 1


__all__ = ["LIMITS", "limit_of", "placeholders", "problems", "report"]
