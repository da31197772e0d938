"""The message catalog: every user-facing string by key, English first.

``t(key, locale, **params)`` formats the string of ``key`` in the best catalog for
``locale`` ("pl", "en-US", ...), falling back to English, then to the key itself.
The cogs pass each user's Discord locale (``interaction.locale``) to ``t`` for everything
that user reads, and the bot's command translator (``translation``) localizes the slash
commands' descriptions and choices, so no cog changes when a language is added.

A language's catalog is its base module (``bot/i18n/<lang>.py``) merged with its rule
messages (``bot/i18n/rules_<lang>.py``: the engine's refusals, the confirmations of moves,
the words of each community); either may be missing, and a missing key falls back to
English. Add a language by adding those modules and listing it in ``LANGUAGES``.

The syntax of a message:

- ``{name}``: a parameter, as ``str.format`` writes it (``{delta:+d}`` works too).
- ``{n, plural, one{# card} few{# cards} many{# cards} other{# cards}}``: the form for the
  number ``n`` by the language's plural rules (CLDR, through Babel): the categories are
  ``zero one two few many other``, and ``=0``/``=1``... match an exact number first;
  ``#`` stands for the number; ``other`` is required. A form may hold parameters
  (``one{# card for {name}}``). English needs ``one``/``other``; Polish, Russian and
  Ukrainian ``one``/``few``/``many``/``other``. ``plural(lang, n, ...)`` does the same
  in code. Never write ``if n == 1``. For one word beside its number the short field of
  ``bot/i18n/plurals.py`` does the same: ``{count} {count|one:hand|other:hands}``.
- A parameter may be a value that writes itself per language (``bot.i18n.values``: a
  card, a nested message, the talon's word of a preset); ``t`` localizes it first.
"""

from __future__ import annotations

import importlib
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

from bot.i18n.plurals import category, expand

log = logging.getLogger(__name__)

DEFAULT = "en"
LANGUAGES = ("en", "ru", "pl", "uk", "de")


def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"bot.i18n.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"bot.i18n.{name}":  # a module that exists but fails: say so
            raise
        return None


def _catalog(lang: str) -> dict[str, str] | None:
    base, rules = _module(lang), _module(f"rules_{lang}")
    if base is None and rules is None:
        return None
    return {**(base.MESSAGES if base else {}), **(rules.MESSAGES if rules else {})}


CATALOGS: dict[str, dict[str, str]] = {
    lang: cat for lang in LANGUAGES if (cat := _catalog(lang)) is not None}


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


def text_of(key: str, lang: str) -> str | None:
    """The raw message of ``key`` in the catalog ``lang`` (no fallback), or None."""
    return CATALOGS.get(lang, {}).get(key)


@runtime_checkable
class Localizable(Protocol):
    """A parameter that writes itself in a language (see ``bot.i18n.values``)."""

    def localize(self, lang: str) -> str: ...


def t(key: str, locale: str | None = None, /, **params: Any) -> str:
    """The message ``key`` in ``locale`` with ``params`` filled in."""
    lang = language(locale)
    text = CATALOGS[lang].get(key)
    if text is None:
        lang_of_text = DEFAULT
        text = CATALOGS[DEFAULT].get(key)
    else:
        lang_of_text = lang
    if text is None:
        log.warning("missing message %r", key)
        return key
    if not params and "{" not in text and "}" not in text:
        return text  # nothing to fill in (a label, a heading): a dozen of them a hand
    return render(text, lang_of_text, params, key=key)


_PLAIN = (str, int, float)
# type -> whether its values write themselves in a language: a Protocol's isinstance
# looks the method up anew each time (10-20 µs, several times an answer)
_LOCALIZABLE: dict[type, bool] = {}


def _localizable(value: Any) -> bool:
    kind = type(value)
    got = _LOCALIZABLE.get(kind)
    if got is None:
        got = _LOCALIZABLE[kind] = isinstance(value, Localizable)
    return got


def render(text: str, lang: str, params: Mapping[str, Any], *, key: str = "") -> str:
    """``text`` (a message of the catalog ``lang``) with ``params`` filled in."""
    values = {k: v if isinstance(v, _PLAIN) or not _localizable(v) else v.localize(lang)
              for k, v in params.items()}
    try:
        return fill(text, lang, values)
    except (KeyError, IndexError, ValueError, TypeError):
        log.warning("message %r lacks parameters: %r", key, params)
        return text


