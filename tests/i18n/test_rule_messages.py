"""The engine's refusals and the confirmations of moves, as each reader reads them."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from bot.game.actions import Action, Flag, Verb, act
from bot.game.cards import SUITS, card_pretty, parse_card
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply_into, legal_actions, turn_refusal
from bot.game.errors import ENGLISH, RuleError, param_kind
from bot.game.presets import PRESETS
from bot.game.state import Phase
from bot.i18n import CATALOGS, LANGUAGES, placeholders, plural, t
from bot.i18n.rule_text import ABOUT_ACTOR, move_message, rule_message
from bot.i18n.values import Card, Joined, Msg, Suit

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "bot" / "game"
NAMES = ["Ada", "Bob", "Cid", "Dot"]
RULES = {lang: {k: v for k, v in CATALOGS[lang].items()
                if k.split(".")[0] in ("rule", "act", "event", "word")} for lang in LANGUAGES}


def said(msg: Msg, lang: str) -> str:
    return t(msg.key, lang, **msg.params)


def _strings(node: ast.expr | None) -> set[str]:
    """The strings an expression can give: "a" if c else "b", "x_" + ("y" if c else "z")."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _strings(node.body) | _strings(node.orelse)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return {a + b for a in _strings(node.left) for b in _strings(node.right)}
    return set()


def _raised_keys() -> set[str]:
    """Every key the engine's sources give a RuleError or return as a refusal."""
    keys: set[str] = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "RuleError":
                keys |= _strings(node.args[0] if node.args else None)
            elif isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(
                    node.value.elts) == 2 and isinstance(node.value.elts[1], ast.Dict):
                keys |= _strings(node.value.elts[0])
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.IfExp | ast.BinOp):
                keys |= {k for k in _strings(node.value) if k.startswith(("turn_", "whole_"))}
            elif isinstance(node, ast.Dict):
                keys |= {k for v in node.values for k in _strings(v) if k.startswith("turn_")}
    return keys


def test_every_refusal_of_the_engine_has_an_english_sentence_and_a_message_in_every_language():
    raised = _raised_keys()
    assert len(raised) > 80
    assert raised <= set(ENGLISH), sorted(raised - set(ENGLISH))
    for lang in LANGUAGES:
        missing = sorted(k for k in ENGLISH if f"rule.{k}" not in CATALOGS[lang])
        assert not missing, (lang, missing)
        others = sorted(k for k in ABOUT_ACTOR if f"rule.{k}.other" not in CATALOGS[lang])
        assert not others, (lang, others)


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_language_has_the_keys_and_placeholders_of_english(lang):
    en, other = RULES["en"], RULES[lang]
    extra = {k for k in other if k.startswith("word.talon.preset.")}
    assert set(other) - extra == set(en) - {k for k in en if k.startswith("word.talon.preset.")}
    for key, text in en.items():
        if key not in other:
            continue
        # the talon's word may be written into a sentence where a language has one word
        assert placeholders(other[key]) - {"talon"} == placeholders(text) - {"talon"}, key


def test_the_placeholders_are_the_parameters_the_engine_gives():
    for key, sentence in ENGLISH.items():
        given = {re.sub("_word$", "", p) for p in placeholders(sentence)} | {"talon"}
        for lang in LANGUAGES:
            for k in (f"rule.{key}", f"rule.{key}.other"):
                if k in CATALOGS[lang]:
                    assert placeholders(CATALOGS[lang][k]) <= given, (lang, k)
    moves = {"amount", "talon", "no", "card", "to"}
    for lang in LANGUAGES:
        for key, text in RULES[lang].items():
            if key.startswith(("act.", "event.")):
                assert placeholders(text) <= moves, (lang, key)


