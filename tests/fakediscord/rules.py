"""Discord's limits on what a bot may send: messages, components, commands.

Each ``check_*`` function returns a list of human readable problems; an empty
list means Discord would accept the payload.  The REST layer turns problems
into a 400 "Invalid Form Body" answer and a recorded violation.
"""

from __future__ import annotations

import re
from typing import Any

from .models import COMPONENTS_V2, walk_components

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TEXT = 6000
MAX_ATTACHMENTS = 10
MAX_UPLOAD = 25 * 1024 * 1024
MAX_ROWS = 5
MAX_BUTTONS = 5
MAX_SELECT_OPTIONS = 25
MAX_CUSTOM_ID = 100
MAX_V2_COMPONENTS = 40
BUTTON, SELECTS, TEXT_INPUT = 2, {3, 5, 6, 7, 8}, 4
USER_MENTION_RE = re.compile(r"<@!?(\d{1,20})>")
MENTION_KINDS = {"users", "roles", "everyone"}
MAX_ALLOWED_IDS = 100


def embed_text_length(embed: dict[str, Any]) -> int:
    """Characters that count toward the 6,000 limit of a message's embeds."""
    n = len(embed.get("title") or "") + len(embed.get("description") or "")
    n += len((embed.get("footer") or {}).get("text") or "")
    n += len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        n += len(f.get("name") or "") + len(f.get("value") or "")
    return n


def check_embed(i: int, e: dict[str, Any]) -> list[str]:
    problems = []
    for key, limit in (("title", 256), ("description", 4096)):
        if len(e.get(key) or "") > limit:
            problems.append(f"embeds[{i}].{key} longer than {limit}")
    if len((e.get("footer") or {}).get("text") or "") > 2048:
        problems.append(f"embeds[{i}].footer.text longer than 2048")
    if len((e.get("author") or {}).get("name") or "") > 256:
        problems.append(f"embeds[{i}].author.name longer than 256")
    fields = e.get("fields") or []
    if len(fields) > 25:
        problems.append(f"embeds[{i}] has {len(fields)} fields (max 25)")
    for j, f in enumerate(fields):
        if not f.get("name") or len(f["name"]) > 256:
            problems.append(f"embeds[{i}].fields[{j}].name must be 1-256 characters")
        if not f.get("value") or len(f["value"]) > 1024:
            problems.append(f"embeds[{i}].fields[{j}].value must be 1-1024 characters")
    return problems


def check_message(body: dict[str, Any], attachments: list[tuple[str, int]],
                  *, require_content: bool = True) -> list[str]:
    """Check a message create/edit body.  ``attachments`` is [(filename, size)]."""
    problems: list[str] = []
    content = body.get("content") or ""
    if len(content) > MAX_CONTENT:
        problems.append(f"content is {len(content)} characters (max {MAX_CONTENT})")
    embeds = body.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        problems.append(f"{len(embeds)} embeds (max {MAX_EMBEDS})")
    for i, e in enumerate(embeds):
        problems += check_embed(i, e)
    total = sum(embed_text_length(e) for e in embeds)
    if total > MAX_EMBED_TEXT:
        problems.append(f"embeds hold {total} characters of text (max {MAX_EMBED_TEXT})")
    if len(attachments) > MAX_ATTACHMENTS:
        problems.append(f"{len(attachments)} attachments (max {MAX_ATTACHMENTS})")
    size = sum(s for _, s in attachments)
    if size > MAX_UPLOAD:
        problems.append(f"attachments total {size} bytes (max {MAX_UPLOAD})")
    flags = int(body.get("flags") or 0)
    problems += check_components(body.get("components") or [], v2=bool(flags & COMPONENTS_V2))
    problems += check_allowed_mentions(body.get("allowed_mentions"))
    empty = not (content or embeds or attachments or body.get("components")
                 or body.get("sticker_ids") or body.get("poll"))
    if require_content and empty:
        problems.append("cannot send an empty message")
    return problems


def check_components(components: list[dict[str, Any]], *, v2: bool = False) -> list[str]:
    """Action rows, buttons, selects and custom_ids within Discord's limits."""
    problems: list[str] = []
    if v2:
        if sum(1 for _ in walk_components(components)) > MAX_V2_COMPONENTS:
            problems.append(f"more than {MAX_V2_COMPONENTS} components")
    elif len(components) > MAX_ROWS:
        problems.append(f"{len(components)} action rows (max {MAX_ROWS})")
    for i, row in enumerate(components):
        if row.get("type") != 1:
            if not v2:
                problems.append(f"components[{i}] is type {row.get('type')}, not an action row")
            continue
        children = row.get("components") or []
        kinds = [c.get("type") for c in children]
        if not children:
            problems.append(f"components[{i}] is an empty action row")
        if kinds.count(BUTTON) > MAX_BUTTONS:
            problems.append(f"components[{i}] has {kinds.count(BUTTON)} buttons (max 5)")
        if any(k in SELECTS for k in kinds) and len(children) > 1:
            problems.append(f"components[{i}]: a select menu must be alone in its row")
    seen: set[str] = set()
    for comp in walk_components(components):
        problems += _check_component(comp, seen)
    return problems


