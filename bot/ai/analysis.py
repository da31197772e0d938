"""A hand's analysis: each decision of one seat against the best one, in points lost.

Every decision is judged from the seat's own information at that moment, as the strong
player sees it: deals that agree with all the seat knew (``bot.ai.worlds``), each weighed by
how likely the other seats' bids were in it (``bot.ai.inference``). In each world every
candidate is valued the same way, so the worlds' noise cancels between them:

- a card, by the double-dummy solver: whether the declarer's side still makes the contract
  after it. The declarer's score moves by the contract either way, so a card that lets the
  contract fail costs the declarer twice the contract times the chance it gives away; a
  defender's card that lets it through costs as much (the declarer is the one who gains);
- a bid, a pass, a talon, a gift, the contract or a give-up, by playing the hand out with
  the strong player's bidding and the club player's cards: the change to the seat's total
  less the others' average change (what counts in a race to 1000 is the standing).

For cards, with ``real`` on, the real deal is solved as well: the points the card lost
"with the cards as they lay". Pure and seeded: the same hand gives the same analysis.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.ai.club import ClubPlayer
from bot.ai.inference import Inference
from bot.ai.search import STRONG, _candidates
from bot.ai.solver import (
    Aborted,
    Kind,
    action_reaches,
    action_values,
    active,
    solver_for,
    supported,
)
from bot.ai.worlds import Sampler, agrees
from bot.game.actions import Action, Move, Verb
from bot.game.engine import apply_into
from bot.game.observation import Observation, observe
from bot.game.state import Phase, State

# Points lost that earn a mark (docs/ai.md#hand-analysis).
MARKS: tuple[tuple[int, str], ...] = ((40, "??"), (15, "?"), (5, "?!"))
# Worlds per decision: the solver's (cards) and the playouts' (everything else). Between
# the candidates the worlds are the same, so what the count buys is the comparison's
# precision; more measured the same marks at twice the time. The Python solver, some
# hundred times slower, gets fewer: a hand's p95 stays under 10 s.
CARD_WORLDS = 40
CARD_WORLDS_PYTHON = 6
# Positions one world's solve may search with the Python solver (about a second); a world
# past it is played out like a bid instead. A count, not a time: the marks stay the same
# on a slower machine.
PYTHON_NODES = 60_000
PLAYOUT_WORLDS = 32
_PLAYOUT_CANDIDATES = 6  # besides the move made and the strong player's own choice


class Stage(StrEnum):
    """The part of a hand a decision belongs to."""

    AUCTION = "auction"
    EXCHANGE = "exchange"  # the talon, gifts or discards, the contract, a give-up
    PLAY = "play"


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: what was done, the best choice, and the expected points it lost."""

    step: int  # index of the move among the hand's actions (0: the first after the deal)
    seat: int
    stage: Stage
    action: Action
    best: Action
    loss: int  # expected points lost against ``best``, from the seat's own information
    real_loss: int | None = None  # the same with the cards as they lay (cards only)

    @property
    def mark(self) -> str:
        """``??``, ``?``, ``?!`` or empty, by the points lost."""
        return mark_for(self.loss)


@dataclass(frozen=True, slots=True)
class SeatAnalysis:
    """One seat's decisions in one hand, with the points lost per stage."""

    seat: int
    decisions: tuple[Decision, ...]
    real: bool  # real-deal values were computed

    def lost(self, stage: Stage) -> int:
        """Points lost in one stage of the hand."""
        return sum(d.loss for d in self.decisions if d.stage is stage)

    @property
    def worst(self) -> Decision | None:
        """The decision that lost the most (None if none lost a point)."""
        worst = max(self.decisions, key=lambda d: (d.loss, -d.step), default=None)
        return worst if worst is not None and worst.loss > 0 else None


def mark_for(loss: int) -> str:
    """The mark of a decision that lost ``loss`` points."""
    return next((m for at, m in MARKS if loss >= at), "")


def stage_of(phase: Phase) -> Stage:
    """The stage of a decision taken in ``phase``."""
    if phase is Phase.BIDDING:
        return Stage.AUCTION
    if phase is Phase.PLAY:
        return Stage.PLAY
    return Stage.EXCHANGE


