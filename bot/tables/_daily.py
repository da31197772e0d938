"""The daily challenge (docs/daily.md): the day's boards played alone against AI seats.

A player's board is a private game keyed by (user, board), not a channel's table: its move
log is in ``daily_moves``, and as at tables each change is committed before it is kept in
memory or shown. The AI seats choose from the board and the moves so far only (their random
generator is seeded from them), so everyone meets the same opponents.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.ai import DEFAULT_BUDGET
from bot.game.actions import Action
from bot.game.boards import Board, board_over, day_boards, result_of
from bot.game.duplicate import BoardScore, DayScore, score_board, score_day, streak
from bot.game.engine import apply_into
from bot.game.errors import RuleError
from bot.game.observation import Observation, observe
from bot.game.presets import PRESETS
from bot.game.serialize import move_from_json, move_to_json
from bot.game.state import State
from bot.i18n.rule_text import rule_message
from bot.store import DailyResultRow, DailySettings, StoreAPI
from bot.tables._catalog import DEFAULT_PRESET
from bot.tables._model import TableError
from bot.tables._thinking import choose_off_loop, played_out
from bot.tables.clock import Clock

log = logging.getLogger(__name__)
AI_LEVEL = "normal"  # the opponents everyone meets
PAR_LEVEL = "strong"  # the par: strong AIs in every seat
Key = tuple[int, str]  # (user id, board key)


def day_of(timestamp: float) -> dt.date:
    """The UTC day of a moment."""
    return dt.datetime.fromtimestamp(timestamp, dt.UTC).date()


def parse_day(text: str) -> dt.date:
    """A ``YYYY-MM-DD`` day typed by someone; TableError naming the form otherwise."""
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise TableError("daily.error.date", text=text[:20]) from None


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished board as its player sees it: result, par, and matchpoints so far."""

    board: Board
    score: BoardScore
    field: int  # players who finished the board, this one included


@dataclass(frozen=True, slots=True)
class Playing:
    """A board in play: what the player sees now."""

    board: Board
    observation: Observation
    moves: int


