"""Playing a match: starting it, the players' moves, the next hand, looking at one's cards,
and coming back to a seat."""

from __future__ import annotations

from bot.game.actions import Flag, Verb, act
from bot.game.engine import turn_refusal
from bot.tables._core import (
    FINISHED,
    PLAYING,
    SEATING,
    ServiceCore,
    need_host,
    need_seat,
    need_status,
)
from bot.tables._model import Actor, Notice, Outcome, Table, TableError


class MatchPlay(ServiceCore):
    """Starting matches and making the players' moves."""

    async def start(self, table_id: int, actor: Actor) -> Outcome:
        table = self.get(table_id, actor)
        async with table.lock:
            need_status(table, SEATING)
            need_host(table, actor)
            if not table.full:
                raise TableError("error.seats_not_full", seated=len(table.seats),
                                 seats=table.size)
            await self._start_match(table, table.size - 1, actor)
            return Outcome(table, "ok.started")

    async def rematch(self, table_id: int, actor: Actor) -> Outcome:
        table = self.get(table_id, actor)
        async with table.lock:
            need_status(table, FINISHED)
            need_seat(table, actor)
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
                seats = [x.with_changes(away=False, missed=0) if i == seat else x
                         for i, x in enumerate(table.seats)]
                if s.away:
                    notices.append(Notice("notice.back", {"name": s.name}))
            await self._move(table, action, actor.user_id, notices, seats)
            return table.moved(action, seat)

    def _playing_seat(self, table: Table, actor: Actor) -> int:
        """The actor's seat at a table in play (refusals otherwise)."""
        need_status(table, PLAYING)
        return need_seat(table, actor)

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
            seat = need_seat(table, actor)
            s = table.seats[seat]
            if not s.away:
                raise TableError("error.not_away")
            seats = [x.with_changes(away=False, missed=0) if i == seat else x
                     for i, x in enumerate(table.seats)]
            await self._seat(table, seats, notices=(Notice("notice.back", {"name": s.name}),),
                             by=actor.user_id)
            return Outcome(table, "ok.back")
