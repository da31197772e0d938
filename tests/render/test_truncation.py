"""Nothing important is cut: instructions, 16-character names on a two-player table, titles."""

from __future__ import annotations

import pytest

from bot.game.cards import SUIT_NAMES
from bot.game.presets import PRESETS
from render import _plates, fonts, hand, sheet, table
from render.model import HandView

LONG_NAMES = {
    "latin": "Ünterwäßer Müller-Lüdenscheidt von Hohenzollern",
    "cyrillic": "Александра Константиновна Преображенская",
    "persian": "محمدعلی رضایی پژمان گلشیری اصفهانی",
    "arabic": "عبد الرحمن بن محمد الهاشمي القرشي",
    "cjk": "李小龙王芳东京大阪名古屋札幌福岡神戸京都横浜",
    "emoji": "🎉👍🏽🇵🇱👨‍👩‍👧❤️🃏♠️🎉👍🏽🇵🇱👨‍👩‍👧❤️🃏♠️🎉👍🏽🇵🇱",
}
NOTES = (
    "Your bid",
    "Choose a talon",
    "Give a card to each",
    "Give or lay away",
    "Lay away cards",
    "Set the contract or lead",
    "Any card (free play while the stock lasts)",
    "Your turn",
    "Your lead",
    "You sit out this hand",
    *(f"Follow {s}" for s in SUIT_NAMES),
)
"""Every instruction ``render.adapter`` writes on a hand."""


@pytest.mark.parametrize("script", sorted(LONG_NAMES))
@pytest.mark.parametrize("count", [1, 6, 12])
def test_the_instruction_is_never_cut_the_name_gives_way(script: str, count: int) -> None:
    for note in NOTES:
        view = HandView(cards=("AS",) * count, name=LONG_NAMES[script], note=note, trump="H")
        name, lines = hand.header_lines(view, hand.image_width(count))
        assert " ".join(lines) == note
        full = LONG_NAMES[script]
        assert name == full or (name.endswith(fonts.ELLIPSIS) and full.startswith(name[:-1]))
    if count == 1:
        assert name.endswith(fonts.ELLIPSIS)  # a narrow hand: the name gave way


@pytest.mark.parametrize("script", sorted(LONG_NAMES))
def test_sixteen_characters_of_a_name_fit_a_two_player_table(script: str) -> None:
    """Sixteen letters of any script; emoji are half as wide again, so ten of them."""
    keep = 10 if script == "emoji" else 16
    name = "".join(fonts.clusters(LONG_NAMES[script])[:keep])
    size = table.px(table.LETTER, 1.0)
    assert fonts.fit(name, size, _plates.name_room(2), bold=True) == name
    longer = "".join(fonts.clusters(LONG_NAMES[script])) * 2
    assert fonts.fit(longer, size, _plates.name_room(2), bold=True).endswith(fonts.ELLIPSIS)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_titles_are_short_named_or_wrapped_never_cut(preset: str) -> None:
    title = PRESETS[preset].title
    for seats in (2, 3, 4):
        lines = table.title_lines(title, seats)
        assert 1 <= len(lines) <= 2
        assert not any(line.endswith(fonts.ELLIPSIS) for line in lines), lines
    lines = sheet.title_lines(f"{title} · score sheet", sheet.WIDTH - 28, 26)
    assert not any(line.endswith(fonts.ELLIPSIS) for line in lines), lines
