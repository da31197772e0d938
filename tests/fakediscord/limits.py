"""Discord's documented limits that its OpenAPI specification does not encode.

Each check returns :class:`~tests.fakediscord.spec.Problem` values with the path of the
field Discord names in its 50035 answer; an empty list means Discord accepts the body.
``rules.py`` keeps the older checks that need no field path (totals across a message).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterator
from typing import Any

from .spec import Problem, specification

# Message flags (Discord's "Message Flags") each kind of request may set.
SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS = 1 << 2, 1 << 6, 1 << 12
IS_VOICE_MESSAGE, IS_COMPONENTS_V2 = 1 << 13, 1 << 15
CHANNEL_CREATE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE \
    | IS_COMPONENTS_V2
EDIT_FLAGS = SUPPRESS_EMBEDS | IS_COMPONENTS_V2
INTERACTION_FLAGS = EPHEMERAL | SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2
DEFERRED_FLAGS = EPHEMERAL  # a deferred answer says only whether it will be ephemeral

# A server without boosts takes files of up to 10 MiB each: Discord lowered its default
# upload limit from 25 MiB to 10 MiB (2024); boosts raise it (50 MiB at level 2, 100 MiB at
# level 3), and the emulator's guilds have none.  Interactions carry it as
# ``attachment_size_limit``.
MAX_FILE = 10 * 1024 * 1024

MAX_CHOICE_TEXT = 100  # a choice's name, its localizations, and a string choice's value
MAX_COMMAND_TEXT = 4000  # names, descriptions and values of a command, in each locale
SUB, GROUP, STRING = 1, 2, 3
_NAME_PUNCTUATION = frozenset("-_'")


@functools.cache
def locales() -> frozenset[str]:
    """Discord's locales (the specification's ``AvailableLocalesEnum``)."""
    enum = specification()["components"]["schemas"]["AvailableLocalesEnum"]
    return frozenset(b["const"] for b in enum["oneOf"])


def _name_char(ch: str) -> bool:
    """A character Discord's command name pattern takes:
    ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` (Devanagari and Thai whole, with
    their vowel signs, which are marks rather than letters)."""
    return (ch in _NAME_PUNCTUATION or unicodedata.category(ch)[0] in "LN"
            or "\u0900" <= ch <= "\u097f" or "\u0e00" <= ch <= "\u0e7f")


def good_name(name: str) -> bool:
    """A command or option name as Discord takes it: 1-32 of its characters, lower case
    where the script has case."""
    return 1 <= len(name) <= 32 and all(map(_name_char, name)) and name == name.lower()


def flags(body: dict[str, Any], allowed: int, path: tuple[str | int, ...] = ()) -> list[Problem]:
    """Only the flags the endpoint takes; an ephemeral flag where none may be is refused,
    not dropped."""
    value = body.get("flags") if isinstance(body, dict) else None
    if not isinstance(value, int) or isinstance(value, bool) or not value & ~allowed:
        return []
    return [Problem((*path, "flags"), "MESSAGE_FLAGS_INVALID",
                    f"Flags {value & ~allowed} cannot be set here (allowed: {allowed}).")]


def _components(items: Any, path: tuple[str | int, ...]) -> Iterator[
        tuple[tuple[str | int, ...], dict[str, Any]]]:
    for i, comp in enumerate(items if isinstance(items, list) else []):
        if not isinstance(comp, dict):
            continue
        here = (*path, i)
        yield here, comp
        yield from _components(comp.get("components"), (*here, "components"))
        for key in ("component", "accessory"):
            if isinstance(comp.get(key), dict):
                yield from _components([comp[key]], (*here, key))


def buttons(body: dict[str, Any], path: tuple[str | int, ...] = ()) -> list[Problem]:
    """A button other than a premium one shows a label or an emoji."""
    out = []
    for here, comp in _components(body.get("components"), (*path, "components")):
        if comp.get("type") == 2 and comp.get("style") != 6 \
                and not comp.get("label") and not comp.get("emoji"):
            out.append(Problem((*here, "label"), "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                               "A button needs a label or an emoji."))
    return out


def message(body: Any, allowed_flags: int, path: tuple[str | int, ...] = ()) -> list[Problem]:
    """A message body's flags and buttons."""
    if not isinstance(body, dict):
        return []
    return flags(body, allowed_flags, path) + buttons(body, path)


def uploads(files: dict[int, tuple[str, bytes, str | None]]) -> list[Problem]:
    """Each uploaded file within the upload limit of a server without boosts."""
    return [Problem((f"files[{n}]",), "ENTITY_TOO_LARGE",
                    f"{name} is {len(data)} bytes (max {MAX_FILE}).")
            for n, (name, data, _ctype) in sorted(files.items()) if len(data) > MAX_FILE]


def _localized(node: dict[str, Any], key: str, path: tuple[str | int, ...]) -> list[Problem]:
    out = []
    for loc in node.get(key) or {}:
        if loc not in locales():
            out.append(Problem((*path, key, loc), "LOCALE_INVALID",
                               f"{loc!r} is not one of Discord's locales."))
    return out


def _text(node: dict[str, Any], key: str, loc: str | None) -> int:
    local = (node.get(f"{key}_localizations") or {}).get(loc) if loc else None
    value = local if local is not None else node.get(key)
    return len(value) if isinstance(value, str) else len(str(value)) if value is not None else 0


def command(cmd: dict[str, Any], path: tuple[str | int, ...] = ()) -> list[Problem]:
    """One command of a bulk overwrite: names, choices, locales, the shape of its
    subcommands and its 4,000 characters."""
    out = _option(cmd, path, top=True)
    used = {None} | {loc for node in _nodes(cmd) for key in ("name_localizations",
                     "description_localizations") for loc in node.get(key) or {}}
    for loc in sorted(used, key=str):
        total = sum(_text(node, "name", loc) + _text(node, "description", loc)
                    + (_text(node, "value", None) if "value" in node else 0)
                    for node in _nodes(cmd))
        if total > MAX_COMMAND_TEXT:
            out.append(Problem((*path, "name"), "APPLICATION_COMMAND_TOO_LARGE",
                               f"The command's names, descriptions and values hold {total} "
                               f"characters in {loc or 'the default locale'} "
                               f"(max {MAX_COMMAND_TEXT})."))
    return out


def _nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for choice in node.get("choices") or []:
        if isinstance(choice, dict):
            yield choice
    for opt in node.get("options") or []:
        if isinstance(opt, dict):
            yield from _nodes(opt)


def _option(node: dict[str, Any], path: tuple[str | int, ...], *, top: bool = False) -> list[
        Problem]:
    out: list[Problem] = []
    if not top or node.get("type", 1) == 1:
        name = node.get("name")
        if isinstance(name, str) and not good_name(name):
            out.append(Problem((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME",
                               f"Command name {name!r} is invalid."))
        for loc, value in (node.get("name_localizations") or {}).items():
            if isinstance(value, str) and not good_name(value):
                out.append(Problem((*path, "name_localizations", loc),
                                   "APPLICATION_COMMAND_INVALID_NAME",
                                   f"Command name {value!r} is invalid."))
    out += _localized(node, "name_localizations", path)
    out += _localized(node, "description_localizations", path)
    for i, choice in enumerate(node.get("choices") or []):
        if not isinstance(choice, dict):
            continue
        here = (*path, "choices", i)
        out += _localized(choice, "name_localizations", here)
        value = choice.get("value")
        if node.get("type") == STRING and isinstance(value, str) \
                and len(value) > MAX_CHOICE_TEXT:
            out.append(Problem((*here, "value"), "BASE_TYPE_MAX_LENGTH",
                               f"Must be {MAX_CHOICE_TEXT} or fewer in length."))
    options = [o for o in node.get("options") or [] if isinstance(o, dict)]
    nested = [o.get("type") in (SUB, GROUP) for o in options]
    if any(nested) and not all(nested):
        out.append(Problem((*path, "options"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                           "Sub-command and sub-command group option types are mutually "
                           "exclusive to all other types."))
    for i, opt in enumerate(options):
        out += _option(opt, (*path, "options", i))
    return out
