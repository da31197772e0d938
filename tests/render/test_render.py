"""Render: determinism, sizes and modes, no blank images, glyph coverage, import hygiene."""

from __future__ import annotations

import io
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image, ImageStat

from render import cards, fonts, sample_views, samples
from render.hand import render_hand
from render.model import HandView, SeatView, TableView, split_card
from render.table import render_table

RENDERERS = samples.renderers()
SCRIPTS = {
    "latin": "Zażółć Gęślą Jaźń Ünterwäßer Žemaitė Ąžuolas",
    "cyrillic": "Алексей Иванов Ёжик",
    "persian": "علی رضایی پژمان گلشیری ۱۲۳",
    "arabic": "محمد عبد الله",
    "cjk": "李小龙 王芳 さくら 김민준 東京",
    "emoji": "🎉👍🏽🇵🇱👨‍👩‍👧❤️🃏♠️",
}


def _open(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


@pytest.mark.parametrize("name", sorted(RENDERERS))
def test_deterministic_and_not_blank(name: str) -> None:
    a = RENDERERS[name]()
    b = RENDERERS[name]()
    assert a == b
    im = _open(a).convert("RGB")
    assert len(a) <= 150 * 1024
    extrema = im.getextrema()
    assert any(hi - lo > 100 for lo, hi in extrema)
    assert max(ImageStat.Stat(im).stddev) > 10


@pytest.mark.parametrize(
    ("name", "size", "mode"),
    [
        ("table2_play", (900, 600), "RGB"),
        ("table3_bidding", (900, 600), "RGB"),
        ("table4_play", (900, 600), "RGB"),
        ("summary4", (720, 600), "RGB"),
        ("sheet4_45_hands", None, "P"),
        ("leaderboard", None, "RGB"),
        ("hand_follow", None, "RGB"),
    ],
)
def test_sizes_and_modes(name: str, size: tuple[int, int] | None, mode: str) -> None:
    im = _open(RENDERERS[name]())
    assert im.mode == mode
    if size is not None:
        assert im.size == size
    assert 300 <= im.width <= 1400
    assert 150 <= im.height <= 1000


def test_scale() -> None:
    view = sample_views.tables()["table3_prikup"]
    assert _open(render_table(view, scale=0.5)).size == (450, 300)


def test_hand_width_grows_with_cards() -> None:
    small = _open(render_hand(HandView(cards=("AS", "10S", "KS", "QS", "JS", "9S"))))
    big = _open(render_hand(HandView(cards=tuple(cards.all_cards(24)[:12]))))
    assert big.width > small.width and big.height == small.height


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_names_have_every_glyph(script: str) -> None:
    text = SCRIPTS[script]
    assert fonts.missing_glyphs(text) == []
    assert fonts.missing_glyphs(text, bold=True) == []


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_glyphs_are_not_notdef(script: str) -> None:
    """Independent of our cmap reader: each character's glyph differs from .notdef."""
    for cluster in fonts.clusters(SCRIPTS[script].replace(" ", "")):
        name = fonts.font_for(cluster)
        assert name is not None, cluster
        if name == fonts.EMOJI_FILE:
            assert fonts.text_sprite(cluster, 24, fill=(0, 0, 0)).getbbox() is not None
            continue
        f = fonts.face(name, 32)
        assert _glyph(f, cluster[0]) != _glyph(f, "\U0010fffd"), cluster


def _glyph(font: object, ch: str) -> bytes:
    from PIL import ImageDraw

    im = Image.new("L", (64, 64), 0)
    ImageDraw.Draw(im).text((8, 8), ch, font=font, fill=255)  # type: ignore[arg-type]
    return im.tobytes()


def test_unknown_glyph_is_reported() -> None:
    assert fonts.missing_glyphs("ab\U0010fffd") == ["\U0010fffd"]


def test_fit_shortens_with_ellipsis() -> None:
    long = "Ünterwäßer Müller-Lüdenscheidt von und zu Hohenzollern"
    short = fonts.fit(long, 20, 150)
    assert short.endswith("…") and fonts.text_width(short, 20) <= 150
    assert fonts.fit("Ola", 20, 150) == "Ola"


def test_card_faces_drawn_once() -> None:
    view = sample_views.tables()["table3_trump_S"]
    render_table(view)
    before = dict(cards.DRAWN)
    for _ in range(3):
        render_table(view)
    assert dict(cards.DRAWN) == before
    # each card is drawn once per size and rank letter it is cached at, whatever ran before
    cached = Counter(key for key, *_ in cards._CACHE)
    assert {k: v for k, v in cards.DRAWN.items() if v} == dict(cached)


def test_all_faces_distinct() -> None:
    faces = {cards.face(c, cards.TABLE).tobytes() for c in cards.all_cards(32)}
    assert len(faces) == 32
    with pytest.raises(ValueError):
        split_card("1X")


def test_threads_give_identical_bytes() -> None:
    view = TableView(
        seats=(SeatView("Ола 🎉", 5), SeatView("مریم", 10, is_turn=True)),
        trick=((0, "AH"),),
        trump="S",
    )
    expected = render_table(view)
    results: list[bytes] = []

    def work() -> None:
        results.append(render_table(view))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 4


def test_seat_count_checked() -> None:
    with pytest.raises(ValueError):
        render_table(TableView(seats=(SeatView("solo"),)))


@pytest.mark.slow
def test_write_samples(tmp_path: Path) -> None:
    paths = samples.write_samples(tmp_path)
    assert len(paths) >= 20
    assert all(p.stat().st_size > 1000 for p in paths)
    table = Image.open(tmp_path / "table3_trump_H_at_360.png")
    assert table.size == (360, 240)
    assert Image.open(tmp_path / "table3_trump_H_at_400.png").width == 400


def test_render_imports_nothing_forbidden() -> None:
    code = (
        "import sys, render, render.model, render.cards, render.fonts, render.table, "
        "render.hand, render.sheet, render.leaderboard, render.summary, render.samples, "
        "render.bench, render.adapter, render.playthrough\n"
        "bad = [m for m in ('discord', 'aiosqlite', 'asyncio', 'sqlite3') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])


@pytest.mark.slow
def test_bench_shape() -> None:
    from render.bench import run_bench

    result = run_bench(repeats=1, echo=False)
    assert set(result) == {"kinds"}
    for entry in result["kinds"].values():
        assert set(entry) == {"median_ms", "png_kb"}


def test_court_cards_show_the_bundled_figures():
    """Jacks, queens and kings carry the SVG-cards figures (licence and provenance bundled);
    their panel is a picture, not a flat tint with a letter."""
    from render import cards

    court = cards.COURT_DIR
    assert (court / "LICENSE-svg-cards.txt").is_file() and (court / "README.md").is_file()
    for suit in "CDHS":
        for rank in "JQK":
            assert (court / f"{rank}{suit}.png").is_file()
            face = cards.face(rank + suit, cards.HAND).convert("RGB")
            w, h = face.size
            panel = face.crop((round(w * 0.35), round(h * 0.2), round(w * 0.65), round(h * 0.8)))
            colours = panel.getcolors(maxcolors=100_000) or []
            assert len(colours) > 40, rank + suit  # a figure has many colours
