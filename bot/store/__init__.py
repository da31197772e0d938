"""Persistence: tables, seats, the append-only move log, matches, hands, the record.

Two stores behind one interface (:class:`StoreAPI`, opened by :func:`open_store`): SQLite
(the default, below) and PostgreSQL (``DATABASE_URL``, :mod:`bot.store._pg`).

Every accepted move is appended (and committed) before the service answers, so a killed
process loses nothing it acknowledged. Writes go through one ``sqlite3`` connection on the
event loop's thread (WAL, ``synchronous=NORMAL``: a commit is a write into the WAL, no
fsync), serialized by an asyncio lock so that one coroutine's transaction never interleaves
with another's; reads and background WAL checkpoints use an aiosqlite connection.
"""

from __future__ import annotations

from bot.store._community import (
    GuildSettings,
    HandLine,
    LeaderRow,
    MatchInfo,
    MatchRecord,
    Metric,
    PlayerKind,
    PlayerRef,
    PlayerSettings,
    Profile,
    RatingPoint,
)
from bot.store._daily import DailyResultRow, DailySettings
from bot.store._health import DatabaseUnusable, check_database_path
from bot.store._interface import StoreAPI, StoreUnavailable, TxAPI
from bot.store._lock import DatabaseInUse, one_process
from bot.store._open import check_database, open_store
from bot.store._pg import CONNECT_DELAYS, PgStore, PgTx
from bot.store._records import HandRow, MatchRow, MoveRow, SeatRow, SetAsideRow, TableRow
from bot.store._status import LIVE_STATUSES, TableStatus
from bot.store._store import CHECKPOINT_AFTER, ChannelTaken, Store, Tx, migrations
from bot.store._tournaments import (
    BoardResultRow,
    EntrantRow,
    EventTableRow,
    TournamentRow,
    TournamentSettings,
)
from bot.store._turns import background_work

__all__ = [
    "CHECKPOINT_AFTER", "CONNECT_DELAYS", "LIVE_STATUSES", "BoardResultRow", "ChannelTaken",
    "DailyResultRow",
    "DailySettings", "DatabaseInUse", "DatabaseUnusable", "EntrantRow", "EventTableRow",
    "GuildSettings", "HandLine", "HandRow",
    "LeaderRow", "MatchInfo", "MatchRecord", "MatchRow", "Metric", "MoveRow", "PgStore", "PgTx",
    "PlayerKind", "PlayerRef",
    "PlayerSettings", "Profile", "RatingPoint",
    "SeatRow", "SetAsideRow", "Store", "StoreAPI", "StoreUnavailable", "TableRow", "TableStatus",
    "TournamentRow", "TournamentSettings", "Tx", "TxAPI", "background_work", "check_database",
    "check_database_path", "migrations",
    "one_process", "open_store",
]
