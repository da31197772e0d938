"""One SQL text for both databases where they agree: SQLite's ``?`` placeholders become
PostgreSQL's ``$1..$n`` (a numbered ``?N`` keeps its number, as SQLite reads it)."""

from __future__ import annotations

import re
from functools import lru_cache

_MARK = re.compile(r"'[^']*'|\?(\d*)")


@lru_cache(maxsize=1024)
def to_pg(sql: str) -> str:
    """``sql`` with PostgreSQL placeholders (quoted literals are left alone)."""
    last = 0

    def number(m: re.Match[str]) -> str:
        nonlocal last
        if m.group(0).startswith("'"):
            return m.group(0)
        # SQLite: a bare ? is one more than the largest number given so far
        n = int(m.group(1)) if m.group(1) else last + 1
        last = max(last, n)
        return f"${n}"

    return _MARK.sub(number, sql)
