"""Every word in the reader's language, one word for one thing: the AI's level, the hand's
result said of anyone without a gendered verb, and /help naming the marks the images draw."""

from __future__ import annotations

import re

from bot.game.state import Phase
from bot.i18n import CATALOGS, t
from tests.helpers.cogs import short_match


async def test_an_ai_level_is_said_in_the_readers_language(world):
    w = world
    fd, ch, alice = w.fd, w.channel, w.users[0]
    alice.locale = "ru"
    await fd.slash(alice, ch, "table new", preset="russian")
    await w.settle()
    r = await fd.slash(alice, ch, "table ai", level="strong")
    assert "(бот, сильный)" in r.content, r.content
    assert "strong" not in r.content
    alice.locale = "de"
    r = await fd.slash(alice, ch, "table ai", level="easy")
    assert "(Bot, leicht)" in r.content and "easy" not in r.content, r.content


# the masculine past tense the result lines used to assume ("Ola nie ugrał 100")
GENDERED = {"ru": re.compile(r"\b(?:сыграл|расписал|списал|сдался)\b"),
            "uk": re.compile(r"\b(?:зіграв|розписав|списав|здався)\b"),
            "pl": re.compile(r"\b(?:ugrał|rzucił|spisał|poddał|pauzował)\b")}


async def test_a_polish_table_says_results_without_a_gender(world):
    w = world
    fd, alice = w.fd, w.users[0]
    await short_match(w, seed=4, options=(("language", "pl"),))
    table = w.table()
    assert table.state.phase is Phase.MATCH_OVER
    heads = [m.content.splitlines()[0] for m in fd.visible(alice, w.channel)
             if not m.ephemeral and m.content.startswith("**Rozdanie ")]
    assert heads, "no hand result"
    said = " ".join(heads)
    assert re.search(r": gra \d+ (?:ugrana|nieugrana)", said), said
    assert not GENDERED["pl"].search(said), said


def test_the_result_headlines_name_the_player_without_a_gendered_verb():
    for lang, gendered in GENDERED.items():
        for key in ("result.made", "result.failed", "result.rospisat", "result.spisat",
                    "result.conceded"):
            text = t(key, lang, name="Ola", contract=100)
            assert text.startswith("Ola") and not gendered.search(text), (lang, text)
        assert not gendered.search(t("result.sat_out", lang))


def test_help_names_the_marks_the_images_draw():
    for lang, cat in CATALOGS.items():
        for mark in ("img.dealer_mark", "img.declarer_short"):
            assert f"**{cat[mark]}**" in cat["help.table_text"], (lang, mark)
        assert f"**{cat['img.rospisat_mark']}**" in cat["help.sheet_text"], lang


def test_an_unknown_ai_level_is_refused_with_the_readers_level_names():
    from bot.tables import TableError
    from bot.tables._catalog import ai_level

    try:
        ai_level("godlike")
    except TableError as err:
        said = t(err.key, "ru", **err.params)
    assert said.endswith("уровни: лёгкий, обычный или сильный."), said


def test_no_developer_wording_on_the_pages_and_commands_players_read():
    developer = re.compile(r"python -m|\bJSON\b|docs/|\.md\b")
    for lang, cat in CATALOGS.items():
        for key, text in cat.items():
            if key.startswith(("web.", "cmd.", "help.", "button.")):
                assert not developer.search(text), (lang, key, text)
        assert "(" in cat["web.scenario"], (lang, cat["web.scenario"])  # says it is a file
