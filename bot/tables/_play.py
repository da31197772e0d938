"""Play: starting matches, moves, dealing, persistence, AI turns and the turn timer."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any

from bot.ai import player
from bot.game.actions import Action, Flag, Move, Verb, act
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply_into
from bot.game.errors import RuleError
from bot.game.events import Event, HandScored
from bot.game.serialize import move_from_json, move_to_json
from bot.game.state import HandResult, Phase, State
from bot.store import Store
from bot.tables._model import (
    FINISHED,
    PLAYING,
    SEATING,
    Actor,
    Notice,
    Outcome,
    Table,
    TableError,
)

if TYPE_CHECKING:
    from bot.tables.clock import Clock

log = logging.getLogger(__name__)
MISSES_BEFORE_AWAY = 2


class PlayMixin:
    store: Store
    clock: Clock
    ai_delay: float
    seed: int | str | None
    ai_in_thread: bool
    gate: Callable[[], AbstractAsyncContextManager[None]] | None
    _busy: int
    _closing: bool

    def __init__(self) -> None:
        self._system_rng = random.SystemRandom()

    # abstract-ish helpers of the service
    def get(self, table_id: int) -> Table: raise NotImplementedError
    def _need(self, table: Table, *statuses: str) -> None: raise NotImplementedError
    def _need_host(self, table: Table, actor: Actor) -> None: raise NotImplementedError
    def _need_seat(self, table: Table, actor: Actor) -> int: raise NotImplementedError
    def _emit(self, table: Table, events: tuple[Any, ...] = (),
              notices: tuple[Notice, ...] = (), closed: bool = False,
              hand_no: int = 0) -> None:
        raise NotImplementedError

    # ---- starting ----------------------------------------------------------------------
    async def start(self, table_id: int, actor: Actor) -> Outcome:
        table = self.get(table_id)
        async with table.lock:
            self._need(table, SEATING)
            self._need_host(table, actor)
            if not table.full:
                raise TableError("error.seats_not_full", seated=len(table.seats),
                                 seats=table.size)
            await self._start_match(table, dealer=table.size - 1, actor=actor)
            return Outcome(table, "ok.started")

    async def rematch(self, table_id: int, actor: Actor) -> Outcome:
        table = self.get(table_id)
        async with table.lock:
            self._need(table, FINISHED)
            self._need_seat(table, actor)
            await self._start_match(table, dealer=(table.dealer + 1) % table.size, actor=actor)
            return Outcome(table, "ok.rematch")

    async def _start_match(self, table: Table, *, dealer: int, actor: Actor) -> None:
        now = self.clock.now()
        match_no = table.match_no + 1
        state = new_match(table.rules, dealer)
        deal = random_deal(state, self._rng(table, "deal", match_no, 0))
        events: list[Event] = []
        for move in deal:
            state = apply_into(state, move, events)
        seats = [{"user_id": s.user_id, "name": s.name, "ai": s.ai} for s in table.seats]
        for s in table.seats:
            s.away, s.missed = False, 0
        async with self.store.transaction() as tx:
            await tx.start_match(table.id, match_no, rules=table.rules.to_json(), dealer=dealer,
                                 seats=seats, now=now)
            await tx.append_moves(table.id, match_no, 0,
                                  [(move_to_json(m), None) for m in deal], now)
            await tx.save_seats(table.id, [s.row(i) for i, s in enumerate(table.seats)])
            await tx.update_table(table.id, status=PLAYING, match_no=match_no, dealer=dealer,
                                  updated_at=now, last_human_at=now)
        table.status, table.match_no, table.dealer = PLAYING, match_no, dealer
        table.state, table.seq, table.last_human_at = state, len(deal), now
        table.looked = set()
        table.version += 1
        self._emit(table, tuple(events), (Notice("notice.started", {"by": actor.name}),))
        self._schedule(table)

    # ---- moves -------------------------------------------------------------------------
    async def act(self, table_id: int, actor: Actor, verb: Verb, *, card: int = -1,
                  amount: int = 0, target: int = -1, flag: Flag = Flag.NONE,
                  expect_version: int | None = None) -> Outcome:
        """Make a move for the actor's seat; persisted before this returns."""
        table = self.get(table_id)
        async with table.lock:
            seat, state = self._playing_seat(table, actor)
            if state.to_act != seat and verb is not Verb.REDEAL:
                who = table.seats[state.to_act].name if state.to_act >= 0 else "?"
                raise TableError("error.not_your_turn", name=who)
            blind = verb is Verb.BID and flag is Flag.BLIND
            if blind and (state.match.hand_no, seat) in table.looked:
                raise TableError("error.blind_after_look")
            if table.face_down(seat):
                cap = table.blind_cap(seat)
                if blind and amount > cap:
                    raise TableError("error.blind_cap", cap=cap)
                if not blind:  # anything but a blind bid is made looking at the cards
                    await self._record_look(table, seat)
            action = act(seat, verb, card, amount, target, flag)
            notices: list[Notice] = []
            s = table.seats[seat]
            changed = bool(s.away or s.missed)
            if s.away:
                notices.append(Notice("notice.back", {"name": s.name}))
            await self._commit(table, action, actor.user_id, notices, seats_changed=changed,
                               back=seat if changed else None)
            return Outcome(table, "ok.moved", {"move": action.describe(table.names())},
                           seat=seat)

    def _playing_seat(self, table: Table, actor: Actor) -> tuple[int, State]:
        """The actor's seat at a table in play, and the state (refusals otherwise)."""
        self._need(table, PLAYING)
        seat = self._need_seat(table, actor)
        assert table.state is not None
        return seat, table.state

    async def look(self, table_id: int, actor: Actor) -> Outcome:
        """The actor looks at his cards (blind bidding): recorded before he sees them, so
        that he can bid blind no more in this hand. A seat with nothing hidden just looks."""
        table = self.get(table_id)
        async with table.lock:
            seat, _ = self._playing_seat(table, actor)
            if table.face_down(seat):
                await self._record_look(table, seat)
            return Outcome(table, "ok.looked", seat=seat)

    async def _record_look(self, table: Table, seat: int) -> None:
        """Commit that ``seat`` looked at his cards in this hand (before he sees them)."""
        assert table.state is not None
        hand_no = table.state.match.hand_no
        async with self.store.transaction() as tx:
            await tx.add_look(table.id, table.match_no, hand_no, seat, self.clock.now())
        table.looked.add((hand_no, seat))

    async def back(self, table_id: int, actor: Actor) -> Outcome:
        """"I'm back": an absent player takes the seat over from the AI again."""
        table = self.get(table_id)
        async with table.lock:
            seat = self._need_seat(table, actor)
            s = table.seats[seat]
            if not s.away:
                raise TableError("error.not_away")
            s.away, s.missed = False, 0
            now = self.clock.now()
            async with self.store.transaction() as tx:
                await tx.save_seats(table.id, [x.row(i) for i, x in enumerate(table.seats)])
                await tx.update_table(table.id, last_human_at=now, updated_at=now)
            table.last_human_at = now
            table.version += 1
            self._emit(table, notices=(Notice("notice.back", {"name": s.name}),))
            self._schedule(table)
            return Outcome(table, "ok.back")

    async def _commit(self, table: Table, action: Action, user_id: int | None,
                      notices: list[Notice], *, seats_changed: bool = False,
                      back: int | None = None) -> None:
        """Apply, deal on if a hand ended, persist; the table changes only once stored."""
        state = table.state
        assert state is not None
        events: list[Event] = []
        hand_no = state.match.hand_no
        try:
            new = apply_into(state, action, events)
        except RuleError as err:
            raise TableError("error.rule", message=err.message_for(table.names())) from None
        if back is not None:  # a human moved: he is back (saved with the move)
            table.seats[back].away, table.seats[back].missed = False, 0
        moves: list[tuple[dict[str, Any], int | None]] = [(move_to_json(action), user_id)]
        hands: list[tuple[int, HandResult]] = [
            (hand_no, e.result) for e in events if isinstance(e, HandScored)]
        if new.phase is Phase.DEALING:
            deal = random_deal(new, self._rng(table, "deal", table.match_no, new.match.hand_no))
            for move in deal:
                new = apply_into(new, move, events)
                moves.append((move_to_json(move), None))
        now = self.clock.now()
        over = new.phase is Phase.MATCH_OVER
        human = user_id is not None
        async with self.store.transaction() as tx:
            await tx.append_moves(table.id, table.match_no, table.seq, moves, now)
            for no, result in hands:
                await tx.add_hand(table.id, table.match_no, no, result_json(result), now)
            if seats_changed:
                await tx.save_seats(table.id, [s.row(i) for i, s in enumerate(table.seats)])
            changes: dict[str, Any] = {"updated_at": now}
            if human:
                changes["last_human_at"] = now
            if over:
                changes["status"] = FINISHED
                await tx.finish_match(table.id, table.match_no, status="won",
                                      winners=new.match.winners, totals=new.match.totals,
                                      now=now)
            await tx.update_table(table.id, **changes)
        table.state = new
        table.seq += len(moves)
        if human:
            table.last_human_at = now
        if over:
            table.status = FINISHED
            winners = ", ".join(table.seats[w].name for w in new.match.winners)
            notices.append(Notice("notice.match_won", {"names": winners}))
        table.version += 1
        self._emit(table, tuple(events), tuple(notices), hand_no=hand_no)
        self._schedule(table)

    async def _deal_if_needed(self, table: Table) -> None:
        """After a restore: a state waiting for cards gets them (normally never needed)."""
        st = table.state
        if st is None or st.phase is not Phase.DEALING:
            return
        deal = random_deal(st, self._rng(table, "deal", table.match_no, st.match.hand_no))
        for move in deal:
            st = apply_into(st, move, None)
        now = self.clock.now()
        async with self.store.transaction() as tx:
            await tx.append_moves(table.id, table.match_no, table.seq,
                                  [(move_to_json(m), None) for m in deal], now)
        table.state, table.seq = st, table.seq + len(deal)

    async def _replay(self, table: Table) -> None:
        if table.status == SEATING or table.match_no == 0:
            return
        state = new_match(table.rules, table.dealer)
        rows = await self.store.moves(table.id, table.match_no)
        for row in rows:
            if row.move is None:  # restore() closes the table (or sets the rows aside)
                raise ValueError(f"move {row.seq} of table {table.id} is not a JSON object")
            move: Move = move_from_json(row.move)
            state = apply_into(state, move, None, inplace=True)
        table.state, table.seq = state, len(rows)
        table.looked = await self.store.looks(table.id, table.match_no)

    def _rng(self, table: Table, what: str, match_no: int, hand_no: int) -> random.Random:
        if self.seed is None:
            return random.Random(self._system_rng.getrandbits(64))
        return random.Random(f"{self.seed}:{table.id}:{what}:{match_no}:{hand_no}")

    # ---- automatic moves: AI seats, absent players, the turn timer ------------------
    def _cancel(self, table: Table) -> None:
        task = table.task
        table.task = None
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    def _schedule(self, table: Table) -> None:
        self._cancel(table)
        if self._closing or table.status != PLAYING or table.state is None:
            return
        seat = table.state.to_act
        if seat < 0:
            return
        if table.seats[seat].automatic:
            table.task = self._spawn(self._auto_turn(table, table.version, seat))
        elif table.timer > 0:
            table.task = self._spawn(self._turn_timer(table, table.version, seat))

    def _spawn(self, coro: Any) -> asyncio.Task[None]:
        self._busy += 1
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._busy -= 1

    async def _sleep(self, seconds: float) -> None:
        """Sleep on the clock; the service counts as idle meanwhile (see ``settle``)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        self._busy -= 1
        try:
            await self.clock.sleep(seconds)
        finally:
            self._busy += 1

    async def _auto_turn(self, table: Table, version: int, seat: int) -> None:
        try:
            await self._sleep(self.ai_delay)
            gate = self.gate() if self.gate is not None else contextlib.nullcontext()
            async with gate, table.lock:
                if table.version != version or table.status != PLAYING:
                    return
                await self._auto_move(table, seat, [])
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("automatic move failed at table %s", table.id)

    async def _turn_timer(self, table: Table, version: int, seat: int) -> None:
        try:
            await self._sleep(table.timer / 2)
            async with table.lock:
                if table.version != version:
                    return
                s = table.seats[seat]
                self._emit(table, notices=(Notice(
                    "notice.reminder", {"name": s.name, "seconds": table.timer // 2},
                    mention=s.user_id),))
            await self._sleep(table.timer - table.timer / 2)
            async with table.lock:
                if table.version != version or table.status != PLAYING:
                    return
                s = table.seats[seat]
                s.missed += 1
                notices = [Notice("notice.timed_out", {"name": s.name})]
                if s.missed >= MISSES_BEFORE_AWAY:
                    s.away = True
                    notices.append(Notice("notice.away", {"name": s.name}, mention=s.user_id))
                await self._auto_move(table, seat, notices)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("turn timer failed at table %s", table.id)

    async def _auto_move(self, table: Table, seat: int, notices: list[Notice]) -> None:
        obs = table.observation(seat)
        if obs is None or obs.to_act != seat:
            return
        s = table.seats[seat]
        ai = player(s.level or "normal")
        rng = self._rng(table, f"ai{seat}", table.match_no, table.seq)
        if self.ai_in_thread:
            action = await asyncio.to_thread(ai.choose, obs, rng)
        else:
            action = ai.choose(obs, rng)
        await self._commit(table, action, None, notices, seats_changed=bool(notices))

    async def settle(self, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until no automatic move is running or due now (for tests and benchmarks)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        await asyncio.sleep(0)
        while self._busy:
            await asyncio.sleep(0.001)
            if loop.time() > end:
                raise TimeoutError(f"table service still busy after {timeout}s")


def result_json(r: HandResult) -> dict[str, Any]:
    """A hand's result as JSON for the score sheet."""
    return {
        "end": r.end.value, "dealer": r.dealer, "declarer": r.declarer,
        "contract": r.contract, "complete": r.complete, "made": r.made,
        "taken": {str(k): v for k, v in r.taken.items()},
        "marriages": {str(k): list(v) for k, v in r.marriages.items()},
        "delta": list(r.delta), "totals": list(r.totals), "notes": list(r.notes),
        "multiplier": r.multiplier, "winners": list(r.winners), "aces": list(r.aces),
    }
