"""Scenario files (docs/scenarios.md): parse, replay through the engine, report one JSON result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.game.actions import Action, Deal, Flag, Verb, act
from bot.game.cards import SUITS, parse_card
from bot.game.dealing import new_match
from bot.game.engine import apply_into
from bot.game.errors import RuleError
from bot.game.presets import rules_for
from bot.game.rules import Rules, RulesError
from bot.game.scoring import raw_points
from bot.game.state import HandEnd, HandResult, Phase, State

_TOP_KEYS = {"preset", "options", "players", "dealer", "start", "hands"}
_START_KEYS = {"totals", "barrel", "dashes", "rospisat", "barrel_falls", "spisat", "sticks",
               "no_win"}


class ScenarioError(ValueError):
    """A scenario file that is not well formed (as opposed to an illegal action in it)."""


def load_rules(data: dict[str, Any]) -> Rules:
    try:
        return rules_for(data.get("preset", "russian"), data.get("options") or {})
    except RulesError as exc:
        raise ScenarioError(str(exc)) from exc


def parse_action(raw: Any, names: list[str]) -> Action:
    """``[player, verb, args...]`` → Action; ScenarioError naming what is wrong."""
    if not isinstance(raw, list) or len(raw) < 2:
        raise ScenarioError(f"an action is [player, verb, args...]; got {raw!r}")
    who, verb_text, *args = raw
    seat = _seat(who, names)
    try:
        verb = Verb(str(verb_text).lower())
    except ValueError:
        raise ScenarioError(
            f"unknown verb {verb_text!r}; verbs are {', '.join(v.value for v in Verb)}"
        ) from None
    try:
        if verb in (Verb.BID, Verb.CONTRACT, Verb.TALON):
            amount = _int(args[0])
            flag = Flag.NONE
            if verb is Verb.BID and len(args) > 1:
                word = str(args[1]).lower()
                if word not in ("blind", "misere"):
                    raise ScenarioError(
                        f"a bid takes an amount and optionally \"blind\" or \"misere\"; "
                        f"got {raw}")
                flag = Flag(word)
            _no_more(args, 2 if verb is Verb.BID else 1, raw)
            return act(seat, verb, amount=amount, flag=flag)
        if verb in (Verb.PLAY, Verb.DISCARD):
            c = parse_card(str(args[0]))
            flag = Flag.NONE
            if verb is Verb.PLAY and len(args) > 1:
                word = str(args[1]).lower()
                if word not in ("marriage", "aces"):
                    raise ScenarioError(f"a play may carry \"marriage\" or \"aces\"; got {raw}")
                flag = Flag(word)
            _no_more(args, 2 if verb is Verb.PLAY else 1, raw)
            return act(seat, verb, c, flag=flag)
        if verb is Verb.GIVE:
            _no_more(args, 2, raw)
            return act(seat, verb, parse_card(str(args[0])), target=_seat(args[1], names))
    except IndexError:
        raise ScenarioError(f"{verb.value} needs more arguments: {raw}") from None
    except ValueError as exc:
        if isinstance(exc, ScenarioError):
            raise
        raise ScenarioError(str(exc)) from exc
    _no_more(args, 0, raw)
    return act(seat, verb)


def _no_more(args: list[Any], most: int, raw: Any) -> None:
    if len(args) > most:
        raise ScenarioError(f"too many arguments in {raw}")


def _int(x: Any) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise ScenarioError(f"{x!r} is not a whole number")
    return x


def _seat(who: Any, names: list[str]) -> int:
    if who not in names:
        raise ScenarioError(f"{who!r} is not one of the players {names}")
    return names.index(who)


def parse_deal(raw: Any, names: list[str], rules: Rules) -> Deal:
    if not isinstance(raw, dict):
        raise ScenarioError("a hand needs a \"deal\" object")
    hands = [0] * len(names)
    talons: list[int] = []
    stock: tuple[int, ...] = ()
    for key, cards in raw.items():
        if not isinstance(cards, list):
            raise ScenarioError(f"deal {key!r} must be a list")
        try:
            if key == "talon":
                talons = [_mask(cards)]
            elif key == "talons":
                talons = [_mask(t) for t in cards]
            elif key == "stock":
                stock = tuple(parse_card(str(c)) for c in cards)
            else:
                hands[_seat(key, names)] = _mask(cards)
        except ValueError as exc:
            if isinstance(exc, ScenarioError):
                raise
            raise ScenarioError(str(exc)) from exc
    return Deal(tuple(hands), tuple(talons), stock)


def _mask(cards: Any) -> int:
    if not isinstance(cards, list):
        raise ScenarioError(f"expected a list of cards; got {cards!r}")
    m = 0
    for text in cards:
        c = parse_card(str(text))
        if m >> c & 1:
            raise ScenarioError(f"{text} is listed twice")
        m |= 1 << c
    return m


def start_state(data: dict[str, Any], rules: Rules, names: list[str]) -> State:
    dealer = _seat(data["dealer"], names) if "dealer" in data else 0
    start = data.get("start") or {}
    if not isinstance(start, dict):
        raise ScenarioError("start must be an object")
    unknown = set(start) - _START_KEYS
    if unknown:
        raise ScenarioError(f"unknown start keys: {sorted(unknown)}; allowed {sorted(_START_KEYS)}")
    counters = {k: {_seat(n, names): _int(v) for n, v in (start.get(k) or {}).items()}
                for k in _START_KEYS}
    try:
        return new_match(rules, dealer, **counters)
    except RuleError as exc:
        raise ScenarioError(exc.message_for(names)) from exc


def run(data: Any, file: str = "") -> dict[str, Any]:
    """Replay one scenario; the result object of docs/scenarios.md."""
    try:
        return _run(data, file)
    except ScenarioError as exc:
        return {"file": file, "ok": False, "error": str(exc)}


def _run(data: Any, file: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a JSON object")
    unknown = [k for k in data if k not in _TOP_KEYS and not k.startswith("_")]
    if unknown:
        raise ScenarioError(f"unknown keys {unknown}; allowed {sorted(_TOP_KEYS)}")
    rules = load_rules(data)
    names = data.get("players")
    if not isinstance(names, list) or len(names) != rules.seats or len(set(names)) != len(names):
        raise ScenarioError(f"players must list {rules.seats} different names for this rule set")
    names = [str(n) for n in names]
    state = start_state(data, rules, names)
    hands_out: list[dict[str, Any]] = []
    for h, hand in enumerate(data.get("hands") or []):
        if not isinstance(hand, dict) or set(hand) - {"deal", "actions"} - {
            k for k in hand if str(k).startswith("_")
        }:
            raise ScenarioError(f"hand {h} must be an object with \"deal\" and \"actions\"")
        if state.phase is Phase.MATCH_OVER:
            return _failure(file, h, None, "the match is already over; no further hand is dealt")
        if state.phase is not Phase.DEALING:
            return _failure(file, h, None, f"hand {h - 1} is not finished")
        deal = parse_deal(hand.get("deal"), names, rules)
        try:
            state = apply_into(state, deal, None)
        except RuleError as exc:
            return _failure(file, h, None, "the deal is wrong: " + exc.reason_for(names))
        for i, raw in enumerate(hand.get("actions") or []):
            try:
                action = parse_action(raw, names)
            except ScenarioError as exc:
                return _failure(file, h, i, str(exc))
            if state.phase in (Phase.DEALING, Phase.MATCH_OVER):
                return _failure(file, h, i, "the hand is already over")
            try:
                state = apply_into(state, action, None)
            except RuleError as exc:
                return _failure(file, h, i, exc.message_for(names))
        hands_out.append(_hand_json(state, names))
    return _match_json(state, names, file, hands_out)


def _failure(file: str, hand: int, action: int | None, error: str) -> dict[str, Any]:
    return {"file": file, "ok": False, "hand": hand, "action": action, "error": error}


def _by_name(names: list[str], values: dict[int, Any] | tuple[int, ...]) -> dict[str, Any]:
    if isinstance(values, tuple):
        return {names[p]: v for p, v in enumerate(values)}
    return {names[p]: values[p] for p in sorted(values)}


def _hand_json(s: State, names: list[str]) -> dict[str, Any]:
    if s.phase in (Phase.DEALING, Phase.MATCH_OVER) and s.last_result is not None:
        return result_json(s.last_result, names)
    raw = raw_points(s) if s.phase in (Phase.PLAY, Phase.CONTRACT) else {}
    marriages: dict[int, list[str]] = {}
    for p, suit, _ in s.decl_log:
        if suit >= 0:
            marriages.setdefault(p, []).append(SUITS[suit])
    return {
        "dealer": names[s.match.dealer],
        "declarer": names[s.declarer] if s.declarer >= 0 else None,
        "contract": s.contract if s.declarer >= 0 else None,
        "complete": False,
        "taken": _by_name(names, raw),
        "marriages": _by_name(names, marriages),
        "delta": dict.fromkeys(names, 0),
        "totals": _by_name(names, s.match.totals),
        "notes": [],
    }


def result_json(res: HandResult, names: list[str]) -> dict[str, Any]:
    """One hand's entry of the replay output."""
    no_declarer = res.end in (HandEnd.THROWN_IN, HandEnd.ANNULLED) or res.declarer < 0
    return {
        "dealer": names[res.dealer],
        "declarer": None if no_declarer else names[res.declarer],
        "contract": None if no_declarer else res.contract,
        "complete": res.complete,
        "taken": _by_name(names, res.taken),
        "marriages": {names[p]: [SUITS[x] for x in suits] for p, suits in
                      sorted(res.marriages.items())},
        "delta": _by_name(names, res.delta),
        "totals": _by_name(names, res.totals),
        "notes": [note.format(*names) for note in res.notes],
    }