def _sample(name: str) -> object:
    kind = param_kind(name)
    return {"card": Card(parse_card("10H")), "seat": "Ada", "seat_list": Joined(("Ada", "Bob")),
            "suit": Suit(2), "phase": Msg.of("rule.phase.bidding")}.get(kind, 2)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_renders_whole(lang):
    for key, text in RULES[lang].items():
        out = t(key, lang, **{p: _sample(p) for p in placeholders(text)})
        assert "{" not in out and "}" not in out and "#" not in out, (key, out)
        assert not re.search(r"\b(?:[789JQKA]|10)[CDHS]\b", out), (key, out)


def test_plurals_follow_the_language():
    forms = {"one": "# karta", "few": "# karty", "many": "# kart", "other": "# karty"}
    assert [plural("pl", n, **forms) for n in (1, 2, 5, 12, 22, 25)] == [
        "1 karta", "2 karty", "5 kart", "12 kart", "22 karty", "25 kart"]
    ru = [t("rule.rospisat_max", "ru", max=n) for n in (1, 2, 5, 21)]
    assert [s.split("больше ")[1].split(" за")[0] for s in ru] == ["1 раза", "2 раз", "5 раз",
                                                                   "21 раза"]
    assert t("rule.rospisat_max", "en", max=1).endswith("at most once a match")
    assert t("rule.rospisat_max", "en", max=3).endswith("at most 3 times a match")
    assert t("rule.hand_size", "de", size=1, seat="Ada", got=2).startswith(
        "jeder aktive Spieler bekommt 1 Karte;")


def _not_in_hand() -> RuleError:
    return RuleError("not_in_hand", act(0, Verb.PLAY, parse_card("AS")), card=parse_card("AS"))


def test_the_player_reads_second_person_with_the_cards_he_sees():
    err = _not_in_hand()
    assert err.message_for(NAMES) == "Ada cannot play AS: that card is not in his hand"
    msg = rule_message(err, NAMES)
    assert said(msg, "en") == "You cannot play A♠: it is not in your hand."
    assert said(msg, "ru-RU") == "Вы не можете сыграть Т♠: этой карты нет у вас на руке."
    assert said(msg, "pl") == "Nie możesz zagrać A♠: nie masz tej karty na ręce."
    assert said(msg, "uk") == "Ви не можете зіграти Т♠: цієї карти немає у вас на руці."
    assert said(msg, "de") == "Du kannst nicht A♠ spielen: diese Karte hast du nicht auf der Hand."


def test_anyone_else_reads_the_name_in_the_third_person():
    msg = rule_message(_not_in_hand(), NAMES, reader=1)
    assert said(msg, "en") == "Ada cannot play A♠: that card is not in their hand."
    assert said(msg, "ru") == "Ada не может сыграть Т♠: этой карты нет на руке."
    give = RuleError("give_to", act(0, Verb.GIVE, parse_card("9C"), target=1), seat_list=(2, 3))
    assert said(rule_message(give, NAMES, reader=2), "en") == (
        "Ada cannot give 9♣ to Bob: the card must go to Cid or Dot.")


def test_the_turn_is_named_with_the_verb_of_the_phase():
    rules = PRESETS["russian"].rules
    s = new_match(rules, 0)
    for move in random_deal(s, random.Random(3)):
        s = apply_into(s, move, None)
    assert s.phase is Phase.BIDDING
    late = (s.to_act + 1) % 3
    err = turn_refusal(s, act(late, Verb.PASS))
    assert err.message_for(NAMES) == f"{NAMES[late]} cannot pass: it is {NAMES[s.to_act]}'s " \
        "turn to bid"
    msg = rule_message(err, NAMES)
    assert said(msg, "en") == f"You cannot pass: it is {NAMES[s.to_act]}'s turn to bid."
    assert said(msg, "ru") == f"Вы не можете сказать «пас»: сейчас торгуется {NAMES[s.to_act]}."
    assert "mit Reizen dran" in said(msg, "de")


