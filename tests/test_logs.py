"""The log's guards: tokens redacted in every record, a flood said once with its count."""

from __future__ import annotations

import io
import logging

from bot.logs import Redacting, Repeats, redact

TOKEN = "aW50ZXJhY3Rpb24:Zm9vYmFy_-x"


def test_every_form_of_a_token_is_redacted():
    lines = [f"POST https://discord.com/api/v10/interactions/123/{TOKEN}/callback",
             f"PATCH /api/v10/webhooks/456/{TOKEN}/messages/@original?wait=1",
             f"event {{'id': '1', 'token': '{TOKEN}', 'type': 3}}",
             f'{{"token": "{TOKEN}"}}']
    for line in lines:
        assert TOKEN not in redact(line) and "<token>" in redact(line), line
    assert redact("/interactions/123/<token>/callback") == "/interactions/123/<token>/callback"


def test_a_record_and_its_traceback_leave_redacted_at_every_level():
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(Redacting())
    log = logging.getLogger("tests.logs.redact")
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    log.propagate = False
    try:
        for level in (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR):
            log.log(level, "POST %s", f"/interactions/9/{TOKEN}/callback")
        try:
            raise RuntimeError(f"failed: /webhooks/9/{TOKEN}")
        except RuntimeError:
            log.exception("request")
    finally:
        log.removeHandler(handler)
    text = out.getvalue()
    assert TOKEN not in text and text.count("/interactions/9/<token>/callback") == 4, text
    assert "RuntimeError: failed: /webhooks/9/<token>" in text


def test_a_repeated_error_is_one_line_then_a_count():
    out: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            out.append(record.getMessage())

    log = logging.getLogger("tests.logs.repeats")
    log.addHandler(Collect())
    log.propagate = False
    now = [0.0]
    repeats = Repeats(log, every=60.0, clock=lambda: now[0])
    for _ in range(15_000):
        repeats("accept failed: too many open files")
    now[0] = 61.0
    repeats("accept failed: too many open files")
    repeats.flush()
    assert out == ["accept failed: too many open files (repeats are counted)",
                   "accept failed: too many open files: 15000 more times"]
