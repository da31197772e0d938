"""The emulator's multipart reader gives back exactly what discord.py's form carried."""

from __future__ import annotations

import asyncio
import io
import json

import aiohttp
import pytest

from tests.fakediscord.errors import DiscordHTTPError
from tests.fakediscord.rest import parse_multipart


def _form(payload: dict[str, object], files: list[tuple[str, bytes]]) -> tuple[bytes, str]:
    """A body built as discord.py builds it: ``payload_json`` first, then ``files[n]``."""
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for i, (name, data) in enumerate(files):
        form.add_field(f"files[{i}]", io.BytesIO(data), filename=name,
                       content_type="application/octet-stream")
    writer = form()
    sink: list[bytes] = []

    class Sink:
        async def write(self, chunk: bytes) -> None:
            sink.append(bytes(chunk))

    asyncio.run(writer.write(Sink()))  # type: ignore[arg-type]
    return b"".join(sink), str(writer.content_type)


def test_images_and_their_payload_come_back_byte_for_byte() -> None:
    png = bytes(range(256)) * 40 + b"\r\n--not-the-boundary\r\n\r\n"  # CRLFs inside
    payload = {"content": "Zug: A♠ \"quoted\"", "attachments": [{"id": 0}, {"id": 1}]}
    body, ctype = _form(payload, [("table.png", png), ("hand 3.png", b"\x89PNG\r\n")])
    got, files = parse_multipart(body, ctype)
    assert got == payload
    assert files == {0: ("table.png", png, "application/octet-stream"),
                     1: ("hand 3.png", b"\x89PNG\r\n", "application/octet-stream")}


def test_a_form_without_its_boundary_is_refused() -> None:
    with pytest.raises(DiscordHTTPError) as refused:
        parse_multipart(b"--x\r\n\r\n{}\r\n--x--\r\n", "multipart/form-data")
    assert refused.value.status == 400
