"""Small helpers to set up hands by name, as in scenario files."""

from __future__ import annotations

from typing import Any

from bot.game.engine import apply
from bot.game.events import Event
from bot.game.presets import rules_for
from bot.game.scenario import parse_action, parse_deal, start_state
from bot.game.state import State

W0_DEAL = {
    "A": ["AC", "10C", "KC", "QC", "9H", "JH", "10S"],
    "B": ["AH", "10H", "KH", "QH", "9C", "JC", "AS"],
    "C": ["AD", "10D", "KD", "JD", "9S", "QS", "KS"],
    "talon": ["QD", "9D", "JS"],
}


def hand(deal: dict[str, list[str]], *, preset: str = "russian", names: str = "ABC",
         options: dict[str, Any] | None = None, **start: Any) -> tuple[State, list[str]]:
    """A state right after this deal (dealer: the first name unless given in ``start``)."""
    players = list(names)
    rules = rules_for(preset, options or {})
    data: dict[str, Any] = {"dealer": start.pop("dealer", players[0])}
    if start:
        data["start"] = start
    s = start_state(data, rules, players)
    s, _ = apply(s, parse_deal(deal, players, rules))
    return s, players


def run(s: State, names: list[str], *moves: str) -> tuple[State, list[Event]]:
    """Apply moves written as "B bid 100", "B give 9C C", "B play QH marriage"."""
    events: list[Event] = []
    for text in moves:
        who, verb, *args = text.split()
        raw: list[Any] = [who, verb, *(int(a) if a.lstrip("-").isdigit() else a for a in args)]
        s, evs = apply(s, parse_action(raw, names))
        events += evs
    return s, events
