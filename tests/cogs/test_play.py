"""Whole hands and matches through the emulator: buttons, selects and slash commands."""

from __future__ import annotations

import random
import time

import pytest

from bot.game.observation import observe, observe_public
from bot.game.state import Phase
from tests.helpers.cogs import CARD_RE, hand_of, open_table, play_turn


def results(w):
    return [m for m in w.fd.visible(w.users[0], w.channel)
            if not m.ephemeral and m.content.startswith("**Hand ")]


async def play_until(w, done, *, rng, slash_every=3, limit=3000, on_step=None):
    for i in range(limit):
        await w.service.settle()
        if done():
            return i
        moved = await play_turn(w, rng, use_slash=slash_every and i % slash_every == 0)
        assert moved, "nobody to act"
        if on_step:
            on_step()
    raise AssertionError("did not finish")


@pytest.mark.parametrize("fd_options", [{}])
@pytest.mark.parametrize("bot_options", [{}])
async def test_one_hand_by_three_users(world):
    """With Discord's own limit (5 message creates/edits per 5 s per channel)."""
    w = world
    await open_table(w)
    table = w.table()
    rng = random.Random(2)
    await play_until(w, lambda: table.state.match.hand_no > 1 or table.state.last_result,
                     rng=rng)
    await w.settle()
    res = results(w)
    assert res and "Alice" in res[0].content and "→" in res[0].content
    # the table message was edited in place, not re-posted
    msg = w.table_message()
    assert len(msg.edits) >= 1
    assert not w.fd.store.rate_limited


async def test_privacy_no_hidden_card_leaks(world):
    """Every card a user can see anywhere is his own knowledge or was public."""
    w = world
    await open_table(w)
    table = w.table()
    users = w.users[:3]
    seen_public: set[int] = set()
    seen_own: dict[int, set[int]] = {u.id: set() for u in users}

    def record():
        st = table.state
        if st is None:
            return
        seen_public.update(observe_public(st).known_cards())
        for seat, s in enumerate(table.seats):
            seen_own[s.user_id].update(observe(st, seat).known_cards())

    record()
    rng = random.Random(11)
    await play_until(w, lambda: table.state.match.hand_no > 2, rng=rng, on_step=record)
    await w.settle()
    from bot.game.cards import parse_card

    for u in users:
        allowed = seen_public | seen_own[u.id]
        for m in w.fd.visible(u, w.channel):
            text = " ".join([m.content or "", str(m.embeds), str(m.components)])
            shown = {parse_card(c) for c in CARD_RE.findall(text)}
            leaked = shown - allowed
            assert not leaked, (u.name, m.ephemeral, sorted(leaked), text[:300])
    # and a non-player sees no ephemeral at all, nor any card beyond the public ones
    eve = w.users[4]
    for m in w.fd.visible(eve, w.channel):
        assert not m.ephemeral
        text = " ".join([m.content or "", str(m.embeds), str(m.components)])
        assert {parse_card(c) for c in CARD_RE.findall(text)} <= seen_public


# Rigged seeds (deals and the players' choices): a whole match in ~620 moves and 21 hands
# instead of ~1800 and 60 (found by replaying the same players offline).
@pytest.mark.parametrize("bot_options", [{"edit_limit": 45, "seed": 23}])
async def test_full_russian_match_by_three_users(world):
    w = world
    await open_table(w)
    table = w.table()
    t0 = time.monotonic()
    await play_until(w, lambda: table.state.phase is Phase.MATCH_OVER,
                     rng=random.Random(2), slash_every=4, limit=5000)
    await w.settle()
    assert table.status == "finished" and max(table.state.match.totals) >= 1000
    assert table.state.match.hand_no >= 15  # a real match, not a shortcut
    msg = w.table_message()
    assert f"t1000:{table.id}:rematch:" in msg.custom_ids
    won = [m for m in w.fd.visible(w.users[1], w.channel) if "won the match" in m.content]
    assert won
    # /sheet pages through the whole match, 20 hands a page (the last page first)
    hands = len(table.results)
    pages = (hands + 19) // 20
    assert pages >= 2, hands
    r = await w.fd.slash(w.users[1], w.channel, "sheet")
    embed = r.message.embeds[0]
    assert embed["footer"]["text"] == f"Page {pages} of {pages}"
    assert f"Hand {hands}:" in embed["description"] and "Hand 1:" not in embed["description"]
    prev = next(c for c in r.message.custom_ids if c.endswith(f":{pages - 1}"))
    r = await w.fd.click(w.users[1], r.message, prev)
    embed = r.interaction.response_data["embeds"][0]
    assert "Hand 1:" in embed["description"] and f"Hand {hands}:" not in embed["description"]
    # Rematch: same seats, same rules, next dealer
    await w.fd.click(w.users[1], msg, f"t1000:{table.id}:rematch:")
    await w.settle()
    assert table.status == "playing" and table.match_no == 2
    assert time.monotonic() - t0 < 60


# Rigged seeds: a whole match in 16 hands (131 human moves) with the normal AI players,
# found offline as above (the table service alone, the same seeds and policy).
@pytest.mark.parametrize("bot_options", [{"edit_limit": 45, "seed": 8}])
async def test_one_human_two_ais_full_match(world):
    w = world
    await open_table(w, humans=1, ais=2)
    table = w.table()
    assert [s.ai for s in table.seats] == [False, True, True]
    await play_until(w, lambda: table.state.phase is Phase.MATCH_OVER,
                     rng=random.Random(1), limit=3000)
    await w.settle()
    assert table.status == "finished" and max(table.state.match.totals) >= 1000
    assert table.state.match.hand_no >= 15
    scored = await w.service.store.hands(table.id, 1)
    assert scored and len(results(w)) == len(scored)
    assert any("won the match" in m.content for m in w.fd.visible(w.users[0], w.channel))


@pytest.mark.parametrize("preset,humans", [("russian4", 4), ("elwood2", 2),
                                           ("polish2_bidding", 2)])
async def test_four_and_two_player_presets(world, preset, humans):
    w = world
    await open_table(w, preset=preset, humans=humans)
    table = w.table()
    assert table.size == humans
    await play_until(w, lambda: table.state.match.hand_no > 1, rng=random.Random(5))
    await w.settle()
    assert results(w)
    assert all(hand_of(w, u) is None or hand_of(w, u).ephemeral for u in w.users[:humans])
