"""The table service: what the cogs call, and the only thing they ask.

Tables by channel; every public method is safe to call concurrently (one lock per table).
Each change is committed by the ``Ledger`` before the table shows it and before the method
returns, so whatever a caller answers is already stored.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence

from bot.game.actions import Action, Flag, Verb, act
from bot.game.engine import turn_refusal
from bot.game.events import Event
from bot.game.rules import Rules
from bot.game.state import HandResult
from bot.i18n import DEFAULT, language
from bot.i18n.values import Clauses, Msg, PresetTitle
from bot.store import ChannelTaken, StoreAPI, StoreUnavailable, TableStatus, background_work
from bot.tables._analysis import Analyses
from bot.tables._autoplay import Autoplay, Gate
from bot.tables._catalog import (
    LANGUAGE_OPTION,
    PAUSE_OPTION,
    RulesSummary,
    ai_level,
    option_names,
    option_values,
    pause_seconds,
    preset_digest,
    preset_for,
    preset_of_language,
    rules_for,
    rules_summary,
    table_language,
    table_languages,
    with_option,
)
from bot.tables._daily import Daily
from bot.tables._inputs import quote
from bot.tables._ledger import Ledger, Moved, Saving
from bot.tables._log import replay_match, replay_results
from bot.tables._model import Actor, Notice, Outcome, Seat, Table, TableError, Update
from bot.tables._planned import PlannedTables
from bot.tables._records import Records
from bot.tables._thinking import choose_off_loop, stop_thinking
from bot.tables.clock import Clock, RealClock

log = logging.getLogger(__name__)

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


class TableService(PlannedTables):
    """Tables by channel: seating, moves, automatic moves, restore, sweeping."""

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
        self.records = Records(self)
        self.analyses = Analyses(store, self.find)  # hand analyses on request (_analysis.py)
        self.daily = Daily(store, self.clock)

    # ---- lookup ------------------------------------------------------------------------
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

    # ---- lifecycle ---------------------------------------------------------------------
    async def restore(self) -> int:
        """Rebuild every live table this process holds from the database (replaying its
        log); how many. Tables of other processes' shards are left to them.

        A log with an unreadable or illegal move keeps what replays before it; the rest is
        set aside for the operator (``python -m bot db check`` lists it) and the channel is
        told."""
        self.analyses.loop = asyncio.get_running_loop()  # stored analyses run here
        count = 0
        ended_at: dict[int, float] = {}  # when each table's last stored move was made
        for row in await self.store.live_tables():
            if not self.owns(row.guild_id):
                continue
            table = Table(
                id=row.id, guild_id=row.guild_id, channel_id=row.channel_id,
                host_id=row.host_id, preset=row.preset,
                rules=Rules.from_json(row.rules), timer=row.timer, status=row.status,
                match_no=row.match_no, dealer=row.dealer, message_id=row.message_id,
                created_at=row.created_at, last_human_at=row.last_human_at,
                seats=tuple(Seat.from_row(s) for s in row.seats), locale=row.locale,
                pause=row.pause)
            if self.planner is not None:  # a tournament's table: its boards (_planned.py)
                await self.planner(table)
            try:
                ended_at[table.id] = await self._replay(table)
            except StoreUnavailable:  # the log is fine, the server is not: start later
                raise
            except Exception:
                log.exception("table %s could not be restored; closing it", table.id)
                await self.ledger.close(table, TableStatus.ENDED)
                continue
            self._register(table)
            count += 1
        for table in self.tables:
            async with table.lock:
                if table.status is PLAYING and not (
                        table.paused and self.ledger.hold(table, ended_at.get(table.id, 0.0))):
                    await self.ledger.deal(table, self._deal_rng(table))
                self._turn_began(table, (), None)  # whose turn it is now began before
                self.autoplay.schedule(table)
        return count

    async def _replay(self, table: Table) -> float:
        """Rebuild the table's match from its log; when its last good move was made."""
        if table.status is SEATING or table.match_no == 0:
            return 0.0
        rows = await self.store.moves(table.id, table.match_no)
        moves = [r.move for r in rows]
        done = await asyncio.to_thread(replay_match, table.rules, table.dealer, moves)
        table.state, table.seq, table.results = done.state, done.good, done.results
        table.match_started = next((m.started_at for m in await self.store.matches(table.id)
                                    if m.match_no == table.match_no), table.created_at)
        table.looked = frozenset(await self.store.looks(table.id, table.match_no))
        ended_at = rows[done.good - 1].created_at if done.good else 0.0
        if done.bad is None:
            return ended_at
        bad = rows[done.bad]
        log.error("table %s: stored move %s of match %s does not replay (%s); keeping the "
                  "%s moves before it", table.id, bad.seq, table.match_no, done.reason,
                  done.good)
        aside = await self.ledger.set_aside(table, done.state, bad.seq, done.reason)
        self._notify(table, (Notice("notice.restored_partly", {
            "table": table.id, "count": aside, "hand": table.hand_no}),))
        return ended_at

    async def close(self) -> None:
        """Stop timers and AI turns (the database keeps everything)."""
        await self.autoplay.close()
        await self.analyses.close()
        await self.daily.close()

    async def close_pools(self) -> None:
        """Stop the AI's worker processes (a process that stops; after :meth:`close`)."""
        await stop_thinking()

    async def close_store(self) -> None:
        """Close the database (last, after everything that reads it stopped)."""
        await self.store.close()

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

    # ---- seating -----------------------------------------------------------------------
    async def create(self, actor: Actor, *, channel_id: int, guild_id: int | None,
                     preset: str | None = None, players: int | None = None,
                     timer: int | None = None, locale: str = "",
                     guild_locale: str | None = None) -> Outcome:
        """Open a table; ``locale`` is the language of its public messages. What is not
        given comes from the guild's settings (``/admin defaults``), the preset where it
        chose none from the server's language (``guild_locale``)."""
        self._need_owned(guild_id)
        settings = (await self.store.guild_settings(guild_id, max_age=SETTINGS_AGE)
                    if guild_id is not None else None)
        if preset is None:
            chosen = settings.default_preset if settings else ""
            preset = chosen or preset_of_language(guild_locale)
        if timer is None:
            timer = settings.turn_timer if settings else DEFAULT_TIMER
        if settings is not None and settings.language:
            locale = settings.language
        preset = preset_for(preset, players)
        rules = rules_for(preset, players)
        if timer and not 30 <= timer <= 3600:
            raise TableError("error.timer_range")
        old = self._by_channel.get(channel_id)
        if old is not None and old.live:
            if old.status is not FINISHED:
                raise TableError("error.channel_taken")
            async with old.lock:
                await self._close(old, TableStatus.ENDED)
        now = self.clock.now()
        seats = (Seat(actor.user_id, actor.name),)
        try:
            async with Saving(self.store) as tx:
                table_id = await tx.create_table(
                    guild_id=guild_id, channel_id=channel_id, host_id=actor.user_id,
                    preset=preset, rules=rules.to_json(), timer=timer, now=now, locale=locale)
                await tx.save_seats(table_id, [s.row(i) for i, s in enumerate(seats)])
                await tx.update_table(table_id, pause=self.pause)
        except ChannelTaken:
            raise TableError("error.channel_taken") from None
        table = Table(id=table_id, guild_id=guild_id, channel_id=channel_id,
                      host_id=actor.user_id, preset=preset, rules=rules, timer=timer,
                      status=SEATING, created_at=now, last_human_at=now, seats=seats,
                      locale=locale, pause=self.pause)
        self._register(table)
        return Outcome(table, "ok.created", {"title": table.title_word()}, seat=0)

    async def default_preset(self, guild_id: int | None, guild_locale: str | None) -> str:
        """The preset ``/table new`` opens without one: the server's choice, else its
        language's."""
        settings = (await self.store.guild_settings(guild_id, max_age=SETTINGS_AGE)
                    if guild_id is not None else None)
        return (settings.default_preset if settings else "") or preset_of_language(guild_locale)

    async def join(self, table_id: int, actor: Actor) -> Outcome:
        table = self.get(table_id, actor)
        async with table.lock:
            _need(table, SEATING)
            if table.seat_of(actor.user_id) is not None:
                raise TableError("error.already_seated")
            if table.full:
                raise TableError("error.table_full")
            await self._seat(table, (*table.seats, Seat(actor.user_id, actor.name)))
            return Outcome(table, "ok.joined", {"name": actor.name}, seat=len(table.seats) - 1)

    async def add_ai(self, table_id: int, actor: Actor, level: str = "normal") -> Outcome:
        table = self.get(table_id, actor)
        level = ai_level(level)
        async with table.lock:
            _need(table, SEATING)
            _need_host(table, actor)
            if table.full:
                raise TableError("error.table_full")
            taken = {s.name for s in table.seats}
            name = next((n for n in AI_NAMES if n not in taken), f"AI {len(table.seats) + 1}")
            await self._seat(table, (*table.seats, Seat(None, name, ai=True, level=level)))
            return Outcome(table, "ok.ai_added",
                           {"name": name, "level": Msg.of(f"choice.level.{level}")})

    async def leave(self, table_id: int, actor: Actor) -> Outcome:
        table = self.get(table_id, actor)
        async with table.lock:
            return await self._unseat(table, _need_seat(table, actor), "ok.left")

    async def kick(self, table_id: int, actor: Actor, user_id: int) -> Outcome:
        table = self.get(table_id, actor)
        async with table.lock:
            _need_host(table, actor)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("error.user_not_seated")
            if user_id == actor.user_id:
                raise TableError("error.kick_self")
            return await self._unseat(table, seat, "ok.kicked")

    async def _unseat(self, table: Table, seat: int, key: str) -> Outcome:
        name = table.seats[seat].name
        if table.status is SEATING:
            seats = tuple(s for i, s in enumerate(table.seats) if i != seat)
            if not any(not s.ai for s in seats):
                await self._close(table, TableStatus.ENDED)
                return Outcome(table, key, {"name": name, "closed": True})
            host = None
            if table.seats[seat].user_id == table.host_id:
                host = next(s.user_id for s in seats if not s.ai) or 0
            await self._seat(table, seats, host_id=host)
            return Outcome(table, key, {"name": name})
        # Mid-match an AI plays the seat: a player who left is marked away (he may take
        # the seat back with "I'm back"); a kicked one is replaced for good.
        if key == "ok.left":
            seats = tuple(s.but(away=True) if i == seat else s
                          for i, s in enumerate(table.seats))
        else:
            seats = tuple(Seat(None, name, ai=True, level="normal") if i == seat else s
                          for i, s in enumerate(table.seats))
        await self._seat(table, seats, notices=(Notice("notice.replaced_by_ai",
                                                       {"name": name}),))
        return Outcome(table, key, {"name": name})

    async def _seat(self, table: Table, seats: Sequence[Seat], *, host_id: int | None = None,
                    notices: tuple[Notice, ...] = (), by: int | None = None) -> None:
        await self.ledger.seats(table, seats, human=True, host_id=host_id)
        self._notify(table, notices, by=by)
        self.autoplay.schedule(table)

    async def set_option(self, table_id: int, actor: Actor, name: str, raw: str) -> Outcome:
        """Change a rule before the start, or the table's language (``language``) or pause
        (``pause``) at any time; the host only."""
        table = self.get(table_id, actor)
        if name.strip().lower() == LANGUAGE_OPTION:
            return await self._set_language(table, actor, raw)
        if name.strip().lower() == PAUSE_OPTION:
            return await self._set_pause(table, actor, raw)
        async with table.lock:
            _need(table, SEATING)
            _need_host(table, actor)
            rules, shown = with_option(table.rules, name, raw)
            if len(table.seats) > rules.seats:
                raise TableError("error.too_many_seated", seats=rules.seats)
            await self.ledger.rules(table, rules)
            self._notify(table)
            return Outcome(table, "ok.option_set", {"name": name, "value": shown})

    async def _set_language(self, table: Table, actor: Actor, raw: str) -> Outcome:
        async with table.lock:
            if not table.live:
                raise TableError("error.table_closed")
            _need_host(table, actor)
            code = table_language(raw)
            await self.ledger.locale(table, code)
            self._notify(table)
            return Outcome(table, "ok.option_set", {"name": LANGUAGE_OPTION, "value": code})

    async def _set_pause(self, table: Table, actor: Actor, raw: str) -> Outcome:
        seconds = pause_seconds(raw)
        async with table.lock:
            if not table.live:
                raise TableError("error.table_closed")
            _need_host(table, actor)
            await self.ledger.pause(table, seconds)
            self._notify(table)
            self.autoplay.schedule(table)
            return Outcome(table, "ok.option_set", {"name": PAUSE_OPTION, "value": seconds})

    def option_names(self, current: str) -> list[str]:
        """Option names for autocomplete, those starting with ``current`` first."""
        return option_names(current)

    def option_values(self, channel_id: int, name: str, current: str) -> list[str]:
        """Values to suggest for option ``name`` at the channel's table."""
        table = self.find(channel_id)
        if name == LANGUAGE_OPTION:
            now = language(table.locale) if table is not None else DEFAULT
            return [c for c in dict.fromkeys([now, *table_languages()])
                    if current.lower() in c]
        if name == PAUSE_OPTION:
            now = str(table.pause if table is not None else self.pause)
            return [v for v in dict.fromkeys([now, "0", "4", "8", "15", "30", "60"])
                    if v.startswith(current.strip())]
        return option_values(table.rules if table else None, name, current)

    def rules_summary(self, table: Table) -> RulesSummary:
        """The table's preset and every option, marking those changed from the preset."""
        return rules_summary(table.preset, table.rules)

    def preset_digest(self, preset: str) -> tuple[tuple[Clauses, ...], PresetTitle]:
        """A preset's rules in five sentences and its title (no table to ask)."""
        return preset_digest(preset)

    def may_end(self, table_id: int, actor: Actor) -> Table:
        """The table, if ``actor`` may end it (its host or a channel manager)."""
        table = self.get(table_id, actor)
        if actor.user_id != table.host_id and not actor.can_manage:
            raise TableError("error.not_host_or_manager")
        return table

    async def end(self, table_id: int, actor: Actor) -> Outcome:
        table = self.may_end(table_id, actor)
        async with table.lock:
            if not table.live:
                raise TableError("error.table_closed")
            await self._close(table, TableStatus.ENDED)
            return Outcome(table, "ok.ended")

    async def set_message(self, table: Table, message_id: int | None) -> None:
        """Remember the public table message (so that it survives a restart)."""
        await self.ledger.message(table, message_id)

    async def sweep(self) -> list[Table]:
        """Close tables without a human move for ``abandon_after`` seconds."""
        now = self.clock.now()
        closed = []
        for table in self.tables:
            if now - table.last_human_at >= self.abandon_after:
                async with table.lock:
                    if table.live and now - table.last_human_at >= self.abandon_after:
                        await self._close(table, TableStatus.ABANDONED)
                        closed.append(table)
        return closed

    async def run_sweeper(self, every: float = 600.0) -> None:
        """Sweep forever (a background task of the bot)."""
        while not self.autoplay.closing:
            await self.clock.sleep(every)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweep failed")

    async def _close(self, table: Table, status: TableStatus) -> None:
        await self.ledger.close(table, status)
        self.autoplay.cancel(table)
        key = "notice.abandoned" if status is TableStatus.ABANDONED else "notice.ended"
        self._notify(table, (Notice(key, {"table": table.id}),), closed=True)

    # ---- playing -------------------------------------------------------------------------
    async def start(self, table_id: int, actor: Actor) -> Outcome:
        table = self.get(table_id, actor)
        async with table.lock:
            _need(table, SEATING)
            _need_host(table, actor)
            if not table.full:
                raise TableError("error.seats_not_full", seated=len(table.seats),
                                 seats=table.size)
            await self._start_match(table, table.size - 1, actor)
            return Outcome(table, "ok.started")

    async def rematch(self, table_id: int, actor: Actor) -> Outcome:
        table = self.get(table_id, actor)
        async with table.lock:
            _need(table, FINISHED)
            _need_seat(table, actor)
            await self._start_match(table, (table.dealer + 1) % table.size, actor)
            return Outcome(table, "ok.rematch")

    async def _start_match(self, table: Table, dealer: int, actor: Actor) -> None:
        moved = await self.ledger.start_match(
            table, dealer, self._rng(table, "deal", table.match_no + 1, 0))
        self._notify(table, (Notice("notice.started", {"by": actor.name}),), moved.events,
                     by=actor.user_id)
        self.autoplay.schedule(table)

    async def act(self, table_id: int, actor: Actor, verb: Verb, *, card: int = -1,
                  amount: int = 0, target: int = -1, flag: Flag = Flag.NONE,
                  hand: str | None = None) -> Outcome:
        """Make a move for the actor's seat; stored before this returns. ``hand``: the hand
        the request was made in (a button of an older hand is refused)."""
        table = self.get(table_id, actor)
        async with table.lock:
            seat = self._playing_seat(table, actor)
            if hand is not None and hand != table.hand_key:
                raise TableError("error.stale_hand", hand=table.hand_no)
            state = table.state
            assert state is not None
            action = act(seat, verb, card, amount, target, flag)
            if state.to_act != seat and verb is not Verb.REDEAL:
                raise table.refusal(turn_refusal(state, action))
            offer = table.offer(seat)
            refusal = offer.refusal(action)
            if refusal is not None:
                raise TableError(refusal[0], **refusal[1])
            if offer.face_down and flag is not Flag.BLIND:
                await self.ledger.look(table, seat)  # made looking at the cards
            s = table.seats[seat]
            notices: list[Notice] = []
            seats = None
            if s.away or s.missed:  # a human moved: he is back (stored with the move)
                seats = [x.but(away=False, missed=0) if i == seat else x
                         for i, x in enumerate(table.seats)]
                if s.away:
                    notices.append(Notice("notice.back", {"name": s.name}))
            await self._move(table, action, actor.user_id, notices, seats)
            return table.moved(action, seat)

    def _playing_seat(self, table: Table, actor: Actor) -> int:
        """The actor's seat at a table in play (refusals otherwise)."""
        _need(table, PLAYING)
        return _need_seat(table, actor)

    async def next_hand(self, table_id: int, actor: Actor) -> Outcome:
        """"Next hand": the actor has seen the finished hand; the next one is dealt once
        every person at the table has (or the pause is over)."""
        table = self.get(table_id, actor)
        async with table.lock:
            seat = self._playing_seat(table, actor)
            if not table.paused:
                raise TableError("error.not_paused")
            self.ledger.ready(table, seat)
            waiting = table.waiting_names()
            if waiting:
                self._notify(table)
                self.autoplay.schedule(table)
                return Outcome(table, "ok.next_hand_waiting", {"names": ", ".join(waiting)},
                               seat=seat)
            await self._deal_next(table, by=actor.user_id)
            return Outcome(table, "ok.next_hand", seat=seat)

    async def _deal_next(self, table: Table, by: int | None = None) -> None:
        """The pause is over: deal the next hand (the table's lock held); ``by`` pressed the
        last Next hand and sees the new hand in the answer, so his turn needs no ping."""
        events = await self.ledger.deal(table, self._deal_rng(table))
        self._notify(table, (), events, by=by)
        self.autoplay.schedule(table)

    async def look(self, table_id: int, actor: Actor) -> Outcome:
        """The actor looks at his cards (blind bidding): stored before he sees them, so
        that he can bid blind no more in this hand. A seat with nothing hidden just looks."""
        table = self.get(table_id, actor)
        async with table.lock:
            seat = self._playing_seat(table, actor)
            if table.face_down(seat):
                await self.ledger.look(table, seat)
            return Outcome(table, "ok.looked", seat=seat)

    async def back(self, table_id: int, actor: Actor) -> Outcome:
        """"I'm back": an absent player takes the seat over from the AI again."""
        table = self.get(table_id, actor)
        async with table.lock:
            seat = _need_seat(table, actor)
            s = table.seats[seat]
            if not s.away:
                raise TableError("error.not_away")
            seats = [x.but(away=False, missed=0) if i == seat else x
                     for i, x in enumerate(table.seats)]
            await self._seat(table, seats, notices=(Notice("notice.back", {"name": s.name}),),
                             by=actor.user_id)
            return Outcome(table, "ok.back")

    async def _move(self, table: Table, action: Action, user_id: int | None,
                    notices: list[Notice], seats: Sequence[Seat] | None) -> None:
        deal_rng = self._deal_rng(table)
        moved: Moved = await self.ledger.move(table, action, user_id, deal_rng, seats=seats)
        if moved.over and table.plan is None:
            st = table.state
            assert st is not None
            winners = ", ".join(table.seats[w].name for w in st.match.winners)
            notices.append(Notice("notice.match_won", {"names": winners}))
        self._notify(table, tuple(notices), moved.events, hand_no=moved.hand_no, by=user_id)
        self.autoplay.schedule(table)
        if moved.over and table.plan is not None:
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

    # ---- records -------------------------------------------------------------------------
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


def _need(table: Table, *statuses: TableStatus) -> None:
    if table.status not in statuses:
        raise TableError(f"error.status.{table.status.value}")


def _need_host(table: Table, actor: Actor) -> None:
    if actor.user_id != table.host_id:
        host = next((x.name for x in table.seats if x.user_id == table.host_id), "?")
        raise TableError("error.not_host", host=host)


def _need_seat(table: Table, actor: Actor) -> int:
    seat = table.seat_of(actor.user_id)
    if seat is None:
        raise TableError("error.not_seated")
    return seat


__all__ = ["DEFAULT_TIMER", "Listener", "Owns", "TableService", "quote"]
