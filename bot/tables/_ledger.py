"""Every change of a table: computed, committed to the database, and only then applied.

The invariant of the service: a table in memory never shows what the database does not
hold. So each method here first computes the new values (new seats, the next state), then
commits them in one transaction, and only after the commit assigns them to the ``Table``
and bumps its version. A failed commit leaves the table exactly as it was.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from bot.game.actions import Action, Move
from bot.game.boards import board_over, result_of
from bot.game.dealing import new_match, random_deal
from bot.game.engine import apply_into
from bot.game.errors import RuleError
from bot.game.events import Event, HandScored
from bot.game.observation import observe
from bot.game.rules import Rules
from bot.game.serialize import move_to_json
from bot.game.state import HandResult, Phase, State
from bot.store import MatchRecord, StoreAPI, StoreUnavailable, TableStatus, TxAPI
from bot.tables._log import result_json
from bot.tables._model import Seat, Table, TableError
from bot.tables._results import match_record, player_ref
from bot.tables.clock import Clock

log = logging.getLogger(__name__)


# The next hand's shuffle, made only when a move ends a hand (a seeded Random costs ~5 µs,
# which most moves need not pay).
Shuffle = Callable[[], random.Random]


class Saving:
    """``store.transaction()``, with a database that cannot be reached turned into a polite
    refusal (``error.not_saved``): nothing was committed, so nothing is shown as done."""

    __slots__ = ("_tx",)

    def __init__(self, store: StoreAPI) -> None:
        self._tx = store.transaction()

    async def __aenter__(self) -> TxAPI:
        try:
            return await self._tx.__aenter__()
        except StoreUnavailable as exc:
            raise _not_saved(exc) from None

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> bool | None:
        try:
            handled = await self._tx.__aexit__(kind, exc, tb)
        except StoreUnavailable as gone:
            raise _not_saved(gone) from None
        if isinstance(exc, StoreUnavailable):
            raise _not_saved(exc) from None
        return handled


def _not_saved(exc: StoreUnavailable) -> TableError:
    log.warning("not saved: %s", exc)
    return TableError("error.not_saved")


@dataclass(frozen=True, slots=True)
class Moved:
    """What a committed move caused: its events, the hand they belong to, whether the match
    ended."""

    events: tuple[Event, ...]
    hand_no: int
    over: bool


def _on_show(table: Table, state: State, seats: Sequence[Seat]) -> frozenset[int]:
    """The people a finished hand stays on show for (none: deal the next one at once): a
    table with a pause, a hand just scored, the match not over, and someone not an AI."""
    if table.pause <= 0 or state.phase is not Phase.DEALING or state.last_result is None:
        return frozenset()
    return table.people(tuple(seats))


class Ledger:
    """Commits changes of tables to the store, then applies them."""

    def __init__(self, store: StoreAPI, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    async def seats(self, table: Table, seats: Sequence[Seat], *, human: bool,
                    host_id: int | None = None) -> None:
        """New seats (and host); ``human``: a person did it (the table is not abandoned)."""
        now = self.clock.now()
        changes: dict[str, Any] = {"updated_at": now}
        if human:
            changes["last_human_at"] = now
        if host_id is not None:
            changes["host_id"] = host_id
        async with Saving(self.store) as tx:
            await tx.save_seats(table.id, [s.row(i) for i, s in enumerate(seats)])
            await tx.update_table(table.id, **changes)
        table.seats = tuple(seats)
        if host_id is not None:
            table.host_id = host_id
        if human:
            table.last_human_at = now
        table.version += 1

    async def rules(self, table: Table, rules: Rules) -> None:
        async with Saving(self.store) as tx:
            await tx.update_table(table.id, rules=rules.to_json(), updated_at=self.clock.now())
        table.rules = rules
        table.version += 1

    async def locale(self, table: Table, locale: str) -> None:
        """The language of the table's public messages and images."""
        async with Saving(self.store) as tx:
            await tx.update_table(table.id, locale=locale, updated_at=self.clock.now())
        table.locale = locale
        table.version += 1

    async def message(self, table: Table, message_id: int | None) -> None:
        """The public table message (so that it survives a restart)."""
        async with Saving(self.store) as tx:
            await tx.update_table(table.id, message_id=message_id)
        table.message_id = message_id

    async def close(self, table: Table, status: TableStatus) -> None:
        now = self.clock.now()
        async with Saving(self.store) as tx:
            await tx.update_table(table.id, status=status, updated_at=now)
            if table.match_no and table.status is TableStatus.PLAYING:
                st = table.state
                await tx.finish_match(table.id, table.match_no, status=status.value,
                                      winners=[],
                                      totals=list(st.match.totals) if st else [], now=now)
        table.status = status
        table.version += 1

    async def look(self, table: Table, seat: int) -> None:
        """``seat`` looked at his cards in this hand (committed before he sees them)."""
        assert table.state is not None
        hand_no = table.state.match.hand_no
        async with Saving(self.store) as tx:
            await tx.add_look(table.id, table.match_no, hand_no, seat, self.clock.now())
        table.looked = table.looked | {(hand_no, seat)}

    async def start_match(self, table: Table, dealer: int, rng: random.Random) -> Moved:
        now = self.clock.now()
        match_no = table.match_no + 1
        planned = table.plan.board(match_no) if table.plan is not None else None
        if table.plan is not None and planned is None:
            raise TableError("tournament.error.all_played")
        dealer = planned[0] if planned is not None else dealer
        state = new_match(table.rules, dealer)
        deal = [planned[1]] if planned is not None else random_deal(state, rng)
        events: list[Event] = []
        for move in deal:
            state = apply_into(state, move, events)
        seats = tuple(s.with_changes(away=False, missed=0) for s in table.seats)
        seat_list = [{"user_id": s.user_id, "name": s.name, "ai": s.ai} for s in seats]
        async with Saving(self.store) as tx:
            await tx.seen_players([player_ref(s) for s in seats], now)
            await tx.start_match(table.id, match_no, rules=table.rules.to_json(), dealer=dealer,
                                 seats=seat_list, now=now)
            await tx.append_moves(table.id, match_no, 0,
                                  [(move_to_json(m), None) for m in deal], now)
            await tx.save_seats(table.id, [s.row(i) for i, s in enumerate(seats)])
            await tx.update_table(table.id, status=TableStatus.PLAYING, match_no=match_no,
                                  dealer=dealer, updated_at=now, last_human_at=now)
        table.status, table.match_no, table.dealer = TableStatus.PLAYING, match_no, dealer
        table.state, table.seq, table.last_human_at = state, len(deal), now
        table.seats, table.looked = seats, frozenset()
        table.results, table.match_started = (), now
        table.waiting, table.pause_until = frozenset(), 0.0
        table.version += 1
        return Moved(tuple(events), 0, False)

    async def move(self, table: Table, action: Action, user_id: int | None,
                   deal_rng: Shuffle, *, seats: Sequence[Seat] | None = None) -> Moved:
        """Apply ``action``, deal on if a hand ended, commit (with ``seats`` if given)."""
        state = table.state
        assert state is not None
        events: list[Event] = []
        hand_no = state.match.hand_no
        try:
            new = apply_into(state, action, events)
        except RuleError as err:
            raise table.refusal(err) from None
        moves: list[tuple[dict[str, Any], int | None]] = [(move_to_json(action), user_id)]
        hands: list[tuple[int, HandResult]] = [
            (hand_no, e.result) for e in events if isinstance(e, HandScored)]
        # A table of set boards: the board (the match) ends with its hand (_planned.py).
        board_end = table.plan is not None and board_over(new)
        people = frozenset() if board_end else _on_show(table, new, seats or table.seats)
        if new.phase is Phase.DEALING and not people and not board_end:
            for move in random_deal(new, deal_rng()):
                new = apply_into(new, move, events)
                moves.append((move_to_json(move), None))
        now = self.clock.now()
        over = new.phase is Phase.MATCH_OVER or board_end
        human = user_id is not None
        results = table.results + tuple(r for _, r in hands)
        # the result and its rating go into the same transaction as the last move
        record = (await self._record(table, state, new, seats, results, now)
                  if over and not board_end else None)
        async with Saving(self.store) as tx:
            await tx.append_moves(table.id, table.match_no, table.seq, moves, now)
            for no, result in hands:
                await tx.add_hand(table.id, table.match_no, no, result_json(result), now)
            if seats is not None:
                await tx.save_seats(table.id, [s.row(i) for i, s in enumerate(seats)])
            changes: dict[str, Any] = {"updated_at": now}
            if human:
                changes["last_human_at"] = now
            if over:
                changes["status"] = TableStatus.FINISHED
                await tx.finish_match(table.id, table.match_no,
                                      status="board" if board_end else "won",
                                      winners=new.match.winners, totals=new.match.totals,
                                      now=now)
            if board_end and table.plan is not None:
                await table.plan.ended(tx, table, result_of(new), now)
            if record is not None:
                await tx.touch_players(record.players, now)
                await tx.record_match(record, now)
            await tx.update_table(table.id, **changes)
        table.state, table.results = new, results
        table.seq += len(moves)
        if seats is not None:
            table.seats = tuple(seats)
        if human:
            table.last_human_at = now
        if over:
            table.status = TableStatus.FINISHED
        table.waiting, table.pause_until = people, now + table.pause if people else 0.0
        table.version += 1
        return Moved(tuple(events), hand_no, over)

    async def _record(self, table: Table, state: State, new: State,
                      seats: Sequence[Seat] | None, results: tuple[HandResult, ...],
                      now: float) -> MatchRecord:
        """The record of the match ``new`` has just won (``state``: before the last move)."""
        before = observe(state, None)  # who was on the barrel before the last move
        try:
            settings = (await self.store.guild_settings(table.guild_id)
                        if table.guild_id is not None else None)
        except StoreUnavailable as exc:
            raise _not_saved(exc) from None
        return match_record(table, new, seats or table.seats, results, before,
                            settings, started_at=table.match_started, finished_at=now)

    def hold(self, table: Table, since: float) -> bool:
        """A restored table whose last hand ended at ``since`` keeps it on show for the rest
        of its pause (everyone waited for again); False: it is to be dealt now."""
        assert table.state is not None
        people = _on_show(table, table.state, table.seats)
        table.waiting, table.pause_until = people, since + table.pause if people else 0.0
        return bool(people)

    def ready(self, table: Table, seat: int) -> None:
        """``seat``'s player pressed "Next hand". Not stored: a restart waits for everyone
        again, no longer than the pause that is stored."""
        table.waiting = table.waiting - {seat}
        table.version += 1

    async def pause(self, table: Table, seconds: int) -> None:
        """How long the table keeps a finished hand on show (one on show now: from now)."""
        now = self.clock.now()
        async with Saving(self.store) as tx:
            await tx.update_table(table.id, pause=seconds, updated_at=now)
        table.pause = seconds
        if table.paused:
            table.pause_until = now + seconds
        table.version += 1

    async def deal(self, table: Table, rng: random.Random) -> tuple[Event, ...]:
        """A state waiting for cards gets them (the pause over, or after a restore)."""
        st = table.state
        if st is None or st.phase is not Phase.DEALING:
            return ()
        events: list[Event] = []
        deal: list[Move] = list(random_deal(st, rng))
        for move in deal:
            st = apply_into(st, move, events)
        async with Saving(self.store) as tx:
            await tx.append_moves(table.id, table.match_no, table.seq,
                                  [(move_to_json(m), None) for m in deal], self.clock.now())
        table.state, table.seq = st, table.seq + len(deal)
        table.waiting, table.pause_until = frozenset(), 0.0
        table.version += 1
        return tuple(events)

    async def set_aside(self, table: Table, state: State, good: int, reason: str) -> int:
        """Keep the ``good`` moves that replayed; the rest of the log moves to
        ``set_aside_moves`` for the operator. How many rows were set aside."""
        async with Saving(self.store) as tx:
            count = await tx.set_aside_moves(table.id, table.match_no, good, reason,
                                             self.clock.now())
        table.state, table.seq = state, good
        return count

