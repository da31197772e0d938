"""The engine's refusals and the confirmations of moves as messages for one reader.

``rule_message`` turns a ``RuleError`` (a key and parameters, no words) into a ``Msg``:
second person to the player who tried the move ("You cannot play A♠: it is not in your
hand."), third person with his name to anyone else, the cards as players write them, the
talon named as the preset's players name it. ``move_message`` is the confirmation of a move
("You play A♠."). Both are data until a reader's ``t`` writes them in his language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.game.actions import Action, Flag, Verb
from bot.game.errors import Param, RuleError, param_kind
from bot.i18n.values import Card, Joined, Msg, Suit, TalonWord, names_of

_FLAGGED = {(Verb.BID, Flag.BLIND): "bid_blind", (Verb.BID, Flag.MISERE): "bid_misere",
            (Verb.PLAY, Flag.MARRIAGE): "play_marriage", (Verb.PLAY, Flag.ACES): "play_aces"}

# The reasons that speak of the player who tried the move: to anyone else they read
# ``rule.<key>.other`` (third person), to him ``rule.<key>``.
ABOUT_ACTOR = frozenset({
    "not_in_hand", "sits_out", "follow_and_beat", "follow", "must_trump", "must_head",
    "blind_looked", "redeal_before_first_bid", "redeal_not_qualified", "contract_max",
    "bid_cap_marriages",
})


def action_name(action: Action) -> str:
    """The suffix of the message keys of a move: ``play``, ``play_marriage``, ``bid_blind``."""
    return _FLAGGED.get((action.verb, action.flag), action.verb.value)


def _action_params(action: Action, names: Sequence[str], talon: TalonWord) -> dict[str, Any]:
    # a malformed move (no card, no receiver) still reads as a sentence: "?" stands in
    return {"amount": action.amount, "talon": talon, "no": action.amount + 1,
            "card": Card(action.card) if 0 <= action.card < 32 else "?",
            "to": names_of((action.target,), names)[0] if action.target >= 0 else "?"}


def action_phrase(action: Action, names: Sequence[str], talon: TalonWord) -> Msg:
    """What the move is, as it follows "you cannot": "play A♠", "bid 105"."""
    return Msg.of(f"act.{action_name(action)}", **_action_params(action, names, talon))


def move_message(action: Action, names: Sequence[str], *, preset: str = "",
                 talon: str = "talon") -> Msg:
    """The confirmation to the player who made the move: "You play A♠."."""
    word = TalonWord(preset, talon)
    return Msg.of(f"event.{action_name(action)}", **_action_params(action, names, word))


def _value(name: str, value: Param, names: Sequence[str], talon: TalonWord) -> Any:
    kind = param_kind(name)
    if kind == "card" and isinstance(value, int):
        return Card(value)
    if kind == "seat" and isinstance(value, int):
        return names_of((value,), names)[0]
    if kind == "seat_list" and isinstance(value, tuple):
        return Joined(names_of(value, names))
    if kind == "suit" and isinstance(value, int):
        return Suit(value)
    if kind == "phase":
        return Msg.of(f"rule.phase.{value}", talon=talon)
    return value


def reason_message(err: RuleError, names: Sequence[str], *, preset: str = "",
                   talon: str = "talon", to_actor: bool = True, capital: bool = False) -> Msg:
    """The reason of ``err`` alone ("it is not in your hand")."""
    word = TalonWord(preset, talon)
    params: dict[str, Any] = {k: _value(k, v, names, word) for k, v in err.params.items()}
    params["talon"] = word
    key = f"rule.{err.key}"
    keys = (key,) if to_actor or err.key not in ABOUT_ACTOR else (f"{key}.other", key)
    return Msg(keys, params, capital)


def rule_message(err: RuleError, names: Sequence[str], *, preset: str = "",
                 talon: str = "talon", reader: int | None = None) -> Msg:
    """The refusal ``err`` as ``reader`` (a seat; None: the player who tried) reads it."""
    action = err.action
    if action is None or action.seat < 0:
        return Msg.of("rule.plain", reason=reason_message(
            err, names, preset=preset, talon=talon, capital=True))
    to_actor = reader is None or reader == action.seat
    reason = reason_message(err, names, preset=preset, talon=talon, to_actor=to_actor)
    phrase = action_phrase(action, names, TalonWord(preset, talon))
    if to_actor:
        return Msg.of("rule.you_cannot", action=phrase, reason=reason)
    return Msg.of("rule.they_cannot", name=names_of((action.seat,), names)[0], action=phrase,
                  reason=reason)


__all__ = ["ABOUT_ACTOR", "action_name", "action_phrase", "move_message", "reason_message",
           "rule_message"]
