"""The web port's guard: a bounded number of connections, each with a deadline for its
request, so that slow or idle clients cannot hold the process's file descriptors.

aiohttp waits for a request's head as long as the client cares to send it, and keeps an
idle keep-alive connection for an hour: a few hundred clients sending a byte now and then
(or nothing) would hold a socket each until the process runs out of file descriptors. Each
connection passes through a ``Guarded`` protocol in front of aiohttp's own: past
``max_connections`` a new one is answered 503 and closed at once; a connection whose
request head (or the body nobody reads) has not arrived ``head_timeout`` seconds after it
opened or after its last answer is closed.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from collections.abc import Callable
from typing import Any

from bot.logs import Repeats

log = logging.getLogger("bot.web")

_BUSY_BODY = b"Too many connections; try again in a moment.\n"
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Retry-After: 5\r\nCache-Control: no-store\r\nConnection: close\r\n"
        b"Content-Length: " + str(len(_BUSY_BODY)).encode() + b"\r\n\r\n" + _BUSY_BODY)


class Connections:
    """The open connections of one server, their cap and their deadline."""

    def __init__(self, max_connections: int, head_timeout: float, repeats: Repeats) -> None:
        self.max_connections, self.head_timeout = max_connections, head_timeout
        self.repeats = repeats
        self.open: set[Guarded] = set()
        self.by_handler: dict[object, Guarded] = {}

    def factory(self, make: Callable[[], asyncio.BaseProtocol]) -> Callable[[], Guarded]:
        """A protocol factory for ``loop.create_server``: aiohttp's handler behind a guard."""
        return lambda: Guarded(self, make)

    def answering(self, handler: object) -> Guarded | None:
        """The guard of the connection whose aiohttp ``handler`` (``request.protocol``)
        is answering a request: no deadline until the answer is written."""
        guard = self.by_handler.get(handler)
        if guard is not None:
            guard.cancel_deadline()
        return guard


class Guarded(asyncio.Protocol):
    """One connection, in front of aiohttp's protocol (made only when it is let in)."""

    def __init__(self, conns: Connections, make: Callable[[], asyncio.BaseProtocol]) -> None:
        self.conns, self.make = conns, make
        self.inner: Any = None
        self.transport: asyncio.Transport | None = None
        self.deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        conns = self.conns
        if len(conns.open) >= conns.max_connections:
            conns.repeats(f"web pages: {conns.max_connections} connections open, the most "
                          f"allowed (WEB_MAX_CONNECTIONS): new ones are answered 503")
            # the answer, then our end closed; the socket goes when the client closes its
            # end (closing both now would reset the connection before the answer is read)
            transport.write(BUSY)
            if transport.can_write_eof():
                transport.write_eof()
            self.deadline = asyncio.get_running_loop().call_later(
                min(2.0, conns.head_timeout), self._expired)
            return
        conns.open.add(self)
        self.inner = self.make()
        conns.by_handler[self.inner] = self
        self.inner.connection_made(transport)
        self.start_deadline()

    def start_deadline(self) -> None:
        """The next request's head must arrive within the head timeout."""
        self.cancel_deadline()
        if self.transport is not None and not self.transport.is_closing():
            self.deadline = asyncio.get_running_loop().call_later(
                self.conns.head_timeout, self._expired)

    def cancel_deadline(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _expired(self) -> None:
        self.deadline = None
        if self.transport is not None:
            self.transport.abort()  # a slow client: no goodbye that could block too

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None  # None: close

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.cancel_deadline()
        self.conns.open.discard(self)
        if self.inner is not None:
            self.conns.by_handler.pop(self.inner, None)
            self.inner.connection_lost(exc)
        self.transport = None


def loop_errors(repeats: Repeats) -> Callable[[asyncio.AbstractEventLoop, dict[str, Any]], None]:
    """An event loop's exception handler: each kind of error logged once (with its
    traceback), then counted; a full file-descriptor table fails every accept, and a
    traceback each would fill the disk."""
    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        what = f"web pages: {context.get('message', 'error')}"
        if isinstance(exc, BaseException):
            what += f" ({type(exc).__name__}: {str(exc)[:120]})"
            repeats(what, logging.ERROR,
                    exc_info=None if isinstance(exc, OSError) else exc)
        else:
            repeats(what, logging.ERROR)
    return handle


def raise_open_files_limit() -> tuple[int, int]:
    """Raise the soft limit of open files to the hard one (every connection, database file
    and pipe is one); the limits after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if resource.RLIM_INFINITY in (hard, soft) or soft >= hard:
        return soft, hard
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError) as exc:  # a container may refuse: the soft limit stays
        log.warning("could not raise the open files limit from %d to %d (%s)", soft, hard, exc)
        return soft, hard
    return hard, hard
