"""The compiled check of a body (accept.py) gives jsonschema's verdict, body for body.

The emulator's own tests and every end-to-end test judge each body both ways and record a
difference as a breach; here the bodies are the bot's shapes and thousands of mutations of
them (a field of another type, too long or too short, out of range, missing, unknown, a
component of another kind), seeded so that a failure repeats.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from . import bench_spec, spec

COMMANDS = ("PUT", "/applications/{application_id}/commands")
THREAD = ("POST", "/channels/{channel_id}/threads")


def _command(n: int) -> tuple[tuple[str, str], list[dict[str, Any]]]:
    option = {"type": 3, "name": "card", "description": "The card to play", "required": True,
              "autocomplete": n % 2 == 0, "min_length": 1, "max_length": 8,
              "name_localizations": {"pl": "karta", "ru": "карта"}}
    bid = {"type": 4, "name": "amount", "description": "Your bid", "min_value": 100,
           "max_value": 400, "choices": [{"name": str(b), "value": b} for b in (100, 105)]}
    sub = {"type": 1, "name": "play", "description": "Play a card", "options": [option, bid]}
    return COMMANDS, [{"name": "table", "description": "Tables", "type": 1,
                       "options": [sub], "dm_permission": False,
                       "description_localizations": {"de": "Tische"}}]


def _thread(n: int) -> tuple[tuple[str, str], dict[str, Any]]:
    return THREAD, {"name": f"Table {n}", "type": 12, "invitable": False,
                    "auto_archive_duration": 1440}


ODD_VALUES: list[Any] = [None, True, False, 0, 1, -1, 2.0, 2.5, 10**20, "", "x", "x" * 80,
                         "x" * 81, "x" * 100, "x" * 101, "x" * 2001, "123", "0", "01", [],
                         [1], [1, 1], ["a", "a"], {}, {"type": 2}, {"type": 99}]


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _nodes(v, (*path, i))
    return out


def _mutate(body: Any, rng: random.Random) -> Any:
    body = copy.deepcopy(body)
    path = rng.choice(_nodes(body)[1:])
    parent = body
    for key in path[:-1]:
        parent = parent[key]
    key, what = path[-1], rng.random()
    if what < 0.55:
        parent[key] = rng.choice(ODD_VALUES)
    elif what < 0.7 and isinstance(parent, dict):
        del parent[key]
    elif what < 0.8 and isinstance(parent, dict):
        parent[rng.choice(["zz", "type", "style", "flags"])] = rng.choice(ODD_VALUES)
    elif what < 0.9 and isinstance(parent, list):
        parent.append(copy.deepcopy(parent[key]))
    elif isinstance(parent[key], dict):
        parent[key]["type"] = rng.randrange(0, 20)
    else:
        parent[key] = rng.randrange(-5, 200)
    return body


def _bodies() -> list[tuple[tuple[str, str], Any]]:
    return [*bench_spec.bodies(40), *(_command(n) for n in range(4)),
            *(_thread(n) for n in range(4))]


def _jsonschema_accepts(route: tuple[str, str], body: Any) -> bool:
    return not any(spec.validator(*route).iter_errors(body))


def test_the_bot_shaped_bodies_are_accepted_both_ways():
    for route, body in _bodies():
        assert spec.accepts(*route)(body), body
        assert _jsonschema_accepts(route, body), body


@pytest.mark.parametrize("seed", range(4))
def test_mutated_bodies_get_jsonschemas_verdict(seed):
    rng = random.Random(seed)
    bodies = _bodies()
    refused = 0
    for _ in range(1500):
        route, body = rng.choice(bodies)
        for _ in range(rng.choice((1, 1, 2, 3))):
            body = _mutate(body, rng)
        expected = _jsonschema_accepts(route, body)
        assert spec.accepts(*route)(body) == expected, (route, body)
        refused += not expected
    assert 300 < refused < 1400  # the mutations reach both verdicts


def test_a_keyword_it_does_not_compile_is_refused():
    from .accept import compile_schema

    with pytest.raises(ValueError, match="not compiled"):
        compile_schema({"type": "object", "dependentRequired": {"a": ["b"]}})
