"""discord.py's webhook adapter (answers to interactions, edits of their messages, follow-ups)
on the bot's own keep-alive HTTP client for JSON bodies.

The library builds every payload as before (``interaction_message_response_params``, views,
embeds, allowed mentions) and hands it to ``async_context.get()``, its extension point for
how webhook requests travel; only the transport differs. A request with files, through a
proxy, or to another host goes the library's own way."""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import quote, urlencode

import aiohttp
import discord
from discord import utils
from discord.http import Route
from discord.webhook.async_ import AsyncDeferredLock, AsyncWebhookAdapter, async_context

from cogs._keepalive import Gone, KeepAlive, Reply

log = logging.getLogger(__name__)
ATTEMPTS = 5  # as the library's adapter


class LeanWebhookAdapter(AsyncWebhookAdapter):
    """The library's webhook adapter, JSON requests sent over :class:`KeepAlive`."""

    def __init__(self, base: str, user_agent: str) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.base = base.rstrip("/")
        origin, _, prefix = self.base.partition("://")
        host, _, path = prefix.partition("/")
        self.client = KeepAlive(f"{origin}://{host}", user_agent=user_agent)
        self.prefix = "/" + path if path else ""

    async def request(self, route: Route, session: aiohttp.ClientSession, *,
                      payload: dict[str, Any] | None = None,
                      multipart: list[dict[str, Any]] | None = None,
                      proxy: str | None = None, proxy_auth: aiohttp.BasicAuth | None = None,
                      files: Any = None, reason: str | None = None,
                      auth_token: str | None = None,
                      params: dict[str, Any] | None = None) -> Any:
        url = route.url
        if files or multipart or proxy or not url.startswith(self.base):
            return await super().request(
                route, session, payload=payload, multipart=multipart, proxy=proxy,
                proxy_auth=proxy_auth, files=files, reason=reason, auth_token=auth_token,
                params=params)
        target = self.prefix + url[len(self.base):]
        if params:
            target += "?" + urlencode(params)
        headers: list[tuple[str, str]] = []
        body = None
        if payload is not None:
            headers.append(("Content-Type", "application/json"))
            body = utils._to_json(payload).encode()
        if auth_token is not None:
            headers.append(("Authorization", f"Bot {auth_token}"))
        if reason is not None:
            headers.append(("X-Audit-Log-Reason", quote(reason, safe="/ ")))
        bucket = (route.webhook_id, route.webhook_token)
        try:
            lock = self._locks[bucket]
        except KeyError:
            self._locks[bucket] = lock = asyncio.Lock()
        async with AsyncDeferredLock(lock) as deferred:
            return await self._send(route, target, body, headers, deferred)

    async def _send(self, route: Route, target: str, body: bytes | None,
                    headers: list[tuple[str, str]], deferred: AsyncDeferredLock) -> Any:
        """The library's retries: 429 after ``retry_after``, 5xx and resets with back-off."""
        reply: Reply | None = None
        data: Any = None
        for attempt in range(ATTEMPTS):
            try:
                reply = await self.client.request(route.method, target, body,
                                                  headers=headers)
            except Gone as gone:
                # sent again only if none of a response came back (part of one: the
                # request was handled, and a second answer to an interaction is refused)
                if attempt < ATTEMPTS - 1 and not gone.got_any:
                    await asyncio.sleep(1 + attempt * 2)
                    continue
                raise
            log.debug("webhook %s with %s %s has returned status code %s",
                      route.webhook_id, route.method, route.url, reply.status)
            data = _data_of(reply)
            if reply.headers.get("X-Ratelimit-Remaining") == "0" and reply.status != 429:
                deferred.delay_by(utils._parse_ratelimit_header(reply))
            if 200 <= reply.status < 300:
                return data
            if reply.status == 429:
                if not reply.headers.get("Via"):  # Cloudflare's, not Discord's
                    raise discord.HTTPException(reply, data)
                log.warning("webhook %s is rate limited; retrying in %.2f s",
                            route.webhook_id, data["retry_after"])
                await asyncio.sleep(data["retry_after"])
                continue
            if reply.status >= 500:
                await asyncio.sleep(1 + attempt * 2)
                continue
            if reply.status == 403:
                raise discord.Forbidden(reply, data)
            if reply.status == 404:
                raise discord.NotFound(reply, data)
            raise discord.HTTPException(reply, data)
        assert reply is not None
        if reply.status >= 500:
            raise discord.DiscordServerError(reply, data)
        raise discord.HTTPException(reply, data)

    def close(self) -> None:
        """Close the connections."""
        self.client.close()


def _data_of(reply: Reply) -> Any:
    """The body as discord.py's ``json_or_text`` reads it (JSON parsed from the bytes)."""
    if reply.headers.get("Content-Type") == "application/json":
        return utils._from_json(reply.body)  # orjson and json both read bytes
    return reply.body.decode("utf-8", "replace")


def use_lean_webhooks(user_agent: str) -> LeanWebhookAdapter:
    """Send this task's (and the tasks it starts') webhook requests over the lean client."""
    adapter = LeanWebhookAdapter(Route.BASE, user_agent)
    async_context.set(adapter)
    return adapter
