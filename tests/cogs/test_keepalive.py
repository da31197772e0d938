"""The keep-alive HTTP client against a real server on loopback: how responses arrive
(lengths, chunks in pieces, no body, closing), stale connections, a silent server."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from cogs._keepalive import Gone, KeepAlive

# (the request, its number, its number on its connection) -> the pieces of the answer
Script = Callable[[bytes, int, int], list[bytes] | None]


class Server:
    """Answers each request by ``script``: pieces written with a pause between them, the
    connection closed after an answer that says so; None closes it without answering."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.requests: list[bytes] = []
        self.connections = 0
        self.writers: list[asyncio.StreamWriter] = []

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.writers.append(writer)
        on_connection = 0
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":", 1)[1])
                body = await reader.readexactly(length)
                self.requests.append(head + body)
                on_connection += 1
                pieces = self.script(head + body, len(self.requests), on_connection)
                if pieces is None:
                    writer.close()
                    return
                for piece in pieces:
                    writer.write(piece)
                    await writer.drain()
                    await asyncio.sleep(0.01)
                if b"Connection: close" in b"".join(pieces):
                    writer.close()
                    return
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()


@pytest.fixture
async def serve() -> AsyncIterator[Callable[[Script], Any]]:
    servers: list[asyncio.Server] = []

    async def start(script: Script) -> tuple[Server, KeepAlive]:
        s = Server(script)
        srv = await asyncio.start_server(s.handle, "127.0.0.1", 0)
        servers.append(srv)
        port = srv.sockets[0].getsockname()[1]
        return s, KeepAlive(f"http://127.0.0.1:{port}", user_agent="test/1",
                            idle_seconds=0.6, request_seconds=0.6)

    yield start
    for srv in servers:
        srv.close()


def ok(body: bytes, extra: str = "") -> list[bytes]:
    return [f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{extra}"
            f"Content-Length: {len(body)}\r\n\r\n".encode() + body]


async def test_a_request_is_written_as_http_and_the_connection_kept(serve: Any) -> None:
    server, client = await serve(lambda req, n, c: ok(b'{"n":%d}' % n))
    for n in (1, 2, 3):
        reply = await client.request("PATCH", "/api/x?with_response=1", b'{"a":1}',
                                     headers=[("Content-Type", "application/json")])
        assert (reply.status, json.loads(reply.body)) == (200, {"n": n})
        assert reply.headers["content-type"] == reply.headers.get("Content-Type")
    assert server.connections == 1
    first = server.requests[0].decode()
    assert first.startswith("PATCH /api/x?with_response=1 HTTP/1.1\r\n")
    assert "\r\nHost: 127.0.0.1:" in first and "\r\nUser-Agent: test/1\r\n" in first
    assert "\r\nContent-Length: 7\r\n" in first and first.endswith('\r\n\r\n{"a":1}')
    client.close()


async def test_chunked_bodies_in_pieces_and_a_head_split_anywhere(serve: Any) -> None:
    whole = (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
             b"4;ext=1\r\n{\"a\"\r\n6\r\n:12345\r\n1\r\n}\r\n0\r\nX-T: 1\r\n\r\n")
    pieces = [whole[i:i + 7] for i in range(0, len(whole), 7)]
    server, client = await serve(lambda req, n, c: pieces)
    for _ in range(2):  # the connection is reused after a chunked body
        reply = await client.request("GET", "/")
        assert reply.body == b'{"a":12345}'
    assert server.connections == 1
    client.close()


async def test_no_content_and_a_body_until_close(serve: Any) -> None:
    def script(req: bytes, n: int, c: int) -> list[bytes] | None:
        if n == 1:
            return [b"HTTP/1.1 204 No Content\r\n\r\n"]
        return [b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nall of it"]

    server, client = await serve(script)
    assert (await client.request("POST", "/cb", b"{}")).status == 204
    reply = await client.request("POST", "/cb", b"{}")
    assert (reply.status, reply.body) == (200, b"all of it")
    assert (await client.request("POST", "/cb", b"{}")).body == b"all of it"
    assert server.connections == 2  # the one that said close is not reused
    client.close()


async def test_a_stale_connection_is_replaced_once(serve: Any) -> None:
    # the server drops each connection at its second request, unanswered (as one closed
    # by the server just as the request went out)
    server, client = await serve(lambda req, n, c: ok(b"{}") if c == 1 else None)
    await client.request("POST", "/a", b"1")
    reply = await client.request("POST", "/a", b"2")
    assert reply.status == 200
    assert server.connections == 2 and len(server.requests) == 3  # 2 sent twice


async def test_a_fresh_connection_closed_unanswered_fails(serve: Any) -> None:
    server, client = await serve(lambda req, n, c: None)
    with pytest.raises(Gone) as caught:
        await client.request("POST", "/a", b"x")
    assert not caught.value.got_any
    assert server.connections == 1  # not sent twice on a connection that never worked


async def test_a_response_cut_short_is_not_sent_again(serve: Any) -> None:
    def script(req: bytes, n: int, c: int) -> list[bytes] | None:
        return ok(b"{}") if n == 1 else [b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n{", b""]

    server, client = await serve(script)
    await client.request("POST", "/a", b"1")

    async def cut() -> None:
        await asyncio.sleep(0.1)
        for w in server.writers:
            w.close()

    asyncio.get_running_loop().create_task(cut())
    with pytest.raises(Gone) as caught:
        await client.request("POST", "/a", b"2")
    assert caught.value.got_any
    assert len(server.requests) == 2


async def test_a_silent_server_times_out_and_idle_connections_close(serve: Any) -> None:
    server, client = await serve(lambda req, n, c: ok(b"{}") if n == 1 else [])
    await client.request("GET", "/")
    await asyncio.sleep(1.0)  # idle past 0.6 s: the sweeper closes it
    with pytest.raises(TimeoutError):
        await client.request("GET", "/")
    assert server.connections == 2
    client.close()


async def test_not_http_fails_the_request(serve: Any) -> None:
    _, client = await serve(lambda req, n, c: [b"SSH-2.0-OpenSSH\r\n\r\n"])
    with pytest.raises(ValueError, match="not an HTTP/1 response"):
        await client.request("GET", "/")
    client.close()
    with pytest.raises(RuntimeError, match="closed"):
        await client.request("GET", "/")
