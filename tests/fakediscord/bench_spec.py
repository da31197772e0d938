"""CPU time the specification's validation costs per request body.

    python -m tests.fakediscord.bench_spec [--bodies 3000]

Bodies shaped like the tysiac bot's (a hand answered with its card buttons and a bid menu,
the table message's embed and buttons, a follow-up), each with its own text: measured
with nothing remembered ("cold", every object validated) and as in a test run, where
rows and buttons recur ("warm"), then through ``spec.check``, whose compiled predicate
(accept.py) accepts a valid body without jsonschema.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from . import spec

CALLBACK = ("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
FOLLOWUP = ("POST", "/webhooks/{webhook_id}/{webhook_token}")
CARDS = ["9S", "10S", "JS", "QS", "KS", "AS", "9H", "10H", "JH", "QH", "KH", "AH", "9D", "10D"]


def hand(n: int) -> tuple[tuple[str, str], dict[str, Any]]:
    """A hand shown by updating its message (type 7): text, card buttons, a bid menu."""
    buttons = [{"type": 2, "style": 2 + (i % 2) * 2, "disabled": (n + i) % 3 == 0,
                "label": c, "custom_id": f"t1000:1:play:{c}:{n // 20}.1"}
               for i, c in enumerate(CARDS[: 7 + n % 7])]
    rows = [{"type": 1, "components": buttons[i:i + 5]} for i in range(0, len(buttons), 5)]
    rows.append({"type": 1, "components": [{
        "type": 3, "custom_id": f"t1000:1:choose:bid:{n // 20}.1", "min_values": 1,
        "max_values": 1, "placeholder": "Bid…", "options": [
            {"label": str(b), "value": str(b), "default": False}
            for b in range(100 + 5 * (n % 4), 225 + 5 * (n % 4), 5)]}]})
    data = {"tts": False, "embeds": [], "content": f"Your hand, move {n}", "components": rows}
    return CALLBACK, {"type": 7, "data": data}


def table(n: int) -> tuple[tuple[str, str], dict[str, Any]]:
    """The table message edited: an embed of the seats and its buttons."""
    fields = [{"name": f"Seat {i}", "value": f"{n * i} points", "inline": False}
              for i in range(3)]
    embed = {"type": "rich", "title": "Table 1", "description": f"Bidding: {100 + n}",
             "color": 2067276, "fields": fields, "footer": {"text": "russian"}}
    buttons = [{"type": 2, "style": 1, "disabled": False, "label": label,
                "custom_id": f"t1000:1:{verb}:"} for verb, label in
               (("hand", "My hand"), ("help", "Help"))]
    body = {"embeds": [embed], "components": [{"type": 1, "components": buttons}],
            "attachments": [{"id": 0, "filename": "table.png"}]}
    return EDIT, body


def followup(n: int) -> tuple[tuple[str, str], dict[str, Any]]:
    return FOLLOWUP, {"content": f"It is your turn ({n}).", "flags": 64,
                      "allowed_mentions": {"parse": [], "users": [n]}}


def bodies(count: int) -> list[tuple[tuple[str, str], dict[str, Any]]]:
    makers = (hand, hand, table, followup)
    return [makers[n % len(makers)](n) for n in range(count)]


def measure(items: list[tuple[tuple[str, str], dict[str, Any]]], *, cold: bool) -> float:
    """CPU seconds per body through jsonschema (the path of a body the predicate refuses)."""
    start = time.process_time()
    for route, body in items:
        if cold:
            spec._valid.clear()
        assert not any(spec.validator(*route).iter_errors(body)), body
    return (time.process_time() - start) / len(items)


def measure_check(items: list[tuple[tuple[str, str], dict[str, Any]]]) -> float:
    """CPU seconds per body through ``spec.check``: the compiled predicate accepts it."""
    start = time.process_time()
    for route, body in items:
        assert spec.check(*route, body) == [], body
    return (time.process_time() - start) / len(items)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bodies", type=int, default=3000)
    args = parser.parse_args(argv)
    items = bodies(args.bodies)
    start = time.process_time()
    for route in {route for route, _ in items}:
        spec.validator(*route)
        spec.accepts(*route)
    compiled = time.process_time() - start
    cold = measure(items, cold=True)
    spec._valid.clear()
    warm = measure(items, cold=False)
    fast = measure_check(items)
    routes = len({route for route, _ in items})
    print(f"compiling the validators of {routes} routes (once a process): "
          f"{compiled * 1000:.0f} ms CPU")
    print(f"{len(items)} bodies through jsonschema: cold {cold * 1e6:.0f} µs CPU each, "
          f"warm {warm * 1e6:.0f} µs")
    print(f"{len(items)} bodies through spec.check (the compiled predicate): "
          f"{fast * 1e6:.1f} µs CPU each")


if __name__ == "__main__":
    main()
