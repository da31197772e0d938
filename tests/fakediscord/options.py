"""Slash command options: from a test's keyword arguments to Discord's payload.

The test names a command as a user types it (``"table new"``) and passes the
options as Python values.  Everything is checked against the schema the bot
synced — a real Discord client cannot send an unknown option, a wrong type, a
missing required option, a value outside the choices or min/max — so such a
test raises :class:`SchemaError` instead of reaching the bot.
"""

from __future__ import annotations

from typing import Any

from .errors import SchemaError
from .models import Channel, Member, Role, User

SUB, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
TYPE_NAMES = {STRING: "string", INTEGER: "integer", BOOLEAN: "boolean", USER: "user",
              CHANNEL: "channel", ROLE: "role", MENTIONABLE: "mentionable", NUMBER: "number"}


def walk_path(cmd: dict[str, Any], words: list[str]) -> tuple[list[dict[str, Any]], list[dict]]:
    """Follow subcommand group / subcommand names; return (chain, leaf options)."""
    chain: list[dict[str, Any]] = []
    options = cmd.get("options") or []
    for word in words:
        nxt = next((o for o in options if o["name"] == word and o["type"] in (SUB, GROUP)), None)
        if nxt is None:
            raise SchemaError(f"/{cmd['name']} has no subcommand {word!r}")
        chain.append(nxt)
        options = nxt.get("options") or []
    if any(o["type"] in (SUB, GROUP) for o in options):
        names = [o["name"] for o in options]
        raise SchemaError(f"/{' '.join([cmd['name'], *words])} needs a subcommand: {names}")
    return chain, options


def nest(chain: list[dict[str, Any]], leaf: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Wrap leaf options into the subcommand (group) structure Discord sends."""
    options = leaf
    for part in reversed(chain):
        options = [{"name": part["name"], "type": part["type"], "options": options}]
    return options


def convert(schema: dict[str, Any], value: Any, resolved: dict[str, dict]) -> Any:
    """Check one option value against its schema; return the JSON value."""
    name, otype = schema["name"], schema["type"]
    want = TYPE_NAMES.get(otype, str(otype))
    if otype == STRING:
        ok = isinstance(value, str)
    elif otype == INTEGER:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif otype == NUMBER:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif otype == BOOLEAN:
        ok = isinstance(value, bool)
    elif otype in (USER, MENTIONABLE) and isinstance(value, User | Member):
        user = value.user if isinstance(value, Member) else value
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        return str(user.id)
    elif otype in (ROLE, MENTIONABLE) and isinstance(value, Role):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    elif otype == CHANNEL and isinstance(value, Channel):
        types = schema.get("channel_types")
        if types and value.type not in types:
            raise SchemaError(f"option {name!r} takes channel types {types}, not {value.type}")
        data = value.payload() | {"permissions": str((1 << 51) - 1)}
        resolved.setdefault("channels", {})[str(value.id)] = data
        return str(value.id)
    else:
        ok = False
    if not ok:
        raise SchemaError(f"option {name!r} is a {want}; {value!r} cannot be sent")
    choices = schema.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise SchemaError(f"option {name!r} must be one of {[c['value'] for c in choices]}, "
                          f"not {value!r}")
    if otype in (INTEGER, NUMBER):
        lo, hi = schema.get("min_value"), schema.get("max_value")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise SchemaError(f"option {name!r} must be within [{lo}, {hi}], not {value!r}")
    if otype == STRING:
        lo, hi = schema.get("min_length", 0), schema.get("max_length", 6000)
        if not lo <= len(value) <= hi:
            raise SchemaError(f"option {name!r} must be {lo}-{hi} characters long")
    return value


def build(cmd: dict[str, Any], words: list[str], values: dict[str, Any], *,
          focused: str | None = None) -> tuple[list[dict[str, Any]], dict, int | None]:
    """(options payload, resolved data, focused option type) for an interaction.

    With ``focused`` (autocomplete) the focused option carries the raw text
    typed so far and required options may still be missing, as on Discord.
    """
    chain, schema = walk_path(cmd, words)
    by_name = {o["name"]: o for o in schema}
    for key in values:
        if key not in by_name:
            raise SchemaError(f"/{cmd['name']} has no option {key!r}; it has {list(by_name)}")
    resolved: dict[str, dict] = {}
    leaf: list[dict[str, Any]] = []
    focused_type = None
    for opt in schema:
        name = opt["name"]
        if name == focused:
            if not opt.get("autocomplete"):
                raise SchemaError(f"option {name!r} of /{cmd['name']} has no autocomplete")
            focused_type = opt["type"]
            leaf.append({"name": name, "type": opt["type"], "value": str(values[name]),
                         "focused": True})
        elif name in values:
            value = convert(opt, values[name], resolved)
            leaf.append({"name": name, "type": opt["type"], "value": value})
        elif opt.get("required") and focused is None:
            raise SchemaError(f"/{' '.join([cmd['name'], *words])} requires option {name!r}")
    if focused is not None and focused_type is None:
        raise SchemaError(f"/{cmd['name']} has no option {focused!r}")
    return nest(chain, leaf), resolved, focused_type
