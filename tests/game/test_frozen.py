from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, fields

import pytest

from bot.game.actions import Deal
from bot.game.frozen import fast_init
from bot.game.state import HandEnd, HandResult, Match


def test_fast_init_fills_every_field_with_its_default() -> None:
    m = Match((1, 2, 3), (0,) * 3, (0,) * 3, (0,) * 3, (0,) * 3, (0,) * 3, 2, hand_no=5)
    assert (m.totals, m.dealer, m.hand_no, m.golden_left, m.winners) == ((1, 2, 3), 2, 5, 0, ())
    r = HandResult(end=HandEnd.PLAYED, dealer=0, declarer=1, contract=100, complete=True,
                   taken={}, marriages={}, delta=(0,), totals=(0,), notes=())
    assert {f.name: getattr(r, f.name) for f in fields(r)}["aces"] == ()
    assert Deal((1, 2)) == Deal(hands=(1, 2), talons=(), stock=())


def test_fast_init_keeps_the_class_frozen() -> None:
    with pytest.raises(FrozenInstanceError):
        Deal((1,)).hands = (2,)  # type: ignore[misc]


def test_fast_init_refuses_default_factories() -> None:
    from dataclasses import field

    @dataclass(frozen=True, slots=True)
    class WithFactory:
        items: list[int] = field(default_factory=list)

    with pytest.raises(TypeError):
        fast_init(WithFactory)
