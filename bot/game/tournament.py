"""Tournaments with duplicate deals (docs/tournaments.md): seating, event boards and standings.

Pure functions: the service (``bot/tables/_tournament*.py``) stores what they are given and
what they return. Players are ints (user ids; AI fillers are negative and never ranked).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.game.actions import Deal
from bot.game.boards import shuffled_deck, stands
from bot.game.dealing import canonical_deal, new_match
from bot.game.duplicate import score_board
from bot.game.engine import apply_into
from bot.game.presets import preset
from bot.game.rules import Rules, RulesError
from bot.game.state import State

SEED_PREFIX = "1000-tournament"
MAX_ROUNDS = 10
MAX_BOARDS = 24  # per round
_ATTEMPTS = 100  # a deal the rules annul at once is skipped for the next attempt
SEARCH_LIMIT = 20_000  # seatings tried per budget of repeat meetings before settling
Pair = frozenset[int]


# ---- seating ---------------------------------------------------------------------------
def capacities(players: int, seats: int) -> list[int]:
    """People per table: full tables, the last one short (AI players fill its seats)."""
    if players <= 0:
        return []
    tables = math.ceil(players / seats)
    return [seats] * (tables - 1) + [players - seats * (tables - 1)]


def first_round(ratings: Mapping[int, float], seats: int) -> list[tuple[int, ...]]:
    """Round 1 by rating, snake: players ranked by rating (highest first, then lowest id) go
    to tables 1, 2, ..., T, then T, ..., 1, then 1, ..., T again, a full table skipped; so
    each table gets one of the T best, one of the next T, and so on. Within a table the
    seats follow the order of arrival."""
    order = sorted(ratings, key=lambda u: (-ratings[u], u))
    caps = capacities(len(order), seats)
    tables: list[list[int]] = [[] for _ in caps]
    forward = True
    it = iter(order)
    placed = 0
    while placed < len(order):
        for t in range(len(caps)) if forward else reversed(range(len(caps))):
            if len(tables[t]) < caps[t] and placed < len(order):
                tables[t].append(next(it))
                placed += 1
        forward = not forward
    return [tuple(t) for t in tables]


def meetings(rounds: Iterable[Sequence[Sequence[int]]]) -> set[Pair]:
    """The pairs of people who sat at one table in these rounds (AI fillers left out)."""
    out: set[Pair] = set()
    for tables in rounds:
        for table in tables:
            people = [u for u in table if u >= 0]
            out.update(frozenset(p) for p in itertools.combinations(people, 2))
    return out


Met = dict[int, set[int]]  # whom each player met


def _met(pairs: Collection[Pair]) -> Met:
    out: Met = {}
    for pair in pairs:
        a, b = tuple(pair)
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return out


def _repeats(group: Sequence[int], met: Met) -> int:
    return sum(1 for a, b in itertools.combinations(group, 2) if b in met.get(a, ()))


def later_round(order: Sequence[int], pairs: Collection[Pair], seats: int, *,
                limit: int = SEARCH_LIMIT) -> list[tuple[int, ...]]:
    """A later round by standings, with the fewest repeat meetings it finds.

    ``order``: the players by standing, best first; ``pairs``: who met (``meetings``).
    Table 1 takes the best player not seated yet and the next best who met nobody at it,
    table 2 the best left, and so on; where that gets stuck, the search backs up (depth
    first, tables and candidates in standing order) and tries the next candidate, for at
    most ``limit`` tables. So no pair meets twice when
    that is possible within the limit. Otherwise the greedy seating (each table the best
    left with the companions, in standing order, who repeat the fewest meetings) sets an
    upper bound, and seatings with 1, 2, ... repeats are searched (a tenth of the limit
    each) below it; the first found, else the greedy one, is taken."""
    caps = capacities(len(order), seats)
    met = _met(pairs)
    got = _place(tuple(order), caps, met, 0, [limit])
    if got is not None:
        return got
    greedy = _greedy(tuple(order), caps, met)
    worst = sum(_repeats(t, met) for t in greedy)
    for budget in range(1, worst):
        got = _place(tuple(order), caps, met, budget, [limit // 10])
        if got is not None:
            return got
    return greedy


def _greedy(left: tuple[int, ...], caps: Sequence[int], met: Met) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for cap in caps:
        head, rest = left[0], left[1:]
        others = min(itertools.combinations(rest, cap - 1),
                     key=lambda o: _repeats((head, *o), met))
        out.append((head, *others))
        left = tuple(u for u in rest if u not in others)
    return out


def _place(left: tuple[int, ...], caps: Sequence[int], met: Met, budget: int,
           counter: list[int]) -> list[tuple[int, ...]] | None:
    if not left:
        return []
    cap = caps[0]
    head, rest = left[0], left[1:]
    for others in itertools.combinations(rest, cap - 1):
        counter[0] -= 1
        if counter[0] < 0:
            return None
        group = (head, *others)
        cost = _repeats(group, met)
        if cost > budget:
            continue
        remaining = tuple(u for u in rest if u not in others)
        tail = _place(remaining, caps[1:], met, budget - cost, counter)
        if tail is not None:
            return [group, *tail]
    return None


def with_fillers(table: Sequence[int], seats: int, table_no: int) -> tuple[int, ...]:
    """A table's seats: its people, then AI fillers (negative ids, unique in the round)."""
    fill = [-(table_no * seats + k) for k in range(seats - len(table))]
    return (*table, *fill)


