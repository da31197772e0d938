"""The lines of a hand's result for a reader: an engine ``Note`` becomes a ``Msg``.

The engine keeps each line as its English text with a key and parameters
(``bot.game.notes``); here ``note.<key>`` of the reader's catalog says it, the seats named
(a partnership's two names joined with ``&``), a nested reason said the same way, and the
talon called as the preset's players call it. A line without a key (a plain string) is
shown as it is, its seats filled in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.game.notes import Note
from bot.i18n import has, language
from bot.i18n.values import Msg, TalonWord, names_of


def english_line(line: str, names: Sequence[str]) -> str:
    """``line`` with its ``{p}`` seats written as names (as the replay output has it)."""
    try:
        return line.format(*names)
    except (IndexError, KeyError, ValueError):
        return str(line)


def _who(value: Any, names: Sequence[str]) -> Any:
    if isinstance(value, int):
        return names_of((value,), names)[0]
    if isinstance(value, tuple):
        return " & ".join(names_of(value, names))
    return value


def note_message(line: str, names: Sequence[str], *, preset: str = "",
                 talon: str = "talon") -> Msg | str:
    """``line`` as a message for any reader's ``t`` (a keyless line: its English text)."""
    if not isinstance(line, Note) or not has(f"note.{line.key}"):
        return english_line(line, names)
    params: dict[str, Any] = {}
    for name, value in line.params.items():
        if name == "who":
            params[name] = _who(value, names)
        elif isinstance(value, Note):
            params[name] = note_message(value, names, preset=preset, talon=talon)
        else:
            params[name] = value
    params["talon"] = TalonWord(preset, talon)
    return Msg.of(f"note.{line.key}", **params)


def note_text(line: str, names: Sequence[str], locale: str | None, *, preset: str = "",
              talon: str = "talon") -> str:
    """``line`` written in the language of ``locale``."""
    msg = note_message(line, names, preset=preset, talon=talon)
    return msg if isinstance(msg, str) else msg.localize(language(locale))


__all__ = ["english_line", "note_message", "note_text"]
