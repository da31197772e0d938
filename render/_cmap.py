"""Read which code points a TrueType/OpenType font maps (its ``cmap``), without fontTools.

Only the subtables needed for coverage are read: format 12 (full Unicode) and format 4 (BMP).
"""

from __future__ import annotations

import struct
from pathlib import Path

_PREFERRED = ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3))


def _table(data: bytes, tag: bytes) -> bytes:
    (num_tables,) = struct.unpack_from(">H", data, 4)
    for i in range(num_tables):
        rec_tag, _checksum, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if rec_tag == tag:
            return data[offset : offset + length]
    raise ValueError(f"font has no {tag!r} table")


def _format12(sub: bytes) -> set[int]:
    (n_groups,) = struct.unpack_from(">I", sub, 12)
    out: set[int] = set()
    for i in range(n_groups):
        start, end, glyph = struct.unpack_from(">III", sub, 16 + 12 * i)
        first = start if glyph else start + 1
        out.update(range(first, end + 1))
    return out


def _format4(sub: bytes) -> set[int]:
    (seg_x2,) = struct.unpack_from(">H", sub, 6)
    seg = seg_x2 // 2
    ends = struct.unpack_from(f">{seg}H", sub, 14)
    starts = struct.unpack_from(f">{seg}H", sub, 16 + seg_x2)
    deltas = struct.unpack_from(f">{seg}h", sub, 16 + 2 * seg_x2)
    ro_base = 16 + 3 * seg_x2
    range_offsets = struct.unpack_from(f">{seg}H", sub, ro_base)
    out: set[int] = set()
    for i in range(seg):
        for c in range(starts[i], ends[i] + 1):
            if c == 0xFFFF:
                continue
            if range_offsets[i] == 0:
                glyph = (c + deltas[i]) & 0xFFFF
            else:
                pos = ro_base + 2 * i + range_offsets[i] + 2 * (c - starts[i])
                if pos + 2 > len(sub):
                    continue
                (glyph,) = struct.unpack_from(">H", sub, pos)
                if glyph:
                    glyph = (glyph + deltas[i]) & 0xFFFF
            if glyph:
                out.add(c)
    return out


def codepoints(path: Path) -> frozenset[int]:
    """Every code point that ``path`` maps to a real glyph."""
    data = path.read_bytes()
    cmap = _table(data, b"cmap")
    _version, n = struct.unpack_from(">HH", cmap, 0)
    subtables: dict[tuple[int, int], int] = {}
    for i in range(n):
        platform, encoding, offset = struct.unpack_from(">HHI", cmap, 4 + 8 * i)
        subtables.setdefault((platform, encoding), offset)
    for key in _PREFERRED:
        if key not in subtables:
            continue
        sub = cmap[subtables[key] :]
        (fmt,) = struct.unpack_from(">H", sub, 0)
        if fmt == 12:
            return frozenset(_format12(sub))
        if fmt == 4:
            return frozenset(_format4(sub))
    raise ValueError(f"{path.name}: no usable cmap subtable")
