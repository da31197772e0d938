"""Cards in text wear the rank letters of the card images in the reader's language (Т К Д В
in Russian, W D in Polish, B D in German), and a card typed with those letters is read."""

from __future__ import annotations

import random

import pytest

from bot.game.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    R10,
    RA,
    RJ,
    RQ,
    SPADES,
    card,
    card_pretty,
    card_str,
)
from bot.game.state import Phase
from bot.i18n import CATALOGS
from bot.i18n.values import card_text
from bot.tables import TableError, card_from_text
from cogs._format import cards_text
from tests.helpers.cogs import open_table, play_turn

ACE_S, TEN_S = card(RA, SPADES), card(R10, SPADES)
QUEEN_H, JACK_D = card(RQ, HEARTS), card(RJ, DIAMONDS)


def test_the_text_letters_are_the_images_letters():
    hand = [ACE_S, TEN_S, QUEEN_H, JACK_D]
    assert cards_text(hand, "ru") == "Т♠ 10♠ · Д♥ · В♦"
    assert cards_text(hand, "uk") == "Т♠ 10♠ · Д♥ · В♦"
    assert cards_text(hand, "pl") == "A♠ 10♠ · D♥ · W♦"
    assert cards_text(hand, "de") == "A♠ 10♠ · D♥ · B♦"
    assert cards_text(hand, "en-US") == "A♠ 10♠ · Q♥ · J♦"
    for lang, cat in CATALOGS.items():  # one source: what the card images print
        assert card_text(QUEEN_H, lang) == cat["img.rank.Q"] + "♥"


@pytest.mark.parametrize(("typed", "locale", "expected"), [
    ("Т♠", "ru", ACE_S), ("TS", "ru", ACE_S), ("тs", "ru", ACE_S), ("10S", "ru", TEN_S),
    ("ДH", "ru", QUEEN_H), ("QH", "ru", QUEEN_H), ("Т♠", "uk", ACE_S),
    ("W♥", "pl", card(RJ, HEARTS)), ("DH", "pl", QUEEN_H), ("AS", "pl", ACE_S),
    ("B♦", "de", JACK_D), ("D♥", "de", QUEEN_H), ("JD", "de", JACK_D),
    ("TS", "en-US", TEN_S), ("A♠", None, ACE_S), ("10c", "de", card(R10, CLUBS)),
])
def test_a_card_typed_with_the_readers_letters(typed, locale, expected):
    assert card_from_text(typed, locale) == expected


@pytest.mark.parametrize(("typed", "locale"), [("W♥", "en"), ("ДH", "pl"), ("BS", "en")])
def test_letters_of_another_language_are_not_cards(typed, locale):
    with pytest.raises(TableError):
        card_from_text(typed, locale)


async def test_a_russian_player_sees_and_types_russian_letters(world):
    w = world
    fd, ch = w.fd, w.channel
    await open_table(w, "russian", humans=3)
    table = w.table()
    rng = random.Random(5)
    for _ in range(60):  # the auction and the exchange, as the users would play them
        if table.state.phase is Phase.PLAY and not table.state.trick:
            break
        assert await play_turn(w, rng)
        await w.settle()
    assert table.state.phase is Phase.PLAY
    seat = table.to_act()
    me = w.user(table.seats[seat].user_id)
    me.locale = "ru"
    hand = table.observation(seat).hand
    r = await fd.slash(me, ch, "hand")
    assert r.ephemeral
    shown = [card_text(c, "ru") for c in hand]
    assert all(s in r.content for s in shown), r.content
    labels = {c.get("label") for c in _components(r.message)}
    assert set(shown) <= labels, labels
    english = [card_pretty(c) for c in hand if card_str(c)[0] in "JQA"]
    assert english and not any(e in r.content for e in english), r.content
    # a card typed as the player sees it: its Russian letter and the suit's Latin letter
    play = next(a.card for a in table.observation(seat).legal)
    typed = card_text(play, "ru")[:-1] + card_str(play)[-1]
    offered = await fd.autocomplete(me, ch, "play", "card", typed)
    assert [c["name"] for c in offered] == [card_text(play, "ru")], offered
    assert offered[0]["value"] == card_str(play)
    r = await fd.slash(me, ch, "play", card=typed)
    assert r.ephemeral
    assert f"Вы сыграли {card_text(play, 'ru')}." in r.content, r.content


def _components(message):
    from tests.fakediscord.models import walk_components

    return list(walk_components(message.components)) if message is not None else []
