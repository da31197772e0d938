"""A route's request schema compiled into Python source: one function, is this body valid?

jsonschema walks a schema keyword by keyword through generic machinery, about 100-300 µs
of CPU for one of the bot's bodies; at hundreds of bodies a second that was a fifth of a
core on the emulator's one event loop, which then answered every player late. The
compiled function gives the same verdict as the route's validator (``spec.validator``) for
every body, by the same rules (Draft 2020-12's, and the keyword ``x-discriminator`` that
``spec`` adds), in a few µs: ``spec.check`` asks it first and lets jsonschema find and word
the errors only of a body it refuses. ``test_accept.py`` compares the two verdicts on the
bodies the tests send and on thousands of mutations of them.

Only the keywords the built schemas use are compiled; any other raises, so that a
refreshed specification with a new keyword is noticed here rather than passed silently.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from jsonschema._utils import equal, uniq

Predicate = Callable[[Any], bool]

# Draft 2020-12's types as jsonschema checks them (a bool is no number; 2.0 is an integer)
_TYPES = {
    "null": "v is None",
    "boolean": "t is bool",
    "string": "t is str",
    "array": "t is list",
    "object": "t is dict",
    "number": "(t is int or t is float)",
    "integer": "(t is int or (t is float and v.is_integer()))",
}
_NUMBER = "(t is int or t is float)"
_SIZES = {"maxLength": ("t is str", ">"), "minLength": ("t is str", "<"),
          "maxItems": ("t is list", ">"), "minItems": ("t is list", "<"),
          "maxProperties": ("t is dict", ">")}


class _Compiler:
    """Each schema node becomes one function ``s<N>(v)``; a node met twice, one function."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}
        self.source: list[str] = []
        self.constants: dict[str, Any] = {"equal": equal, "uniq": uniq}
        self.keep: list[Any] = []  # the nodes named by id, alive while their names are

    def constant(self, value: Any) -> str:
        name = f"c{len(self.constants)}"
        self.constants[name] = value
        return name

    def function(self, schema: Any) -> str:
        if schema is True or schema is False:
            return self.constant(lambda v, ok=schema: ok)
        if id(schema) in self.names:
            return self.names[id(schema)]
        name = f"s{len(self.names)}"
        self.names[id(schema)] = name
        self.keep.append(schema)
        lines = [f"def {name}(v):", "    t = type(v)"]
        for keyword, value in schema.items():
            lines += [f"    {line}" for line in self.keyword(keyword, value, schema)]
        lines.append("    return True")
        self.source.append("\n".join(lines))
        return name

    def keyword(self, keyword: str, value: Any, schema: dict[str, Any]) -> list[str]:
        if keyword == "type":
            kinds = [value] if isinstance(value, str) else value
            return [f"if not ({' or '.join(_TYPES[k] for k in kinds)}): return False"]
        if keyword == "enum":
            return [f"if not {self.enum(value)}: return False"]
        if keyword in _SIZES:
            guard, op = _SIZES[keyword]
            return [f"if {guard} and len(v) {op} {value!r}: return False"]
        if keyword in ("maximum", "minimum"):
            op = ">" if keyword == "maximum" else "<"
            return [f"if {_NUMBER} and v {op} {value!r}: return False"]
        if keyword == "pattern":
            search = self.constant(re.compile(value).search)
            return [f"if t is str and {search}(v) is None: return False"]
        if keyword == "uniqueItems":
            return ["if t is list and not uniq(v): return False"] if value else []
        if keyword == "required":
            names = " and ".join(f"{n!r} in v" for n in value) or "True"
            return [f"if t is dict and not ({names}): return False"]
        if keyword == "properties":
            return self.properties(value)
        if keyword == "additionalProperties":
            named = self.constant(frozenset(schema.get("properties", {})))
            check = self.function(value)
            return ["if t is dict:",
                    "    for k, x in v.items():",
                    f"        if k not in {named} and not {check}(x): return False"]
        if keyword == "items":
            check = self.function(value)
            return ["if t is list:", "    for x in v:",
                    f"        if not {check}(x): return False"]
        if keyword == "anyOf":
            calls = " or ".join(f"{self.function(b)}(v)" for b in value)
            return [f"if not ({calls}): return False"]
        if keyword == "oneOf":
            calls = " + ".join(f"{self.function(b)}(v)" for b in value)
            return [f"if ({calls}) != 1: return False"]
        if keyword == "x-discriminator":
            # as spec._discriminator looks the branch up (a bool is an int there too)
            lines = ["if t is not dict: return False", "k = v.get('type')",
                     "if not isinstance(k, (int, str)): return False", "k = str(k)"]
            for i, (kind, branch) in enumerate(value.items()):
                lines.append(f"{'el' if i else ''}if k == {kind!r}:")
                lines.append(f"    if not {self.function(branch)}(v): return False")
            return [*lines, "else: return False"]
        raise ValueError(f"keyword {keyword!r} is not compiled; add it to accept.py")

    def enum(self, values: list[Any]) -> str:
        if all(type(e) is str for e in values):
            return f"(t is str and v in {self.constant(frozenset(values))})"
        if all(type(e) in (int, float) for e in values):
            # 2 == 2.0 under jsonschema's equality too; a bool is never equal to a number
            return f"({_NUMBER} and v in {self.constant(frozenset(values))})"
        return f"any(equal(v, e) for e in {self.constant(list(values))})"

    def properties(self, props: dict[str, Any]) -> list[str]:
        lines = ["if t is dict:"]
        for name, sub in props.items():
            check = self.function(sub)
            lines += [f"    x = v.get({name!r}, v)",
                      f"    if x is not v and not {check}(x): return False"]
        return lines


def compile_schema(schema: Any) -> Predicate:
    """The predicate of a built schema (``spec._Builder``'s output): True iff it is valid."""
    compiler = _Compiler()
    entry = compiler.function(schema)
    namespace = dict(compiler.constants)
    exec("\n\n".join(compiler.source), namespace)  # our own source, built from the spec
    predicate: Predicate = namespace[entry]
    return predicate
