"""Per-channel rate limit, answered with 429 and ``retry_after`` like Discord.

Discord lets a bot send or edit about 5 messages per 5 s in one channel.  The
emulator enforces that shared limit on message creates *and* edits of a
channel, while its ``X-RateLimit-*`` headers describe each route's own bucket
(as Discord's do).  discord.py paces each bucket by those headers, so a bot
that interleaves sends and edits without pacing itself meets the hidden
shared limit and gets 429s — which the emulator records — as it would live.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class RateLimitConfig:
    """How many message creates/edits a channel takes per window of seconds."""

    limit: int = 5
    per: float = 5.0
    enabled: bool = True


@dataclass
class Decision:
    allowed: bool
    limit: int
    remaining: int
    reset_after: float

    def headers(self, bucket: str) -> dict[str, str]:
        h = {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": f"{time.time() + self.reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{self.reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }
        if not self.allowed:
            h["Retry-After"] = str(max(1, round(self.reset_after)))
            h["X-RateLimit-Scope"] = "shared"
        return h


class RateLimiter:
    """Fixed windows: the first hit of a key opens a window of ``per`` seconds."""

    def __init__(self, config: RateLimitConfig, clock: Callable[[], float] = time.monotonic):
        self.config = config
        self.clock = clock
        self._windows: dict[object, tuple[float, int]] = {}  # key -> (window end, count)

    def _window(self, key: object, now: float) -> tuple[float, int]:
        end, count = self._windows.get(key, (0.0, 0))
        if now >= end:
            if len(self._windows) > 4096:  # forget finished windows
                self._windows = {k: w for k, w in self._windows.items() if w[0] > now}
            return now + self.config.per, 0
        return end, count

    def hit(self, key: object, bucket: str = "") -> Decision:
        """Count one request of ``bucket`` (a route) against the shared ``key``."""
        cfg, now = self.config, self.clock()
        end, count = self._window(key, now)
        bend, bcount = self._window((key, bucket), now)
        if cfg.enabled and count >= cfg.limit:
            return Decision(False, cfg.limit, max(0, cfg.limit - bcount), end - now)
        self._windows[key] = (end, count + 1)
        self._windows[(key, bucket)] = (bend, bcount + 1)
        remaining = max(0, cfg.limit - bcount - 1) if cfg.enabled else cfg.limit
        return Decision(True, cfg.limit, remaining, bend - now)
