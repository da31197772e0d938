"""Point an unmodified discord.py 2.x client at another Discord (the emulator).

The bot's start-up code reads two settings, unset in production::

    DISCORD_API_BASE=http://127.0.0.1:8765/api/v10
    DISCORD_GATEWAY_URL=ws://127.0.0.1:8765/gateway

and, *before the client logs in*, calls :func:`point_discord_py_at` (or the
same three assignments copied into the bot).  Why these three:

* ``discord.http.Route.BASE`` — every REST call, including interaction
  callbacks and webhook followups/edits (``discord/webhook/async_.py`` builds
  its ``Route`` objects from the same ``Route.BASE``), is built from it.
* ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` — discord.py 2.x
  (non-sharded ``Client``) connects here first, without asking
  ``/gateway/bot``; after READY it uses ``resume_gateway_url``, which the
  emulator sets to itself.  ``AutoShardedClient`` asks ``GET /gateway/bot``,
  which the emulator also answers with its own URL.
* Nothing else: compression (zlib-stream/zstd-stream) and the ``?v=10``
  query are spoken by the emulator as the client asks.
"""

from __future__ import annotations

import os


def point_discord_py_at(api_base: str, gateway_url: str) -> None:
    """Make discord.py talk to ``api_base`` (REST, with /api/v10) and ``gateway_url``."""
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def point_from_env() -> bool:
    """Apply ``DISCORD_API_BASE``/``DISCORD_GATEWAY_URL`` if set; True when applied."""
    api_base = os.environ.get("DISCORD_API_BASE")
    gateway_url = os.environ.get("DISCORD_GATEWAY_URL")
    if not api_base:
        return False
    if not gateway_url:  # derive ws://host:port/gateway from the REST base
        host = api_base.split("://", 1)[1].split("/", 1)[0]
        gateway_url = f"ws://{host}/gateway"
    point_discord_py_at(api_base, gateway_url)
    return True
