"""Values as the pages write them: addresses, dates, leaderboard values, catalog text as
HTML, the reader's language, and the rows of the leaderboard and match tables."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from markupsafe import Markup, escape

from bot.i18n import language
from bot.i18n.values import PresetTitle
from bot.tables import LeaderRow, MatchInfo, Metric, presets


def page_url(base: str, guild_id: int, match_id: int | None = None) -> str:
    """The address of a guild's page (or of one of its matches) under ``base``."""
    url = f"{base.rstrip('/')}/g/{guild_id}"
    return url if match_id is None else f"{url}/m/{match_id}"


def inline_code(text: str) -> Markup:
    """Catalog text as HTML: escaped, its Discord `code` spans as ``<code>``."""
    parts = str(escape(text)).split("`")
    return Markup("".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts)))


def day_of(ts: float) -> str:
    """A timestamp's day (UTC), as the pages date a match."""
    return dt.datetime.fromtimestamp(ts, dt.UTC).strftime("%Y-%m-%d")


def metric_value(metric: Metric, value: float) -> str:
    """A leaderboard value as /leaderboard writes it."""
    if metric in (Metric.WIN_RATE, Metric.CONTRACTS_MADE):
        return f"{value:.0f}%"
    if metric in (Metric.RATING, Metric.POINTS_PER_HAND):
        return f"{value:.1f}"
    return f"{value:.0f}"


def reader_language(accept: str) -> str:
    """The catalog of the first language a browser asks for (``Accept-Language``) that the
    catalogs have; English where none."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept.split(",")[:16]):
        code, _, param = part.partition(";")
        q = 1.0
        if param.strip().startswith("q="):
            try:
                q = float(param.strip()[2:])
            except ValueError:
                continue
        ranked.append((-q, i, code.strip()))
    english = language(None)
    for _, _, code in sorted(ranked):
        lang = language(code) if code and code != "*" else english
        if lang != english or code.split("-")[0].lower() == english:
            return lang
    return english


def leader_row(r: LeaderRow, metric: Metric) -> dict[str, Any]:
    """A leaderboard row as the board's template reads it."""
    return {"rank": r.rank, "player": r.player_id, "name": r.name,
            "value": metric_value(metric, r.value), "matches": r.matches}


def match_row(m: MatchInfo) -> dict[str, Any]:
    """A recorded match as the lists of matches read it."""
    return {"id": m.match_id, "date": day_of(m.finished_at), "preset": m.preset,
            "seats": [(n, total, i in m.winners)
                      for i, (n, total) in enumerate(zip(m.names, m.totals, strict=False))]}


def preset_titles(loc: str) -> Callable[[str, str], str]:
    """A preset's title in ``loc`` (its English title, else ``default``, where the catalog
    has none)."""
    english = dict(presets())

    def title(name: str, default: str) -> str:
        return PresetTitle(name, english.get(name, default)).localize(language(loc))

    return title
