"""The tournament's standings and podium images: size, mode, determinism, long names."""

from __future__ import annotations

import io

from PIL import Image

from render import fonts, standings
from render.standings import PodiumPlace, PodiumView, RankRow, StandingsView

NAMES = ("Alice", "Александра Константиновна Преображенская", "Bob 🎉👍🏽🇵🇱👨‍👩‍👧",
         "Ünterwäßer Müller-Lüdenscheidt von Hohenzollern", "李小龙王芳东京大阪名古屋札幌")
EXPLANATION = ("Ranked by the mean matchpoint percentage over the boards played; a tie is "
               "broken by the sum of the differences from each board's average, then by the "
               "results between the tied players.")


def view(count: int, *, unranked: int = 0) -> StandingsView:
    rows = [RankRow(i + 1, NAMES[i % len(NAMES)], 70 - i * 1.5, 100 - 20 * i, 6,
                        "h2h" if i == 1 else "") for i in range(count)]
    rows += [RankRow(None, f"AI {i + 1}", 50.0, 0, 6, "AI") for i in range(unranked)]
    return StandingsView(tuple(rows), "Friday Cup · standings", "after round 2 of 3",
                         ("Player", "Matchpoints", "Tie-break", "Boards"), EXPLANATION,
                         more="and more", highlight=1)


def image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def test_the_standings_grow_with_the_rows_and_stop_at_the_limit() -> None:
    small, big = image(standings.render_standings(view(3))), image(
        standings.render_standings(view(7, unranked=2)))
    assert small.mode == "RGB" and small.width == big.width == standings.WIDTH
    assert big.height - small.height == 6 * 46  # six rows more, 46 px each
    capped = image(standings.render_standings(view(standings.MAX_ROWS + 20)))
    at_limit = image(standings.render_standings(view(standings.MAX_ROWS)))
    assert capped.height == at_limit.height + 46  # the rows beyond: one line saying so


def test_the_standings_are_deterministic_and_scale() -> None:
    v = view(5, unranked=1)
    assert standings.render_standings(v) == standings.render_standings(v)
    assert image(standings.render_standings(v, scale=2)).width == 2 * standings.WIDTH


def test_the_explanation_is_wrapped_whole_under_the_table() -> None:
    lines = standings.explanation_lines(view(1))
    assert len(lines) > 1 and " ".join(lines) == EXPLANATION
    assert all(fonts.text_width(line, 20) <= standings.WIDTH - 44 for line in lines)


def test_long_names_give_way_to_the_values() -> None:
    with fonts.recording() as sizes:
        standings.draw_standings(view(5))
    assert min(sizes) >= 20  # readable on a phone
    room = standings._name_room(standings.WIDTH, 1.0)
    assert room > 200
    for name in NAMES[1:4]:
        fitted = fonts.fit(name, 22, room, bold=True)
        assert fitted.endswith(fonts.ELLIPSIS) or fitted == name


def test_the_podium_draws_one_to_three_places() -> None:
    places = tuple(PodiumPlace(i + 1, NAMES[i], f"{60 - i:.1f}%") for i in range(3))
    full = image(standings.render_podium(PodiumView("Podium", "3 rounds", places)))
    assert full.mode == "RGB" and full.width == standings.WIDTH
    one = standings.render_podium(PodiumView("Podium", "3 rounds", places[:1]))
    assert one != standings.render_podium(PodiumView("Podium", "3 rounds", places))
    assert image(one).size == full.size
