"""Breaches of Discord's rules, as the emulator records and reports them.

A *violation* is something the bot did that real Discord would have refused or
punished (a late answer, a double answer, a 429...).  The REST handlers record
them in ``FakeDiscord.violations``; the test API raises :class:`RuleViolation`
for any violation it has not reported yet, so a misbehaving bot fails loudly.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class Violation:
    """One recorded breach of a Discord rule."""

    rule: str  # short machine name, e.g. "late_response", "double_response"
    detail: str
    interaction_id: int | None = None
    at: float = field(default_factory=time.monotonic)
    reported: bool = False

    def __str__(self) -> str:
        return f"[{self.rule}] {self.detail}"


class RuleViolation(AssertionError):
    """Raised by the test API when the bot broke one of Discord's rules."""

    def __init__(self, violations: list[Violation]) -> None:
        self.violations = violations
        super().__init__("bot broke Discord's rules:\n" + "\n".join(f"  {v}" for v in violations))

    @property
    def rules(self) -> set[str]:
        return {v.rule for v in self.violations}


class SchemaError(ValueError):
    """A test asked for something a real Discord client could not send.

    E.g. a slash command option of the wrong type, a missing required option,
    a click on a button the user cannot see.  This is a bug in the *test*.
    """


class DiscordHTTPError(Exception):
    """An error answer of the REST API: status, Discord error code, message."""

    def __init__(self, status: int, code: int, message: str, errors: dict | None = None,
                 *, headers: dict[str, str] | None = None, extra: dict | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra or {}

    def body(self) -> dict:
        body: dict = {"message": self.message, "code": self.code, **self.extra}
        if self.errors:
            body["errors"] = self.errors
        return body
