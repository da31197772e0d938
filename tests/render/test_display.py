"""Every letter of every image is at least 11 px tall at the size Discord shows it."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import display, fonts, samples

RENDERERS = samples.renderers()


@pytest.mark.parametrize("name", sorted(RENDERERS))
@pytest.mark.slow
def test_smallest_letter_is_readable_on_a_phone(name: str) -> None:
    with fonts.recording() as sizes:
        data = RENDERERS[name]()
    width = Image.open(io.BytesIO(data)).width
    kind = samples.sample_kind(name)
    assert sizes, "nothing was recorded"
    for phone in (True, False):
        shown = min(sizes) * display.display_scale(kind, width, phone=phone)
        assert shown >= display.MIN_LETTER_PX, (
            f"{name}: {min(sizes)} px letters in a {width} px image show "
            f"{shown:.1f} px tall ({'phone' if phone else 'desktop'})"
        )


def test_a_small_font_fails() -> None:
    """The check is not vacuous: a 900 px table with 16 px chips is too small."""
    assert 16 * display.display_scale("table", 900) < display.MIN_LETTER_PX
