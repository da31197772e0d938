"""Hand analysis in Discord: the Analyse button on a finished hand, ``/analyze``, and who
may see which analysis (only one's own hands, from one's own information, until the match
is over)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.ai import pool
from bot.game.state import Phase
from cogs.analysis import ANALYSIS_FILE
from tests.helpers.cogs import open_table, play_turn, short_match

PAUSED = {"edit_limit": 45, "clock": "fake", "hand_pause": 30}


@pytest.fixture(autouse=True, scope="module")
def _stop_the_pool():
    yield
    pool.shutdown()


async def _first_hand(w, seed: int = 4):
    table = w.table()
    rng = random.Random(seed)
    for _ in range(400):
        await w.service.settle()
        if table.state.last_result is not None:
            break
        if not await play_turn(w, rng):
            await w.service.clock.advance(0)
    assert table.state.last_result is not None
    await w.settle()
    return table


async def _answer(w, r):
    """The message that answered an interaction (a deferred one's, once it is there)."""

    def got():
        return [m for m in [r.message, *r.followups] if m is not None and m.content]

    await w.fd.wait_until(lambda: bool(got()), 60)
    return got()[-1]


@pytest.mark.parametrize("bot_options", [PAUSED])
async def test_analyse_on_a_finished_hand_answers_the_presser_alone(world):
    w = world
    await open_table(w, humans=2, ais=1)
    table = await _first_hand(w)
    alice, bob = w.users[:2]
    assert table.paused
    button = f"t1000:{table.id}:analyse:1.1"
    assert button in w.table_message().custom_ids
    r = await w.fd.click(bob, w.table_message(bob), button)
    msg = await _answer(w, r)
    assert msg.ephemeral
    assert "Analysis · Bob · hand 1" in msg.content
    assert "Points lost — auction:" in msg.content
    assert "Judged from your own information" in msg.content  # the match is on
    assert "with the cards as they lay" not in msg.content
    [att] = msg.attachments
    assert att.filename == ANALYSIS_FILE
    img = Image.open(io.BytesIO(att.data))
    assert img.width == 720
    # nobody else sees it
    assert msg not in list(w.fd.visible(alice, w.channel))


@pytest.mark.parametrize("bot_options", [PAUSED])
async def test_during_a_match_another_seat_is_refused(world):
    w = world
    await open_table(w, humans=2, ais=1)
    table = await _first_hand(w)
    bob = w.users[1]
    alice_seat = table.seat_of(w.users[0].id) + 1
    r = await w.fd.slash(bob, w.channel, "analyze", hand=1, seat=alice_seat)
    msg = await _answer(w, r)
    assert msg.ephemeral
    assert "only your own hands can be analysed" in msg.content
    assert "Analysis ·" not in msg.content and not msg.attachments
    r = await w.fd.slash(bob, w.channel, "analyze", hand=2)
    assert "give a hand from 1 to 1" in (await _answer(w, r)).content


async def test_after_the_match_any_seat_with_the_real_deal(world):
    w = world
    await short_match(w, humans=2)
    table = w.table()
    assert table.state.phase is Phase.MATCH_OVER
    bob = w.users[1]
    other = next(i for i, s in enumerate(table.seats) if s.user_id != bob.id)
    name = table.seats[other].name
    button = f"t1000:{table.id}:analyse:1.{len(table.results)}"
    assert button in w.table_message().custom_ids  # on the match summary
    r = await w.fd.slash(bob, w.channel, "analyze", hand=1, seat=other + 1)
    msg = await _answer(w, r)
    assert msg.ephemeral and f"Analysis · {name} · hand 1" in msg.content
    assert "Judged from your own information" not in msg.content
    assert msg.attachments


def test_a_long_hand_is_paged() -> None:
    """Twenty decisions: two pages of text and picture, each with its own buttons."""
    from bot.ai.analysis import Decision, SeatAnalysis, Stage
    from bot.game.actions import Verb, act
    from bot.i18n.values import TalonWord
    from bot.tables import HandAnalysis
    from cogs.analysis import answer_text, answer_view, pager

    plays = [Decision(i, 0, Stage.PLAY, act(0, Verb.PLAY, i % 24), act(0, Verb.PLAY, 23),
                      40 if i == 15 else 0, None) for i in range(20)]
    got = HandAnalysis(7, 1, 2, 3, ("Ann", "Bob", "Cid"), SeatAnalysis(0, tuple(plays), False),
                       False, (0, 1, 2), TalonWord("russian", "prikup"))
    first, second = answer_text(got, "en-US", 1), answer_text(got, "en-US", 2)
    assert "Page 1 of 2" in first and "Page 2 of 2" in second
    assert "??" not in first.split("Points lost")[0] and "`??` move 16" in second
    assert "Decisions without a mark: 12." in first and "Decisions without a mark: 7." in second
    assert len(answer_view(got, "en-US", 1).rows) == 12
    assert len(answer_view(got, "en-US", 2).rows) == 8
    ids = pager(got, "en-US", 1).to_components()[0]["components"]
    assert [c["custom_id"] for c in ids] == ["t1000:7:analyse:1.2.1.1", "t1000:7:analyse:1.2.1.2"]
    assert ids[0]["disabled"] and not ids[1].get("disabled")