@pytest.mark.parametrize(("preset", "lang", "word"), [
    ("russian_online", "en", "prikup"), ("polish", "en", "musik"), ("polish", "pl", "musiku"),
    ("russian_online", "ru", "прикупа"), ("german_house", "de", "Skat"),
    ("german1001_3", "de", "Skat"), ("russian_online", "de", "Skat"),
    ("elwood2", "en", "kitty"),
])
def test_the_talon_is_named_as_the_presets_players_name_it(preset, lang, word):
    p = PRESETS[preset]
    err = RuleError("bid_cap_talon", act(0, Verb.BID, amount=130), cap=120)
    text = said(rule_message(err, NAMES, preset=preset, talon=p.talon_name), lang)
    assert word in text and "{" not in text


def test_confirmations_speak_to_the_player():
    play = act(0, Verb.PLAY, parse_card("10S"))
    assert said(move_message(play, NAMES), "en") == "You play 10♠."
    assert said(move_message(play, NAMES), "ru") == "Вы сыграли 10♠."
    marriage = act(0, Verb.PLAY, parse_card("KH"), flag=Flag.MARRIAGE)
    assert said(move_message(marriage, NAMES), "pl") == "Zagrywasz K♥ i meldujesz meldunek."
    give = act(0, Verb.GIVE, parse_card("9C"), target=2)
    assert said(move_message(give, NAMES), "de") == "Du gibst 9♣ an Cid."
    talon = act(0, Verb.TALON, amount=1)
    assert said(move_message(talon, NAMES, preset="polish2_bidding", talon="musik"),
                "en") == "You take musik 2."


def _candidate(s, rng: random.Random) -> Action:
    """A well-formed move, often illegal: any verb, any card, by the seat to act or not."""
    seats = s.rules.seats
    verb = rng.choice(list(Verb))
    seat = s.to_act if rng.random() < 0.6 else rng.randrange(seats)
    card = rng.randrange(32) if verb in (Verb.PLAY, Verb.GIVE, Verb.DISCARD) else -1
    target = rng.randrange(seats) if verb is Verb.GIVE else -1
    amount = (rng.choice((0, 1, 100, 105, 110, 120, 130, 300, 400)) if verb in (
        Verb.BID, Verb.CONTRACT, Verb.TALON) else 0)
    flags = {Verb.BID: (Flag.NONE, Flag.BLIND, Flag.MISERE),
             Verb.PLAY: (Flag.NONE, Flag.MARRIAGE, Flag.ACES)}.get(verb, (Flag.NONE,))
    return Action(seat, verb, card, amount, target, rng.choice(flags))


@pytest.mark.slow
def test_refusals_met_in_play_read_whole_in_every_language():
    """Random illegal moves in every preset: each refusal renders fully in every language,
    with no scenario notation of cards (``AS``) and no "his hand"."""
    rng = random.Random(11)
    seen: set[str] = set()
    for name, preset in PRESETS.items():
        s = new_match(preset.rules, 0)
        for _ in range(120):
            if s.phase is Phase.MATCH_OVER:
                break
            if s.phase is Phase.DEALING:
                for move in random_deal(s, rng):
                    s = apply_into(s, move, None)
                continue
            for _ in range(12):
                a = _candidate(s, rng)
                try:
                    apply_into(s, a, None)
                except RuleError as err:
                    seen.add(err.key)
                    for reader in (None, (a.seat + 1) % preset.rules.seats):
                        msg = rule_message(err, NAMES, preset=name, talon=preset.talon_name,
                                           reader=reader)
                        for lang in LANGUAGES:
                            text = said(msg, lang)
                            assert "{" not in text and "rule." not in text, (lang, text)
                            assert not re.search(rf"\b(?:[789JQKA]|10)[{SUITS}]\b", text), text
                            assert not re.search(r"\bhis\b", text), text
            s = apply_into(s, rng.choice(legal_actions(s)), None)
    assert len(seen) > 25, sorted(seen)
    assert card_pretty(parse_card("AS")) == "A♠"