def fill(text: str, lang: str, values: Mapping[str, Any]) -> str:
    """``text`` with its plural forms chosen and ``values`` written in; raises when the
    text is not a valid message or lacks a value (``render`` forgives, the check does not)."""
    if "plural," in text:
        text = _plurals(text, lang, values)
    if "|" in text:  # the short form {count|one:hand|other:hands} (bot/i18n/plurals.py)
        text = expand(text, lang, values)
    return text.format(**values)


# ---- plurals ------------------------------------------------------------------------------

_CATEGORIES = ("zero", "one", "two", "few", "many", "other")
_PLURAL = re.compile(r"\{\s*(\w+)\s*,\s*plural\s*,")
_FORM = re.compile(r"\s*(=\d+|zero|one|two|few|many|other)\s*\{")


def plural_category(lang: str, n: int) -> str:
    """The CLDR plural category of ``n`` in ``lang``: one, few, many, other..."""
    return category(lang if lang in CATALOGS else DEFAULT, abs(n))


def plural(lang: str, n: int, **forms: str) -> str:
    """The form of ``forms`` (``one=``, ``few=``, ``many=``, ``other=``, ``eq_0=`` for an
    exact number) for ``n`` in ``lang``; ``#`` in the form stands for ``n``."""
    exact = forms.get(f"eq_{n}")
    form = exact if exact is not None else forms.get(plural_category(lang, n))
    if form is None:
        form = forms["other"]
    return form.replace("#", str(n))


def _closing(text: str, start: int) -> int:
    """The index of the brace closing the one opened just before ``start``."""
    depth = 1
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if not depth:
                return i
    raise ValueError("unbalanced braces in a plural")


@dataclass(frozen=True, slots=True)
class PluralField:
    """One ``{n, plural, one{…} other{…}}`` of a message: where it stands and its forms."""

    start: int
    end: int  # just past its closing brace
    name: str
    forms: dict[str, str]  # "one", "few", "=0"... -> the form's text


def plural_fields(text: str) -> list[PluralField]:
    """The full plural fields of ``text``, in order; ValueError if one is malformed."""
    out: list[PluralField] = []
    pos = 0
    while (m := _PLURAL.search(text, pos)) is not None:
        forms: dict[str, str] = {}
        i = m.end()
        while (f := _FORM.match(text, i)) is not None:
            end = _closing(text, f.end())
            forms[f.group(1)] = text[f.end():end]
            i = end + 1
        close = text.find("}", i)
        if close < 0 or text[i:close].strip() or "other" not in forms:
            raise ValueError("a plural needs forms and an other form")
        out.append(PluralField(m.start(), close + 1, m.group(1), forms))
        pos = close + 1
    return out


def _plurals(text: str, lang: str, values: Mapping[str, Any]) -> str:
    out: list[str] = []
    pos = 0
    for field in plural_fields(text):
        out.append(text[pos:field.start])
        n = int(values[field.name])
        form = field.forms.get(f"={n}")
        if form is None:
            form = field.forms.get(plural_category(lang, n), field.forms["other"])
        out.append(form.replace("#", str(n)))
        pos = field.end
    out.append(text[pos:])
    return "".join(out)


def placeholders(text: str) -> set[str]:
    """The parameters a message uses (plural numbers and the forms' parameters included)."""
    names: set[str] = set()
    pos = 0
    plain: list[str] = []
    for field in plural_fields(text):
        plain.append(text[pos:field.start])
        names.add(field.name)
        for form in field.forms.values():
            names |= placeholders(form)
        pos = field.end
    plain.append(text[pos:])
    for found in re.findall(r"\{([^{}]*)\}", "".join(plain)):
        name = re.split(r"[:!.\[]", found, maxsplit=1)[0].strip()
        if name:
            names.add(name)
    return names


def translation(key: str, locale: str | None) -> str | None:
    """The text of ``key`` in the catalog for ``locale``, or None where that is the default
    catalog or lacks the key (Discord then shows the default: command descriptions)."""
    lang = language(locale)
    if lang == DEFAULT:
        return None
    return CATALOGS[lang].get(key)


__all__ = [
    "CATALOGS",
    "DEFAULT",
    "LANGUAGES",
    "Localizable",
    "PluralField",
    "has",
    "language",
    "placeholders",
    "plural",
    "plural_category",
    "plural_fields",
    "render",
    "t",
    "text_of",
    "translation",
]
