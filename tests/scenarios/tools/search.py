"""Search helpers for building scenario files (not a test module).

``find_hand`` deals random cards around some fixed ones, plays a fixed auction and exchange,
then searches the legal play sequences (randomised depth-first, with pruning) until every
targeted player has won exactly the wanted card points and made exactly the wanted
declarations. The result is a hand in scenario form (deal + actions).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from bot.game.actions import Action, Deal, Flag, Verb
from bot.game.cards import RK, RQ, SUITS, card_str, mask_points, parse_card
from bot.game.dealing import seats_for_hand
from bot.game.engine import apply_into, legal_actions
from bot.game.errors import RuleError
from bot.game.presets import rules_for
from bot.game.rules import Rules
from bot.game.scenario import parse_action
from bot.game.state import Phase, State

Json = dict[str, Any]


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def names_of(cs: Sequence[int]) -> list[str]:
    return [card_str(c) for c in sorted(cs, key=lambda c: (c >> 3, c & 7))]


class Spec:
    """What a hand must look like; see ``find_hand``."""

    def __init__(
        self, data: Json, *, fixed: dict[str, str] | None = None,
        auction: list[list[Any]] | None = None,
        exchange: Callable[[State, random.Random], list[Action]] | None = None,
        contract: int | None = None, points: dict[str, int] | None = None,
        declare: dict[str, str] | None = None, aces: str | None = None,
        final: Callable[[State], bool] | None = None, prefix_hands: list[Json] | None = None,
        deal_ok: Callable[[Json], bool] | None = None,
        tricks: dict[str, int] | None = None, allow_decl: bool = False,
    ) -> None:
        self.tricks = tricks or {}
        self.allow_decl = allow_decl
        self.deal_ok = deal_ok
        self.data = data
        self.fixed = fixed or {}
        self.auction = auction or []
        self.exchange = exchange
        self.contract = contract
        self.points = points or {}
        self.declare = declare or {}
        self.aces = aces
        self.final = final
        self.prefix_hands = prefix_hands or []


def rules_of(data: Json) -> Rules:
    return rules_for(data.get("preset", "russian"), data.get("options") or {})


def state_before(data: Json, hands: list[Json]) -> State:
    """The engine state after replaying ``hands`` (complete ones) of ``data``."""
    rules = rules_of(data)
    names = data["players"]
    from bot.game.scenario import start_state

    s = start_state({**data, "hands": []}, rules, names)
    for h in hands:
        s = apply_into(s, parse_deal_json(h["deal"], names, rules), None)
        for a in h["actions"]:
            s = apply_into(s, parse_action(a, names), None)
    return s


def parse_deal_json(deal: Json, names: list[str], rules: Rules) -> Deal:
    from bot.game.scenario import parse_deal

    return parse_deal(deal, names, rules)


def random_deal(rules: Rules, dealer: int, names: list[str], fixed: dict[str, str],
                rng: random.Random) -> Json:
    _, _, active = seats_for_hand(rules, dealer)
    deck = [c for c in range(32) if rules.deck_mask >> c & 1]
    used: set[int] = set()
    places: dict[str, list[int]] = {}
    for key, text in fixed.items():
        cs = cards(text)
        places[key] = cs
        used.update(cs)
    rest = [c for c in deck if c not in used]
    rng.shuffle(rest)
    out: Json = {}
    for p in active:
        have = places.get(names[p], [])
        need = rules.hand_size - len(have)
        out[names[p]] = names_of(have + rest[:need])
        rest = rest[need:]
    if len(rules.talons) == 1:
        have = places.get("talon", [])
        need = rules.talons[0] - len(have)
        out["talon"] = names_of(have + rest[:need])
        rest = rest[need:]
    elif rules.talons:
        tl = []
        for i, size in enumerate(rules.talons):
            have = places.get(f"talon{i}", [])
            need = size - len(have)
            tl.append(names_of(have + rest[:need]))
            rest = rest[need:]
        out["talons"] = tl
    if rules.stock:
        have = places.get("stock", [])
        out["stock"] = [card_str(c) for c in have + rest]
        rest = []
    assert not rest, rest
    return out


def random_exchange(protect: str = "") -> Callable[[State, random.Random], list[Action]]:
    """Give / discard random cards of the declarer, never the protected ones."""
    keep = set(cards(protect))

    def run(s: State, rng: random.Random) -> list[Action]:
        out = []
        if s.phase is Phase.TALON:
            out.append(Action(s.declarer, Verb.TALON, amount=0))
            s = apply_into(s, out[0], None)
        while s.phase is Phase.EXCHANGE:
            moves = [a for a in legal_actions(s, s.declarer)
                     if a.verb in (Verb.GIVE, Verb.DISCARD) and a.card not in keep]
            a = rng.choice(moves)
            out.append(a)
            s = apply_into(s, a, None)
        return out

    return run


def fixed_exchange(*moves: list[Any]) -> Callable[[State, random.Random], list[Action]]:
    def run(s: State, rng: random.Random) -> list[Action]:
        return [parse_action(m, s_names(s)) for m in moves]

    return run


_NAMES: dict[int, list[str]] = {}


def s_names(s: State) -> list[str]:
    return _NAMES[id(s.rules)]


def find_hand(spec: Spec, seed: int = 1, deals: int = 600, nodes: int = 3000) -> Json:
    """A hand (``{"deal", "actions"}``) meeting ``spec``; raises if none was found."""
    data = spec.data
    rules = rules_of(data)
    names = list(data["players"])
    rng = random.Random(seed)
    base = state_before(data, spec.prefix_hands)
    _NAMES[id(base.rules)] = names
    seat = {n: i for i, n in enumerate(names)}
    points = {seat[n]: v for n, v in spec.points.items()}
    declare = {(seat[n], SUITS.index(x)) for n, xs in spec.declare.items() for x in xs}
    aces = seat[spec.aces] if spec.aces else None
    for _ in range(deals):
        deal = random_deal(rules, base.match.dealer, names, spec.fixed, rng)
        if spec.deal_ok is not None and not spec.deal_ok(deal):
            continue
        try:
            s = apply_into(base, parse_deal_json(deal, names, rules), None)
            acts: list[Action] = []
            for raw in spec.auction:
                a = parse_action(raw, names)
                s = apply_into(s, a, None)
                acts.append(a)
            if spec.exchange is not None and s.phase in (Phase.EXCHANGE, Phase.TALON):
                for a in spec.exchange(s, rng):
                    s = apply_into(s, a, None)
                    acts.append(a)
            if spec.contract is not None:
                a = Action(s.declarer, Verb.CONTRACT, amount=spec.contract)
                s = apply_into(s, a, None)
                acts.append(a)
        except RuleError:
            continue
        ctx = _Ctx(points, {seat[n]: v for n, v in spec.tricks.items()}, declare, aces,
                   spec.final, spec.allow_decl, rng)
        found = _dfs(s, ctx, [nodes])
        if found is not None:
            return {"deal": deal, "actions": [a.to_json(names) for a in acts + found]}
    raise RuntimeError(f"no hand found for {spec.points} {spec.declare}")


class _Ctx:
    def __init__(self, points: dict[int, int], tricks: dict[int, int],
                 declare: set[tuple[int, int]], aces: int | None,
                 final: Callable[[State], bool] | None, allow_decl: bool,
                 rng: random.Random) -> None:
        self.points, self.tricks, self.declare, self.aces = points, tricks, declare, aces
        self.final, self.allow_decl, self.rng = final, allow_decl, rng


def _dfs(s: State, c: _Ctx, budget: list[int]) -> list[Action] | None:
    budget[0] -= 1
    if budget[0] < 0:
        return None
    done = {(p, suit) for p, suit, _ in s.decl_log if suit >= 0}
    if s.phase not in (Phase.PLAY, Phase.CONTRACT):
        ok = (all(s.points[p] == v for p, v in c.points.items())
              and all(s.won[p] == v for p, v in c.tricks.items())
              and (c.declare <= done if c.allow_decl else done == c.declare)
              and (c.aces is None or any(suit < 0 for _, suit, _ in s.decl_log)))
        return [] if ok and (c.final is None or c.final(s)) else None
    left = sum(mask_points(h) for h in s.held) + sum(_pts(x) for _, x in s.trick)
    for p, v in c.points.items():
        if s.points[p] > v or s.points[p] + left < v:
            return None
    tricks_left = max(h.bit_count() for h in s.held) + (1 if s.trick else 0)
    for p, v in c.tricks.items():
        if s.won[p] > v or s.won[p] + tricks_left < v:
            return None
    for p, suit in c.declare - done:
        k, q = suit * 8 + RK, suit * 8 + RQ
        if not (s.held[p] >> k & 1 and s.held[p] >> q & 1):
            return None
    if c.aces is not None and not any(x < 0 for _, x, _ in s.decl_log) and s.trick_no > 0:
        return None
    moves = []
    for a in legal_actions(s):
        if a.verb is not Verb.PLAY:
            continue
        if a.flag is Flag.MARRIAGE and not c.allow_decl and (
                a.seat, a.card >> 3) not in c.declare:
            continue
        if a.flag is Flag.ACES and a.seat != c.aces:
            continue
        moves.append(a)
    c.rng.shuffle(moves)
    # declarations first: they are rare and required
    moves.sort(key=lambda a: a.flag is Flag.NONE)
    for a in moves:
        rest = _dfs(apply_into(s, a, None), c, budget)
        if rest is not None:
            return [a, *rest]
        if budget[0] < 0:
            return None
    return None


def _pts(c: int) -> int:
    return (0, 0, 0, 2, 3, 4, 10, 11)[c & 7]
