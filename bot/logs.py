"""What the log may hold: no secret of an interaction, and a flood said once with its count.

An interaction's token (``/interactions/<id>/<token>/callback``, ``/webhooks/<app>/<token>``)
lets anyone who reads it answer in the bot's name for 15 minutes; discord.py writes those
URLs, and the gateway's payloads that carry it, at DEBUG. ``Redacting`` replaces the token
part of every such URL in every record, at every level, tracebacks included. ``Repeats``
turns an error that comes per connection (a full file-descriptor table, a client that
stalls) into one line and later a count.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable

_TOKEN_URL = re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/\s?#'\"]+")
# a payload written out whole (the gateway's events at DEBUG): its "token" field
_TOKEN_FIELD = re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+""")
REDACTED = "<token>"


def redact(text: str) -> str:
    """``text`` with the token part of every webhook and interaction URL, and every
    payload's ``token`` field, replaced."""
    if "/" in text:
        text = _TOKEN_URL.sub(r"\g<1>" + REDACTED, text)
    if "token" in text:
        text = _TOKEN_FIELD.sub(r"\g<1>" + REDACTED, text)
    return text


class Redacting(logging.Filter):
    """A handler's filter: each record leaves with its tokens redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


def redact_handlers(logger: logging.Logger | None = None) -> None:
    """Redact tokens in everything the handlers of ``logger`` (the root) write."""
    for handler in (logger or logging.getLogger()).handlers:
        if not any(isinstance(f, Redacting) for f in handler.filters):
            handler.addFilter(Redacting())


class Repeats:
    """Say an error once, then how often it came, at most once per ``every`` seconds:
    ``first(what, ...)`` logs the first of a burst; the rest are counted and reported as
    one line when the next one comes after the interval (or at ``flush``)."""

    def __init__(self, logger: logging.Logger, every: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.log, self.every, self.clock = logger, every, clock
        self._since: dict[str, float] = {}
        self._count: dict[str, int] = {}

    def __call__(self, what: str, level: int = logging.WARNING,
                 exc_info: BaseException | None = None) -> None:
        """One more ``what`` (a short description; ``exc_info``: the traceback, written with
        the first only)."""
        now = self.clock()
        since = self._since.get(what)
        if since is None:
            if len(self._since) >= 256:  # many kinds: forget the old ones, stay small
                self.flush(level)
                self._since.clear()
                self._count.clear()
            self._since[what], self._count[what] = now, 0
            self.log.log(level, "%s (repeats are counted)", what, exc_info=exc_info)
            return
        self._count[what] += 1
        if now - since >= self.every:
            self._report(what, level)
            self._since[what] = now

    def flush(self, level: int = logging.WARNING) -> None:
        """Report the counts not reported yet."""
        for what in list(self._count):
            self._report(what, level)

    def _report(self, what: str, level: int) -> None:
        n = self._count.get(what, 0)
        if n:
            self.log.log(level, "%s: %d more time%s", what, n, "" if n == 1 else "s")
            self._count[what] = 0
