"""The read-only web pages of each guild, served by the bot process (aiohttp).

A presentation layer like ``cogs/`` without Discord: it reads through the table service's
records (``bot.tables.PublicRecords``), words from ``bot.i18n``, pictures from ``render``.
"""

from bot.web._format import metric_value, page_url
from bot.web._guard import raise_open_files_limit
from bot.web._pages import GuildInfo
from bot.web._server import WebServer

__all__ = ["GuildInfo", "WebServer", "metric_value", "page_url", "raise_open_files_limit"]
