"""No message guesses a player's gender: the gendered forms listed here (the masculine past
tense of Russian, Ukrainian and Polish, German and English pronouns of a player) are said
nowhere. A sentence about a player is a noun phrase ("{name}: заказ сыгран"), in the present
tense, or impersonal (docs/rules-decisions.md, the glossary)."""

from __future__ import annotations

import re

import pytest

from bot.i18n import CATALOGS

GENDERED = {
    "ru": ("сыграл", "расписал", "списал", "сдался", "вернулся", "отошёл", "ушёл", "убран",
           "получил", "посмотрел", "выбрал", "слетел", "пропускал", "сдавал", "зашёл",
           "положил", "задал", "сделал", "взял", "него", "нему", "заблокирован"),
    "uk": ("зіграв", "розписав", "списав", "здався", "повернувся", "відійшов", "пішов",
           "пропустив", "подивився", "вибрав", "отримав", "злетів", "пропускав", "роздавав",
           "зайшов", "поклав", "задав", "заявив", "взяв", "нього"),
    "pl": ("ugrał", "rzucił", "spisał", "poddał", "pauzował", "wrócił", "odszedł", "opuścił",
           "zdążył", "usunięty", "obejrzałeś", "dostałeś", "dostał", "wybrał", "spadł",
           "rozdawał", "zagrał", "wyszedł", "ustawił", "wziął", "nieobecny", "widoczny",
           "niego"),
    "de": ("er", "ihm", "für ihn"),
    "en": ("he", "his", "him", "himself"),
}


@pytest.mark.parametrize("lang", sorted(GENDERED))
def test_no_message_guesses_a_players_gender(lang):
    forms = GENDERED[lang]
    rx = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, forms)) + r")(?!\w)", re.I)
    found = {key: rx.findall(text) for key, text in CATALOGS[lang].items() if rx.search(text)}
    assert not found, found
