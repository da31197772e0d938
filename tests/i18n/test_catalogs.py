"""The catalog checks: every language complete, the same placeholders as English, CLDR
plural forms, and nothing longer than Discord allows where it is shown."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.__main__ import main
from bot.i18n import CATALOGS, t
from bot.i18n.check import limit_of, problems, report
from bot.i18n.formats import date, number
from bot.i18n.plurals import categories, category

LANGUAGES = ("en", "ru", "pl", "uk", "de")


def test_the_five_catalogs_pass_the_check():
    assert tuple(CATALOGS) == LANGUAGES
    assert problems() == []


def test_the_check_reports_each_kind_of_problem():
    broken = {lang: dict(cat) for lang, cat in CATALOGS.items()}
    del broken["ru"]["button.join"]
    broken["pl"]["error.not_host"] = "Tylko gospodarz ({hots}) może to zrobić."
    broken["de"]["button.start"] = "Starten " * 12
    broken["uk"]["sheet.totals"] = "Після {hands} {hands|one:роздачі|other:роздач}: {totals}"
    broken["de"]["cmd.table"] = "x" * 101
    found = problems(broken)
    assert "ru: missing key button.join" in found
    assert any(p.startswith("pl: error.not_host has placeholders ['hots']") for p in found)
    assert "de: button.start is 96 characters; a button label allows 80" in found
    assert any(p.startswith("uk: sheet.totals plural of hands has forms ['one', 'other']")
               for p in found)
    assert "de: cmd.table is 101 characters; a command or option description allows 100" \
        in found
    assert len(found) == 5
    text, status = report(broken)
    assert status == 1 and text.splitlines()[1:] == found


def test_limits_follow_where_a_key_is_shown():
    assert limit_of("button.join") == (80, "button label")
    assert limit_of("select.bid") == (100, "select menu placeholder / option")
    assert limit_of("choice.declare.aces") == (100, "choice name")
    assert limit_of("metric.rating") == (100, "choice name")
    assert limit_of("cmd.table.new.preset") == (100, "command or option description")
    assert limit_of("help.table_text") == (1024, "embed field value")
    assert limit_of("rules.title") == (256, "embed title")
    assert limit_of("error.no_table") == (2000, "message content")


@pytest.mark.slow
def test_the_command_line_prints_the_same_report(capsys):
    assert main(["i18n", "check"]) == 0
    assert capsys.readouterr().out.strip() == report()[0]
    CATALOGS["xx"] = {"button.join": "{oops}"}
    try:
        assert main(["i18n", "check"]) == 1
    finally:
        del CATALOGS["xx"]
    out = capsys.readouterr().out
    assert "xx: missing key error.no_table" in out
    assert "xx: button.join has placeholders ['oops'], en has []" in out


@pytest.mark.parametrize(("lang", "counts"), [
    ("ru", {1: "one", 21: "one", 2: "few", 24: "few", 5: "many", 11: "many", 12: "many"}),
    ("uk", {1: "one", 3: "few", 5: "many", 111: "many"}),
    ("pl", {1: "one", 2: "few", 22: "few", 5: "many", 12: "many", 21: "many"}),
    ("de", {1: "one", 2: "other", 0: "other"}),
    ("en", {1: "one", 0: "other", 21: "other"}),
])
def test_plural_categories_are_cldrs(lang, counts):
    assert {n: category(lang, n) for n in counts} == counts
    assert categories(lang) >= set(counts.values())


def test_messages_take_the_plural_form_of_their_count():
    assert t("sheet.totals", "ru", hands=1, totals="…") == "После 1 раздачи: …"
    assert t("sheet.totals", "ru", hands=5, totals="…") == "После 5 раздач: …"
    assert t("sheet.totals", "pl", hands=2, totals="…") == "Po 2 rozdaniach: …"
    assert t("sheet.totals", "pl", hands=1, totals="…") == "Po 1 rozdaniu: …"
    assert t("sheet.totals", "en", hands=1, totals="…") == "After 1 hand: …"
    assert t("sheet.totals", "en-GB", hands=3, totals="…") == "After 3 hands: …"
    assert t("rules.more", "uk", count=3) == "…і ще 3 зміни: див. «Усі опції»."
    assert t("rules.more", "de", count=1) == "…und 1 weitere Änderung: siehe Alle Optionen."
    assert t("admin.reset_done", "ru", count=22).startswith(
        "Таблица лидеров сброшена (22 партии больше не учитываются")


def test_numbers_and_dates_in_the_locales_format():
    assert number(1234.5, "ru", decimals=1) == "1\xa0234,5"
    assert number(1234.5, "de", decimals=1) == "1.234,5"
    assert number(1234.5, "en-US", decimals=1) == "1,234.5"
    assert number(12345, "pl") == "12\xa0345"
    day = dt.date(2026, 11, 24)
    assert date(day, "de") == "24.11.2026"
    assert date(day, "en-US") == "Nov 24, 2026"
    assert "2026" in date(day, "ru") and "нояб" in date(day, "ru")


def test_english_preset_choices_are_the_presets_titles():
    from bot.game.presets import PRESETS

    assert {name: t(f"choice.preset.{name}") for name in PRESETS} == {
        name: p.title[:100] for name, p in PRESETS.items()}
