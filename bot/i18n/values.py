"""Parameters that write themselves in the reader's language: cards, suits, nested
messages, the talon's word of a preset. ``t`` localizes them before formatting.

They hold data only (a card int, a key and its parameters), so the table service can
build them without choosing a language; the words come when a reader's ``t`` asks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.game.cards import RANKS, SUIT_SYMBOLS, rank_of, suit_of
from bot.i18n import CATALOGS, DEFAULT, render, text_of

# Latin letters that look like a language's own rank letters: a player who reads ``Т♠``
# and types ``TS`` on a Latin keyboard means the card he sees (in Russian and Ukrainian
# the Latin T is then the ace, not the English ten, which is written ``10``).
_LOOKALIKE = {"Т": "T", "К": "K", "В": "B"}
# lang -> (its catalog and the default one when made, the value): made again when a catalog
# is replaced (a test's), never from a catalog that is no longer in use
_RANK_LETTERS: dict[str, tuple[object, object, tuple[str, ...]]] = {}
_TYPED: dict[str, tuple[object, object, dict[str, str]]] = {}


def _catalogs(lang: str) -> tuple[object, object]:
    return CATALOGS.get(lang), CATALOGS.get(DEFAULT)


def rank_letters(lang: str = DEFAULT) -> tuple[str, ...]:
    """The rank as each language writes it, indexed like ``RANKS``: ``Т`` for the ace in
    Russian. The letters are the catalog's ``img.rank.<rank>``, the ones the card images
    draw, so text and images agree."""
    catalog, default = _catalogs(lang)
    got = _RANK_LETTERS.get(lang)
    if got is not None and got[0] is catalog and got[1] is default:
        return got[2]
    letters = tuple(text_of(f"img.rank.{r}", lang) or text_of(f"img.rank.{r}", DEFAULT) or r
                    for r in RANKS)
    if catalog is not None:
        _RANK_LETTERS[lang] = (catalog, default, letters)
    return letters


def typed_ranks(lang: str = DEFAULT) -> dict[str, str]:
    """The letters a reader of ``lang`` may type for a rank, upper-case, mapped to the
    English rank (``Т`` -> ``A`` in Russian); English letters are read as well where the
    language does not use them otherwise (``parse_card`` reads those)."""
    catalog, default = _catalogs(lang)
    got = _TYPED.get(lang)
    if got is not None and got[0] is catalog and got[1] is default:
        return got[2]
    typed: dict[str, str] = {}
    for rank, letter in zip(RANKS, rank_letters(lang), strict=True):
        if letter == rank:
            continue
        typed[letter.upper()] = rank
        twin = _LOOKALIKE.get(letter.upper())
        if twin:
            typed[twin] = rank
    if catalog is not None:
        _TYPED[lang] = (catalog, default, typed)
    return typed


def card_text(card: int, lang: str = DEFAULT) -> str:
    """A card as players of ``lang`` see it, with the rank letters of the card images:
    ``A♠`` in English, ``Т♠`` in Russian, ``10♥``, ``W♦`` in Polish."""
    return rank_letters(lang)[rank_of(card)] + SUIT_SYMBOLS[suit_of(card)]


def cap(text: str) -> str:
    """``text`` with its first letter capitalized (the rest untouched)."""
    return text[:1].upper() + text[1:]


@dataclass(frozen=True, slots=True)
class Card:
    """A card (an int of ``bot.game.cards``), written ``A♠``."""

    card: int

    def localize(self, lang: str) -> str:
        return card_text(self.card, lang)


@dataclass(frozen=True, slots=True)
class Suit:
    """A suit index, written as its symbol (``♥``): the same in every language."""

    suit: int

    def localize(self, lang: str) -> str:
        return SUIT_SYMBOLS[self.suit]


@dataclass(frozen=True, slots=True)
class Msg:
    """A message inside a message: the first of ``keys`` the reader's catalog holds (else
    the first English holds), with ``params``; ``capital``: its first letter upper-case."""

    keys: tuple[str, ...]
    params: Mapping[str, Any] = field(default_factory=dict)
    capital: bool = False

    @classmethod
    def of(cls, key: str, /, **params: Any) -> Msg:
        return cls((key,), params)

    @property
    def key(self) -> str:
        return self.keys[0]

    def localize(self, lang: str) -> str:
        for where in (lang, DEFAULT):
            for key in self.keys:
                text = text_of(key, where)
                if text is not None:
                    out = render(text, where, self.params, key=key)
                    return cap(out) if self.capital else out
        return self.keys[0]


@dataclass(frozen=True, slots=True)
class Clauses:
    """A sentence of clauses (each a ``Msg``) joined with "; ", its first letter capital and
    a full stop at the end: the same punctuation in every catalog's language."""

    items: tuple[Msg, ...]

    def localize(self, lang: str) -> str:
        return cap("; ".join(item.localize(lang) for item in self.items)) + "."


@dataclass(frozen=True, slots=True)
class Joined:
    """Several values joined with "or" (``Ada or Bob``) in the reader's language."""

    items: tuple[Any, ...]

    def localize(self, lang: str) -> str:
        parts = [v.localize(lang) if hasattr(v, "localize") else str(v) for v in self.items]
        if len(parts) < 2:
            return "".join(parts)
        word = Msg.of("word.or").localize(lang)
        return f"{', '.join(parts[:-1])} {word} {parts[-1]}"


@dataclass(frozen=True, slots=True)
class TalonWord:
    """What the players of a preset call the talon, in the reader's language: the catalog's
    ``word.talon.preset.<preset>`` if it has one, else ``word.talon.<talon name>`` (the
    preset's English word: prikup, musik, kitty, talon)."""

    preset: str
    talon: str = "talon"
    capital: bool = False

    def localize(self, lang: str) -> str:
        keys = (f"word.talon.preset.{self.preset}", f"word.talon.{self.talon}", "word.talon.talon")
        return Msg(keys, capital=self.capital).localize(lang)


@dataclass(frozen=True, slots=True)
class PresetTitle:
    """A rule set's title in the reader's language (``choice.preset.<preset>``, the words
    of the slash command's choices and of the images); ``title``, its English title, where
    no catalog has the preset (a custom one)."""

    preset: str
    title: str

    def localize(self, lang: str) -> str:
        key = f"choice.preset.{self.preset}"
        for where in (lang, DEFAULT):
            text = text_of(key, where)
            if text is not None:
                return text
        return self.title


def names_of(seats: Sequence[int], names: Sequence[str]) -> tuple[str, ...]:
    """The names of these seats (``seat 3`` where there is none)."""
    return tuple(names[p] if 0 <= p < len(names) else f"#{p}" for p in seats)


__all__ = ["CATALOGS", "Card", "Clauses", "Joined", "Msg", "PresetTitle", "Suit", "TalonWord",
           "cap", "card_text", "names_of", "rank_letters", "typed_ranks"]
