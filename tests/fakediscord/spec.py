"""Request bodies checked against Discord's own OpenAPI specification.

``openapi.json`` is Discord's published specification (``specs/openapi.json`` of
discord/discord-api-spec; its commit and licence are in README.md, and
``python -m tests.fakediscord.update_spec`` refreshes it).  Each route's request schema is
compiled once, with its ``$ref``s resolved, into a Draft 2020-12 validator (jsonschema).
A body that fails gets the 400 Discord sends: code 50035 "Invalid Form Body", its
``errors`` nested along the field's path.

Two rewrites keep the validators fast and their errors precise, without changing what they
accept: a ``oneOf`` of ``const`` values is an ``enum``, and a union of objects told apart by
their ``type`` (components, command options, interaction responses) picks its one branch
by that ``type`` (keyword ``x-discriminator``) instead of trying every branch, so that an
error names the field of the component that broke it, not "valid under none of six".
Unions are still checked whole; a branch a body matched is remembered (by its exact
bytes), as the bot sends the same buttons and rows again and again.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema.exceptions import relevance

from .accept import Predicate, compile_schema

SPEC_PATH = Path(__file__).with_name("openapi.json")
_SCHEMAS = "#/components/schemas/"
_DROPPED = frozenset({"title", "description", "format", "x-discord-union", "contentEncoding"})
_NAMED = frozenset({"properties", "patternProperties", "$defs", "dependentSchemas"})

# Route -> the request schema a bot's body must match.  Where the specification offers a
# union of request kinds the emulator does not model (forum posts, group DMs, Slack bodies),
# the one a bot's body is of is named.
ROUTES: dict[tuple[str, str], tuple[str, ...]] = {
    ("POST", "/channels/{channel_id}/messages"): ("schema", "MessageCreateRequest"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"):
        ("schema", "MessageEditRequestPartial"),
    ("PATCH", "/channels/{channel_id}"): ("schema", "UpdateGuildChannelRequestPartial"),
    ("PATCH", "/channels/{thread_id}"): ("schema", "UpdateThreadRequestPartial"),
    ("POST", "/channels/{channel_id}/threads"):
        ("schema", "CreateTextThreadWithoutMessageRequest"),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads"):
        ("schema", "CreateTextThreadWithMessageRequest"),
    ("POST", "/interactions/{interaction_id}/{interaction_token}/callback"):
        ("path", "/interactions/{interaction_id}/{interaction_token}/callback", "post"),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"):
        ("schema", "IncomingWebhookRequestPartial"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"):
        ("schema", "IncomingWebhookUpdateRequestPartial"),
    ("PUT", "/applications/{application_id}/commands"):
        ("path", "/applications/{application_id}/commands", "put"),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"):
        ("path", "/applications/{application_id}/guilds/{guild_id}/commands", "put"),
}

# Known harmless differences between what discord.py sends and what the specification says,
# each allowed on purpose: (schema, property, the schema it is checked with instead).
QUIRKS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    # discord.py numbers a message's new uploads with integer ids (``{"id": 0}`` for
    # ``files[0]``) where the specification has a snowflake string; Discord reads both.
    ("MessageAttachmentRequest", "id",
     {"anyOf": [{"$ref": _SCHEMAS + "SnowflakeType"}, {"type": "integer", "minimum": 0}]}),
    # discord.py's ``AllowedMentions(users=[...], roles=[...])`` lists the ids as integers
    # (``x.id``); Discord reads them as snowflakes all the same.
    *(("MessageAllowedMentionsRequest", kind, {
        "type": ["array", "null"], "maxItems": 100, "uniqueItems": True, "items": {"anyOf": [
            {"type": "null"}, {"$ref": _SCHEMAS + "SnowflakeType"},
            {"type": "integer", "minimum": 0}]}}) for kind in ("users", "roles")),
)

# jsonschema keyword -> Discord's error code and message for it
_CODES: dict[str, tuple[str, str]] = {
    "maxLength": ("BASE_TYPE_MAX_LENGTH", "Must be {limit} or fewer in length."),
    "minLength": ("BASE_TYPE_MIN_LENGTH", "Must be {limit} or more in length."),
    "maxItems": ("BASE_TYPE_MAX_LENGTH", "Must be {limit} or fewer in length."),
    "minItems": ("BASE_TYPE_MIN_LENGTH", "Must be {limit} or more in length."),
    "maxProperties": ("BASE_TYPE_MAX_LENGTH", "Must be {limit} or fewer in length."),
    "maximum": ("NUMBER_TYPE_MAX", "int value should be less than or equal to {limit}."),
    "minimum": ("NUMBER_TYPE_MIN", "int value should be greater than or equal to {limit}."),
    "required": ("BASE_TYPE_REQUIRED", "This field is required"),
    "enum": ("BASE_TYPE_CHOICES", "Value must be one of {limit}."),
    "const": ("BASE_TYPE_CHOICES", "Value must be one of ({limit},)."),
    "type": ("BASE_TYPE_BAD_TYPE", "Value is not of type {limit}."),
}


class Problem:
    """One refused field: its path in the body, Discord's error code and message."""

    __slots__ = ("code", "message", "path")

    def __init__(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        self.path, self.code, self.message = path, code, message

    @property
    def where(self) -> str:
        """The path as Discord's error keys read (``components.0.components.1.label``)."""
        return ".".join(str(p) for p in self.path) or "_root"

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"

    def __repr__(self) -> str:
        return f"Problem({self})"


def form_errors(problems: list[Problem]) -> dict[str, Any]:
    """The ``errors`` object of a 50035 answer: nested by path, ``_errors`` at each leaf."""
    out: dict[str, Any] = {}
    for p in problems:
        node = out
        for key in p.path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": p.code, "message": p.message})
    return out


@functools.cache
def specification() -> dict[str, Any]:
    """The vendored specification, read once."""
    spec: dict[str, Any] = orjson.loads(SPEC_PATH.read_bytes())
    for name, prop, schema in QUIRKS:
        spec["components"]["schemas"][name]["properties"][prop] = schema
    return spec


class _Builder:
    """A route's schema with every ``$ref`` resolved and the unions rewritten (see above)."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.schemas: dict[str, Any] = spec["components"]["schemas"]
        self.done: dict[str, Any] = {}

    def target(self, node: Any) -> Any:
        if isinstance(node, dict) and "$ref" in node:
            return self.schemas[node["$ref"].removeprefix(_SCHEMAS)]
        return node

    def build(self, node: Any, stack: tuple[str, ...] = ()) -> Any:
        if isinstance(node, list):
            return [self.build(n, stack) for n in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            name = node["$ref"].removeprefix(_SCHEMAS)
            if name in stack:
                raise ValueError(f"recursive schema {name} (not used by the routes checked)")
            if name not in self.done:
                self.done[name] = self.build(self.schemas[name], (*stack, name))
            return self.done[name]
        out = {}
        for k, v in node.items():
            if k in _NAMED:  # a mapping of names (which may be "title") to schemas
                out[k] = {name: self.build(sub, stack) for name, sub in v.items()}
            elif k not in _DROPPED:
                out[k] = self.build(v, stack)
        if "enum" in out and "allOf" in out:
            # ``{"enum": [2], "allOf": [<every component type>]}``: the wider enum adds nothing
            out["allOf"] = [b for b in out["allOf"] if not (
                isinstance(b, dict) and set(b) <= {"type", "enum"}
                and b.get("type", out.get("type")) == out.get("type")
                and all(v in b.get("enum", ()) for v in out["enum"]))]
            if not out["allOf"]:
                del out["allOf"]
        for key in ("oneOf", "anyOf"):
            branches = out.get(key)
            if not branches:
                continue
            if all(isinstance(b, dict) and list(b) == ["const"] for b in branches):
                del out[key]
                out["enum"] = [b["const"] for b in branches]
                continue
            kinds = self.kinds(node[key])
            if kinds is not None:
                del out[key]
                out["x-discriminator"] = {str(k): b for ks, b in zip(kinds, branches, strict=True)
                                          for k in ks}
        return out

    def kinds(self, branches: list[Any]) -> list[list[Any]] | None:
        """The ``type`` values each branch takes, if every branch is an object with a
        ``type`` enum (a union told apart by ``type``)."""
        out = []
        for b in branches:
            t = self.target(b)
            enum = ((t.get("properties") or {}).get("type") or {}).get("enum") \
                if isinstance(t, dict) else None
            if not enum:
                return None
            out.append(enum)
        seen = [k for ks in out for k in ks]
        return out if len(seen) == len(set(seen)) else None


_valid: set[tuple[int, int]] = set()  # (schema id, hash of the instance's bytes) found valid


def _remembered(validator: Any, instance: Any, schema: Any, **where: Any) -> Iterator[
        ValidationError]:
    """``descend``, skipped for an object or array already found valid against this very
    schema: the bot sends the same rows, buttons and embeds again and again."""
    if not isinstance(instance, dict | list) or not instance:
        yield from validator.descend(instance, schema, **where)
        return
    try:
        key = (id(schema), hash(orjson.dumps(instance)))
    except TypeError:  # not JSON (an integer beyond 64 bits): check it every time
        yield from validator.descend(instance, schema, **where)
        return
    if key in _valid:
        return
    errors = list(validator.descend(instance, schema, **where))
    if errors:
        yield from errors
        return
    if len(_valid) > 100_000:  # a long benchmark: start over rather than grow
        _valid.clear()
    _valid.add(key)


_TYPES: dict[str, Any] = {"string": str, "boolean": bool, "null": type(None), "array": list,
                          "object": dict}
_SCALAR_KEYS = frozenset({"type", "enum", "maxLength", "minLength", "minimum", "maximum"})
_scalar_checks: dict[int, Any] = {}  # schema id -> a quick test of it, or None


def _scalar_check(schema: Any) -> Any:
    """A quick test that passes only values the schema accepts (a scalar schema of type,
    enum, lengths and bounds); a value it does not pass goes to jsonschema, which decides
    and words the error.  None for any other schema."""
    if not isinstance(schema, dict) or not schema or not set(schema) <= _SCALAR_KEYS:
        return None
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else kinds
    enum, lo, hi = schema.get("enum"), schema.get("minimum"), schema.get("maximum")
    short, long = schema.get("minLength", 0), schema.get("maxLength")

    def ok(value: Any) -> bool:
        if kinds is not None and not any(
                (type(value) is int if k == "integer" else
                 type(value) in (int, float) if k == "number" else
                 type(value) is _TYPES.get(k)) for k in kinds):
            return False
        if enum is not None and not any(type(e) is type(value) and e == value for e in enum):
            return False
        if type(value) is str:
            return len(value) >= short and (long is None or len(value) <= long)
        if type(value) in (int, float):
            return (lo is None or value >= lo) and (hi is None or value <= hi)
        return True

    return ok


def _properties(validator: Any, properties: dict[str, Any], instance: Any,
                schema: dict[str, Any]) -> Iterator[ValidationError]:
    if not isinstance(instance, dict):
        return
    for name, sub in properties.items():
        if name in instance:
            value = instance[name]
            key = id(sub)
            if key not in _scalar_checks:
                _scalar_checks[key] = _scalar_check(sub)
            quick = _scalar_checks[key]
            if quick is not None and quick(value):
                continue
            yield from _remembered(validator, value, sub, path=name, schema_path=name)


def _discriminator(validator: Any, branches: dict[str, Any], instance: Any,
                   schema: dict[str, Any]) -> Iterator[ValidationError]:
    if not isinstance(instance, dict):
        yield ValidationError(f"{instance!r} is not of type 'object'", validator="type",
                              validator_value="object")
        return
    kind = instance.get("type")
    branch = branches.get(str(kind)) if isinstance(kind, int | str) else None
    if branch is None:
        allowed = sorted({int(k) if k.isdigit() else k for k in branches}, key=str)
        yield ValidationError(f"{kind!r} is not one of {allowed}", validator="enum",
                              validator_value=allowed, path=["type"])
        return
    yield from _remembered(validator, instance, branch)


_Validator = validators.extend(Draft202012Validator, {"x-discriminator": _discriminator,
                                                      "properties": _properties})


def _locate(spec: dict[str, Any], where: tuple[str, ...]) -> Any:
    if where[0] == "schema":
        return {"$ref": _SCHEMAS + where[1]}
    op = spec["paths"][where[1]][where[2]]
    return op["requestBody"]["content"]["application/json"]["schema"]


@functools.cache
def validator(method: str, route: str) -> Any:
    """The compiled validator of a route's request body (built on first use, then kept)."""
    spec = specification()
    schema = _Builder(spec).build(_locate(spec, ROUTES[method, route]))
    _Validator.check_schema({k: v for k, v in schema.items() if k != "x-discriminator"})
    return _Validator(schema)


def _problem(error: ValidationError) -> Problem:
    path = tuple(error.absolute_path)
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else "?"
        path = (*path, missing)
    code, text = _CODES.get(str(error.validator), ("INVALID_FORM_BODY", "{message}"))
    return Problem(path, code, text.format(limit=error.validator_value, message=error.message))


def _best(errors: list[ValidationError]) -> list[ValidationError]:
    """Each field once, the errors of a union replaced by the most relevant of its branch's."""
    out = []
    for error in errors:
        while error.context:
            # a nullable field's own error, not its "is not null"
            real = [e for e in error.context if e.validator_value != "null"] or error.context
            error = max(real, key=relevance)
        out.append(error)
    return out


@functools.cache
def accepts(method: str, route: str) -> Predicate:
    """The route's validator compiled into one predicate (see accept.py): valid or not."""
    return compile_schema(validator(method, route).schema)


def check(method: str, route: str, body: Any, *, compiled: bool = True) -> list[Problem]:
    """What Discord's specification refuses in ``body`` sent to ``method route``
    (``compiled=False``: jsonschema judges the body alone, for comparison)."""
    if compiled and accepts(method, route)(body):
        return []
    errors = list(validator(method, route).iter_errors(body))
    if not errors:
        return []
    seen: dict[str, Problem] = {}
    for error in _best(errors):
        p = _problem(error)
        seen.setdefault(p.where, p)
    return list(seen.values())
