"""Bundled fonts, per-glyph fallback, bidi-aware runs, colour emoji and "…" shortening.

Text is drawn as cached RGBA *sprites*: ``text_sprite(text, size, ...)`` splits the text into
runs, each in the first bundled font that has all of its glyphs (colour emoji come from Noto
Color Emoji, scaled from its bitmap strike), shapes each run with raqm (Arabic/Persian joining,
RTL order inside a run), orders the runs for a left-to-right line, and caches the result.

FreeType faces are not safe to share between threads, so every use of them happens under one
lock; the caches are filled under that lock and only read outside it.
"""

from __future__ import annotations

import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from render._cmap import codepoints

FONT_DIR = Path(__file__).with_name("fonts")
EMOJI_FILE = "NotoColorEmoji-48.ttf"
EMOJI_PPEM = 48
_SCRIPTS = (
    "NotoSansArabic-{w}.ttf",
    "NotoSansHebrew-Regular.ttf",
    "NotoSansThai-Regular.ttf",
    "NotoSansDevanagari-Regular.ttf",
    "NotoSansArmenian-Regular.ttf",
    "NotoSansGeorgian-Regular.ttf",
    "NotoSansCJKsc-Regular-subset.otf",
    "NotoSansSymbols-Regular.ttf",
    "NotoSansSymbols2-Regular.ttf",
)
ELLIPSIS = "…"
RGBA = tuple[int, int, int, int]
RGB = tuple[int, int, int]

_LOCK = threading.RLock()
_COVERAGE: dict[str, frozenset[int]] = {}
_FACES: dict[tuple[str, int], ImageFont.FreeTypeFont] = {}
_SPRITES: OrderedDict[tuple[str, int, bool, RGB | RGBA], Image.Image] = OrderedDict()
_SPRITE_LIMIT = 2048


_RECORD = threading.local()


@contextmanager
def recording() -> Iterator[list[int]]:
    """Collect the font size of every letter drawn in this thread inside the block (the
    display-size test reads the smallest); card faces report their index size too."""
    outer: list[int] | None = getattr(_RECORD, "sizes", None)
    sizes: list[int] = []
    _RECORD.sizes = sizes
    try:
        yield sizes
    finally:
        _RECORD.sizes = outer
        if outer is not None:
            outer.extend(sizes)


def note(size: int) -> None:
    """Record that letters of ``size`` px were drawn (for ``recording``)."""
    sizes: list[int] | None = getattr(_RECORD, "sizes", None)
    if sizes is not None:
        sizes.append(size)


def chain(bold: bool = False) -> tuple[str, ...]:
    """Font files in fallback order (emoji handled separately)."""
    w = "Bold" if bold else "Regular"
    return (f"NotoSans-{w}.ttf", *(s.format(w=w) for s in _SCRIPTS))


def coverage(filename: str) -> frozenset[int]:
    with _LOCK:
        cov = _COVERAGE.get(filename)
        if cov is None:
            cov = codepoints(FONT_DIR / filename)
            _COVERAGE[filename] = cov
        return cov


def face(filename: str, size: int) -> ImageFont.FreeTypeFont:
    """A cached FreeType face (use it only while holding ``LOCK``)."""
    with _LOCK:
        key = (filename, size)
        f = _FACES.get(key)
        if f is None:
            f = ImageFont.truetype(
                str(FONT_DIR / filename), size, layout_engine=ImageFont.Layout.RAQM
            )
            _FACES[key] = f
        return f


def _is_sticky(ch: str) -> bool:
    """Characters that belong to the glyph before them (marks, joiners, modifiers)."""
    cp = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Me", "Mc")
        or cp in (0x200D, 0xFE0E, 0xFE0F, 0x20E3)
        or 0x1F3FB <= cp <= 0x1F3FF
        or 0xE0020 <= cp <= 0xE007F
    )


