"""The table service the cogs call: one table per channel, no Discord objects inside.

``TableService`` seats players, starts matches, applies moves (stored before it returns),
plays AI and absent seats, runs the turn timer and closes abandoned tables. Changes the
channel should see go to a listener as ``Update`` values. It answers every question a cog
asks: what a seat may do now (``Table.offer``), the table's title and its talon's name,
the presets, options and AI levels, and the results of a match for its images.
"""

from bot.store import (
    DatabaseUnusable,
    GuildSettings,
    LeaderRow,
    MatchInfo,
    Metric,
    PlayerSettings,
    Profile,
    TableStatus,
)
from bot.tables._analysis import HandAnalysis, StepMark
from bot.tables._autoplay import Gate
from bot.tables._catalog import RulesSummary, ai_levels, preset_of_language, presets
from bot.tables._daily import (
    DailyChallenge,
    DayView,
    Finished,
    Playing,
    StandingRow,
    Standings,
    Summary,
    parse_day,
)
from bot.tables._hands import HandReplay, Step
from bot.tables._inputs import (
    amount_from_text,
    card_from_text,
    index_from_text,
    quote,
    seat_from_text,
    whole_number,
)
from bot.tables._log import result_json
from bot.tables._model import Actor, Notice, Outcome, Seat, Table, TableError, Update
from bot.tables._offers import Offer
from bot.tables._open import open_service
from bot.tables._public import MatchPage, NotShown, PlayerPage, PublicHand, PublicRecords
from bot.tables._public_tournament import PublicTournaments, TournamentPage
from bot.tables._records import (
    EmptyBoard,
    Export,
    LeaderboardQuery,
    Page,
    Period,
    RecordBook,
    Scope,
    Sheet,
)
from bot.tables._service import DEFAULT_TIMER, Listener, Owns, TableService
from bot.tables._shards import ALL_SHARDS, Shards, shard_of
from bot.tables._tournament import Tournaments
from bot.tables._tournament_model import (
    BoardLine,
    Entrant,
    EventStatus,
    EventTable,
    EventView,
    RoundReport,
    StandingLine,
    TournamentPort,
)
from bot.tables._tournament_view import timezones
from bot.tables.clock import Clock, FakeClock, RealClock

__all__ = [
    "ALL_SHARDS",
    "DEFAULT_TIMER",
    "Actor",
    "BoardLine",
    "Clock",
    "DailyChallenge",
    "DatabaseUnusable",
    "DayView",
    "EmptyBoard",
    "Entrant",
    "EventStatus",
    "EventTable",
    "EventView",
    "Export",
    "FakeClock",
    "Finished",
    "Gate",
    "GuildSettings",
    "HandAnalysis",
    "HandReplay",
    "LeaderRow",
    "LeaderboardQuery",
    "Listener",
    "MatchInfo",
    "MatchPage",
    "Metric",
    "NotShown",
    "Notice",
    "Offer",
    "Outcome",
    "Owns",
    "Page",
    "Period",
    "PlayerPage",
    "PlayerSettings",
    "Playing",
    "Profile",
    "PublicHand",
    "PublicRecords",
    "PublicTournaments",
    "RealClock",
    "RecordBook",
    "RoundReport",
    "RulesSummary",
    "Scope",
    "Seat",
    "Shards",
    "Sheet",
    "StandingLine",
    "StandingRow",
    "Standings",
    "Step",
    "StepMark",
    "Summary",
    "Table",
    "TableError",
    "TableService",
    "TableStatus",
    "TournamentPage",
    "TournamentPort",
    "Tournaments",
    "Update",
    "ai_levels",
    "amount_from_text",
    "card_from_text",
    "index_from_text",
    "open_service",
    "parse_day",
    "preset_of_language",
    "presets",
    "quote",
    "result_json",
    "seat_from_text",
    "shard_of",
    "timezones",
    "whole_number",
]