def decisions_of(start: State, moves: Sequence[Move], seat: int) -> list[tuple[int, State]]:
    """(step, state before it) of each move of ``seat`` that had a choice."""
    out = []
    s = start
    step = 0
    for m in moves:
        if isinstance(m, Action):
            if m.seat == seat and s.phase not in (Phase.DEALING, Phase.MATCH_OVER):
                o = observe(s, seat)
                if sum(1 for a in o.legal if a.seat == seat) > 1:
                    out.append((step, s))
            step += 1
        s = apply_into(s, m, None)
    return out


def analyse(start: State, moves: Sequence[Move], seat: int, *, real: bool = False,
            seed: int = 0) -> SeatAnalysis:
    """The analysis of ``seat``'s decisions in the hand that starts at ``start`` (the state
    after its deal) and goes on with ``moves``; ``real`` adds the real deal's values."""
    found = []
    actions = [m for m in moves if isinstance(m, Action)]
    for step, s in decisions_of(start, moves, seat):
        found.append(judge(s, actions[step], step, real=real, seed=seed))
    return SeatAnalysis(seat, tuple(found), real)


def judge(s: State, action: Action, step: int, *, real: bool = False,
          seed: int = 0) -> Decision:
    """One decision: ``action`` taken in ``s`` against its seat's other choices."""
    me = action.seat
    o = observe(s, me)
    rng = random.Random(f"{seed}:{step}")
    stage = stage_of(s.phase)
    strong_choice = ClubPlayer(STRONG).choose(o, random.Random(rng.random()))
    candidates = _pick(o, action, strong_choice)
    if len(candidates) < 2:
        return Decision(step, me, stage, action, action, 0, 0 if real and _cards(s) else None)
    values = _values(o, candidates, rng)
    # among equals: the move made, then the strong player's own choice
    best_i = max(range(len(candidates)), key=lambda i: (
        round(values[i]), i == 0, candidates[i] == strong_choice))
    loss = max(0, round(values[best_i] - values[0]))
    best = candidates[best_i] if loss > 0 else action
    real_loss = None
    if real and _cards(s) and supported(s):
        try:
            truth = _card_values(s, me, candidates)
            real_loss = max(0, round(max(truth) - truth[0]))
        except Aborted:  # too deep for the Python solver: no real-deal value
            real_loss = None
    return Decision(step, me, stage, action, best, loss, real_loss)


def _cards(s: State) -> bool:
    return s.phase is Phase.PLAY


def _pick(o: Observation, action: Action, strong_choice: Action) -> list[Action]:
    """The move made first, then the alternatives worth valuing."""
    out = [action]
    if o.phase is Phase.PLAY:
        out += [a for a in o.legal if a.seat == action.seat and a.verb is Verb.PLAY]
    else:
        more = _candidates(o, strong_choice)
        out += more[:_PLAYOUT_CANDIDATES + 1]
    return list(dict.fromkeys(out))  # each once, in the order found


def _worlds(o: Observation, rng: random.Random, count: int) -> list[State]:
    """Up to ``count`` deals that agree with what the seat knows."""
    sampler = Sampler(o)
    out: list[State] = []
    misses = 0
    while len(out) < count and misses < count * 4:
        world = sampler.world(rng)
        if world is None or not agrees(o, world):
            misses += 1
            continue
        out.append(world)
    return out


def _values(o: Observation, candidates: list[Action], rng: random.Random) -> list[float]:
    """Each candidate's expected points for the seat over its sampled worlds."""
    me = o.seat
    assert me is not None
    cards = o.phase is Phase.PLAY
    count = (CARD_WORLDS if active() is Kind.COMPILED else CARD_WORLDS_PYTHON) if cards else (
        PLAYOUT_WORLDS)
    worlds = _worlds(o, rng, count)
    inference = Inference(o)
    club = ClubPlayer(STRONG)
    totals = [0.0] * len(candidates)
    weight = 0.0
    for world in worlds:
        w = inference.weight(world)
        got = None
        if cards and supported(world):
            try:
                got = _card_values(world, me, candidates)
            except Aborted:
                got = None
        if got is None:
            seed = rng.random()
            got = [_played_out(world, a, me, random.Random(seed), club) for a in candidates]
        for i, v in enumerate(got):
            totals[i] += w * v
        weight += w
    if weight <= 0:
        return [0.0] * len(candidates)
    return [t / weight for t in totals]