def clusters(text: str) -> list[str]:
    """Split into user-perceived characters (good enough for names: marks, ZWJ, flags)."""
    out: list[str] = []
    for ch in text:
        glue = bool(out) and (
            _is_sticky(ch)
            or out[-1].endswith("\u200d")
            or (_is_regional(ch) and len(out[-1]) == 1 and _is_regional(out[-1]))
        )
        if glue:
            out[-1] += ch
        else:
            out.append(ch)
    return out


def _is_regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def _is_emoji(cluster: str) -> bool:
    base = ord(cluster[0])
    if ord(cluster[0]) not in coverage(EMOJI_FILE):
        return False
    return base >= 0x1F000 or "\ufe0f" in cluster or "\u20e3" in cluster or len(cluster) > 1


def font_for(cluster: str, bold: bool = False) -> str | None:
    """The first font (file name) that has every glyph of ``cluster``; None if none has."""
    if _is_emoji(cluster):
        return EMOJI_FILE
    needed = [c for c in cluster if ord(c) not in (0x200D, 0xFE0E, 0xFE0F)]
    for name in chain(bold):
        cov = coverage(name)
        if all(ord(c) in cov for c in needed):
            return name
    base = cluster[0]
    for name in chain(bold):
        if ord(base) in coverage(name):
            return name
    return None


def missing_glyphs(text: str, *, bold: bool = False) -> list[str]:
    """Characters of ``text`` that no bundled font can draw (whitespace/controls ignored)."""
    return [
        cl
        for cl in clusters(text)
        if not cl.isspace()
        and unicodedata.category(cl[0]) not in ("Cc", "Cf")
        and font_for(cl, bold) is None
    ]


@dataclass(frozen=True)
class _Run:
    font: str
    text: str
    rtl: bool


def _strong_rtl(text: str) -> bool:
    return any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)


def _runs(text: str, bold: bool) -> list[_Run]:
    runs: list[tuple[str, list[str]]] = []
    for cl in clusters(text):
        name = font_for(cl, bold) or chain(bold)[0]
        neutral = unicodedata.bidirectional(cl[0]) in ("WS", "ON", "CS", "ES", "ET", "BN")
        prev = runs[-1][0] if runs else ""
        joins = bool(runs) and (
            prev == name
            or (
                neutral
                and EMOJI_FILE not in (name, prev)
                and not _strong_rtl("".join(runs[-1][1]))
                and all(ord(c) in coverage(prev) for c in cl)
            )
        )
        if joins and not (neutral and prev == name and _strong_rtl(runs[-1][1][-1])):
            runs[-1][1].append(cl)
        else:
            runs.append((name, [cl]))
    out = [_Run(n, "".join(cs), _strong_rtl("".join(cs))) for n, cs in runs]
    # A left-to-right line: reverse each maximal sequence of RTL runs (and neutral runs
    # between them), as the bidi algorithm would for an LTR paragraph.
    result: list[_Run] = []
    i = 0
    while i < len(out):
        if not out[i].rtl:
            result.append(out[i])
            i += 1
            continue
        j = i
        last_rtl = i
        while j < len(out) and (out[j].rtl or not _strong_ltr(out[j].text)):
            if out[j].rtl or _digits(out[j].text):
                last_rtl = j
            j += 1
        result.extend(reversed(out[i : last_rtl + 1]))
        i = last_rtl + 1
    return result


def _digits(text: str) -> bool:
    return any(unicodedata.bidirectional(c) in ("EN", "AN") for c in text)


def _strong_ltr(text: str) -> bool:
    return any(unicodedata.bidirectional(c) == "L" for c in text)


def line_metrics(size: int) -> tuple[int, int]:
    """(height, baseline) of a sprite line for a font size in pixels."""
    return round(size * 1.45), round(size * 1.08)


def _emoji_run(text: str, size: int) -> Image.Image:
    f = face(EMOJI_FILE, EMOJI_PPEM)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor="ls"))
    im = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
    ImageDraw.Draw(im).text((-left, -top), text, font=f, embedded_color=True, anchor="ls")
    k = size * 1.12 / EMOJI_PPEM
    w, h = max(1, round(im.width * k)), max(1, round(im.height * k))
    out = im.resize((w, h), Image.Resampling.LANCZOS)
    out.info["top"] = round(top * k)
    return out


