"""Duplicate deals between AI levels: every deal is played once per rotation of the seats.

Each rotation keeps its own running match (so the barrel, dashes and a third rospisat cost
what they cost); a deal is dealt with the same dealer and the same cards per seat in every
rotation, and entry ``i`` of the seat list sits at seat ``(i + r) % n`` in rotation ``r``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial

from bot.ai import ALL_LEVELS, Player, player
from bot.game.actions import Action
from bot.game.cards import DECK_CARDS
from bot.game.dealing import apply_deal, canonical_deal, new_match
from bot.game.engine import apply_into
from bot.game.errors import RuleError
from bot.game.observation import observe
from bot.game.rules import Rules
from bot.game.state import HandEnd, Phase, State


@dataclass(slots=True)
class Entry:
    """What one entry of the seat list did over the arena."""

    level: str
    per_deal: list[float] = field(default_factory=list)
    contracts_made: int = 0
    contracts_failed: int = 0
    rospisat: int = 0
    wins: float = 0.0
    matches: int = 0
    times: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        n = len(self.per_deal)
        mean = statistics.fmean(self.per_deal) if n else 0.0
        times = sorted(self.times)
        return {
            "level": self.level, "mean_per_hand": round(mean, 2),
            "ci95": round(half_width(self.per_deal), 2) if n > 1 else None,
            "contracts_made": self.contracts_made, "contracts_failed": self.contracts_failed,
            "rospisat": self.rospisat,
            "match_win_rate": round(self.wins / self.matches, 3) if self.matches else None,
            "decision_p50_s": round(quantile(times, 0.5), 4),
            "decision_p95_s": round(quantile(times, 0.95), 4),
        }


def quantile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of sorted ``xs`` (0.0 for none)."""
    if not xs:
        return 0.0
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def difference(a: Entry, b: Entry) -> tuple[float, float]:
    """Mean of ``a - b`` per deal and its 95% half-width (paired over the same deals)."""
    d = [x - y for x, y in zip(a.per_deal, b.per_deal, strict=True)]
    if len(d) < 2:
        return (d[0] if d else 0.0), 0.0
    return statistics.fmean(d), half_width(d)


def half_width(xs: list[float]) -> float:
    """The 95% half-width of the mean of ``xs`` (normal approximation; 0.0 below two)."""
    return 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0


@dataclass(slots=True)
class Stream:
    """One rotation's running match."""

    state: State
    hands_in_match: int = 0


def _deck(rules: Rules, seed: int, deal_no: int) -> list[int]:
    rng = random.Random(f"arena:{seed}:{deal_no}")
    deck = list(DECK_CARDS[rules.deck.value])
    rng.shuffle(deck)
    return deck


def run(rules: Rules, levels: list[str], *, hands: int = 0, matches: int = 0, seed: int = 0,
        budget: float | None = None, max_hands_per_match: int = 400,
        make: Callable[[str], Player] | None = None) -> list[Entry]:
    """Play ``hands`` duplicate deals, or ``matches`` whole matches per rotation.

    ``make`` builds the player of a seat-list name (default: the AI level of that name), so
    an experiment can seat variants of a level under names of its own.
    """
    for level in levels:
        if make is None and level not in ALL_LEVELS:
            raise ValueError(f"unknown AI level {level!r}; the levels are {', '.join(ALL_LEVELS)}")
    n = rules.seats
    if len(levels) != n:
        raise ValueError(f"this preset seats {n} players; --seats names {len(levels)}")
    entries = [Entry(level) for level in levels]
    streams = [Stream(new_match(rules, 0)) for _ in range(n)]
    deal_no = 0
    finished = 0
    while (hands and deal_no < hands) or (matches and finished < matches):
        deck = _deck(rules, seed, deal_no)
        dealer = deal_no % n
        sums = [0.0] * n
        for r, stream in enumerate(streams):
            seat_of = [(i + r) % n for i in range(n)]
            deltas = _play_hand(rules, stream, deck, dealer, levels, seat_of, entries,
                                random.Random(f"arena:{seed}:{deal_no}:{r}"),
                                make or partial(player, budget=budget))
            for i in range(n):
                sums[i] += deltas[seat_of[i]]
            s = stream.state
            stream.hands_in_match += 1
            if s.phase is Phase.MATCH_OVER or stream.hands_in_match >= max_hands_per_match:
                winners = s.match.winners if s.phase is Phase.MATCH_OVER else ()
                for i in range(n):
                    entries[i].matches += 1
                    if seat_of[i] in winners:
                        entries[i].wins += 1 / len(winners)
                if r == 0:
                    finished += 1
                stream.state = new_match(rules, 0)
                stream.hands_in_match = 0
        for i in range(n):
            entries[i].per_deal.append(sums[i] / n)
        deal_no += 1
    return entries


