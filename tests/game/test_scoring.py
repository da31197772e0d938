from __future__ import annotations

import pytest

from bot.game.presets import preset
from bot.game.scoring import round_nearest, round_up_half
from tests.game.helpers import W0_DEAL, hand, run


@pytest.mark.parametrize(("x", "u", "expected"), [
    (2, 5, 0), (17, 5, 15), (28, 5, 30), (67, 5, 65), (118, 5, 120), (3, 5, 5),
    (5, 10, 10), (15, 10, 20), (75, 10, 80), (104, 10, 100), (108, 10, 110), (7, 1, 7),
])
def test_round_nearest_halfway_goes_up(x: int, u: int, expected: int) -> None:
    assert round_nearest(x, u) == expected


@pytest.mark.parametrize(("bid", "up5", "up10"), [
    (100, 50, 50), (105, 55, 60), (145, 75, 80), (150, 75, 80), (155, 80, 80)])
def test_half_bid_rospisat_awards_w14(bid: int, up5: int, up10: int) -> None:
    assert (round_up_half(bid, 5), round_up_half(bid, 10)) == (up5, up10)


def test_w05_third_rospisat_costs_120() -> None:
    s, names = hand(W0_DEAL, totals={"A": 100, "B": 300, "C": 50}, rospisat={"B": 2})
    s, _ = run(s, names, "B bid 100", "C pass", "A pass", "B rospisat")
    assert s.match.totals == (160, 180, 110)
    assert s.match.rospisat_calls == (0, 3, 0)


def test_rospisat_refused_on_the_barrel() -> None:
    from bot.game.errors import RuleError

    s, names = hand(W0_DEAL, totals={"B": 880})
    s, _ = run(s, names, "B bid 100", "C pass", "A pass")
    with pytest.raises(RuleError, match="on the barrel may not declare rospisat"):
        run(s, names, "B rospisat")


def test_w24_hundred_concession() -> None:
    s, names = hand(W0_DEAL, options={"hundred_concede": True}, dealer="C",
                    totals={"A": 300, "B": 100, "C": 0})
    s, _ = run(s, names, "A bid 100", "B pass", "C pass")
    assert not s.talon_shown
    s, _ = run(s, names, "A concede")
    assert s.match.totals == (200, 150, 50)


def test_russian_preset_values_used_by_the_pipeline() -> None:
    r = preset("russian")
    assert (r.zero_penalty, r.rospisat_penalty, r.barrel_hands) == (120, 120, 3)
