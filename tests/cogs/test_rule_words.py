"""The rules speak to the player, in his language: refusals and confirmations end to end."""

from __future__ import annotations

import random
import re

from bot.game.cards import card_pretty, card_str
from bot.game.state import Phase
from bot.i18n.values import card_text
from tests.helpers.cogs import open_table, play_turn

CODE = re.compile(r"\b(?:[789JQKA]|10)[CDHS]\b")  # the scenario notation: AS, 10S


def seat_user(w, seat):
    return w.user(w.table().seats[seat].user_id)


async def test_a_russian_player_reads_russian_second_person_with_his_cards(world):
    w = world
    fd, ch = w.fd, w.channel
    await open_table(w, "russian", humans=3)
    table = w.table()
    to_act = table.to_act()
    me, other = seat_user(w, to_act), seat_user(w, (to_act + 1) % 3)
    me.locale = other.locale = "ru"
    mine = sorted(table.observation(to_act).hand)[0]
    r = await fd.slash(me, ch, "play", card=card_str(mine))
    assert r.ephemeral
    assert r.content == (f"Вы не можете сыграть {card_text(mine, 'ru')}: карты играют после "
                         "торговли и обмена; сейчас идёт торговля.")
    r = await fd.slash(other, ch, "pass")
    assert r.ephemeral
    assert r.content == f"Вы не можете сказать «пас»: сейчас торгуется {me.display_name}."
    r = await fd.slash(me, ch, "bid", amount=103)
    assert r.content.startswith("Вы не можете заявить 103: заявки растут с шагом 5")
    assert not CODE.search(r.content)
    r = await fd.slash(me, ch, "pass")
    assert r.content == ("Вы не можете сказать «пас»: первая рука должна открыть торговлю "
                         "заявкой не меньше 100.")
    r = await fd.slash(me, ch, "bid", amount=100)
    assert r.ephemeral and r.content.startswith("Вы заявили 100.")


async def test_an_english_reply_names_cards_as_the_player_sees_them(world):
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
    me = seat_user(w, seat)
    hand = table.observation(seat).hand
    missing = next(c for c in range(32) if c not in hand and table.rules.deck_mask >> c & 1)
    r = await fd.slash(me, ch, "play", card=card_str(missing))
    assert r.ephemeral
    assert r.content == f"You cannot play {card_pretty(missing)}: it is not in your hand."
    assert not CODE.search(r.content) and "his hand" not in r.content
    waiting = seat_user(w, (seat + 1) % 3)
    r = await fd.slash(waiting, ch, "play", card=card_str(missing))
    assert r.content == (f"You cannot play {card_pretty(missing)}: it is {me.display_name}'s "
                         "turn to play.")
    card = sorted(table.observation(seat).legal, key=lambda a: a.card)[0].card
    r = await fd.slash(me, ch, "play", card=card_str(card))
    assert f"You play {card_pretty(card)}." in r.content and not CODE.search(r.content)


async def test_a_polish_table_says_musik(world):
    w = world
    fd, ch = w.fd, w.channel
    alice = w.users[0]
    await fd.slash(alice, ch, "table new", preset="polish")
    await w.settle()
    r = await fd.slash(alice, ch, "table option", name="bid_cap_before_talon", value="120")
    assert "cannot" not in r.content, r.content
    tid = w.table().id
    for u in w.users[1:3]:
        await fd.click(u, w.table_message(u), f"t1000:{tid}:join:")
    await fd.click(alice, w.table_message(), f"t1000:{tid}:start:")
    await w.settle()
    table = w.table()
    me = seat_user(w, table.to_act())
    r = await fd.slash(me, ch, "bid", amount=130)
    assert r.content == "You cannot bid 130: no bid may go above 120 before the musik is seen."
    me.locale = "pl"
    r = await fd.slash(me, ch, "bid", amount=130)
    assert r.content == ("Nie możesz zalicytować 130: przed odkryciem musiku nie można "
                         "licytować powyżej 120.")
    assert "Prikup" not in r.content and "prikup" not in r.content
    # the table message names the musik too, once the auction has shown it
    me.locale = "en-US"
    rng = random.Random(2)
    for _ in range(40):
        if table.state.phase is not Phase.BIDDING:
            break
        assert await play_turn(w, rng)
        await w.settle()
    assert table.observation(None).talon, "the musik is shown to everyone"
    embeds = str(w.table_message().embeds)
    assert "Musik" in embeds and "Prikup" not in embeds
