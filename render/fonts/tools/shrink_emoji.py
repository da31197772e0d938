"""Shrink Noto Color Emoji's one CBDT strike (109 ppem) to a smaller strike.

Run with fontTools and Pillow installed (a build tool, not imported by ``render``):
    python shrink_emoji.py NotoColorEmoji.ttf out.ttf 48
The renderer scales emoji bitmaps to the text size anyway (names are drawn at 14-40 px), so
a 48 ppem strike keeps them crisp at a fraction of the file size.
"""

import io
import sys

from fontTools.ttLib import TTFont  # type: ignore[import-not-found,import-untyped,unused-ignore]
from PIL import Image

src, dst, ppem = sys.argv[1], sys.argv[2], int(sys.argv[3])
font = TTFont(src)
cbdt, cblc = font["CBDT"], font["CBLC"]
old = cblc.strikes[0].bitmapSizeTable.ppemX
k: float = ppem / old


def sc(v: int) -> int:
    return round(v * k)


for strike_data in cbdt.strikeData:
    for _name, glyph in strike_data.items():
        im = Image.open(io.BytesIO(glyph.imageData)).convert("RGBA")
        w, h = max(1, sc(im.width)), max(1, sc(im.height))
        im = im.resize((w, h), Image.Resampling.LANCZOS)
        buf = io.BytesIO()
        im = im.quantize(colors=128, method=Image.Quantize.FASTOCTREE)
        im.save(buf, "PNG", optimize=True)
        glyph.imageData = buf.getvalue()
        m = glyph.metrics
        m.width, m.height = w, h
        m.BearingX, m.BearingY, m.Advance = sc(m.BearingX), sc(m.BearingY), sc(m.Advance)
for strike in cblc.strikes:
    bst = strike.bitmapSizeTable
    bst.ppemX = bst.ppemY = ppem
    for lm in (bst.hori, bst.vert):
        for attr in (
            "ascender",
            "descender",
            "widthMax",
            "minOriginSB",
            "minAdvanceSB",
            "maxBeforeBL",
            "minAfterBL",
        ):
            setattr(lm, attr, sc(getattr(lm, attr)))
    for sub in strike.indexSubTables:
        if hasattr(sub, "metrics"):
            m = sub.metrics
            m.width, m.height = sc(m.width), sc(m.height)
            m.BearingX, m.BearingY, m.Advance = sc(m.BearingX), sc(m.BearingY), sc(m.Advance)
font.save(dst)
