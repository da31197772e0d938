"""discord.py's webhook adapter (answers to interactions, edits of their messages, follow-ups)
on the bot's own keep-alive HTTP client for JSON bodies.

The library builds every payload as before (``interaction_message_response_params``, views,
embeds, allowed mentions) and hands it to ``async_context.get()``, its extension point for
how webhook requests travel. Its own ``request`` still runs every request (the lock per
webhook, the retries after 429 and 5xx, the rate-limit wait, its exceptions and log line):
for a JSON body it is given :class:`KeepAliveSession` in place of the aiohttp session, which
is all that differs. A request with files, through a proxy, or to another host goes on the
library's aiohttp session."""

from __future__ import annotations

import types
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

import aiohttp
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from cogs._keepalive import Headers, KeepAlive, Reply


class KeepAliveResponse:
    """What the library reads of an aiohttp response: status, reason, headers, text."""

    __slots__ = ("_body", "headers", "reason", "status")

    def __init__(self, reply: Reply) -> None:
        self._body = reply.body
        self.status: int = reply.status
        self.reason: str = reply.reason
        self.headers: Headers = reply.headers

    async def text(self, encoding: str = "utf-8") -> str:
        return self._body.decode(encoding, "replace")


class _Exchange:
    """``session.request(...)`` as an ``async with``: the request is made on entering."""

    __slots__ = ("_args", "_client")

    def __init__(self, client: KeepAlive, args: tuple[str, str, bytes | None,
                                                      list[tuple[str, str]]]) -> None:
        self._client = client
        self._args = args

    async def __aenter__(self) -> KeepAliveResponse:
        method, target, body, headers = self._args
        return KeepAliveResponse(await self._client.request(method, target, body,
                                                            headers=headers))

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: types.TracebackType | None) -> None:
        return None


class KeepAliveSession:
    """The part of ``aiohttp.ClientSession`` the library's webhook adapter uses, for
    requests to ``base`` (no proxy, no form data: those stay on aiohttp)."""

    def __init__(self, base: str, user_agent: str) -> None:
        self.base = base.rstrip("/")
        origin, _, rest = self.base.partition("://")
        host, _, path = rest.partition("/")
        self.client = KeepAlive(f"{origin}://{host}", user_agent=user_agent)
        self.prefix = "/" + path if path else ""

    def request(self, method: str, url: str, *, data: str | None = None,
                headers: Mapping[str, str] | None = None,
                params: Mapping[str, Any] | None = None, **_: Any) -> _Exchange:
        target = self.prefix + url[len(self.base):]
        if params:
            target += "?" + urlencode(params)
        body = data.encode() if data is not None else None
        return _Exchange(self.client, (method, target, body, list((headers or {}).items())))

    def close(self) -> None:
        self.client.close()


class LeanWebhookAdapter(AsyncWebhookAdapter):
    """The library's webhook adapter, JSON requests sent over :class:`KeepAlive`."""

    def __init__(self, base: str, user_agent: str) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.session = KeepAliveSession(base, user_agent)

    @property
    def client(self) -> KeepAlive:
        return self.session.client

    async def request(self, route: Route, session: aiohttp.ClientSession, *,
                      payload: dict[str, Any] | None = None,
                      multipart: list[dict[str, Any]] | None = None,
                      proxy: str | None = None, proxy_auth: aiohttp.BasicAuth | None = None,
                      files: Any = None, reason: str | None = None,
                      auth_token: str | None = None,
                      params: dict[str, Any] | None = None) -> Any:
        if not (files or multipart or proxy) and route.url.startswith(self.session.base):
            session = self.session  # type: ignore[assignment]  # only what the library uses
        return await super().request(
            route, session, payload=payload, multipart=multipart, proxy=proxy,
            proxy_auth=proxy_auth, files=files, reason=reason, auth_token=auth_token,
            params=params)

    def close(self) -> None:
        """Close the connections."""
        self.session.close()


def use_lean_webhooks(user_agent: str) -> LeanWebhookAdapter:
    """Send this task's (and the tasks it starts') webhook requests over the lean client."""
    adapter = LeanWebhookAdapter(Route.BASE, user_agent)
    async_context.set(adapter)
    return adapter
