"""The images speak the catalog's languages: every word from ``Labels``, every glyph in the
fonts, the long words still fitting where the English ones do."""

from __future__ import annotations

import io
from dataclasses import fields, replace

import pytest
from PIL import Image

from bot.i18n import CATALOGS
from cogs._images import labels_for
from render import cards, fonts, sample_views
from render.labels import ENGLISH, Labels
from render.leaderboard import _COLS, WIDTH, _columns
from render.table import _PHASE_LINES, phase_lines, render_table

LANGUAGES = ("ru", "pl", "uk", "de")


def test_english_catalog_and_the_render_defaults_agree():
    assert labels_for("en-US") == ENGLISH
    assert labels_for("pt-BR") == ENGLISH  # none of the five: English


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_has_its_glyphs(lang):
    lab = labels_for(lang)
    assert lab.lang == lang
    words = [getattr(lab, f.name) for f in fields(Labels)]
    missing = {w: fonts.missing_glyphs(w) + fonts.missing_glyphs(w, bold=True) for w in words}
    assert {w: m for w, m in missing.items() if m} == {}
    # every word is the language's own, not an English fallback (short marks may agree)
    same = [f.name for f in fields(Labels)
            if getattr(lab, f.name) == getattr(ENGLISH, f.name) and len(getattr(lab, f.name)) > 4]
    assert len(same) <= 3, same


def test_rank_letters_follow_the_community():
    letters = {lang: "".join(labels_for(lang).rank(r) for r in ("J", "Q", "K", "A", "10"))
               for lang in ("en", *LANGUAGES)}
    assert letters == {"en": "JQKA10", "ru": "ВДКТ10", "uk": "ВДКТ10", "pl": "WDKA10",
                       "de": "BDKA10"}
    en_face = cards.face("AS", cards.HAND).tobytes()
    assert cards.face("AS", cards.HAND, labels_for("ru")).tobytes() != en_face
    assert cards.face("AS", cards.HAND, labels_for("pl")).tobytes() == en_face  # A is A


def _phase_lines(lab: Labels) -> dict[int, int]:
    """The most lines the phase takes on a table of 2, 3, 4 (golden hands aside)."""
    hand = lab.say(lab.hand_no, no=12)
    tails = [[lab.say(lab.play_trick, no=10, of=10), lab.last_trick]]
    tails += [[getattr(lab, f.name), lab.last_trick]
              for f in fields(Labels) if f.name.startswith("end_")]
    tails += [[getattr(lab, f.name)] for f in fields(Labels) if f.name.startswith("phase_")]
    return {n: max(len(phase_lines(hand, tail, n)) for tail in tails) for n in (2, 3, 4)}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_phase_line_fits_where_the_english_one_does(lang):
    got = _phase_lines(labels_for(lang))
    assert all(got[n] <= max(_PHASE_LINES[n], _phase_lines(ENGLISH)[n]) for n in got), got


@pytest.mark.parametrize("lang", LANGUAGES)
def test_leaderboard_headings_do_not_run_into_each_other(lang):
    lab = labels_for(lang)
    view = sample_views.leaderboard(lab)
    cols = _columns(view)
    size = 22
    for (label, fx), (_, prev) in zip(cols[1:], [(None, _COLS[0][1]), *cols[1:-1]],
                                      strict=True):
        assert fonts.text_width(label, size, bold=True) < (fx - prev) * WIDTH - 6, label


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_image_is_drawn_in_the_views_language(lang):
    view = sample_views.tables()["table3_bidding"]
    en = render_table(view)
    other = render_table(replace(view, labels=labels_for(lang)))
    assert other != en
    assert Image.open(io.BytesIO(other)).size == Image.open(io.BytesIO(en)).size


def test_every_language_has_its_catalog_labels():
    assert set(CATALOGS) == {"en", *LANGUAGES}


@pytest.mark.parametrize("lang", ("en", *LANGUAGES))
def test_the_summarys_contract_line_is_not_cut(lang):
    lab = labels_for(lang)
    stats = (lab.say(lab.contracts, made=19, failed=18) + " · "
             + lab.say(lab.best, contract=300))
    assert fonts.fit(stats, 22, 330 - 28) == stats
