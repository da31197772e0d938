"""Values written into SQL text as PostgreSQL literals, for the batched writes of
:class:`bot.store.PgTx` (one simple-protocol query carries no parameters).

Strings are written as ``E'...'`` with backslashes and quotes doubled: that reads the same
whatever ``standard_conforming_strings`` says, so no value can end the literal early.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

_PLACEHOLDER = re.compile(r"\$(\d+)")


def sql_literal(value: Any) -> str:
    """``value`` (None, bool, int, finite float, str, bytes) as a PostgreSQL literal.

    ValueError for what PostgreSQL cannot hold (a NUL character, NaN or an infinity);
    TypeError for any other type."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return _signed(str(int(value)))  # int(): an IntEnum's str() would be its name
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"not a finite number: {value!r}")
        return _signed(repr(float(value)))  # the shortest text that reads back the same
    if isinstance(value, str):
        if "\x00" in value:
            raise ValueError("PostgreSQL text cannot hold a NUL character")
        return "E'" + value.replace("\\", "\\\\").replace("'", "''") + "'"
    if isinstance(value, bytes | bytearray | memoryview):
        return f"decode('{bytes(value).hex()}', 'hex')"
    raise TypeError(f"no SQL literal for {type(value).__name__}")


def _signed(number: str) -> str:
    # -5::BIGINT is -(5::BIGINT): the smallest BIGINT would not fit before its minus.
    return f"({number})" if number.startswith("-") else number


def inline(sql: str, args: Sequence[Any]) -> str:
    """``sql`` with each ``$n`` replaced by the literal of ``args[n-1]`` (in one pass: a
    value's text is never read again as SQL)."""
    return _PLACEHOLDER.sub(lambda m: sql_literal(args[int(m.group(1)) - 1]), sql)
