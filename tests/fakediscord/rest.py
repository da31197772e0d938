"""REST routes a bot calls with its bot token (under ``/api/v10``).

Gateway discovery, the bot's user and application, application command sync,
channels, messages (JSON or multipart with ``payload_json`` + ``files[n]``),
threads, and the attachment files themselves.  Message creates and edits of a
channel pass the per-channel rate limit.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

import orjson
from aiohttp import web

from . import limits, rules, spec
from .errors import DiscordHTTPError
from .models import PERMISSIONS, Channel, Message, Revision, iso, utcnow

if TYPE_CHECKING:
    from .server import Emulator

API = "/api/v10"


_PARAM = re.compile(rb';\s*([\w*]+)="((?:[^"\\]|\\.)*)"|;\s*([\w*]+)=([^;\s]*)')


def _params(header: bytes) -> dict[str, str]:
    """The ``name=value`` parameters of a header (``form-data; name="x"; filename="y"``)."""
    out: dict[str, str] = {}
    for m in _PARAM.finditer(header):
        key, value = (m[1], re.sub(rb"\\(.)", rb"\1", m[2])) if m[1] else (m[3], m[4])
        out[key.decode().lower()] = value.decode("utf-8", "replace")
    return out


def parse_multipart(body: bytes, content_type: str) -> tuple[dict[str, Any],
                                                            dict[int, tuple]]:
    """``multipart/form-data`` as discord.py sends it: ``payload_json`` and ``files[n]``.

    Written here rather than taken from aiohttp, whose reader parses every part's headers
    with the email package and builds a regular expression per part: CPU the emulator takes
    from the cores the bots it measures share (measured: ~4% of its CPU at 400 tables)."""
    boundary = _params(content_type.encode()).get("boundary")
    if not boundary:
        raise DiscordHTTPError(400, 50035, "Invalid Form Body", {"_errors": ["no boundary"]})
    payload: dict[str, Any] = {}
    files: dict[int, tuple] = {}
    for chunk in body.split(b"--" + boundary.encode())[1:]:
        if chunk.startswith(b"--"):
            break  # the closing delimiter
        head, sep, data = chunk.partition(b"\r\n\r\n")
        if not sep:
            continue
        headers: dict[str, bytes] = {}
        for line in head.strip().split(b"\r\n"):
            key, _, value = line.partition(b":")
            headers[key.strip().lower().decode()] = value.strip()
        data = data[:-2] if data.endswith(b"\r\n") else data
        disposition = _params(headers.get("content-disposition", b""))
        name = disposition.get("name", "")
        if name == "payload_json":
            payload = orjson.loads(data)
        elif name.startswith("files["):
            ctype = headers.get("content-type")
            files[int(name[6:-1])] = (disposition.get("filename") or f"file{name}", bytes(data),
                                      ctype.decode() if ctype is not None else None)
    return payload, files


async def read_body(request: web.Request) -> tuple[dict[str, Any], dict[int, tuple]]:
    """The JSON body and uploaded files ``{n: (filename, bytes, content_type)}``."""
    ctype = request.headers.get("Content-Type", "")
    if ctype.startswith("multipart/"):
        return parse_multipart(await request.read(), ctype)
    if request.can_read_body:
        return orjson.loads(await request.read()), {}
    return {}, {}


def refuse(emu: Emulator, rule: str, what: str, problems: list[spec.Problem]) -> None:
    """Record the breach and answer as Discord does: 400, 50035, the fields by path."""
    emu.store.violate(rule, f"{what}: " + "; ".join(map(str, problems)))
    raise DiscordHTTPError(400, 50035, "Invalid Form Body", spec.form_errors(problems))


def validate(emu: Emulator, method: str, route: str, body: Any, *,
             files: dict[int, tuple] | None = None, flags: int | None = None,
             what: str = "") -> None:
    """Refuse a body Discord's specification refuses (``request_schema``), then one that
    breaks a documented limit the specification does not encode (``message_limits``), and
    an upload over the limit of a server without boosts (413, as Discord answers)."""
    what = what or f"{method} {route}"
    problems = spec.check(method, route, body, compiled=not emu.schema_twice)
    if emu.schema_twice and spec.accepts(method, route)(body) != (not problems):
        emu.store.violate("request_schema_compiled", f"{what}: the compiled check and "
                          f"jsonschema disagree on {body!r:.2000}")
    if problems:
        refuse(emu, "request_schema", what, problems)
    if flags is not None:
        problems = limits.message(body, flags)
        if problems:
            refuse(emu, "message_limits", what, problems)
    too_big = limits.uploads(files or {})
    if too_big:
        emu.store.violate("message_limits", f"{what}: " + "; ".join(map(str, too_big)))
        raise DiscordHTTPError(413, 40005, "Request entity too large",
                               spec.form_errors(too_big))


def build_revision(emu: Emulator, channel_id: int, body: dict[str, Any], files: dict[int, tuple],
                   base: Revision | None = None, *, what: str = "message") -> Revision:
    """The next version of a message, or a 400 (and a violation) if Discord refuses it."""
    rev = emu.store.revision(channel_id, body, dict(files), base)
    check = {"content": rev.content, "embeds": rev.embeds, "components": rev.components,
             "flags": rev.flags, "allowed_mentions": body.get("allowed_mentions")}
    problems = rules.check_message(check, [(a.filename, len(a.data)) for a in rev.attachments])
    if problems:
        emu.store.violate("message_limits", f"{what}: " + "; ".join(problems))
        raise DiscordHTTPError(400, 50035, "Invalid Form Body", {"_errors": problems})
    return rev


def json_response(data: Any, headers: dict[str, str] | None = None,
                  status: int = 200) -> web.Response:
    """A JSON answer with exactly ``Content-Type: application/json`` (discord.py checks)."""
    return web.Response(body=orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


def add_routes(app: web.Application, emu: Emulator) -> None:
    """Register the bot-token routes of ``emu`` on ``app``."""
    store = emu.store
    r = app.router

    def channel(request: web.Request) -> Channel:
        emu.check_bot_auth(request)
        chan = store.channels.get(int(request.match_info["cid"]))
        if chan is None:
            raise DiscordHTTPError(404, 10003, "Unknown Channel")
        return chan

    def message(request: web.Request, chan: Channel) -> Message:
        msg = store.messages.get(int(request.match_info["mid"]))
        if msg is None or msg.deleted or msg.channel_id != chan.id or msg.ephemeral:
            if msg is not None and msg.ephemeral:
                store.violate("foreign_ephemeral", f"ephemeral message {msg.id} used through "
                              f"{request.method} {request.path}; only its interaction token may")
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        return msg

    def rate_limit(chan: Channel, bucket: str, request: web.Request) -> dict[str, str]:
        decision = emu.ratelimiter.hit(chan.id, bucket)
        headers = decision.headers(bucket)
        if not decision.allowed:
            route = f"{request.method} {request.path}"
            store.rate_limited.append(route)
            store.busy_until = max(store.busy_until, time.monotonic() + decision.reset_after)
            store.violate("rate_limit", f"429 on {route}: more than {decision.limit} message "
                          f"creates/edits in {emu.rate_config.per:g}s in #{chan.name}")
            extra = {"retry_after": round(decision.reset_after, 3), "global": False}
            raise DiscordHTTPError(429, 0, "You are being rate limited.", headers=headers,
                                   extra=extra)
        return headers

    async def gateway(request: web.Request) -> web.Response:
        return json_response({"url": emu.gateway_url})

    async def gateway_bot(request: web.Request) -> web.Response:
        emu.check_bot_auth(request)
        return json_response({
            "url": emu.gateway_url, "shards": emu.recommended_shards, "session_start_limit": {
                "total": 1000, "remaining": 1000 - emu.gateway.identifies,
                "reset_after": 14_400_000, "max_concurrency": emu.max_concurrency}})

    async def me(request: web.Request) -> web.Response:
        emu.check_bot_auth(request)
        return json_response(emu.bot_user.payload() | {"verified": True, "mfa_enabled": False,
                                                       "flags": 0, "email": None})

    async def get_user(request: web.Request) -> web.Response:
        emu.check_bot_auth(request)
        user = store.users.get(int(request.match_info["uid"]))
        if user is None:
            raise DiscordHTTPError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def application(request: web.Request) -> web.Response:
        emu.check_bot_auth(request)
        return json_response({
            "id": str(emu.application_id), "name": emu.bot_user.name, "icon": None,
            "description": "", "rpc_origins": [], "bot_public": True,
            "bot_require_code_grant": False, "owner": emu.owner.payload(), "team": None,
            "verify_key": "0" * 64, "flags": 0, "summary": "", "bot": emu.bot_user.payload(),
            "interactions_endpoint_url": None, "tags": [], "redirect_uris": [],
        })

    def command_list(request: web.Request) -> list[dict[str, Any]]:
        emu.check_bot_auth(request)
        if int(request.match_info["app"]) != emu.application_id:
            raise DiscordHTTPError(403, 50001, "Missing Access")
        gid = request.match_info.get("gid")
        if gid is None:
            return store.global_commands
        if int(gid) not in store.guilds:
            raise DiscordHTTPError(404, 10004, "Unknown Guild")
        return store.guild_commands.setdefault(int(gid), [])

    async def get_commands(request: web.Request) -> web.Response:
        return json_response(command_list(request))

    async def put_commands(request: web.Request) -> web.Response:
        old = {c["name"]: c for c in command_list(request)}
        body = await request.json()
        route = ("/applications/{application_id}/commands" if "gid" not in request.match_info
                 else "/applications/{application_id}/guilds/{guild_id}/commands")
        validate(emu, "PUT", route, body)
        found = [p for i, cmd in enumerate(body or []) for p in limits.command(cmd, (i,))]
        if found:
            refuse(emu, "command_schema", f"PUT {route}", found)
        problems = [p for cmd in body for p in rules.check_command(cmd)]
        if len(body) > 100:
            problems.append(f"{len(body)} commands (max 100)")
        if problems:
            store.violate("command_schema", "; ".join(problems))
            raise DiscordHTTPError(400, 50035, "Invalid Form Body", {"_errors": problems})
        gid = request.match_info.get("gid")
        synced = []
        for cmd in body:
            prev = old.get(cmd["name"])
            synced.append(cmd | {
                "id": prev["id"] if prev else str(store.next_id()),
                "application_id": str(emu.application_id), "version": str(store.next_id()),
                "type": cmd.get("type", 1), "guild_id": gid, "nsfw": cmd.get("nsfw", False),
                "default_member_permissions": cmd.get("default_member_permissions"),
            })
        target = command_list(request)
        target[:] = synced
        emu.commands_synced += 1
        return json_response(synced)

    async def get_channel(request: web.Request) -> web.Response:
        return json_response(channel(request).payload())

    def bot_has(chan: Channel, *names: str) -> None:
        """Discord's permission check: 403 50013 unless the bot holds every one."""
        have = store.guild_of(chan).members[emu.bot_user.id].effective_permissions
        if any(not have & PERMISSIONS[n] for n in names):
            raise DiscordHTTPError(403, 50013, "Missing Permissions")

    def thread(request: web.Request) -> Channel:
        chan = channel(request)
        if not chan.is_thread:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        return chan

    def writable(chan: Channel, *, edit: bool = False) -> None:
        """A message may go to (or change in) a channel: Send Messages (in Threads), and a
        thread open, or one the bot may reopen by posting (archived, not locked)."""
        if not chan.is_thread:
            return
        bot_has(chan, "send_messages_in_threads")
        if chan.private and emu.bot_user.id not in chan.members:
            bot_has(chan, "manage_threads")
        if chan.archived and (edit or chan.locked):
            raise DiscordHTTPError(400, 50083, "Thread is archived")

    async def edit_channel(request: web.Request) -> web.Response:
        chan = channel(request)
        body = await request.json()
        route = "/channels/{thread_id}" if chan.is_thread else "/channels/{channel_id}"
        validate(emu, "PATCH", route, body)
        if chan.is_thread:
            # Locking, unlocking, and reopening a locked thread take Manage Threads; the
            # thread's owner may archive it and rename it.
            if "locked" in body or (chan.locked and body.get("archived") is False) \
                    or (chan.owner_id != emu.bot_user.id and set(body) - {"archived"}):
                bot_has(chan, "manage_threads")
            if chan.archived and body.get("archived") is not False \
                    and set(body) - {"archived", "locked"}:
                raise DiscordHTTPError(400, 50083, "Thread is archived")
            chan.locked = bool(body.get("locked", chan.locked))
            chan.invitable = bool(body.get("invitable", chan.invitable))
            chan.auto_archive_duration = body.get("auto_archive_duration",
                                                  chan.auto_archive_duration)
        else:
            bot_has(chan, "manage_channels")
        chan.name = body.get("name", chan.name)
        chan.archived = body.get("archived", chan.archived)
        event = "THREAD_UPDATE" if chan.is_thread else "CHANNEL_UPDATE"
        await emu.gateway.dispatch(event, chan.payload())
        return json_response(chan.payload())

    async def history(request: web.Request) -> web.Response:
        chan = channel(request)
        q = request.query
        msgs = [m for m in store.channel_messages(chan) if not m.deleted and not m.ephemeral]
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
        limit = int(q.get("limit", 50))
        msgs = msgs[:limit] if "after" in q else msgs[-limit:]
        return json_response([m.payload() for m in reversed(msgs)])

    async def create_message(request: web.Request) -> web.Response:
        chan = channel(request)
        # the whole request is read before any answer, as a real server does: a 429 sent while
        # discord.py still writes a large multipart body would reset its connection
        body, files = await read_body(request)
        headers = rate_limit(chan, "msg-create", request)
        validate(emu, "POST", "/channels/{channel_id}/messages", body, files=files,
                 flags=limits.CHANNEL_CREATE_FLAGS)
        writable(chan)
        rev = build_revision(emu, chan.id, body, files)
        msg = store.add_message(chan, emu.bot_user, rev)
        if chan.archived:  # a message reopens an archived thread that is not locked
            chan.archived = False
            await emu.gateway.dispatch("THREAD_UPDATE", chan.payload())
        await emu.gateway.dispatch("MESSAGE_CREATE", msg.payload())
        return json_response(msg.payload(), headers)

    async def get_message(request: web.Request) -> web.Response:
        chan = channel(request)
        return json_response(message(request, chan).payload())

    async def edit_message(request: web.Request) -> web.Response:
        chan = channel(request)
        msg = message(request, chan)
        if msg.author is not emu.bot_user:
            raise DiscordHTTPError(403, 50005, "Cannot edit a message authored by another user")
        body, files = await read_body(request)  # read first, as for a new message
        headers = rate_limit(chan, "msg-edit", request)
        validate(emu, "PATCH", "/channels/{channel_id}/messages/{message_id}", body,
                 files=files, flags=limits.EDIT_FLAGS)
        writable(chan, edit=True)
        store.edit(msg, build_revision(emu, chan.id, body, files, msg.current, what="edit"))
        await emu.gateway.dispatch("MESSAGE_UPDATE", msg.payload())
        return json_response(msg.payload(), headers)

    async def delete_message(request: web.Request) -> web.Response:
        chan = channel(request)
        msg = message(request, chan)
        msg.deleted = True
        await emu.gateway.dispatch("MESSAGE_DELETE", {
            "id": str(msg.id), "channel_id": str(chan.id), "guild_id": str(chan.guild_id)})
        return web.Response(status=204)

    async def typing(request: web.Request) -> web.Response:
        channel(request)
        return web.Response(status=204)

    async def create_thread(request: web.Request) -> web.Response:
        chan = channel(request)
        body, _ = await read_body(request)
        if "mid" in request.match_info:
            validate(emu, "POST", "/channels/{channel_id}/messages/{message_id}/threads", body)
            start = message(request, chan)
        else:
            validate(emu, "POST", "/channels/{channel_id}/threads", body)
            start = None
        if chan.is_thread or chan.type not in (0, 5):
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        # From a message: a public thread.  Without one: the type asked for, and under API
        # v9 and later a private thread when none is asked for.
        private = start is None and body.get("type") in (None, 12)
        bot_has(chan, "view_channel",
                "create_private_threads" if private else "create_public_threads")
        if start is not None:
            bot_has(chan, "read_message_history")
            if any(c.starter_message_id == start.id for c in store.channels.values()):
                raise DiscordHTTPError(400, 160004,
                                       "A thread has already been created for this message")
        made = emu.add_thread(chan, body["name"], private=private, owner=emu.bot_user,
                              starter=start, announce=False)
        made.invitable = bool(body.get("invitable", True)) if private else True
        made.auto_archive_duration = body.get("auto_archive_duration") or 1440
        await emu.gateway.dispatch("THREAD_CREATE", made.payload() | {"newly_created": True})
        return json_response(made.payload(), status=201)

    async def thread_member(request: web.Request) -> web.Response:
        chan = thread(request)
        uid = request.match_info["uid"]
        user_id = emu.bot_user.id if uid == "@me" else int(uid)
        guild = store.guild_of(chan)
        if user_id not in guild.members:
            raise DiscordHTTPError(404, 10007, "Unknown Member")
        if request.method == "GET":
            if user_id not in chan.members:
                raise DiscordHTTPError(404, 10033, "Unknown Thread Member")
            return json_response({"id": str(chan.id), "user_id": str(user_id), "flags": 0,
                                  "join_timestamp": iso(utcnow())})
        if chan.archived:
            raise DiscordHTTPError(400, 50083, "Thread is archived")
        me = uid == "@me"
        if request.method == "PUT":
            if not me:
                # adding someone takes sending in the thread; to a private thread, being in
                # it (and the thread invitable) or Manage Threads
                bot_has(chan, "send_messages_in_threads")
                if chan.private and (emu.bot_user.id not in chan.members
                                     or not chan.invitable):
                    bot_has(chan, "manage_threads")
            elif chan.private:
                bot_has(chan, "manage_threads")
            chan.members.add(user_id)
        elif request.method == "DELETE":
            if not me and not (chan.private and chan.owner_id == emu.bot_user.id):
                bot_has(chan, "manage_threads")
            chan.members.discard(user_id)
        else:
            return await emu._unknown(request)
        await emu.gateway.dispatch("THREAD_MEMBERS_UPDATE", {
            "id": str(chan.id), "guild_id": str(chan.guild_id),
            "member_count": len(chan.members)})
        return web.Response(status=204)

    async def get_guild(request: web.Request) -> web.Response:
        emu.check_bot_auth(request)
        guild = store.guilds.get(int(request.match_info["gid"]))
        if guild is None:
            raise DiscordHTTPError(404, 10004, "Unknown Guild")
        tail = request.match_info.get("tail", "")
        if tail == "channels":
            return json_response([c.payload() for c in guild.channels.values()
                                  if not c.is_thread])
        if tail == "roles":
            return json_response([role.payload() for role in guild.roles.values()])
        if tail.startswith("members/"):
            member = guild.members.get(int(tail.split("/")[1]))
            if member is None:
                raise DiscordHTTPError(404, 10007, "Unknown Member")
            return json_response(member.payload())
        if tail:
            return await emu._unknown(request)
        return json_response(guild.payload())

    async def attachment(request: web.Request) -> web.Response:
        a = store.attachments.get(int(request.match_info["aid"]))
        if a is None:
            raise web.HTTPNotFound()
        return web.Response(body=a.data, content_type=a.content_type or "application/octet-stream")

    app_cmds = API + "/applications/{app}"
    chan = API + "/channels/{cid}"
    r.add_get(API + "/gateway", gateway)
    r.add_get(API + "/gateway/bot", gateway_bot)
    r.add_get("/gateway/bot", gateway_bot)
    r.add_get(API + "/users/@me", me)
    r.add_get(API + "/users/{uid:\\d+}", get_user)
    r.add_get(API + "/oauth2/applications/@me", application)
    r.add_get(API + "/applications/@me", application)
    for path in (app_cmds + "/commands", app_cmds + "/guilds/{gid}/commands"):
        r.add_get(path, get_commands)
        r.add_put(path, put_commands)
    r.add_get(chan, get_channel)
    r.add_patch(chan, edit_channel)
    r.add_get(chan + "/messages", history)
    r.add_post(chan + "/messages", create_message)
    r.add_get(chan + "/messages/{mid}", get_message)
    r.add_patch(chan + "/messages/{mid}", edit_message)
    r.add_delete(chan + "/messages/{mid}", delete_message)
    r.add_post(chan + "/typing", typing)
    r.add_post(chan + "/threads", create_thread)
    r.add_post(chan + "/messages/{mid}/threads", create_thread)
    r.add_route("*", chan + "/thread-members/{uid}", thread_member)
    r.add_get(API + "/guilds/{gid:\\d+}", get_guild)
    r.add_get(API + "/guilds/{gid:\\d+}/{tail:.+}", get_guild)
    r.add_get("/attachments/{cid}/{aid}/{filename}", attachment)
