"""A tournament's posts as text: the sign-up message by state, the standings, the boards."""

from __future__ import annotations

import re

from bot.tables import (
    BoardLine,
    Entrant,
    EventStatus,
    EventView,
    RoundReport,
    StandingLine,
)
from cogs import _tournament_posts as posts
from cogs._ids import is_ours

START = 1_900_000_000.0


def entrant(uid: int, name: str, **kw: object) -> Entrant:
    fields: dict[str, object] = {"rating": 1500.0, "checked_in": False, "strikes": 0,
                                 "withdrawn": False, "dropped": False, **kw}
    return Entrant(uid, name, **fields)  # type: ignore[arg-type]


def event(status: EventStatus, entrants: tuple[Entrant, ...] = (), round_no: int = 0
          ) -> EventView:
    return EventView(7, 1, 2, 0, 99, "Friday Cup", "russian", 6, 2, START, 15, 60, status,
                     round_no, entrants, ())


def test_the_sign_up_message_follows_the_event() -> None:
    people = (entrant(1, "Alice", checked_in=True), entrant(2, "Bob"),
              entrant(3, "Cid", dropped=True))
    text = posts.signup_text(event(EventStatus.SIGNUP, people), "en")
    assert "**Friday Cup**" in text and "rounds: 2 · boards per round: 6" in text
    assert f"<t:{int(START)}:f>" in text and f"<t:{int(START - 900)}:R>" in text
    assert "**Entrants (2):** Alice, Bob" in text and "Cid" not in text
    view = posts.signup_view(event(EventStatus.SIGNUP, people), "en")
    assert view is not None
    ids = [getattr(c, "custom_id", "") for c in view.children]
    assert ids == ["t1000t:7:join", "t1000t:7:leave"] and all(is_ours(i) for i in ids)
    checkin = posts.signup_text(event(EventStatus.CHECKIN, people), "en")
    assert "✅ Alice, Bob" in checkin and "Check-in is open" in checkin
    view = posts.signup_view(event(EventStatus.CHECKIN, people), "en")
    assert view is not None and [c.item.label for c in view.children] == [
        "Join", "Leave", "Check in"]
    late = posts.signup_view(event(EventStatus.RUNNING, people, 1), "en")
    assert late is not None and len(late.children) == 1  # late entry until round 2
    assert posts.signup_view(event(EventStatus.RUNNING, people, 2), "en") is None
    assert posts.signup_view(event(EventStatus.FINISHED, people, 2), "en") is None
    assert "Anulowany" not in posts.signup_text(event(EventStatus.CANCELLED), "pl")
    assert "Odwołany." in posts.signup_text(event(EventStatus.CANCELLED), "pl")


def test_a_long_list_of_entrants_stays_within_a_message() -> None:
    many = tuple(entrant(i, f"Player with a long name {i}") for i in range(1, 120))
    text = posts.signup_text(event(EventStatus.CHECKIN, many), "ru")
    assert len(text) <= 2000 and text.endswith("✅ участие подтверждено")


def report() -> RoundReport:
    ev = event(EventStatus.RUNNING, (), 1)
    standings = (StandingLine(1, 1, "Alice", 66.67, 120, 3),
                 StandingLine(2, 2, "Bob", 50.0, 0, 3, "h2h"),
                 StandingLine(3, 3, "Cid", 50.0, 0, 3),
                 StandingLine(None, 4, "Dot", 40.0, -40, 3),
                 StandingLine(None, -1, "AI 1", 60.0, 20, 3))
    boards = (BoardLine(1, 1, (120, -60, 0), ((1, (120, -60, 0), ("Alice", "Bob", "Cid")),
                                               (2, (0, 60, -20), ("Dot", "AI 1", "AI 2"))),
                        "k1"),)
    return RoundReport(ev, 1, standings, boards, False)


def test_the_standings_and_boards_as_text() -> None:
    lines = posts.standings_text(report(), "en")
    assert lines[0] == "🏆 **Friday Cup** — the standings after round 1 of 2"
    assert "1. Alice — 66.7% · +120 · 3" in lines
    assert "2. Bob — 50.0% · +0 · 3 (head-to-head)" in lines
    assert "–. Dot (withdrawn) — 40.0% · -40 · 3" in lines
    assert "–. AI 1 (AI) — 60.0% · +20 · 3" in lines
    assert lines[-1].startswith("-# Ranked by the mean matchpoint percentage")
    boards = posts.boards_text(report(), "de")
    assert "**Board 1** — Par +120 · -60 · +0" in boards
    assert "Tisch 2: Dot +0 · AI 1 +60 · AI 2 -20" in boards
    view = posts.standings_image(report(), "en")
    assert [r.note for r in view.rows] == ["", "h2h", "", "withdrawn", "AI"]
    assert posts.podium_text(report(), "en").splitlines()[1:4] == [
        "🥇 Alice — 66.7%", "🥈 Bob — 50.0%", "🥉 Cid — 50.0%"]


def test_chunks_never_pass_the_limit() -> None:
    lines = [f"line {i} " + "x" * 90 for i in range(100)]
    parts = posts.chunks(lines)
    assert all(len(p) <= 2000 for p in parts) and len(parts) > 1
    assert "\n".join(parts).split("\n") == lines
    assert re.fullmatch(r"<@1>, <@2>", posts.mentions([1, -3, 2]))
