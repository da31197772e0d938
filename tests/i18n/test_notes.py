"""The lines of a hand's result: the engine's English stays as it was, and each line also
carries a key that every language says in its own words."""

from __future__ import annotations

import copy
import json
import pickle
import re
from pathlib import Path
from typing import Any

import pytest

from bot.game.engine import apply_into
from bot.game.events import Event, HandScored
from bot.game.notes import ENGLISH, Note, note
from bot.game.partners import team_note
from bot.game.scenario import load_rules, parse_action, parse_deal, start_state
from bot.game.state import HandResult
from bot.i18n import CATALOGS, LANGUAGES, placeholders, t
from bot.i18n.notes import english_line, note_message, note_text
from bot.tables import result_json

SCENARIOS = Path(__file__).resolve().parents[2] / "tests" / "scenarios"
NAMES = ["Ada", "Bob", "Cy", "Dee"]

# a sample of each parameter the engine gives a note
SAMPLE: dict[str, Any] = {
    "who": 1, "contract": 120, "factor": 2, "bonus": 10, "count": 2, "penalty": 120,
    "of": 3, "hands": 3, "total": 760, "value": "555", "nines": 4, "below": 10,
}


def sample(key: str) -> Note:
    params: dict[str, Any] = {p: SAMPLE.get(p) for p in re.findall(r"\{(\w+)\}", ENGLISH[key])}
    if "reason" in params:
        params["reason"] = note("why.nines", nines=4)
    return note(key, **params)