def _check_component(comp: dict[str, Any], seen: set[str]) -> list[str]:
    problems: list[str] = []
    ctype = comp.get("type")
    cid = comp.get("custom_id")
    if cid is not None:
        if not 1 <= len(cid) <= MAX_CUSTOM_ID:
            problems.append(f"custom_id {cid[:30]!r}... is {len(cid)} characters (max 100)")
        if cid in seen:
            problems.append(f"custom_id {cid!r} is used twice in one message")
        seen.add(cid)
    if ctype == BUTTON:
        style = comp.get("style")
        if style == 5 and (not comp.get("url") or cid):
            problems.append("a link button needs a url and no custom_id")
        elif style not in (5, 6) and not cid:
            problems.append("a button needs a custom_id")
        if len(comp.get("label") or "") > 80:
            problems.append(f"button label {comp['label'][:20]!r}... longer than 80")
    elif ctype in SELECTS:
        if not cid:
            problems.append("a select menu needs a custom_id")
        opts = comp.get("options") or []
        if ctype == 3 and not 1 <= len(opts) <= MAX_SELECT_OPTIONS:
            problems.append(f"select {cid!r} has {len(opts)} options (1-{MAX_SELECT_OPTIONS})")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not 0 <= lo <= hi <= MAX_SELECT_OPTIONS or (ctype == 3 and hi > len(opts)):
            problems.append(f"select {cid!r} has bad min/max values {lo}/{hi}")
        if len({o.get("value") for o in opts}) != len(opts):
            problems.append(f"select {cid!r} has duplicate option values")
    elif ctype == TEXT_INPUT and not cid:
        problems.append("a text input needs a custom_id")
    return problems


def check_command(cmd: dict[str, Any], path: str = "") -> list[str]:
    """An application command (or option) as Discord validates it on sync."""
    problems: list[str] = []
    where = f"{path}{cmd.get('name')!r}"
    ctype = cmd.get("type", 1)
    # names: limits.good_name, Discord's pattern
    if (path or ctype == 1) and not 1 <= len(cmd.get("description") or "") <= 100:
        problems.append(f"{where}: description must be 1-100 characters")
    for loc, value in (cmd.get("description_localizations") or {}).items():
        if not 1 <= len(value) <= 100:
            problems.append(f"{where}: bad {loc} description localization")
    options = cmd.get("options") or []
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options (max 25)")
    required_seen_optional = False
    for opt in options:
        if opt.get("type") not in (1, 2):
            if opt.get("required"):
                if required_seen_optional:
                    problems.append(f"{where}: required option {opt['name']!r} after optional")
            else:
                required_seen_optional = True
        choices = opt.get("choices") or []
        if len(choices) > 25:
            problems.append(f"{where}.{opt['name']}: {len(choices)} choices (max 25)")
        if choices and opt.get("autocomplete"):
            problems.append(f"{where}.{opt['name']}: choices and autocomplete together")
        problems += check_command(opt, f"{where}.")
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        problems.append(f"{where}: duplicate option names")
    return problems


def check_choices(choices: list[dict[str, Any]], option_type: int) -> list[str]:
    """An autocomplete answer: at most 25 choices of the option's type."""
    problems = []
    if len(choices) > 25:
        problems.append(f"{len(choices)} autocomplete choices (max 25)")
    py_type = {3: str, 4: int, 10: (int, float)}.get(option_type, object)
    for c in choices:
        if not 1 <= len(c.get("name") or "") <= 100:
            problems.append(f"choice name {c.get('name')!r} must be 1-100 characters")
        if not isinstance(c.get("value"), py_type) or isinstance(c.get("value"), bool):
            problems.append(f"choice value {c.get('value')!r} is not of option type {option_type}")
    return problems


def check_allowed_mentions(allowed: Any) -> list[str]:
    """A message's ``allowed_mentions`` as Discord checks it: known ``parse`` kinds, at most
    100 ids a list, and never a kind both parsed and listed."""
    if allowed is None:
        return []
    if not isinstance(allowed, dict):
        return ["allowed_mentions must be an object"]
    problems = []
    parse = allowed.get("parse") or []
    for kind in parse:
        if kind not in MENTION_KINDS:
            problems.append(f"allowed_mentions.parse: {kind!r} is not one of "
                            f"{sorted(MENTION_KINDS)}")
    for kind in ("users", "roles"):
        ids = allowed.get(kind) or []
        if len(ids) > MAX_ALLOWED_IDS:
            problems.append(f"allowed_mentions.{kind} has {len(ids)} ids "
                            f"(max {MAX_ALLOWED_IDS})")
        if ids and kind in parse:
            problems.append(f"allowed_mentions: parse:[{kind!r}] and {kind} are mutually "
                            "exclusive")
    return problems


def mentioned_users(content: str, allowed: dict[str, Any] | None) -> list[int]:
    """The users a message's content mentions (``<@id>``, ``<@!id>``) that its
    ``allowed_mentions`` lets through, in order, each once: all of them without
    ``allowed_mentions``, as on Discord."""
    ids = list(dict.fromkeys(int(m) for m in USER_MENTION_RE.findall(content)))
    if allowed is None or "users" in (allowed.get("parse") or []):
        return ids
    listed = {int(u) for u in allowed.get("users") or []}
    return [u for u in ids if u in listed]