@dataclass(frozen=True, slots=True)
class DayView:
    """A player's day: the boards, which are finished, and the board to play next."""

    day: dt.date
    preset: str
    boards: tuple[Board, ...]
    finished: dict[int, int]  # board number: result
    closed: bool

    @property
    def next_board(self) -> int | None:
        """The first board not finished yet (None: all done)."""
        return next((b.number for b in self.boards if b.number not in self.finished), None)


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line of a ranking."""

    user_id: int
    name: str
    score: DayScore


@dataclass(frozen=True, slots=True)
class Standings:
    """The day's, week's and month's rankings, and a player's streak."""

    day: dt.date
    preset: str
    today: list[StandingRow]
    week: list[StandingRow]
    month: list[StandingRow]
    streak: int


@dataclass(frozen=True, slots=True)
class Summary:
    """A closed day in a server: the podium and the board where the field did worst."""

    guild_id: int
    channel_id: int
    day: dt.date
    preset: str
    podium: list[StandingRow]
    players: int
    worst_board: int | None  # 0-based
    worst_vs_par: float  # the field's mean result against par on it


class DailyChallenge:
    """The daily challenge's service: boards, pars, moves, results and standings."""

    def __init__(self, store: StoreAPI, clock: Clock, *, ai_level: str = AI_LEVEL,
                 par_level: str = PAR_LEVEL, par_budget: float = DEFAULT_BUDGET) -> None:
        self.store = store
        self.clock = clock
        self.ai_level = ai_level
        self.par_level = par_level
        self.par_budget = par_budget
        self._games: dict[Key, tuple[State, int]] = {}  # only what the database holds: the
        # board's state and its move count
        self._locks: dict[Key, asyncio.Lock] = {}
        self._pars: dict[str, tuple[int, ...]] = {}
        # Results committed by this process, so that its next answers count them even
        # where the store's reads lag a moment behind its writes.
        self._done: dict[Key, DailyResultRow] = {}
        self._done_day: dt.date | None = None
        self._par_locks: dict[str, asyncio.Lock] = {}
        self._par_tasks: dict[str, asyncio.Task[tuple[int, ...]]] = {}

    def today(self) -> dt.date:
        """The day being played (UTC)."""
        return day_of(self.clock.now())

    async def preset_of(self, guild_id: int | None) -> str:
        """The server's daily preset: chosen with /admin daily, else the server's preset."""
        if guild_id is None:
            return DEFAULT_PRESET
        chosen = (await self.store.daily_settings(guild_id)).preset
        if chosen in PRESETS:
            return chosen
        default = (await self.store.guild_settings(guild_id)).default_preset
        return default if default in PRESETS else DEFAULT_PRESET

    async def day(self, user_id: int, guild_id: int | None,
                  day: dt.date | None = None) -> DayView:
        """A player's day (default today) in a server's preset."""
        today = self.today()
        if self._done_day != today:  # yesterday's are in every read by now
            self._done.clear()
            self._done_day = today
        day = day or today
        preset = await self.preset_of(guild_id)
        boards = tuple(day_boards(day, preset))
        rows = await self.store.daily_results(day.isoformat(), day.isoformat(), preset)
        finished = {r.number: r.result for r in rows if r.user_id == user_id}
        finished.update({b.number: self._done[(user_id, b.key)].result for b in boards
                         if (user_id, b.key) in self._done})
        return DayView(day, preset, boards, finished, day < today)

    # ---- par -------------------------------------------------------------------------
    async def par(self, b: Board) -> tuple[int, ...]:
        """A board's par, computed once (strong AIs in every seat) and stored."""
        got = self._pars.get(b.key)
        if got is not None:
            return got
        lock = self._par_locks.setdefault(b.key, asyncio.Lock())
        async with lock:
            if b.key in self._pars:
                return self._pars[b.key]
            stored = await self.store.daily_par(b.key)
            if stored is None:
                moves, delta = await self._play_par(b)
                async with self.store.transaction() as tx:
                    await tx.put_daily_par(b.key, [move_to_json(m) for m in moves],
                                           list(delta), self.clock.now())
                # another process may have stored its own first: that one counts
                stored = await self.store.daily_par(b.key) or (moves, list(delta))
            par = tuple(int(x) for x in stored[1])
            self._pars[b.key] = par
            return par

    def prepare(self, b: Board) -> None:
        """Start computing a board's par in the background (its player will need it at the
        board's end, and the strong AIs take a while)."""
        if b.key in self._pars or b.key in self._par_tasks:
            return
        task = asyncio.get_running_loop().create_task(self.par(b))
        self._par_tasks[b.key] = task
        task.add_done_callback(self._par_done)

    def _par_done(self, task: asyncio.Task[tuple[int, ...]]) -> None:
        for key, t in list(self._par_tasks.items()):
            if t is task:
                del self._par_tasks[key]
        if not task.cancelled() and task.exception() is not None:
            log.error("a daily par failed", exc_info=task.exception())

    async def close(self) -> None:
        """Stop the pars being computed (a later request computes them again)."""
        tasks = list(self._par_tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _play_par(self, b: Board) -> tuple[list[Action], tuple[int, ...]]:
        return await played_out(b.start(), self.par_level, f"1000-daily-par|{b.key}",
                                budget=self.par_budget)

    # ---- playing -----------------------------------------------------------------------
    def _board(self, view: DayView, number: int) -> Board:
        if view.closed:
            raise TableError("daily.error.closed", day=view.day.isoformat())
        if not 0 <= number < len(view.boards):
            raise TableError("daily.error.no_board", count=len(view.boards))
        if number in view.finished:
            raise TableError("daily.error.played", number=number + 1)
        return view.boards[number]

    async def _state(self, user_id: int, b: Board) -> tuple[State, int]:
        key = (user_id, b.key)
        got = self._games.get(key)
        if got is None:  # after a restart: the board's log replayed
            s = b.start()
            log = await self.store.daily_moves(user_id, b.key)
            for raw in log:
                move = move_from_json(raw)
                assert isinstance(move, Action)
                s = apply_into(s, move, None)
            got = self._games[key] = (s, len(log))
        return got

    async def play(self, user_id: int, guild_id: int | None, name: str, day: dt.date,
                   number: int, action: Action | None = None) -> Playing | Finished:
        """Show board ``number`` of ``day`` (``action`` None) or make the player's move; the
        AI seats answer, and all of it is committed before this returns."""
        view = await self.day(user_id, guild_id, day)
        b = self._board(view, number)
        key = (user_id, b.key)
        async with self._locks.setdefault(key, asyncio.Lock()):
            view = await self.day(user_id, guild_id, day)  # a press raced with this one
            b = self._board(view, number)
            s, done = await self._state(user_id, b)
            for each in view.boards:  # the day's pars, ready by the boards' ends
                self.prepare(each)
            new: list[Action] = []
            if action is not None:
                if board_over(s) or s.to_act != b.seat or action.seat != b.seat:
                    raise TableError("daily.error.turn")
                try:
                    s = apply_into(s, action, None)
                except RuleError as exc:
                    msg = rule_message(exc, _names(b), preset=b.preset,
                                       talon=PRESETS[b.preset].talon_name)
                    raise TableError(msg.key, **msg.params) from exc
                new.append(action)
            while not board_over(s) and s.to_act != b.seat:
                rng = random.Random(f"1000-daily-ai|{b.key}|{done + len(new)}")
                # in a thread: a crowd of boards must not hold up the answers to presses
                a = await choose_off_loop(self.ai_level, observe(s, s.to_act), rng,
                                          in_thread=True)
                s = apply_into(s, a, None)
                new.append(a)
            over = board_over(s)
            par: tuple[int, ...] = ()
            if over:
                par = await self.par(b)
            if new:
                first = done
                async with self.store.transaction() as tx:
                    for i, a in enumerate(new):
                        await tx.append_daily_move(user_id, b.key, first + i, move_to_json(a),
                                                   self.clock.now())
                    row = DailyResultRow(
                        user_id, b.key, b.day.isoformat(), b.preset, b.number, guild_id or 0,
                        name, result_of(s)[b.seat], par[b.seat] if par else 0,
                        self.clock.now())
                    if over:  # the result, once, with the last move
                        await tx.add_daily_result(row)
                if over:
                    self._done[key] = row
            if over:
                self._games.pop(key, None)
                return await self.finished(user_id, b)
            self._games[key] = (s, done + len(new))
            return Playing(b, observe(s, b.seat), done + len(new))

    async def choose(self, user_id: int, guild_id: int | None, name: str, day: dt.date,
                     number: int, seen: int, index: int) -> Playing | Finished:
        """Make legal action ``index`` of the position after ``seen`` moves (a button's
        choice); a button of an earlier position is refused."""
        now = await self.play(user_id, guild_id, name, day, number)
        if not isinstance(now, Playing) or now.moves != seen:
            raise TableError("daily.error.stale")
        legal = now.observation.legal
        if not 0 <= index < len(legal):
            raise TableError("daily.error.stale")
        return await self.play(user_id, guild_id, name, day, number, legal[index])

    async def finished(self, user_id: int, b: Board) -> Finished:
        """A finished board's score against those who have finished it so far and par."""
        scores, field = await self.board_scores(b)
        if user_id not in scores:
            raise TableError("daily.error.not_played", number=b.number + 1)
        return Finished(b, scores[user_id], field)

    async def board_scores(self, b: Board) -> tuple[dict[int, BoardScore], int]:
        """Every result of a board scored against the others and par; how many players."""
        par = await self.par(b)
        rows = [r for r in await self.store.daily_results(b.day.isoformat(), b.day.isoformat(),
                                                          b.preset) if r.number == b.number]
        results = {r.user_id: r.result for r in rows}
        results.update({u: row.result for (u, k), row in self._done.items() if k == b.key})
        return score_board(results, par[b.seat]), len(results)

    # ---- the servers' choices and the end of the day --------------------------------------
    async def settings(self, guild_id: int) -> DailySettings:
        """A server's daily choices."""
        return await self.store.daily_settings(guild_id)

    async def set_settings(self, guild_id: int | None, can_manage: bool, *,
                           preset: str | None = None,
                           channel_id: int | None = None) -> DailySettings:
        """Choose a server's daily preset ('' = the server's) and summary channel (0 = none)."""
        if guild_id is None:
            raise TableError("error.guild_only")
        if not can_manage:
            raise TableError("error.not_admin")
        changes: dict[str, object] = {}
        if preset is not None:
            if preset and preset not in PRESETS:
                raise TableError("error.unknown_preset", name=preset[:20],
                                 presets=", ".join(PRESETS))
            changes["preset"] = preset
        if channel_id is not None:
            changes["channel_id"] = channel_id
            # the last day summarized: yesterday, so that today's is the first posted
            changes["summary_day"] = (self.today() - dt.timedelta(days=1)).isoformat()
        async with self.store.transaction() as tx:
            await tx.set_daily_settings(guild_id, **changes)
        return await self.store.daily_settings(guild_id)

    async def summaries_due(self) -> list[Summary]:
        """The closed days whose summary a server asked for and has not had yet."""
        yesterday = self.today() - dt.timedelta(days=1)
        out = []
        for s in await self.store.daily_summary_guilds():
            if s.summary_day >= yesterday.isoformat():
                continue
            preset = await self.preset_of(s.guild_id)
            st = await self.standings(s.guild_id, 0, yesterday)
            rows = [r for r in await self.store.daily_results(
                yesterday.isoformat(), yesterday.isoformat(), preset)
                if r.guild_id == s.guild_id]
            against: dict[int, list[int]] = {}
            for r in rows:
                against.setdefault(r.number, []).append(r.result - r.par)
            means = {n: sum(v) / len(v) for n, v in against.items()}
            worst = min(means, key=lambda n: (means[n], n)) if means else None
            out.append(Summary(s.guild_id, s.channel_id, yesterday, preset, st.today[:3],
                               len(st.today), worst, means.get(worst, 0.0)
                               if worst is not None else 0.0))
        return out

    async def summarized(self, guild_id: int, day: dt.date) -> None:
        """A server's summary of ``day`` is posted (or cannot be): not again."""
        async with self.store.transaction() as tx:
            await tx.set_daily_settings(guild_id, summary_day=day.isoformat())

    # ---- standings -------------------------------------------------------------------
    async def standings(self, guild_id: int | None, user_id: int, day: dt.date | None = None,
                        *, global_scope: bool = False) -> Standings:
        """The day's, its week's and its month's rankings in a server (or the opted-in
        players everywhere) and the player's streak."""
        day = day or self.today()
        preset = await self.preset_of(guild_id)
        month_start = day.replace(day=1)
        week_start = day - dt.timedelta(days=day.weekday())
        first = min(month_start, week_start)
        rows = await self.store.daily_results(first.isoformat(), day.isoformat(), preset)
        if global_scope:
            shown = {u for u in {r.user_id for r in rows}
                     if (await self.store.player_settings(u)).global_opt_in}
        else:
            shown = {r.user_id for r in rows if r.guild_id == (guild_id or 0)}
        today = self.today()
        days = await self.store.daily_user_days(user_id)
        n = streak([dt.date.fromisoformat(d).toordinal() for d in days], today.toordinal())
        return Standings(day, preset, _rank(rows, day, day, shown),
                         _rank(rows, week_start, day, shown), _rank(rows, month_start, day, shown),
                         n)


def _names(b: Board) -> list[str]:
    """The seats' names as a board's player reads them: he is "you" in his refusals."""
    return [f"AI {i + 1}" for i in range(b.rules.seats)]


def _rank(rows: Sequence[DailyResultRow], first: dt.date, last: dt.date,
          shown: set[int]) -> list[StandingRow]:
    """The ``shown`` players ranked by mean matchpoint percentage over their boards between
    two days (each board scored against everyone who played it)."""
    boards: dict[tuple[str, int], list[DailyResultRow]] = {}
    for r in rows:
        if first.isoformat() <= r.day <= last.isoformat():
            boards.setdefault((r.day, r.number), []).append(r)
    per_player: dict[int, list[BoardScore]] = {}
    names: dict[int, str] = {}
    for results in boards.values():
        scored = score_board({r.user_id: r.result for r in results}, results[0].par)
        for r in results:
            if r.user_id not in shown:
                continue
            per_player.setdefault(r.user_id, []).append(scored[r.user_id])
            names[r.user_id] = r.name
    out = [StandingRow(u, names[u], score_day(s)) for u, s in per_player.items()]
    out.sort(key=lambda x: (-x.score.percent, -x.score.vs_par, x.name, x.user_id))
    return out
