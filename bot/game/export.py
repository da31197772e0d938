"""A played match as a scenario file (docs/scenarios.md) that ``replay`` reproduces exactly."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.game.actions import Action, Deal, Move
from bot.game.cards import card_str, cards_of
from bot.game.presets import PRESETS
from bot.game.rules import Rules


class NotExportable(ValueError):
    """The match holds a move a scenario file cannot express."""


def distinct_names(names: Sequence[str]) -> list[str]:
    """The seats' names, made distinct (a scenario names each player once)."""
    out: list[str] = []
    for name in names:
        base, n, candidate = name or "Player", 2, name or "Player"
        while candidate in out:
            candidate = f"{base} ({n})"
            n += 1
        out.append(candidate)
    return out


def scenario_of(preset: str, rules: Rules, names: Sequence[str], dealer: int,
                moves: Sequence[Move], *, note: str = "") -> dict[str, Any]:
    """The scenario of a match from its move log (deals and actions, as stored)."""
    players = distinct_names(names)
    base = PRESETS[preset].rules.to_json() if preset in PRESETS else {}
    options = {k: v for k, v in rules.to_json().items() if base.get(k) != v}
    hands: list[dict[str, Any]] = []
    for move in moves:
        if isinstance(move, Deal):
            hands.append({"deal": _deal(move, players), "actions": []})
        elif isinstance(move, Action):
            if not hands:
                raise NotExportable("an action before the first deal")
            hands[-1]["actions"].append(move.to_json(players))
        else:
            raise NotExportable(f"a {type(move).__name__} move has no scenario form")
    out: dict[str, Any] = {}
    if note:
        out["_note"] = note
    out["preset"] = preset if preset in PRESETS else "russian"
    if options or preset not in PRESETS:
        out["options"] = options if preset in PRESETS else rules.to_json()
    out.update({"players": players, "dealer": players[dealer], "hands": hands})
    return out


def _deal(deal: Deal, players: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {players[i]: [card_str(c) for c in cards_of(m)]
                           for i, m in enumerate(deal.hands) if m}
    if len(deal.talons) == 1:
        out["talon"] = [card_str(c) for c in cards_of(deal.talons[0])]
    elif deal.talons:
        out["talons"] = [[card_str(c) for c in cards_of(t)] for t in deal.talons]
    if deal.stock:
        out["stock"] = [card_str(c) for c in deal.stock]
    return out
