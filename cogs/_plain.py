"""What people typed, shown on Discord as the text it is: never markup, never a mention.

A display name is the player's own text: ``[claim prize](https://evil.example)`` must read
as those characters, not as a link under the bot's name, and ``@everyone`` must not ping.
Every name and every other value that comes from a person passes through ``plain`` before
it enters a message or an embed (``say`` does it for the values of a service's answer).
Images draw names as pixels and the web pages escape HTML themselves: neither uses this.
Component labels and placeholders are not markdown on Discord: they get ``label_text``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.i18n import t, text_of
from bot.i18n.values import Joined, Msg

# What escape_markdown leaves: a lone bracket can pair with text after the name into a
# masked link, and <#channel>, <t:timestamp>, <:emoji:id> are syntax too.
_MORE = re.compile(r"(?<!\\)([\]<>])")


@functools.lru_cache(maxsize=4096)  # the same names, in every message of a table
def plain(text: str) -> str:
    """``text`` as plain text in a message: markdown and mentions escaped, on one line."""
    flat = " ".join(str(text).splitlines())
    escaped = discord.utils.escape_markdown(flat, ignore_links=False)
    return discord.utils.escape_mentions(_MORE.sub(r"\\\1", escaped))


def plain_names(names: Sequence[str]) -> list[str]:
    """Seat names (``Table.names()``) ready to be written into a message."""
    return [plain(n) for n in names]


def label_text(text: str, limit: int = 80) -> str:
    """``text`` as a button or menu label: one line within Discord's limit (labels show no
    markdown, so nothing is escaped: a backslash would show)."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def plain_params(key: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The values of message ``key`` as text: every string escaped (also inside nested
    messages), except one the message quotes in a code span, where markdown does nothing."""
    quoted = text_of(key, "en") or ""
    return {k: v if f"`{{{k}}}`" in quoted else _plain_value(v) for k, v in params.items()}


def _plain_value(value: Any) -> Any:
    if isinstance(value, str):
        return plain(value)
    if isinstance(value, Msg):
        return Msg(value.keys, plain_params(value.key, value.params), value.capital)
    if isinstance(value, Joined):
        return Joined(tuple(_plain_value(v) for v in value.items))
    if isinstance(value, tuple | list):
        return type(value)(_plain_value(v) for v in value)
    return value


def say(key: str, loc: str | None, params: Mapping[str, Any]) -> str:
    """``t(key, loc, **params)`` for a service's answer (an outcome, a refusal, a notice),
    whose string values are people's text."""
    return t(key, loc, **plain_params(key, params))
