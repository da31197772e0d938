"""Per-channel rate limit, answered with 429 and ``retry_after`` like Discord.

Discord lets a bot send or edit about 5 messages per 5 s in one channel.  The
emulator counts message creates *and* edits of a channel in one window but,
like Discord's separate route buckets, reports them under different bucket
hashes — so discord.py paces each route by itself, and a bot that mixes
sends and edits without pacing itself runs into 429s, as it would live.
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
    """Fixed windows per key: the first hit opens a window of ``per`` seconds."""

    def __init__(self, config: RateLimitConfig, clock: Callable[[], float] = time.monotonic):
        self.config = config
        self.clock = clock
        self._windows: dict[object, tuple[float, int]] = {}  # key -> (window end, count)

    def hit(self, key: object) -> Decision:
        cfg = self.config
        now = self.clock()
        end, count = self._windows.get(key, (0.0, 0))
        if now >= end:
            end, count = now + cfg.per, 0
            if len(self._windows) > 4096:  # forget long finished windows
                self._windows = {k: w for k, w in self._windows.items() if w[0] > now}
        if not cfg.enabled:
            return Decision(True, cfg.limit, cfg.limit, cfg.per)
        if count >= cfg.limit:
            return Decision(False, cfg.limit, 0, end - now)
        count += 1
        self._windows[key] = (end, count)
        return Decision(True, cfg.limit, cfg.limit - count, end - now)