def _played_out(world: State, first: Action, me: int, rng: random.Random,
                club: ClubPlayer) -> float:
    """The seat's standing after ``first`` and club players to the hand's end: the change
    to its total less the others' average change (a rospisat that pays each opponent 60
    costs the declarer as much as it gives them)."""
    s = apply_into(world, first, None)
    steps = 0
    while s.phase is not Phase.DEALING and s.phase is not Phase.MATCH_OVER and steps < 200:
        s = apply_into(s, club.choose(observe(s, s.to_act), rng), None, inplace=True)
        steps += 1
    res = s.last_result
    if res is None:
        return 0.0
    others = [res.delta[p] for p in range(len(res.delta)) if p != me]
    return float(res.delta[me]) - (sum(others) / len(others) if others else 0.0)


def _card_values(s: State, me: int, candidates: list[Action]) -> list[float]:
    """Each card's points for ``me`` in the deal ``s``, both sides playing perfectly: the
    declarer's score (plus or minus the contract) for his side, its opposite for the
    defenders; without a declarer, the points the seat takes."""
    d = s.declarer
    limit = 1 << 62 if active() is Kind.COMPILED else PYTHON_NODES
    if d < 0:
        solver = solver_for(s, frozenset({me}), node_limit=limit)
        return [float(v) for v in action_values(s, solver, candidates)]
    solver = solver_for(s, frozenset({d}), node_limit=limit)
    need = s.contract - s.points[d] - s.decl[d]
    sign = 1.0 if me == d else -1.0
    stake = float(s.contract)
    return [sign * (stake if made else -stake)
            for made in action_reaches(s, solver, candidates, need)]


@dataclass(frozen=True, slots=True)
class ScenarioHand:
    """One hand of a scenario file: the state after its deal and the moves that follow."""

    start: State
    actions: tuple[Action, ...]
    complete: bool  # the hand was played to its end


def scenario_hands(data: object) -> tuple[list[str], list[ScenarioHand]]:
    """The players and hands of a scenario (docs/scenarios.md); ``ScenarioError`` with the
    replay's own words if it does not replay."""
    from bot.game.scenario import (
        ScenarioError,
        load_rules,
        parse_action,
        parse_deal,
        run,
        start_state,
    )

    checked = run(data)
    if not checked["ok"]:
        where = "" if checked.get("hand") is None else f"hand {checked['hand']}" + (
            "" if checked.get("action") is None else f", action {checked['action']}") + ": "
        raise ScenarioError(where + str(checked["error"]))
    assert isinstance(data, dict)
    rules = load_rules(data)
    names = [str(n) for n in data["players"]]
    state = start_state(data, rules, names)
    out = []
    for hand in data.get("hands") or []:
        state = apply_into(state, parse_deal(hand["deal"], names, rules), None)
        start = state
        actions = tuple(parse_action(raw, names) for raw in hand.get("actions") or [])
        for a in actions:
            state = apply_into(state, a, None)
        out.append(ScenarioHand(start, actions,
                                state.phase in (Phase.DEALING, Phase.MATCH_OVER)))
    return names, out


def decision_json(d: Decision, names: Sequence[str]) -> dict[str, object]:
    """One decision as a line of ``python -m bot analyze``."""
    out: dict[str, object] = {
        "step": d.step, "seat": names[d.seat], "stage": d.stage.value,
        "action": d.action.to_json(list(names)), "best": d.best.to_json(list(names)),
        "loss": d.loss, "mark": d.mark}
    if d.real_loss is not None:
        out["real_loss"] = d.real_loss
    return out


def summary_json(a: SeatAnalysis, names: Sequence[str], hand: int) -> dict[str, object]:
    """The summary line of one seat's analysis."""
    worst = a.worst
    return {
        "summary": True, "hand": hand, "seat": names[a.seat],
        "auction": a.lost(Stage.AUCTION), "exchange": a.lost(Stage.EXCHANGE),
        "play": a.lost(Stage.PLAY), "total": sum(d.loss for d in a.decisions),
        "marks": {m: sum(1 for d in a.decisions if d.mark == m) for _, m in MARKS},
        "worst": None if worst is None else decision_json(worst, names)}
