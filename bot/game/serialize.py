"""Moves as JSON, for the store's event log: a hand is its deal plus its actions.

Seats are numbers here (names belong to the service); cards use the notation of
docs/scenarios.md so a stored log stays readable.
"""

from __future__ import annotations

from typing import Any

from bot.game.actions import Action, Deal, Flag, JackPenalty, Move, Verb, act
from bot.game.cards import card_str, cards_of, parse_card


def move_to_json(move: Move) -> dict[str, Any]:
    """A JSON-ready dict for any move."""
    if isinstance(move, Deal):
        return {
            "deal": [[card_str(c) for c in cards_of(m)] for m in move.hands],
            "talons": [[card_str(c) for c in cards_of(m)] for m in move.talons],
            "stock": [card_str(c) for c in move.stock],
        }
    if isinstance(move, JackPenalty):
        return {"jack_penalty": True}
    out: dict[str, Any] = {"seat": move.seat, "verb": move.verb.value}
    if move.card >= 0:
        out["card"] = card_str(move.card)
    if move.amount:
        out["amount"] = move.amount
    if move.target >= 0:
        out["target"] = move.target
    if move.flag is not Flag.NONE:
        out["flag"] = move.flag.value
    return out


def move_from_json(data: dict[str, Any]) -> Move:
    """Inverse of ``move_to_json``; ValueError for anything malformed."""
    if "deal" in data:
        hands = tuple(_mask(h) for h in data["deal"])
        talons = tuple(_mask(t) for t in data.get("talons", []))
        stock = tuple(parse_card(c) for c in data.get("stock", []))
        return Deal(hands, talons, stock)
    if data.get("jack_penalty"):
        return JackPenalty()
    card = parse_card(data["card"]) if "card" in data else -1
    return act(int(data["seat"]), Verb(data["verb"]), card, int(data.get("amount", 0)),
               int(data.get("target", -1)), Flag(data.get("flag", "")))


def _mask(cards: list[str]) -> int:
    m = 0
    for c in cards:
        m |= 1 << parse_card(c)
    return m


__all__ = ["Action", "move_from_json", "move_to_json"]
