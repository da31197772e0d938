"""A local Discord for end-to-end tests: the real discord.py client over loopback.

``FakeDiscord`` serves Discord's REST API under ``/api/v10`` and its gateway
websocket on 127.0.0.1; an unmodified discord.py bot logs into it once pointed
there (see :mod:`tests.fakediscord.client_setup`).  The test API acts as users
and records what each user can see, enforcing Discord's rules on the bot.
"""

from .api import FakeDiscord, InteractionResult
from .errors import RuleViolation, SchemaError, Violation
from .models import Attachment, Channel, Guild, Member, Message, Revision, User
from .ratelimit import RateLimitConfig

__all__ = [
    "Attachment", "Channel", "FakeDiscord", "Guild", "InteractionResult", "Member", "Message",
    "RateLimitConfig", "Revision", "RuleViolation", "SchemaError", "User", "Violation",
]
