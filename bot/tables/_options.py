"""A table's options: its rules before the start, its language and pause at any time, and
what to suggest for them."""

from __future__ import annotations

from bot.i18n import DEFAULT, language
from bot.i18n.values import Clauses, PresetTitle
from bot.tables._catalog import (
    LANGUAGE_OPTION,
    PAUSE_OPTION,
    RulesSummary,
    option_names,
    option_values,
    pause_seconds,
    preset_digest,
    rules_summary,
    table_language,
    table_languages,
    with_option,
)
from bot.tables._core import (
    SEATING,
    ServiceCore,
    need_host,
    need_status,
)
from bot.tables._model import Actor, Outcome, Table, TableError


class TableOptions(ServiceCore):
    """Changing a table's rules, language and pause, and suggesting their values."""

    async def set_option(self, table_id: int, actor: Actor, name: str, raw: str) -> Outcome:
        """Change a rule before the start, or the table's language (``language``) or pause
        (``pause``) at any time; the host only."""
        table = self.get(table_id, actor)
        if name.strip().lower() == LANGUAGE_OPTION:
            return await self._set_language(table, actor, raw)
        if name.strip().lower() == PAUSE_OPTION:
            return await self._set_pause(table, actor, raw)
        async with table.lock:
            need_status(table, SEATING)
            need_host(table, actor)
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
            need_host(table, actor)
            code = table_language(raw)
            await self.ledger.locale(table, code)
            self._notify(table)
            return Outcome(table, "ok.option_set", {"name": LANGUAGE_OPTION, "value": code})

    async def _set_pause(self, table: Table, actor: Actor, raw: str) -> Outcome:
        seconds = pause_seconds(raw)
        async with table.lock:
            if not table.live:
                raise TableError("error.table_closed")
            need_host(table, actor)
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
