"""A small HTTP/1.1 client for the requests the bot makes most: answers to interactions and
edits of their messages, a few every move.

aiohttp, under discord.py, spends about 185 µs of CPU on such a request (its request and
response objects, timeouts, payload registry, URL parsing); over a pool of keep-alive
connections to the one host, with the request written as bytes and the response read by a
small parser, it is about 45 µs. Only what those requests need is here: one request at a
time on a connection, bodies by ``Content-Length`` or chunked, no redirects, proxies or
compression (the adapter sends anything else the library's way)."""

from __future__ import annotations

import asyncio
import errno
import ssl
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast
from urllib.parse import urlsplit

IDLE_SECONDS = 15.0  # a connection unused this long is closed (aiohttp's default too)
REQUEST_SECONDS = 60.0  # a request with no complete response by then fails


class Headers(dict[str, str]):
    """Response headers by lower-case name; ``get`` and ``[]`` take any case."""

    def __getitem__(self, name: str) -> str:
        return super().__getitem__(name.lower())

    def get(self, name: str, default: str | None = None) -> str | None:  # type: ignore[override]
        return super().get(name.lower(), default)


@dataclass(frozen=True, slots=True)
class Reply:
    """A response: what discord.py's exceptions and rate-limit helpers read of one."""

    status: int
    reason: str
    headers: Headers
    body: bytes


class Gone(ConnectionResetError):
    """The connection closed before its response was complete."""

    def __init__(self, got_any: bool) -> None:
        super().__init__(errno.ECONNRESET, "connection closed before the response")
        self.got_any = got_any  # some of the response had arrived (no safe retry)


