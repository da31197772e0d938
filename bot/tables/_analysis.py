"""Hand analyses on request: who may see which, one at a time per player, off the loop.

During a match a player may analyse only his own finished hands, from his own information
(no real-deal values: they would reveal the other hands); once the match is over, any seat
of any hand, with the real deal's values, as the replay shows every card then. Each
analysis runs in the analyses' own process below the AI seats' pool (``bot.ai.pool``), so a
table's AI never waits for one; they queue server-wide, and a player has one at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.ai.analysis import SeatAnalysis
from bot.ai.pool import analyse_hand, analysis_executor
from bot.game.actions import Action, Deal, Flag, Move, Verb, act
from bot.game.cards import cards_of
from bot.game.dealing import new_match
from bot.game.engine import apply_into
from bot.game.events import Event, HandScored
from bot.game.rules import Rules
from bot.game.serialize import move_from_json
from bot.game.state import State
from bot.i18n.values import TalonWord
from bot.store import StoreAPI
from bot.tables._model import Actor, Table, TableError, talon_name_of

log = logging.getLogger(__name__)

# Analyses running at once on the server: the rest wait their turn.
AT_ONCE = 1
# Analyses kept for the pages of an answer and a second press (each costs seconds of CPU).
KEPT = 64


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """An analysis as the asker may see it, with the names of the seats."""

    table_id: int
    match_no: int
    hand_no: int
    hands: int  # finished hands of the match so far
    names: tuple[str, ...]
    analysis: SeatAnalysis
    finished: bool  # the match is over (real-deal values shown)
    dealt: tuple[int, ...]  # the seat's cards as dealt
    talon: TalonWord  # the talon as the preset's players call it (in the moves' words)

    @property
    def seat(self) -> int:
        return self.analysis.seat


def hand_moves(rules: Rules, dealer: int, moves: Sequence[dict[str, Any] | None],
               hand_no: int) -> tuple[State, tuple[Move, ...]] | None:
    """The state after the ``hand_no``-th deal (1-based) and the moves to its end; None if
    that hand was not finished or the log does not replay."""
    state = new_match(rules, dealer)
    deals = 0
    start: State | None = None
    out: list[Move] = []
    try:
        for raw in moves:
            if raw is None:
                return None
            move = move_from_json(raw)
            if isinstance(move, Deal):
                deals += 1
            if deals < hand_no:
                state = apply_into(state, move, None, inplace=True)
                continue
            events: list[Event] = []
            state = apply_into(state, move, events)
            if start is None:
                start = state
            else:
                out.append(move)
            if any(isinstance(e, HandScored) for e in events):
                return (start, tuple(out)) if start is not None else None
    except Exception:  # a damaged log: nothing to analyse
        return None
    return None


def finished_hands(moves: Sequence[dict[str, Any] | None], rules: Rules, dealer: int) -> int:
    """How many hands of a match's log were played to their end."""
    state = new_match(rules, dealer)
    done = 0
    try:
        for raw in moves:
            if raw is None:
                break
            events: list[Event] = []
            state = apply_into(state, move_from_json(raw), events, inplace=True)
            done += sum(1 for e in events if isinstance(e, HandScored))
    except Exception:
        pass
    return done


@dataclass(frozen=True, slots=True)
class StepMark:
    """One decision of a stored hand analysis, as the replay viewer shows it beside its
    step: who decided, what was done, the best choice, the points lost (its seat's own
    information) and with the cards as they lay (cards only)."""

    seat: int
    action: Action
    best: Action
    loss: int
    mark: str
    real_loss: int | None


def _action_json(a: Action) -> dict[str, Any]:
    return {"seat": a.seat, "verb": a.verb.value, "card": a.card, "amount": a.amount,
            "target": a.target, "flag": a.flag.value}


def _action_of(raw: Any) -> Action:
    return act(int(raw["seat"]), Verb(raw["verb"]), int(raw["card"]), int(raw["amount"]),
               int(raw["target"]), Flag(raw["flag"]))


def stored_json(analyses: Sequence[SeatAnalysis]) -> dict[str, Any]:
    """A hand's analyses (one per seat) as the store keeps them: by the index of each move
    among the hand's actions."""
    steps = {}
    for a in analyses:
        for d in a.decisions:
            steps[str(d.step)] = {"action": _action_json(d.action), "best": _action_json(d.best),
                                  "loss": d.loss, "mark": d.mark, "real_loss": d.real_loss}
    return {"version": 1, "steps": steps}


def marks_of(stored: dict[str, Any]) -> dict[int, StepMark]:
    """The stored analysis read back: the decisions by the index of their move among the
    hand's actions (an unreadable entry is left out)."""
    out = {}
    for key, raw in (stored.get("steps") or {}).items():
        try:
            action, best = _action_of(raw["action"]), _action_of(raw["best"])
            real = raw.get("real_loss")
            out[int(key)] = StepMark(action.seat, action, best, int(raw["loss"]),
                                     str(raw["mark"]), None if real is None else int(real))
        except (KeyError, TypeError, ValueError):
            continue
    return out