# ---- boards ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class EventBoard:
    """Board ``number`` (0-based) of a round of an event: the same at every table."""

    seed: str  # the event's: its id and name
    preset: str
    round_no: int  # 1-based
    number: int  # 0-based within the round
    dealer: int
    deal: Deal

    @property
    def rules(self) -> Rules:
        """The board's rule set."""
        return preset(self.preset)

    @property
    def key(self) -> str:
        """``t/<seed>/<round>/<board>`` (1-based): the board's name in the store."""
        return f"t/{self.seed}/{self.round_no}/{self.number + 1}"

    def start(self) -> State:
        """The board dealt: a match at zero totals with this deal applied."""
        return apply_into(new_match(self.rules, self.dealer), self.deal, None)


def event_seed(event_id: int, name: str) -> str:
    """What an event's deals are drawn from: its id and name."""
    return f"{event_id}:{name}"


def event_board(seed: str, preset_name: str, round_no: int, number: int) -> EventBoard:
    """Board ``number`` of round ``round_no``: the deck sorted by the SHA-256 of
    ``1000-tournament|seed|preset|round|board|attempt|card`` as in the daily boards
    (docs/daily.md), dealt by seat ``number mod seats``, so that over a round of a
    multiple of the seats every player holds each place relative to the dealer equally
    often; a deal the rules annul at once is skipped for the next attempt."""
    rules = preset(preset_name)
    dealer = number % rules.seats
    for attempt in range(_ATTEMPTS):
        deck = shuffled_deck(rules, seed, preset_name, round_no, number, attempt,
                             prefix=SEED_PREFIX)
        deal = canonical_deal(rules, dealer, deck)
        if stands(rules, dealer, deal):
            return EventBoard(seed, preset_name, round_no, number, dealer, deal)
    raise RulesError(f"no playable deal for board {number} of round {round_no}")


def round_boards(seed: str, preset_name: str, round_no: int, count: int) -> list[EventBoard]:
    """A round's boards, in the order every table plays them."""
    return [event_board(seed, preset_name, round_no, i) for i in range(count)]


# ---- scoring ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's change of total on one board at one table."""

    round_no: int
    board_no: int  # 1-based
    table_no: int
    seat: int
    user_id: int  # negative: an AI filler
    result: int


@dataclass(frozen=True, slots=True)
class Scored:
    """One seat's result scored against the same seat at every other table and par."""

    result: SeatResult
    percent: float  # matchpoints as a percentage of the top
    butler: float  # the result minus the mean of the field (every table and par)


def score_results(results: Sequence[SeatResult],
                  pars: Mapping[tuple[int, int], Sequence[int]]) -> list[Scored]:
    """Every result with a par scored: matchpoints (2 for each result of the same seat on
    the same board beaten, 1 for each tie; par is one result) and the Butler difference."""
    fields: dict[tuple[int, int, int], list[SeatResult]] = {}
    for r in results:
        if (r.round_no, r.board_no) in pars:
            fields.setdefault((r.round_no, r.board_no, r.seat), []).append(r)
    out: list[Scored] = []
    for (rnd, bno, seat), rows in fields.items():
        par = pars[(rnd, bno)][seat]
        scores = score_board({r.table_no: r.result for r in rows}, par)
        mean = (sum(r.result for r in rows) + par) / (len(rows) + 1)
        out.extend(Scored(r, scores[r.table_no].percent, r.result - mean) for r in rows)
    return out


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line: rank (None: not ranked), mean %, Butler, boards, head-to-head."""

    user_id: int
    percent: float
    butler: int
    boards: int
    head_to_head: int  # boards won minus lost against the players tied with him
    rank: int | None
    tie_note: str = ""


def standings(scored: Sequence[Scored], ranked: Collection[int]) -> list[Standing]:
    """The ranking of the ``ranked`` players: mean matchpoint percentage over the boards
    played, then Butler (rounded to a whole point), then head-to-head among the players
    still tied: boards on which one's result beat the other's at their table, won minus
    lost. Players left equal share a rank. The others (withdrawn) follow, not ranked."""
    by_user: dict[int, list[Scored]] = {}
    for s in scored:
        if s.result.user_id >= 0:
            by_user.setdefault(s.result.user_id, []).append(s)
    lines = {u: (sum(s.percent for s in v) / len(v), round(sum(s.butler for s in v)), len(v))
             for u, v in by_user.items()}
    people = [u for u in lines if u in ranked]
    groups: dict[tuple[float, int], list[int]] = {}
    for u in people:
        groups.setdefault((round(lines[u][0], 9), lines[u][1]), []).append(u)
    out: list[Standing] = []
    for key in sorted(groups, key=lambda k: (-k[0], -k[1])):
        group = groups[key]
        h2h = _head_to_head(group, scored)
        note = "h2h" if len(set(h2h.values())) > 1 else ""
        group.sort(key=lambda u: (-h2h[u], u))
        for i, u in enumerate(group):
            p, b, n = lines[u]
            shared = i > 0 and h2h[group[i - 1]] == h2h[u]
            rank = out[-1].rank if shared else len(out) + 1
            out.append(Standing(u, p, b, n, h2h[u], rank, note))
    for u in sorted((u for u in lines if u not in ranked), key=lambda u: -lines[u][0]):
        p, b, n = lines[u]
        out.append(Standing(u, p, b, n, 0, None))
    return out


def _head_to_head(group: Sequence[int], scored: Sequence[Scored]) -> dict[int, int]:
    at: dict[tuple[int, int, int], dict[int, int]] = {}  # (round, board, table): user: result
    for s in scored:
        r = s.result
        at.setdefault((r.round_no, r.board_no, r.table_no), {})[r.user_id] = r.result
    out = dict.fromkeys(group, 0)
    for seats in at.values():
        for a, b in itertools.combinations([u for u in group if u in seats], 2):
            if seats[a] != seats[b]:
                win, lose = (a, b) if seats[a] > seats[b] else (b, a)
                out[win] += 1
                out[lose] -= 1
    return out
