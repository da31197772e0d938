"""Tournaments with duplicate deals (docs/tournaments.md): sign-up, check-in, rounds, standings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.store import StoreAPI
from bot.tables._model import Actor
from bot.tables._service import TableService
from bot.tables._tournament_model import EventView, RoundReport, TournamentPort
from bot.tables.clock import Clock, RealClock


def _everything(guild_id: int) -> bool:
    return True


class Tournaments:
    """The tournaments of every server: sign-up, check-in, rounds, standings."""

    def __init__(self, store: StoreAPI, tables: TableService, *, clock: Clock | None = None,
                 owned: Callable[[int], bool] | None = None) -> None:
        self.store = store
        self.tables = tables
        self.clock: Clock = clock or RealClock()
        self.owned = owned or _everything  # owned(guild_id): this process runs its events
        self.port: TournamentPort | None = None

    def attach(self, port: TournamentPort) -> None:
        """Where the service posts (the Discord side)."""
        self.port = port

    async def restore(self) -> int:
        """Resume every unfinished event of this process's servers; how many."""
        raise NotImplementedError

    async def run_scheduler(self, every: float = 5.0) -> None:
        """Check-in, start and deadlines, forever (a background task of the bot)."""
        raise NotImplementedError

    async def tick(self) -> None:
        """One pass of the scheduler."""
        raise NotImplementedError

    async def create(self, actor: Actor, *, name: str, preset: str, boards: int, rounds: int,
                     start: str, timezone: str | None = None) -> EventView:
        """A new event in the actor's server and channel; ``start`` is "now" or
        "YYYY-MM-DD HH:MM" in ``timezone`` (an IANA name; None: UTC)."""
        raise NotImplementedError

    async def edit(self, event_id: int, actor: Actor, **changes: Any) -> EventView:
        """Change an event's settings before it starts (its organiser or a server manager)."""
        raise NotImplementedError

    async def cancel(self, event_id: int, actor: Actor) -> EventView:
        """Cancel an event before it starts."""
        raise NotImplementedError

    async def join(self, event_id: int, actor: Actor) -> EventView:
        """Enter an event (late entry until round 2)."""
        raise NotImplementedError

    async def leave(self, event_id: int, actor: Actor) -> EventView:
        """Leave an event before it starts."""
        raise NotImplementedError

    async def check_in(self, event_id: int, actor: Actor) -> EventView:
        """Confirm one plays (check-in open)."""
        raise NotImplementedError

    async def set_message(self, event_id: int, message_id: int) -> None:
        """Remember the sign-up message."""
        raise NotImplementedError

    async def find(self, guild_id: int, name: str | None = None) -> EventView | None:
        """An event by name (case-insensitive), or the server's latest."""
        raise NotImplementedError

    async def names(self, guild_id: int, current: str = "") -> list[str]:
        """Event names for autocomplete."""
        raise NotImplementedError

    async def report(self, event_id: int, round_no: int | None = None) -> RoundReport | None:
        """A finished round's results (default: the last finished); None before any."""
        raise NotImplementedError

    async def history(self, guild_id: int, user_id: int) -> tuple[int, int | None]:
        """(tournaments played, best finish) of a player in a server, for /stats."""
        raise NotImplementedError

    async def set_settings(self, actor: Actor, *, role_id: int | None = None,
                           rated: bool | None = None) -> None:
        """The server's organiser role (0: none) and whether events change ratings."""
        raise NotImplementedError
