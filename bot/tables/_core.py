"""The heart of the table service: the tables it holds and finding them, the move path
(stored, shown, the next automatic move scheduled), telling the listener, a match's
results, and the checks every request makes."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence

from bot.game.actions import Action
from bot.game.events import Event
from bot.game.rules import Rules
from bot.game.state import HandResult
from bot.store import StoreAPI, StoreUnavailable, TableStatus, background_work
from bot.tables._analysis import Analyses
from bot.tables._autoplay import Autoplay, Gate
from bot.tables._daily import DailyChallenge
from bot.tables._ledger import Ledger, Moved
from bot.tables._log import replay_results
from bot.tables._model import Actor, Notice, Seat, Table, TableError, Update
from bot.tables._records import RecordBook
from bot.tables._thinking import choose_off_loop
from bot.tables.clock import Clock, RealClock

# One logger for the service, whichever of its parts writes (operators filter on the name).
log = logging.getLogger("bot.tables._service")

DEFAULT_TIMER = 300
ABANDON_AFTER = 24 * 3600.0
# A new table takes the guild's defaults from a copy up to this old (seconds) where other
# processes may change them: one round trip less per table opened, and an admin's new
# default reaches the other processes' tables within seconds.
SETTINGS_AGE = 10.0
AI_NAMES = ("Ada", "Boris", "Celina", "Dmitri")
SEATING, PLAYING, FINISHED = TableStatus.SEATING, TableStatus.PLAYING, TableStatus.FINISHED

Listener = Callable[[Update], None]
Owns = Callable[[int | None], bool]  # does this process hold the tables of that guild?


def _everything(guild_id: int | None) -> bool:
    return True


# Attaches a set-boards plan to a table being restored (a tournament's; _planned.py).
Planner = Callable[[Table], Awaitable[None]]


class ServiceCore:
    """The tables by channel and id, the ledger that stores their changes, the automatic
    moves, and the path every move takes; the service's parts build on it."""

    def __init__(self, store: StoreAPI, *, clock: Clock | None = None, ai_delay: float = 1.5,
                 seed: int | str | None = None, listener: Listener | None = None,
                 abandon_after: float = ABANDON_AFTER, ai_in_thread: bool = False,
                 gate: Gate | None = None, owns: Owns = _everything, pause: int = 0) -> None:
        self.store = store
        self.owns = owns  # several processes: each holds its shards' guilds (_shards.py)
        self.clock: Clock = clock or RealClock()
        self.seed = seed
        self.listener = listener
        self.abandon_after = abandon_after
        self.ai_in_thread = ai_in_thread
        self.pause = pause  # of new tables: seconds a finished hand stays on show
        self.ledger = Ledger(store, self.clock)
        self.autoplay = Autoplay(self.clock, ai_delay=ai_delay, gate=gate,
                                 move=self._auto_move, emit=self._notify,
                                 deal=self._deal_next)
        self._by_channel: dict[int, Table] = {}
        self._by_id: dict[int, Table] = {}
        self._turns: dict[int, int | None] = {}  # table: the human to act at its last change
        self._system_rng = random.SystemRandom()
        # attaches a tournament's plan to a table being restored, before its log is replayed
        self.planner: Planner | None = None
        self.records = RecordBook(self)
        self.analyses = Analyses(store, self.find)  # hand analyses on request (_analysis.py)
        self.daily = DailyChallenge(store, self.clock)

    def in_channel(self, channel_id: int) -> Table:
        table = self.find(channel_id)
        if table is None:
            raise TableError("error.no_table")
        return table

    def _need_owned(self, guild_id: int | None) -> None:
        # Discord sends a guild's interactions to the process of its shard only; one that
        # arrives here anyway (shards being moved between processes) is told so, not
        # answered from a table this process does not hold.
        if not self.owns(guild_id):
            raise TableError("error.other_process")

    def find(self, channel_id: int) -> Table | None:
        table = self._by_channel.get(channel_id)
        return table if table is not None and table.live else None

    def get(self, table_id: int, actor: Actor | None = None) -> Table:
        """A live table by id; with an ``actor``, only where he asks from (a button carries a
        table id that a crafted request could point at another channel's table)."""
        table = self._by_id.get(table_id)
        if table is None or not table.live:
            if actor is not None and actor.channel_id is not None:
                self._need_owned(actor.guild_id)
            raise TableError("error.table_closed")
        if actor is not None and actor.channel_id is not None and (
                actor.channel_id != table.channel_id or actor.guild_id != table.guild_id):
            raise TableError("error.other_channel")
        return table

    @property
    def tables(self) -> list[Table]:
        return [t for t in self._by_id.values() if t.live]

    def _register(self, table: Table) -> None:
        self._by_id[table.id] = table
        self._by_channel[table.channel_id] = table

    def _notify(self, table: Table, notices: tuple[Notice, ...] = (),
                events: tuple[Event, ...] = (), *, closed: bool = False,
                hand_no: int = 0, by: int | None = None) -> None:
        if self.listener is not None:
            turn = self._turn_began(table, notices, by)
            try:
                self.listener(Update(table, events, notices, closed, hand_no, by, turn))
            except Exception:
                log.exception("table listener failed")

    def _turn_began(self, table: Table, notices: Sequence[Notice],
                    by: int | None) -> int | None:
        """The human whose turn begins with this change, to be told so (if he asked for
        it: ``wants_ping``): not whose turn it was at the last change, nor who made the
        change, nor one a notice of the change mentions already."""
        seat = table.to_act()
        user = None
        if table.live and table.status is PLAYING and seat >= 0 and (
                not table.seats[seat].automatic):
            user = table.seats[seat].user_id
        before = self._turns.get(table.id)
        if user is None:
            self._turns.pop(table.id, None)
            return None
        self._turns[table.id] = user
        if user in (before, by) or any(n.mention == user for n in notices):
            return None
        return user

    async def wants_ping(self, user_id: int) -> bool:
        """The user asked to be told when his turn comes (``/optin ping``); read in the
        background (a copy up to ``SETTINGS_AGE`` old will do), never on a move's answer."""
        try:
            with background_work():
                got = await self.store.player_settings(user_id, max_age=SETTINGS_AGE)
        except StoreUnavailable:
            log.info("turn ping for %s not sent: the database is away", user_id)
            return False
        return got.turn_ping

    async def _seat(self, table: Table, seats: Sequence[Seat], *, host_id: int | None = None,
                    notices: tuple[Notice, ...] = (), by: int | None = None) -> None:
        await self.ledger.seats(table, seats, human=True, host_id=host_id)
        self._notify(table, notices, by=by)
        self.autoplay.schedule(table)

    async def _close(self, table: Table, status: TableStatus) -> None:
        await self.ledger.close(table, status)
        self.autoplay.cancel(table)
        key = "notice.abandoned" if status is TableStatus.ABANDONED else "notice.ended"
        self._notify(table, (Notice(key, {"table": table.id}),), closed=True)

    async def _move(self, table: Table, action: Action, user_id: int | None,
                    notices: list[Notice], seats: Sequence[Seat] | None) -> None:
        moved: Moved = await self.ledger.move(table, action, user_id,
                                              lambda: self._deal_rng(table), seats=seats)
        if moved.over and table.plan is None:
            st = table.state
            assert st is not None
            winners = ", ".join(table.seats[w].name for w in st.match.winners)
            notices.append(Notice("notice.match_won", {"names": winners}))
        self._notify(table, tuple(notices), moved.events, hand_no=moved.hand_no, by=user_id)
        self.autoplay.schedule(table)
        if moved.over and table.plan is not None:  # a board of set boards ended (_planned.py)
            table.plan.after(table)

    async def _auto_move(self, table: Table, seat: int, notices: list[Notice],
                         seats: Sequence[Seat] | None) -> None:
        """The AI's move for ``seat`` (from the seat's own observation only)."""
        obs = table.observation(seat)
        if obs is None or obs.to_act != seat:
            return
        rng = self._rng(table, f"ai{seat}", table.match_no, table.seq)
        action = await choose_off_loop(table.seats[seat].level, obs, rng,
                                       in_thread=self.ai_in_thread)
        await self._move(table, action, None, notices, seats)

    async def _deal_next(self, table: Table, by: int | None = None) -> None:
        """The pause is over: deal the next hand (the table's lock held); ``by`` pressed the
        last Next hand and sees the new hand in the answer, so his turn needs no ping."""
        events = await self.ledger.deal(table, self._deal_rng(table))
        self._notify(table, (), events, by=by)
        self.autoplay.schedule(table)

    def _deal_rng(self, table: Table) -> random.Random:
        """The shuffle of the hand after the current one (the same at once, after a pause
        or after a restart)."""
        return self._rng(table, "deal", table.match_no, table.hand_no + 1)

    def _rng(self, table: Table, what: str, match_no: int, hand_no: int) -> random.Random:
        if self.seed is None:
            return random.Random(self._system_rng.getrandbits(64))
        return random.Random(f"{self.seed}:{table.id}:{what}:{match_no}:{hand_no}")

    async def settle(self, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until no automatic move is running or due now (for tests and benchmarks)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        await asyncio.sleep(0)
        while self.autoplay.busy:
            await asyncio.sleep(0.001)
            if loop.time() > end:
                raise TimeoutError(f"table service still busy after {timeout}s")

    async def match_results(self, table_id: int, match_no: int) -> list[HandResult]:
        """Every hand result of a match, replayed from its log (off the event loop)."""
        row = next((m for m in await self.store.matches(table_id) if m.match_no == match_no),
                   None)
        if row is None:
            return []
        rows = await self.store.moves(table_id, match_no)
        moves = [r.move for r in rows]
        return await asyncio.to_thread(replay_results, Rules.from_json(row.rules), row.dealer,
                                       moves)


def need_status(table: Table, *statuses: TableStatus) -> None:
    """Refuse unless the table is in one of ``statuses``."""
    if table.status not in statuses:
        raise TableError(f"error.status.{table.status.value}")


def need_host(table: Table, actor: Actor) -> None:
    """Refuse unless the actor is the table's host."""
    if actor.user_id != table.host_id:
        host = next((x.name for x in table.seats if x.user_id == table.host_id), "?")
        raise TableError("error.not_host", host=host)


def need_seat(table: Table, actor: Actor) -> int:
    """The actor's seat; refused if he has none."""
    seat = table.seat_of(actor.user_id)
    if seat is None:
        raise TableError("error.not_seated")
    return seat
