"""One word for one thing: the glossary of docs/rules-decisions.md is what the catalogs say.

Each word of the glossary is used by its language's messages, and none of the spellings
the glossary retires is (the talon, the marriage, rospisat, the redeal... said one way in
the buttons, the rules' sentences, the images and the web pages)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import CATALOGS

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules-decisions.md"
LANGS = {"English": "en", "Russian": "ru", "Polish": "pl", "Ukrainian": "uk", "German": "de"}
# endings dropped to find a word in its other forms (бочка -> бочк: «на бочке»)
ENDINGS = "aeiouyąęаеёиоуыэюяьіїє"


def _tables() -> list[list[list[str]]]:
    """The Markdown tables of the document: rows of cells, the header first."""
    tables: list[list[list[str]]] = []
    rows: list[list[str]] = []
    for line in [*DOC.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(set(c) <= set("-: ") for c in cells):
                rows.append(cells)
        elif rows:
            tables.append(rows)
            rows = []
    return tables


def _table(first: str) -> list[list[str]]:
    found = [t for t in _tables() if t[0][0] == first]
    assert len(found) == 1, f"docs/rules-decisions.md needs one table headed {first!r}"
    return found[0]


def glossary() -> list[tuple[str, str, str]]:
    """(term, language, word) for every word of the glossary."""
    head, *rows = _table("term")
    langs = [LANGS[h] for h in head[1:]]
    return [(row[0], lang, word.strip()) for row in rows
            for lang, cell in zip(langs, row[1:], strict=True) for word in cell.split(" / ")]


def retired() -> list[tuple[str, str, str]]:
    """(language, retired spelling, the word used instead)."""
    head, *rows = _table("language")
    assert head == ["language", "not", "but"]
    return [(LANGS[lang], old, new.split(" (")[0]) for lang, old, new in rows]


def _stem(word: str) -> str:
    *first, last = word.split(" ")
    while len(last) > 4 and last[-1].lower() in ENDINGS:
        last = last[:-1]
    return " ".join([*first, last])


def used(lang: str, word: str) -> list[str]:
    """The keys of ``lang``'s messages where ``word`` (in any of its forms) starts a word."""
    rx = re.compile(r"(?<!\w)" + re.escape(_stem(word)), re.IGNORECASE)
    return [k for k, v in CATALOGS[lang].items() if rx.search(v)]


def test_the_glossary_covers_every_language():
    terms = {term for term, _, _ in glossary()}
    assert {"talon", "marriage", "redeal", "contract", "bid", "pass", "trick",
            "barrel"} <= {t.split(" ")[0] for t in terms}
    for term in terms:
        assert {lang for t, lang, _ in glossary() if t == term} == set(LANGS.values()), term


@pytest.mark.parametrize(("term", "lang", "word"), glossary())
def test_each_word_of_the_glossary_is_the_catalogs_word(term, lang, word):
    assert used(lang, word), f"{lang}: no message says {word!r} ({term})"


@pytest.mark.parametrize(("lang", "old", "new"), retired())
def test_no_message_uses_a_retired_spelling(lang, old, new):
    prefix = old.endswith("…")
    pattern = r"(?<!\w)" + re.escape(old.rstrip("…")) + ("" if prefix else r"(?!\w)")
    rx = re.compile(pattern, re.IGNORECASE if old[:1].islower() else 0)
    hits = {k: v for k, v in CATALOGS[lang].items() if rx.search(v)}
    assert not hits, f"{lang}: {old!r} where the glossary says {new!r}: {hits}"
    assert used(lang, new), f"{lang}: {new!r} is said nowhere"
