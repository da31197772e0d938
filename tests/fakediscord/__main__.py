"""Run the emulator standalone: ``python -m tests.fakediscord --port 8765``.

It creates a guild "Test Guild" with #general and the users alice and bob,
prints the settings to start a bot against it, and offers a small control API
so a person can act as those users (see README.md)::

    curl -X POST localhost:8765/_fake/slash -d '{"user": "alice", "command": "ping"}'
    curl -X POST localhost:8765/_fake/click \\
         -d '{"user": "bob", "message": "<id>", "custom_id": "table:join"}'
    (with "values": [...] the click is a select)
    curl localhost:8765/_fake/channel/general?user=alice
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
from typing import Any

from aiohttp import web

from .api import FakeDiscord, InteractionResult
from .errors import RuleViolation, SchemaError
from .models import Message
from .rest import json_response


def message_json(m: Message) -> dict[str, Any]:
    return {"id": str(m.id), "content": m.content, "embeds": m.embeds,
            "components": m.components, "ephemeral": m.ephemeral, "edits": len(m.edits),
            "attachments": [{"filename": a.filename, "size": len(a.data), "url": a.url}
                            for a in m.attachments]}


class Standalone(FakeDiscord):
    """The emulator with a default world and a JSON control API under /_fake."""

    def add_extra_routes(self, app: web.Application) -> None:
        app.router.add_post("/_fake/slash", self._slash)
        app.router.add_post("/_fake/click", self._click)
        app.router.add_get("/_fake/channel/{name}", self._channel)
        app.router.add_get("/_fake/violations", self._violations)

    def setup_world(self) -> None:
        self.users_by_name = {u.name: u for u in (self.add_user("alice", "Alice"),
                                                  self.add_user("bob", "Bob"))}
        self.guild = self.add_guild("Test Guild", members=list(self.users_by_name.values()))
        self.set_permissions(self.guild, self.users_by_name["alice"], ["manage_channels"])
        self.add_text_channel(self.guild, "general")

    def _find_channel(self, name: str):
        return next(c for c in self.store.channels.values() if c.name == name)

    async def _run(self, coro: Any) -> web.Response:
        try:
            result: InteractionResult = await coro
        except (SchemaError, RuleViolation, RuntimeError) as exc:
            return json_response({"error": str(exc)}, status=400)
        await result.wait_final()
        msg = result.message
        return json_response({"type": result.type, "choices": result.choices,
                              "message": message_json(msg) if msg else None,
                              "followups": [message_json(m) for m in result.followups]})

    async def _slash(self, request: web.Request) -> web.Response:
        body = await request.json()
        user = self.users_by_name[body.get("user", "alice")]
        channel = self._find_channel(body.get("channel", "general"))
        return await self._run(self.slash(user, channel, body["command"],
                                          **body.get("options", {})))

    async def _click(self, request: web.Request) -> web.Response:
        body = await request.json()
        user = self.users_by_name[body.get("user", "alice")]
        msg = self.store.messages[int(body["message"])]
        if "values" in body:
            return await self._run(self.select(user, msg, body["custom_id"], body["values"]))
        return await self._run(self.click(user, msg, body["custom_id"]))

    async def _channel(self, request: web.Request) -> web.Response:
        user = self.users_by_name[request.query.get("user", "alice")]
        channel = self._find_channel(request.match_info["name"])
        return json_response([message_json(m) for m in self.visible(user, channel)])

    async def _violations(self, request: web.Request) -> web.Response:
        return json_response([str(v) for v in self.violations]
                             + [f"unknown route {r}" for r in self.store.unknown_routes])


async def serve(host: str, port: int, shards: int = 1) -> None:
    fd = Standalone(host=host, port=port, recommended_shards=shards)
    fd.setup_world()
    await fd.start()
    print("Fake Discord is running. Start the bot with:", flush=True)
    for key, value in fd.env.items():
        print(f"  {key}={value}", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await fd.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--shards", type=int, default=1,
                        help="shards GET /gateway/bot recommends (default 1)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.host, args.port, max(1, args.shards)))


if __name__ == "__main__":
    main()