def _play_hand(rules: Rules, stream: Stream, deck: list[int], dealer: int, levels: list[str],
               seat_of: list[int], entries: list[Entry], rng: random.Random,
               make: Callable[[str], Player]) -> list[int]:
    s = stream.state
    s.match = replace(s.match, dealer=dealer)
    s = s.copy()
    apply_deal(s, canonical_deal(rules, dealer, deck), None)
    entry_at = {seat_of[i]: i for i in range(len(levels))}
    players: dict[int, Player] = {p: make(levels[entry_at[p]])
                                  for p in range(rules.seats)}
    while s.phase not in (Phase.DEALING, Phase.MATCH_OVER):
        p = s.to_act
        o = observe(s, p)
        t0 = time.perf_counter()
        a: Action = players[p].choose(o, rng)
        entries[entry_at[p]].times.append(time.perf_counter() - t0)
        if a not in o.legal:
            raise RuleError("ai_illegal", level=levels[entry_at[p]], move=a.describe())
        s = apply_into(s, a, None, inplace=True)
    stream.state = s
    res = s.last_result
    if res is None:
        return [0] * rules.seats
    d = res.declarer
    if d >= 0:
        e = entries[entry_at[d]]
        if res.end is HandEnd.PLAYED and res.made is not None:
            if res.made:
                e.contracts_made += 1
            else:
                e.contracts_failed += 1
        elif res.end is HandEnd.ROSPISAT:
            e.rospisat += 1
    return list(res.delta)


def report(levels: list[str], entries: list[Entry], hands: int) -> list[str]:
    """Readable lines and, last, the JSON summary."""
    import json

    lines = []
    for e in entries:
        s = e.summary()
        played = e.contracts_made + e.contracts_failed
        fail = f"{100 * e.contracts_failed / played:.1f}%" if played else "-"
        lines.append(
            f"{e.level:>7}: {s['mean_per_hand']:+8.2f} ± {s['ci95']} per hand; contracts "
            f"{played} (made {e.contracts_made}, failed {e.contracts_failed}, {fail}); "
            f"rospisat {e.rospisat}; wins {s['match_win_rate']}; decisions p50 "
            f"{s['decision_p50_s']} s, p95 {s['decision_p95_s']} s")
    for e in entries[1:]:
        if e.level != entries[0].level:
            diff, ci = difference(entries[0], e)
            lines.append(f"{entries[0].level} - {e.level}: {diff:+.2f} ± {ci:.2f} per hand")
    lines.append(json.dumps({"hands": hands, "seats": [e.summary() for e in entries]}))
    return lines


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``python -m bot arena`` options."""
    p.add_argument("--preset", default="russian")
    p.add_argument("--hands", type=int, default=None, help="duplicate deals to play")
    p.add_argument("--matches", type=int, default=None,
                   help="play whole matches (per rotation) instead, for the win rate")
    p.add_argument("--seats", default="normal,normal,normal",
                   help="levels, one per seat, comma-separated (easy, normal, strong, "
                        "simple, random)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--budget", type=float, default=None,
                   help="seconds per decision for strong (default 0.5)")
    p.set_defaults(func=cli)


def cli(args: argparse.Namespace) -> int:
    """Run an arena from parsed arguments; the JSON summary is the last line."""
    from bot.game.presets import preset
    from bot.game.rules import RulesError

    levels = [x.strip() for x in args.seats.split(",") if x.strip()]
    try:
        rules = preset(args.preset)
        hands = args.hands if args.hands is not None else (0 if args.matches else 100)
        entries = run(rules, levels, hands=hands, matches=args.matches or 0, seed=args.seed,
                      budget=args.budget)
    except (RulesError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"preset: {args.preset}; seats: {', '.join(levels)}; seed {args.seed}")
    for line in report(levels, entries, len(entries[0].per_deal)):
        print(line, flush=True)
    return 0