class Analyses:
    """The server's analyses: the privacy rule, the queue, one per player."""

    def __init__(self, store: StoreAPI, find: Callable[[int], Table | None]) -> None:
        self.store = store
        self.find = find  # the table of a channel
        self._running: set[int] = set()
        self._queue = asyncio.Semaphore(AT_ONCE)
        self._kept: OrderedDict[tuple[int, int, int, int, bool], HandAnalysis] = OrderedDict()
        self.loop: asyncio.AbstractEventLoop | None = None  # the service's (set at restore)
        self._storing: set[tuple[int, int, int]] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def request(self, actor: Actor, *, match_id: int | None, hand_no: int | None,
                      seat: int | None) -> HandAnalysis:
        """``/analyze``: a recorded match of the asker's server by its id, or (no id) this
        channel's match; ``seat`` counts from 1 (none: the asker's own)."""
        if match_id is None:
            table = self.find(actor.channel_id or 0)
            if table is None or table.match_no < 1:
                raise TableError("error.analysis.nothing_here")
            table_id, match_no = table.id, table.match_no
        else:
            info = await self.store.match_info(match_id) if 0 < match_id < 2**62 else None
            if info is None or info.guild_id != actor.guild_id or info.excluded:
                raise TableError("error.no_match", id=str(match_id))
            table_id, match_no = info.table_id, info.match_no
        return await self.analyse(table_id, actor, match_no=match_no, hand_no=hand_no,
                                  seat=None if seat is None else seat - 1)

    async def analyse(self, table_id: int, actor: Actor, *, match_no: int, hand_no: int | None,
                      seat: int | None) -> HandAnalysis:
        """The analysis of one seat of one finished hand, if ``actor`` may see it."""
        if actor.user_id in self._running:
            raise TableError("error.analysis.busy")
        self._running.add(actor.user_id)
        try:
            return await self._analyse(table_id, actor, match_no=match_no, hand_no=hand_no,
                                       seat=seat)
        finally:
            self._running.discard(actor.user_id)

    async def _analyse(self, table_id: int, actor: Actor, *, match_no: int,
                       hand_no: int | None, seat: int | None) -> HandAnalysis:
        row = next((m for m in await self.store.matches(table_id) if m.match_no == match_no),
                   None)
        if row is None:
            raise TableError("error.analysis.nothing_here")
        names = tuple(str(s.get("name") or "?") for s in row.seats)
        mine = next((i for i, s in enumerate(row.seats) if s.get("user_id") == actor.user_id),
                    None)
        finished = row.status != "playing"
        if seat is None:
            seat = mine
        if seat is None and not finished:  # a spectator: no hand of his own to analyse
            raise TableError("error.analysis.not_yours")
        if seat is None or not 0 <= seat < len(row.seats):
            raise TableError("error.analysis.seat", seats=len(row.seats))
        if not finished and seat != mine:
            raise TableError("error.analysis.not_yours")
        rules = Rules.from_json(row.rules)
        raw = [r.move for r in await self.store.moves(table_id, match_no)]
        done = await asyncio.to_thread(finished_hands, raw, rules, row.dealer)
        number = done if hand_no is None else hand_no
        if not done:
            raise TableError("error.analysis.no_hand")
        if not 1 <= number <= done:
            raise TableError("error.analysis.hand", hands=done)
        key = (table_id, match_no, number, seat, finished)
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        got = await asyncio.to_thread(hand_moves, rules, row.dealer, raw, number)
        if got is None:
            raise TableError("error.analysis.hand", hands=done)
        start, moves = got
        if seat not in start.active or not any(
                isinstance(m, Action) and m.seat == seat for m in moves):
            raise TableError("error.analysis.sat_out")
        async with self._queue:
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(
                analysis_executor(), analyse_hand, start, moves, seat, finished,
                table_id * 1000 + match_no * 100 + number)
        table = await self.store.table(table_id)
        preset = table.preset if table is not None else ""
        out = HandAnalysis(table_id, match_no, number, done, names, result, finished,
                           tuple(cards_of(start.held[seat])),
                           TalonWord(preset, talon_name_of(preset)))
        self._kept[key] = out
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return out

    async def close(self) -> None:
        """Stop the analyses being stored (a later view starts them again)."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task

    def store_later(self, table_id: int, match_no: int, hand_no: int) -> None:
        """Compute a finished match's hand analysis (every seat, the real deal's values) and
        store it, in the background and once; callable from any thread (the web pages)."""
        loop = self.loop
        key = (table_id, match_no, hand_no)
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._start_storing, key)

    def _start_storing(self, key: tuple[int, int, int]) -> None:
        if key in self._storing:
            return
        self._storing.add(key)
        task = asyncio.get_running_loop().create_task(self._store(*key))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _store(self, table_id: int, match_no: int, hand_no: int) -> None:
        try:
            if await self.store.hand_analysis(table_id, match_no, hand_no) is not None:
                return
            row = next((m for m in await self.store.matches(table_id)
                        if m.match_no == match_no), None)
            if row is None or row.status == "playing":  # the hidden cards stay hidden
                return
            rules = Rules.from_json(row.rules)
            raw = [r.move for r in await self.store.moves(table_id, match_no)]
            got = await asyncio.to_thread(hand_moves, rules, row.dealer, raw, hand_no)
            if got is None:
                return
            start, moves = got
            seats = sorted({m.seat for m in moves if isinstance(m, Action)})
            done = []
            loop = asyncio.get_running_loop()
            for seat in seats:
                async with self._queue:
                    done.append(await loop.run_in_executor(
                        analysis_executor(), analyse_hand, start, moves, seat, True,
                        table_id * 1000 + match_no * 100 + hand_no))
            async with self.store.transaction() as tx:
                await tx.add_hand_analysis(table_id, match_no, hand_no, stored_json(done),
                                           time.time())
        except Exception:  # the page shows the hand without its marks; a later view retries
            log.exception("the analysis of hand %s of match %s.%s failed", hand_no,
                          table_id, match_no)
        finally:
            self._storing.discard((table_id, match_no, hand_no))

    async def stored(self, table_id: int, match_no: int, hand_no: int
                     ) -> dict[int, StepMark] | None:
        """A finished hand's stored analysis (None: not yet; it is then started)."""
        got = await self.store.hand_analysis(table_id, match_no, hand_no)
        if got is None:
            self.store_later(table_id, match_no, hand_no)
            return None
        return marks_of(got)