def text_width(text: str, size: int, *, bold: bool = False) -> int:
    return text_sprite(text, size, bold=bold, fill=(0, 0, 0)).width


def text_sprite(text: str, size: int, *, bold: bool = False, fill: RGB | RGBA) -> Image.Image:
    """The text as a cached RGBA image one line high (see ``line_metrics``)."""
    key = (text, size, bold, fill)
    with _LOCK:
        hit = _SPRITES.get(key)
        if hit is not None:
            _SPRITES.move_to_end(key)
            return hit
        sprite = _make_sprite(text, size, bold, fill)
        _SPRITES[key] = sprite
        if len(_SPRITES) > _SPRITE_LIMIT:
            _SPRITES.popitem(last=False)
        return sprite


def _make_sprite(text: str, size: int, bold: bool, fill: RGB | RGBA) -> Image.Image:
    height, baseline = line_metrics(size)
    pieces: list[tuple[Image.Image | None, _Run, int]] = []
    total = 0
    for run in _runs(text, bold):
        if run.font == EMOJI_FILE:
            im = _emoji_run(run.text, size)
            pieces.append((im, run, im.width))
            total += im.width + max(1, size // 12)
        else:
            w = round(
                face(run.font, size).getlength(run.text, direction="rtl" if run.rtl else None)
            )
            pieces.append((None, run, w))
            total += w
    sprite = Image.new("RGBA", (max(1, total), height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    x = 0
    for piece, run, w in pieces:
        if piece is not None:
            sprite.alpha_composite(piece, (x, max(0, baseline + int(piece.info["top"]))))
            x += w + max(1, size // 12)
        else:
            draw.text(
                (x, baseline),
                run.text,
                font=face(run.font, size),
                fill=fill,
                anchor="ls",
                direction="rtl" if run.rtl else None,
            )
            x += w
    return sprite


def fit(text: str, size: int, max_width: int, *, bold: bool = False) -> str:
    """``text`` itself if it fits in ``max_width`` pixels, else the longest prefix + "…"."""
    text = " ".join(text.split())
    if text_width(text, size, bold=bold) <= max_width:
        return text
    cl = clusters(text)
    lo, hi = 0, len(cl)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width("".join(cl[:mid]).rstrip() + ELLIPSIS, size, bold=bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return "".join(cl[:lo]).rstrip() + ELLIPSIS


def draw_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    *,
    fill: RGB | RGBA,
    bold: bool = False,
    anchor: str = "lm",
    max_width: int | None = None,
) -> tuple[int, int, int, int]:
    """Paste ``text`` onto RGBA/RGB ``img``; anchor: l/m/r then t/m/b (middle = the line box).

    Returns the box drawn. ``max_width`` shortens the text with "…".
    """
    if max_width is not None:
        text = fit(text, size, max_width, bold=bold)
    if text.strip():
        note(size)
    sprite = text_sprite(text, size, bold=bold, fill=fill)
    x, y = xy
    w, h = sprite.size
    _height, baseline = line_metrics(size)
    cap = round(size * 0.72)
    dx = {"l": 0.0, "m": w / 2, "r": float(w)}[anchor[0]]
    # vertical: t = cap top, m = middle of capitals, b = baseline
    top = {"t": baseline - cap, "m": baseline - cap / 2, "b": baseline}[anchor[1]]
    px, py = round(x - dx), round(y - top)
    if img.mode == "RGBA":
        img.alpha_composite(sprite, (max(px, 0), max(py, 0)) if px < 0 or py < 0 else (px, py))
    else:
        img.paste(sprite, (px, py), sprite)
    return px, py, px + w, py + h


def wrap(text: str, size: int, max_width: int, *, bold: bool = False) -> list[str]:
    """``text`` broken at spaces into lines of at most ``max_width`` px (a word longer
    than a line is shortened with "…")."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if text_width(trial, size, bold=bold) <= max_width:
            line = trial
            continue
        if line:
            lines.append(line)
        line = fit(word, size, max_width, bold=bold)
    if line:
        lines.append(line)
    return lines