class _Connection(asyncio.Protocol):
    """One keep-alive connection: a request written, its response parsed as it arrives."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.waiter: asyncio.Future[Reply] | None = None
        self.closed = False
        self.reused = False
        self.since = 0.0  # when it went idle, or when its request was sent
        self._buf = bytearray()
        self._head: tuple[int, str, Headers] | None = None
        self._body = bytearray()
        self._left = -1  # body bytes still due (-1: until the connection closes)
        self._chunked = False
        self._keep = True
        self._got_any = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is no subclass

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        waiter = self.waiter
        if waiter is None or waiter.done():
            return
        if self._head is not None and self._left == -1 and not self._chunked:
            self._finish()  # a body that runs until the connection closes
        else:
            waiter.set_exception(Gone(self._got_any))

    def send(self, data: bytes, waiter: asyncio.Future[Reply]) -> None:
        """Write one request; ``waiter`` gets its response."""
        assert self.transport is not None
        self.waiter = waiter
        self._head, self._body, self._left, self._chunked = None, bytearray(), -1, False
        self._got_any = False
        self.since = time.monotonic()
        self.transport.write(data)

    def data_received(self, data: bytes) -> None:
        self._got_any = True
        self._buf += data
        try:
            self._parse()
        except ValueError as exc:  # not HTTP as we know it: this connection is done
            self._fail(exc)

    def _fail(self, exc: Exception) -> None:
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_exception(exc)
        self.abort()

    def abort(self) -> None:
        """Close at once (an unanswered request fails)."""
        self.closed = True
        if self.transport is not None:
            self.transport.abort()

    def _parse(self) -> None:
        buf = self._buf
        if self._head is None:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                if len(buf) > 65536:
                    raise ValueError("response head too long")
                return
            self._head = _read_head(bytes(buf[:end]))
            del buf[:end + 4]
            status, _, headers = self._head
            self._keep = (headers.get("connection") or "").lower() != "close"
            if status in (204, 304) or 100 <= status < 200:
                self._left = 0
            elif "chunked" in (headers.get("transfer-encoding") or "").lower():
                self._chunked = True
                self._left = -2  # a chunk's size line is next
            elif "content-length" in headers:
                self._left = int(headers["content-length"])
            else:
                self._keep = False  # the body ends with the connection
        if self._chunked:
            self._parse_chunks()
        elif self._left >= 0:
            take = min(self._left, len(buf))
            self._body += buf[:take]
            del buf[:take]
            self._left -= take
            if self._left == 0:
                self._finish()
        else:
            self._body += buf
            buf.clear()

    def _parse_chunks(self) -> None:
        buf = self._buf
        while True:
            if self._left == -2:  # a size line
                end = buf.find(b"\r\n")
                if end < 0:
                    return
                size = int(bytes(buf[:end]).split(b";", 1)[0].strip(), 16)
                del buf[:end + 2]
                self._left = size if size else -3
            elif self._left == -3:  # trailers after the last chunk, up to an empty line
                end = buf.find(b"\r\n")
                if end < 0:
                    return
                line = buf[:end]
                del buf[:end + 2]
                if not line:
                    self._finish()
                    return
            else:  # chunk data, then its CRLF
                if len(buf) < self._left + 2:
                    return
                self._body += buf[:self._left]
                del buf[:self._left + 2]
                self._left = -2

    def _finish(self) -> None:
        assert self._head is not None
        status, reason, headers = self._head
        reply = Reply(status, reason, headers, bytes(self._body))
        waiter, self.waiter = self.waiter, None
        if not self._keep or self._buf:
            self.abort()  # never reuse a connection that said close or sent extra bytes
        if waiter is not None and not waiter.done():
            waiter.set_result(reply)


def _read_head(head: bytes) -> tuple[int, str, Headers]:
    lines = head.decode("latin-1").split("\r\n")
    version, _, rest = lines[0].partition(" ")
    if not version.startswith("HTTP/1."):
        raise ValueError(f"not an HTTP/1 response: {lines[0][:40]!r}")
    code, _, reason = rest.partition(" ")
    fields: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if not sep:
            raise ValueError(f"bad header line: {line[:40]!r}")
        key = name.strip().lower()
        value = value.strip()
        # repeated headers are joined as RFC 9110 allows (none the bot reads repeats)
        fields[key] = f"{fields[key]}, {value}" if key in fields else value
    return int(code), reason, Headers(fields)


class KeepAlive:
    """Keep-alive connections to one HTTP(S) origin, for requests of bytes."""

    def __init__(self, origin: str, *, user_agent: str,
                 idle_seconds: float = IDLE_SECONDS,
                 request_seconds: float = REQUEST_SECONDS) -> None:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) origin: {origin!r}")
        self.host = parts.hostname
        self.tls = parts.scheme == "https"
        self.port = parts.port or (443 if self.tls else 80)
        default_port = self.port == (443 if self.tls else 80)
        self._host_header = (self.host if default_port else f"{self.host}:{self.port}")
        self._ssl: ssl.SSLContext | None = ssl.create_default_context() if self.tls else None
        self._agent = user_agent
        self._idle: list[_Connection] = []
        self._busy: set[_Connection] = set()
        self._idle_seconds = idle_seconds
        self._request_seconds = request_seconds
        self._sweeper: asyncio.TimerHandle | None = None
        self._closed = False
        self.sent = 0  # requests written

    async def request(self, method: str, target: str, body: bytes | None = None, *,
                      headers: Iterable[tuple[str, str]] = ()) -> Reply:
        """Send ``method target`` (a path with its query) and return the response; a
        connection that proved stale before answering is replaced once."""
        if self._closed:
            raise RuntimeError("the HTTP client is closed")
        head = [f"{method} {target} HTTP/1.1\r\nHost: {self._host_header}\r\n"
                f"User-Agent: {self._agent}\r\n"]
        head.extend(f"{k}: {v}\r\n" for k, v in headers)
        if body is not None or method in ("POST", "PUT", "PATCH"):
            head.append(f"Content-Length: {len(body or b'')}\r\n")
        head.append("\r\n")
        data = "".join(head).encode("latin-1") + (body or b"")
        # as many connections as requests at once, as discord.py's connector (limit=0)
        for attempt in (0, 1):
            conn = await self._connection()
            waiter: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
            self._busy.add(conn)
            try:
                conn.send(data, waiter)
                self.sent += 1
                reply = await waiter
            except Gone as gone:
                # a kept-alive connection the server had just closed: the request never
                # reached it, so it is sent again on a new one (as browsers do)
                if attempt or not conn.reused or gone.got_any:
                    raise
                continue
            except BaseException:
                conn.abort()
                raise
            finally:
                self._busy.discard(conn)
            if not conn.closed:
                conn.reused, conn.since = True, time.monotonic()
                self._idle.append(conn)
            return reply
        raise AssertionError("unreachable")

    async def _connection(self) -> _Connection:
        now = time.monotonic()
        while self._idle:
            conn = self._idle.pop()
            if not conn.closed and now - conn.since < self._idle_seconds:
                return conn
            conn.abort()
        loop = asyncio.get_running_loop()
        _, conn = await loop.create_connection(
            _Connection, self.host, self.port, ssl=self._ssl,
            server_hostname=self.host if self.tls else None)
        if self._sweeper is None:
            self._sweeper = loop.call_later(self._sweep_every, self._sweep)
        return conn

    @property
    def _sweep_every(self) -> float:
        return min(self._idle_seconds, self._request_seconds) / 3

    def _sweep(self) -> None:
        """Close idle connections past their time and fail requests past theirs."""
        now = time.monotonic()
        keep = [c for c in self._idle
                if not c.closed and now - c.since < self._idle_seconds]
        for conn in self._idle:
            if conn not in keep:
                conn.abort()
        self._idle = keep
        for conn in list(self._busy):
            if now - conn.since > self._request_seconds:
                conn._fail(TimeoutError(
                    f"no response within {self._request_seconds:g} s"))
        self._sweeper = None
        if not self._closed and (self._idle or self._busy):
            self._sweeper = asyncio.get_running_loop().call_later(self._sweep_every,
                                                                  self._sweep)

    def close(self) -> None:
        """Close every connection; requests still waiting fail."""
        self._closed = True
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        for conn in [*self._idle, *self._busy]:
            conn._fail(ConnectionAbortedError("the HTTP client was closed"))
        self._idle.clear()
