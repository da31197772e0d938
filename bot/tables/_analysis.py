"""Hand analyses on request: who may see which, one at a time per player, off the loop.

During a match a player may analyse only his own finished hands, from his own information
(no real-deal values: they would reveal the other hands); once the match is over, any seat
of any hand, with the real deal's values, as the replay shows every card then. Each
analysis runs in the analyses' own process below the AI seats' pool (``bot.ai.pool``), so a
table's AI never waits for one; they queue server-wide, and a player has one at a time.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.ai.analysis import Analysis
from bot.ai.pool import analyse_hand, analysis_executor
from bot.game.actions import Action, Deal, Move
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
    analysis: Analysis
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


class Analyses:
    """The server's analyses: the privacy rule, the queue, one per player."""

    def __init__(self, store: StoreAPI, find: Callable[[int], Table | None]) -> None:
        self.store = store
        self.find = find  # the table of a channel
        self._running: set[int] = set()
        self._queue = asyncio.Semaphore(AT_ONCE)
        self._kept: OrderedDict[tuple[int, int, int, int, bool], HandAnalysis] = OrderedDict()

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
