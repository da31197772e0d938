"""Small marks a player reads at 360 px: trick name tags clear of the cards, four players'
names whole, the score sheet's dealer as a letter, the points taken so far."""

from __future__ import annotations

from dataclasses import replace

import pytest

from render import _plates, _table_middle, cards, fonts, sample_views, sheet, table
from render.labels import ENGLISH
from render.model import SeatView, SheetCell, SheetRow, SheetView, TableView


def _trick_view(n: int, name: str) -> TableView:
    seats = tuple(SeatView(name if i == 0 else f"P{i}", total=100) for i in range(n))
    trick = tuple((i, c) for i, c in enumerate(("9S", "9H", "9C", "9D")[:n]))
    return TableView(seats=seats, trick=trick, last_trick_winner=0, trump="S")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_trick_cards_name_tag_never_covers_a_card(n):
    """Every card of the trick reads the same whatever the names below it (an upside-down
    9 under a tag reads as 6)."""
    short, long = (table.draw_table(_trick_view(n, name)) for name in ("A", "W" * 30))
    w, h = short.size
    csize = cards.size_for("table", 1.0)
    for seat in range(n):
        cx, cy = _table_middle._card_spot(seat, n, (w / 2, h * 0.5), csize)
        box = (round(cx - csize[0] / 2), round(cy - csize[1] / 2),
               round(cx + csize[0] / 2), round(cy + csize[1] / 2))
        assert short.crop(box).tobytes() == long.crop(box).tobytes(), seat


@pytest.mark.parametrize("name", ["Алексей Иванов", "Zażółć Gęślą Jaźń", "🎉 Party 🇵🇱 👍"])
def test_four_players_names_show_whole(name):
    size = table.px(table.LETTER, 1.0)
    for seat in range(4):
        assert fonts.fit(name, size, _plates.name_room(4, seat=seat), bold=True) == name, seat


def test_the_dealer_on_the_score_sheet_is_a_letter():
    cells = (SheetCell(total=120, delta=120), SheetCell(total=0), SheetCell(total=0))
    view = SheetView(players=("A", "B", "C"), rows=(SheetRow(1, cells, dealer=1),))

    def drawn(mark: str) -> bytes:
        return sheet.draw_sheet(replace(view, labels=replace(ENGLISH, dealer_mark=mark)))\
            .tobytes()

    assert drawn("D") != drawn("R")  # the mark is the language's letter, drawn
    assert sheet.draw_sheet(replace(view, rows=(SheetRow(1, cells),))).tobytes() != drawn("D")


def test_the_points_taken_are_drawn_in_play():
    view = sample_views.tables()["table3_trump_C"]
    seats = tuple(replace(s, taken=t) for s, t in zip(view.seats, (20, 57, 0), strict=True))
    counted = replace(view, seats=seats)
    assert table.draw_table(counted).tobytes() != table.draw_table(view).tobytes()
    again = replace(view, seats=tuple(replace(s, taken=t) for s, t in
                                      zip(view.seats, (20, 58, 0), strict=True)))
    assert table.draw_table(counted).tobytes() != table.draw_table(again).tobytes()
