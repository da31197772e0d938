"""Print the code points kept in the CJK subset, as pyftsubset --unicodes ranges.

Hanzi/kanji/hanja of GB2312 (simplified), Big5 level 1 (traditional), JIS X 0208 (Japanese),
all of KS X 1001 (Korean hangul and hanja), plus kana, CJK punctuation and full-width forms.
"""

import sys
from collections.abc import Iterable


def decode_table(codec: str, rows: Iterable[int], cols: Iterable[int]) -> set[int]:
    out: set[int] = set()
    for hi in rows:
        for lo in cols:
            try:
                ch = bytes([hi, lo]).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(ch) == 1:
                out.add(ord(ch))
    return out


cps: set[int] = set()
cps |= decode_table("gb2312", range(0xA1, 0xF8), range(0xA1, 0xFF))
cps |= decode_table("big5", range(0xA4, 0xC7), list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF)))
cps |= decode_table("euc_jp", range(0xA1, 0xF5), range(0xA1, 0xFF))
cps |= decode_table("euc_kr", range(0xA1, 0xFE), range(0xA1, 0xFF))
for a, b in (
    (0x3000, 0x30FF),
    (0x3100, 0x312F),
    (0x31F0, 0x31FF),
    (0xFF00, 0xFFEF),
    (0x3130, 0x318F),
):
    cps |= set(range(a, b + 1))
cps = {c for c in cps if c >= 0x2E80}  # Latin/Cyrillic/Greek come from Noto Sans
sys.stdout.write(",".join(f"U+{c:04X}" for c in sorted(cps)))