def scenario_results() -> list[tuple[str, list[str], HandResult]]:
    """Every hand result of the scenario corpus, replayed with events."""
    out = []
    for path in sorted(SCENARIOS.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        rules = load_rules(data)
        names = [str(n) for n in data["players"]]
        state = start_state(data, rules, names)
        events: list[Event] = []
        try:
            for hand in data.get("hands") or []:
                state = apply_into(state, parse_deal(hand["deal"], names, rules), events)
                for raw in hand.get("actions") or []:
                    state = apply_into(state, parse_action(raw, names), events)
        except Exception:  # a scenario that expects a refusal: what scored before counts
            pass
        out += [(path.name, names, e.result) for e in events if isinstance(e, HandScored)]
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_note_the_engine_has_is_in_every_catalog_with_its_parameters(lang):
    cat = CATALOGS[lang]
    for key, english in ENGLISH.items():
        text = cat.get(f"note.{key}")
        assert text is not None, (lang, key)
        given = set(re.findall(r"\{(\w+)\}", english)) | {"talon"}
        assert placeholders(text) <= given, (lang, key, placeholders(text))
        en = placeholders(CATALOGS["en"][f"note.{key}"])
        assert placeholders(text) - {"talon"} == en - {"talon"}, (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_note_renders_in_every_language(lang):
    for key in ENGLISH:
        out = note_text(sample(key), NAMES, lang, preset="polish", talon="musik")
        assert out and "{" not in out and "}" not in out and "#" not in out, (lang, key, out)
        if "who" in sample(key).params:
            assert "Bob" in out, (lang, key, out)
        if lang != "en":
            assert out != english_line(sample(key), NAMES), (lang, key, out)


def test_the_engine_keeps_its_english_lines():
    assert note("dash", who=2, count=1) == "{2} took nothing: a dash (1 of 3)"
    assert note("made_misere", who=0, contract=120) == "{0} made the mizère (120)"
    line = note("claimed_annulled", who=1, reason=note("why.nines", nines=4))
    assert line == "{1} claimed a redeal (four nines): the hand is annulled"
    assert line.format(*NAMES) == "Bob claimed a redeal (four nines): the hand is annulled"
    assert team_note(note("wins", who=0)) == "{0} & {2} win the match"


def test_every_line_the_scenarios_score_is_a_note_that_rebuilds_its_english():
    seen: set[str] = set()
    results = scenario_results()
    assert len(results) > 50
    for file, names, res in results:
        for line in res.notes:
            assert isinstance(line, Note), (file, line)
            seen.add(line.key)
            who = line.params.get("who")
            if isinstance(who, tuple):  # a partnership's line: the two-seat view's, renamed
                again = team_note(note(line.key, **{**line.params, "who": who[0]}))
            else:
                again = note(line.key, **line.params)
            assert again == line and again.params == line.params, (file, line)
            assert note_text(line, names, "en"), (file, line)
            ru = note_text(line, names, "ru")
            assert not re.search(r"\b(the|took|loses|barrel|match|hand)\b", ru), (file, ru)
    # the corpus reaches most kinds (the rest are rendered from samples above)
    assert len(seen) >= 15, sorted(seen)


def test_a_team_line_names_both_partners_in_every_language():
    line = team_note(note("wins", who=1))
    assert isinstance(line, Note) and line.params["who"] == (1, 3)
    assert line.format(*NAMES) == "Bob & Dee win the match"
    assert note_text(line, NAMES, "ru") == "победа в партии: Bob & Dee"
    assert note_text(line, NAMES, "en") == "the match goes to Bob & Dee"
    assert team_note("{0} took nothing") == "{0} & {2} took nothing"  # a plain line too


def test_a_nested_reason_and_the_talon_speak_the_readers_words():
    why = note("why.talon_low", below=30)
    assert why == "the talon holds fewer than 30 points"
    line = note("claimed_annulled", who=0, reason=why)
    assert note_text(line, NAMES, "pl", preset="polish", talon="musik") == (
        "Ada: żądanie ponownego rozdania (musik: mniej niż 30 punktów), rozdanie unieważnione")
    assert note_text(line, NAMES, "ru-RU", preset="russian", talon="prikup") == (
        "Ada: пересдача (прикуп: меньше 30 очков), раздача аннулирована")
    assert note_text(note("dealt_annulled", who=2, reason=note("why.nines", nines=3)),
                     NAMES, "de") == "Cy: beim Geben drei Neunen, das Spiel ist ungültig"


def test_notes_survive_pickling_and_copying_with_their_keys():
    line = note("claimed_annulled", who=1, reason=note("why.hand_low", below=10))
    for got in (pickle.loads(pickle.dumps(line)), copy.deepcopy(line), copy.copy(line)):
        assert isinstance(got, Note) and got == line and got.key == line.key
        assert got.params["reason"].key == "why.hand_low"
    res = scenario_results()[0][2]
    again = pickle.loads(pickle.dumps(res))
    assert again == res and [n.key for n in again.notes] == [n.key for n in res.notes]


def test_a_stored_result_keeps_plain_english_and_a_plain_line_reads_as_english():
    _, names, res = next(r for r in scenario_results() if r[2].notes)
    stored = json.loads(json.dumps(result_json(res)))
    assert stored["notes"] == [str(n) for n in res.notes]
    plain = stored["notes"][0]
    assert not isinstance(plain, Note)
    # a line without a key (as JSON gives it back) reads as its English, names filled in
    assert note_text(plain, names, "ru") == plain.format(*names)
    assert note_message(plain, names) == plain.format(*names)


def test_a_key_the_catalog_lacks_falls_back_to_the_english_line():
    odd = Note("{0} did something new", "not_a_kind", {"who": 0})
    assert note_text(odd, NAMES, "ru") == "Ada did something new"
    assert t("note.thrown_in", "uk") == "усі спасували: роздача не грається"


def test_the_catalog_check_reads_full_plurals_and_finds_no_problem_in_the_notes():
    from bot.i18n.check import problems

    assert [p for p in problems() if ": note." in p] == []
    broken = {lang: dict(cat) for lang, cat in CATALOGS.items()}
    broken["ru"]["note.why.nines"] = "{nines, plural, =3{три} one{# девятка} other{# девятки}}"
    broken["pl"]["note.why.talon_nines"] = "{talonx}: dwie dziewiątki"
    broken["de"]["note.why.talon_nines"] = "zwei Neunen im Stock"  # its word, not {talon}
    found = [p for p in problems(broken) if ": note." in p]
    assert found == [
        "pl: note.why.talon_nines has placeholders ['talonx'], en has ['talon']",
        "ru: note.why.nines plural of nines has forms ['one', 'other']; CLDR wants "
        "['few', 'many', 'one', 'other']"]