def _nonzero(names: list[str], values: tuple[int, ...]) -> dict[str, int]:
    return {names[p]: v for p, v in enumerate(values) if v}


def _match_json(
    s: State, names: list[str], file: str, hands: list[dict[str, Any]]
) -> dict[str, Any]:
    m = s.match
    out: dict[str, Any] = {
        "file": file, "ok": True, "hands": hands,
        "totals": _by_name(names, m.totals),
        "barrel": _nonzero(names, m.barrel_hands),
        "dashes": _nonzero(names, m.dashes),
        "rospisat": _nonzero(names, m.rospisat_calls),
    }
    if any(m.barrel_falls):
        out["barrel_falls"] = _nonzero(names, m.barrel_falls)
    if any(m.spisat_calls):
        out["spisat"] = _nonzero(names, m.spisat_calls)
    if s.rules.sticks_penalty or any(m.sticks):
        out["sticks"] = _nonzero(names, m.sticks)
    if s.rules.no_win_penalty or any(m.no_wins):
        out["no_win"] = _nonzero(names, m.no_wins)
    winners = [names[w] for w in m.winners]
    out["winner"] = None if not winners else winners[0] if len(winners) == 1 else winners
    return out


def replay_file(path: str) -> dict[str, Any]:
    """Read and replay one file; a JSON or I/O problem is reported, not raised."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        return {"file": path, "ok": False, "error": f"cannot read {path}: {exc}"}
    return run(data, path)
