from __future__ import annotations

from dataclasses import fields

import pytest

from bot.game.state import Match, evolve


def _every_field_set() -> Match:
    """A match whose every field differs from its default, so a misplaced value shows."""
    return Match(
        totals=(100, 200, 300), barrel_hands=(1, 0, 2), barrel_falls=(0, 1, 0),
        dashes=(2, 0, 1), rospisat_calls=(1, 1, 0), spisat_calls=(0, 2, 0), dealer=2,
        hand_no=17, golden_left=3, golden_made=True, nines_annuls=2, winners=(1,),
        sticks=(0, 2, 1), no_wins=(1, 0, 2),
    )


def test_evolve_without_changes_returns_an_equal_match() -> None:
    m = _every_field_set()
    unset = [f.name for f in fields(Match) if getattr(m, f.name) == f.default]
    assert not unset, f"give {unset} a non-default value in _every_field_set"
    assert evolve(m) == m


@pytest.mark.parametrize("name", [f.name for f in fields(Match)])
def test_evolve_changes_only_the_named_field(name: str) -> None:
    m = _every_field_set()
    new_value = {bool: False, int: 0}.get(type(getattr(m, name)), ())
    changed = evolve(m, **{name: new_value})
    for f in fields(Match):
        expected = new_value if f.name == name else getattr(m, f.name)
        assert getattr(changed, f.name) == expected, f.name


def test_evolve_refuses_a_misspelt_field() -> None:
    with pytest.raises(TypeError, match="totalz"):
        evolve(_every_field_set(), totalz=(0, 0, 0))
