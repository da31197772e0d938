"""The ``Rules`` value: a validated rule set (docs/rules.md), and its JSON form."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, get_type_hints

from bot.game.cards import DECKS, SUITS
from bot.game.options import (
    Barrel,
    BarrelConflict,
    DealtNines,
    Deck,
    DeclarerScores,
    DiscardsCountFor,
    Exchange,
    FinalTie,
    FourAcesEffect,
    MarriageTrump,
    MarriageValueMode,
    MustBeat,
    NinesRedeal,
    RospisatAward,
    Sitter,
    SitterBonus,
)
from bot.game.rule_checks import (
    ALLOWED_INTS,
    INT_RANGES,
    RulesError,
    cards_after_exchange,
    validate,
)
from bot.game.rule_fields import MarriageValues, RuleFields

# The options' enums, the fields, the ranges and the checks live in options.py,
# rule_fields.py and rule_checks.py; the engine imports them from here.
__all__ = [
    "ALLOWED_INTS",
    "INT_RANGES",
    "OPTION_NAMES",
    "Barrel",
    "BarrelConflict",
    "DealtNines",
    "Deck",
    "DeclarerScores",
    "DiscardsCountFor",
    "Exchange",
    "FinalTie",
    "FourAcesEffect",
    "MarriageTrump",
    "MarriageValueMode",
    "MarriageValues",
    "MustBeat",
    "NinesRedeal",
    "RospisatAward",
    "Rules",
    "RulesError",
    "Sitter",
    "SitterBonus",
    "cards_after_exchange",
    "parse_option",
    "validate",
]


@dataclass(frozen=True, slots=True)
class Rules(RuleFields):
    """One complete rule set. Presets are named values of this type (docs/rules.md)."""

    def __post_init__(self) -> None:
        active = 4 if self.seats == 4 and self.sitter is Sitter.NONE else min(self.seats, 3)
        object.__setattr__(self, "_active", active)
        object.__setattr__(self, "_deck_mask", DECKS.get(str(self.deck), 0))
        validate(self)
        top = 120 + self.max_declarations + self.last_trick_bonus
        object.__setattr__(self, "_max_bid", self.floor_bid(top))

    def with_options(self, **options: Any) -> Rules:
        """A copy with some options changed, validated like JSON input."""
        data = self.to_json()
        data.update(options)
        return Rules.from_json(data)

    # ---- JSON -----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Every option under its name, JSON-ready."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name.startswith("_") or f.name == "memo":
                continue
            value = getattr(self, f.name)
            if f.name == "marriage_values":
                value = dict(zip(SUITS, value, strict=True))
            elif f.name == "talons":
                value = list(value)
            elif isinstance(value, StrEnum):
                value = value.value
            out[f.name] = value
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)

    @classmethod
    def from_json(cls, data: dict[str, Any], base: Rules | None = None) -> Rules:
        """Options over ``base`` (default: the russian defaults); unknown names are an error."""
        if not isinstance(data, dict):
            raise RulesError("rules must be a JSON object of option names and values")
        values: dict[str, Any] = {}
        if base is not None:
            values = {f.name: getattr(base, f.name) for f in fields(base) if f.init}
        for name, raw in data.items():
            values[name] = parse_option(name, raw)
        try:
            return cls(**values)
        except TypeError as exc:  # pragma: no cover - guarded by parse_option
            raise RulesError(str(exc)) from exc

    @classmethod
    def loads(cls, text: str) -> Rules:
        return cls.from_json(json.loads(text))


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Rules) if f.init)
_HINTS = get_type_hints(Rules)



def parse_option(name: str, raw: Any) -> Any:
    """Check and convert one option value from JSON (or a string typed by a player)."""
    if name not in OPTION_NAMES:
        close = difflib.get_close_matches(name, OPTION_NAMES, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise RulesError(f"unknown option {name!r}{hint}")
    hint = _HINTS[name]
    default = Rules.__dataclass_fields__[name].default
    if name == "marriage_values":
        return _parse_marriage_values(raw)
    if name == "talons":
        if not isinstance(raw, list | tuple) or not all(_is_int(x) for x in raw):
            raise RulesError("talons must be a list of whole numbers, e.g. [3] or [2, 2] or []")
        return tuple(int(x) for x in raw)
    if isinstance(default, StrEnum):
        enum_type = type(default)
        allowed = [e.value for e in enum_type]
        if raw not in allowed:
            raise RulesError(f"{name} must be one of {', '.join(allowed)}; got {raw!r}")
        return enum_type(raw)
    if isinstance(default, bool):
        if not isinstance(raw, bool):
            raise RulesError(f"{name} must be true or false; got {raw!r}")
        return raw
    optional = "None" in str(hint)
    if raw is None:
        if optional:
            return None
        raise RulesError(f"{name} must be a whole number, not null")
    if not _is_int(raw):
        what = "a whole number"
        if name in INT_RANGES:
            what += " from {} to {}".format(*INT_RANGES[name])
        raise RulesError(f"{name} must be {what}{' or null' if optional else ''}; got {raw!r}")
    return int(raw)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _parse_marriage_values(raw: Any) -> MarriageValues:
    if isinstance(raw, list | tuple) and len(raw) == 4 and all(_is_int(x) for x in raw):
        return (int(raw[0]), int(raw[1]), int(raw[2]), int(raw[3]))
    if isinstance(raw, dict):
        keys = {str(k).upper(): v for k, v in raw.items()}
        if set(keys) == set(SUITS) and all(_is_int(v) for v in keys.values()):
            return (keys["C"], keys["D"], keys["H"], keys["S"])
    raise RulesError(
        'marriage_values must give all four suits, e.g. {"H": 100, "D": 80, "C": 60, "S": 40}'
    )
