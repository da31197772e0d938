"""Reads of tables and their logs (a mixin of both stores; the SQL is the same for both)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.store._records import HandRow, MatchRow, MoveRow, SeatRow, SetAsideRow, TableRow
from bot.store._status import LIVE_STATUSES, TableStatus


class Queries:
    """Rows by SQL with ``?`` placeholders; each store runs them on its own connection."""

    async def _one(self, sql: str, args: Sequence[Any]) -> Any:
        raise NotImplementedError

    async def _all(self, sql: str, args: Sequence[Any]) -> list[Any]:
        raise NotImplementedError

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        """Every row of a query (``?`` placeholders; tools and tests)."""
        return await self._all(sql, args)


class TableReads(Queries):
    """Tables, seats, the move log, matches and hands."""

    async def table(self, table_id: int) -> TableRow | None:
        row = await self._one("SELECT * FROM tables WHERE id = ?", (table_id,))
        if row is None:
            return None
        table = _table_row(row)
        table.seats = await self.seats(table_id)
        return table

    async def live_tables(self) -> list[TableRow]:
        marks = ",".join("?" * len(LIVE_STATUSES))
        live = [s.value for s in LIVE_STATUSES]
        tables = [_table_row(r) for r in await self._all(
            f"SELECT * FROM tables WHERE status IN ({marks}) ORDER BY id", live)]
        seats: dict[int, list[SeatRow]] = {}
        for r in await self._all(
                f"SELECT s.* FROM seats s JOIN tables t ON t.id = s.table_id"
                f" WHERE t.status IN ({marks}) ORDER BY s.table_id, s.seat", live):
            seats.setdefault(r["table_id"], []).append(_seat_row(r))
        for t in tables:
            t.seats = seats.get(t.id, [])
        return tables

    async def seats(self, table_id: int) -> list[SeatRow]:
        return [_seat_row(r) for r in await self._all(
            "SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))]

    async def moves(self, table_id: int, match_no: int) -> list[MoveRow]:
        return [MoveRow(r[0], _object_or_none(r[1]), r[2], r[3], r[1])
                for r in await self._all(
                    "SELECT seq, move, user_id, created_at FROM moves"
                    " WHERE table_id = ? AND match_no = ? ORDER BY seq", (table_id, match_no))]

    async def set_aside(self, table_id: int) -> list[SetAsideRow]:
        """The moves set aside from this table's logs (see :meth:`Tx.set_aside_moves`)."""
        return [SetAsideRow(*r) for r in await self._all(
            "SELECT table_id, match_no, seq, move, user_id, created_at, reason, set_aside_at"
            " FROM set_aside_moves WHERE table_id = ? ORDER BY match_no, seq, set_aside_at",
            (table_id,))]

    async def looks(self, table_id: int, match_no: int) -> set[tuple[int, int]]:
        """(hand_no, seat) of every look at the cards recorded in this match."""
        return {(r[0], r[1]) for r in await self._all(
            "SELECT hand_no, seat FROM looks WHERE table_id = ? AND match_no = ?",
            (table_id, match_no))}

    async def matches(self, table_id: int) -> list[MatchRow]:
        return [MatchRow(r["table_id"], r["match_no"], json.loads(r["rules"]), r["dealer"],
                         json.loads(r["seats"]), r["status"], json.loads(r["winners"]),
                         json.loads(r["totals"]), r["started_at"], r["finished_at"])
                for r in await self._all(
                    "SELECT * FROM matches WHERE table_id = ? ORDER BY match_no", (table_id,))]

    async def hands(self, table_id: int, match_no: int) -> list[HandRow]:
        return [HandRow(r[0], r[1], json.loads(r[2]), r[3]) for r in await self._all(
            "SELECT match_no, hand_no, result, created_at FROM hands"
            " WHERE table_id = ? AND match_no = ? ORDER BY hand_no", (table_id, match_no))]

    async def hand_analysis(self, table_id: int, match_no: int,
                            hand_no: int) -> dict[str, Any] | None:
        """A hand's stored analysis (None: not computed yet)."""
        row = await self._one(
            "SELECT analysis FROM hand_analyses WHERE table_id = ? AND match_no = ?"
            " AND hand_no = ?", (table_id, match_no, hand_no))
        return _object_or_none(row[0]) if row is not None else None


def _object_or_none(text: Any) -> dict[str, Any] | None:
    """A stored move as a dict, or None if the text is not a JSON object (never raises)."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _table_row(r: Any) -> TableRow:
    return TableRow(
        id=r["id"], guild_id=r["guild_id"], channel_id=r["channel_id"], host_id=r["host_id"],
        preset=r["preset"], rules=json.loads(r["rules"]), timer=r["timer"],
        status=TableStatus(r["status"]),
        match_no=r["match_no"], dealer=r["dealer"], message_id=r["message_id"],
        created_at=r["created_at"], updated_at=r["updated_at"],
        last_human_at=r["last_human_at"], locale=r["locale"], pause=r["pause"])


def _seat_row(r: Any) -> SeatRow:
    return SeatRow(r["seat"], r["user_id"], r["name"], bool(r["is_ai"]), r["ai_level"],
                   bool(r["away"]), r["missed"])
