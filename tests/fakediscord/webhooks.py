"""Interaction responses and the interaction webhook (token based) routes.

``POST /interactions/{id}/{token}/callback`` is the one initial response;
``/webhooks/{application_id}/{token}[/messages/...]`` are followups and edits
of the original response, valid for the token's lifetime (15 minutes).
Every breach of Discord's rules is recorded as a violation, and answered with
the error Discord would give, so the bot fails as it would in production.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import limits, rules
from .errors import DiscordHTTPError
from .models import EPHEMERAL, LOADING, Interaction, Message, Revision
from .rest import API, build_revision, json_response, read_body, refuse, validate

if TYPE_CHECKING:
    from .server import Emulator

# interaction type -> response types Discord accepts for it
ALLOWED = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
RESPONSE_NAMES = {4: "message", 5: "deferred message", 6: "deferred update", 7: "update",
                  8: "autocomplete", 9: "modal"}


def add_routes(app: web.Application, emu: Emulator) -> None:
    """Register the interaction callback and webhook routes of ``emu``."""
    store = emu.store
    r = app.router

    async def publish(msg: Message, event: str) -> None:
        if not msg.ephemeral:
            await emu.gateway.dispatch(event, msg.payload())

    def new_message(ix: Interaction, rev: Revision, flags: int) -> Message:
        owner = ix.user.id if flags & EPHEMERAL else None
        return store.add_message(ix.channel, emu.bot_user, rev, ephemeral_for=owner,
                                 interaction=ix, webhook_id=emu.application_id,
                                 type_=20 if ix.type == 2 else 0)

    async def callback(request: web.Request) -> web.Response:
        ix = store.interactions.get(int(request.match_info["iid"]))
        if ix is None or ix.token != request.match_info["token"]:
            raise DiscordHTTPError(404, 10062, "Unknown interaction")
        if ix.responded:
            store.violate("double_response", f"second initial response to interaction {ix.id} "
                          f"(already answered with {RESPONSE_NAMES.get(ix.response_type)})", ix)
            raise DiscordHTTPError(400, 40060, "Interaction has already been acknowledged.")
        if ix.late or store.now() - ix.created > emu.response_deadline:
            if not ix.late:
                ix.late = True
                store.violate("late_response", f"interaction {ix.id} answered after "
                              f"{emu.response_deadline:g}s", ix)
            raise DiscordHTTPError(404, 10062, "Unknown interaction")
        body, files = await read_body(request)
        validate(emu, "POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                 body, files=files, what=f"response to interaction {ix.id}")
        rtype, data = body.get("type"), body.get("data") or {}
        allowed_flags = {4: limits.INTERACTION_FLAGS, 5: limits.DEFERRED_FLAGS,
                         7: limits.EDIT_FLAGS}.get(rtype)
        problems = limits.message(data, allowed_flags, ("data",)) if allowed_flags else []
        if problems:
            refuse(emu, "message_limits", f"response to interaction {ix.id}", problems)
        allowed = set(ALLOWED.get(ix.type, ()))
        if ix.source_message is None:
            allowed -= {6, 7}
        if rtype not in allowed:
            store.violate("bad_response_type", f"response type {rtype} to interaction type "
                          f"{ix.type} (allowed: {sorted(allowed)})", ix)
            raise DiscordHTTPError(400, 50035, "Invalid Form Body")
        flags = int(data.get("flags") or 0)
        msg: Message | None = None
        event: str | None = None  # what the bot's gateway hears of it, once it is answered
        if rtype == 4:
            msg = new_message(ix, build_revision(emu, ix.channel.id, data, files), flags)
            event = "MESSAGE_CREATE"
        elif rtype == 5:
            msg = new_message(ix, Revision("", [], [], [], LOADING | (flags & EPHEMERAL)), flags)
        elif rtype in (6, 7):
            msg = ix.source_message
            if rtype == 7 and msg is not None:
                store.edit(msg, build_revision(emu, ix.channel.id, data, files, msg.current,
                                               what="update"))
                event = "MESSAGE_UPDATE"
        elif rtype == 8:
            problems = rules.check_choices(data.get("choices") or [], ix.focused_type or 3)
            if problems:
                store.violate("autocomplete_choices", "; ".join(problems), ix)
                raise DiscordHTTPError(400, 50035, "Invalid Form Body", {"_errors": problems})
        elif rtype == 9:
            comps = data.get("components") or []
            problems = rules.check_components(comps, v2=True)
            if not data.get("custom_id") or not 1 <= len(data.get("title") or "") <= 45:
                problems.append("a modal needs a custom_id and a 1-45 character title")
            if not 1 <= len(comps) <= 5:
                problems.append(f"a modal has 1-5 top-level components, not {len(comps)}")
            if problems:
                store.violate("modal_limits", "; ".join(problems), ix)
                raise DiscordHTTPError(400, 50035, "Invalid Form Body", {"_errors": problems})
        ix.response_type, ix.response_data, ix.original = rtype, data, msg
        # Discord has the answer now, and the user sees it, however slowly the bot's own
        # gateway connection takes the MESSAGE_CREATE/UPDATE that follows.
        ix.answered_at = time.monotonic()
        ix.answered.set()
        if msg is not None and event is not None:
            await publish(msg, event)
        result: dict[str, Any] = {"interaction": {
            "id": str(ix.id), "type": ix.type, "response_message_loading": rtype == 5,
            "response_message_ephemeral": bool(flags & EPHEMERAL)}}
        if msg is not None:
            result["interaction"]["response_message_id"] = str(msg.id)
            result["resource"] = {"type": rtype, "message": msg.payload()}
        if "with_response" not in request.query:
            return web.Response(status=204)
        return json_response(result)

    def interaction_of(request: web.Request) -> Interaction:
        ix = store.by_token.get(request.match_info["token"])
        if ix is None or int(request.match_info["app"]) != emu.application_id:
            store.violate("invalid_token", f"{request.method} {request.path}: no such "
                          "interaction token")
            raise DiscordHTTPError(401, 50027, "Invalid Webhook Token")
        age = store.now() - ix.created
        if age > emu.token_lifetime:
            store.violate("expired_token", f"{request.method} on interaction {ix.id}'s token "
                          f"after {age / 60:.1f} minutes (tokens last "
                          f"{emu.token_lifetime / 60:g})", ix)
            raise DiscordHTTPError(401, 50027, "Invalid Webhook Token")
        if not ix.responded:
            store.violate("not_acknowledged", f"{request.method} through the token of "
                          f"interaction {ix.id} before its initial response", ix)
            raise DiscordHTTPError(404, 10015, "Unknown Webhook")
        return ix

    def target(request: web.Request, ix: Interaction) -> Message:
        mid = request.match_info["mid"]
        if mid == "@original":
            if ix.original is None or ix.original.deleted:
                raise DiscordHTTPError(404, 10008, "Unknown Message")
            return ix.original
        msg = store.messages.get(int(mid))
        if msg is None or msg.deleted or msg.author is not emu.bot_user:
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        if msg.ephemeral and msg.ephemeral_for != ix.user.id:
            store.violate("foreign_ephemeral", f"ephemeral message {msg.id} of another user "
                          f"touched through interaction {ix.id} of {ix.user.name}", ix)
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        return msg

    async def followup(request: web.Request) -> web.Response:
        ix = interaction_of(request)
        body, files = await read_body(request)
        validate(emu, "POST", "/webhooks/{webhook_id}/{webhook_token}", body, files=files,
                 flags=limits.INTERACTION_FLAGS, what=f"followup of interaction {ix.id}")
        flags = int(body.get("flags") or 0)
        orig = ix.original
        if ix.response_type == 5 and orig is not None and orig.loading:
            # Discord: the first followup after a deferred answer replaces "thinking..."
            rev = build_revision(emu, ix.channel.id, body, files, orig.current, what="followup")
            rev.flags &= ~LOADING
            store.edit(orig, rev)
            msg = orig
            await publish(msg, "MESSAGE_CREATE")
        else:
            msg = new_message(ix, build_revision(emu, ix.channel.id, body, files,
                                                 what="followup"), flags)
            ix.followups.append(msg)
            await publish(msg, "MESSAGE_CREATE")
        if request.query.get("wait") not in ("true", "1", "True"):
            return web.Response(status=204)
        return json_response(msg.payload())

    async def get_message(request: web.Request) -> web.Response:
        return json_response(target(request, interaction_of(request)).payload())

    async def edit_message(request: web.Request) -> web.Response:
        ix = interaction_of(request)
        msg = target(request, ix)
        body, files = await read_body(request)
        validate(emu, "PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                 body, files=files, flags=limits.EDIT_FLAGS,
                 what=f"edit through interaction {ix.id}")
        was_loading = msg.loading
        rev = build_revision(emu, msg.channel_id, body, files, msg.current, what="edit")
        rev.flags &= ~LOADING
        store.edit(msg, rev)
        await publish(msg, "MESSAGE_CREATE" if was_loading else "MESSAGE_UPDATE")
        return json_response(msg.payload())

    async def delete_message(request: web.Request) -> web.Response:
        msg = target(request, interaction_of(request))
        msg.deleted = True
        if not msg.ephemeral:
            await emu.gateway.dispatch("MESSAGE_DELETE", {
                "id": str(msg.id), "channel_id": str(msg.channel_id),
                "guild_id": str(msg.guild_id)})
        return web.Response(status=204)

    hook = API + "/webhooks/{app}/{token}"
    r.add_post(API + "/interactions/{iid}/{token}/callback", callback)
    r.add_post(hook, followup)
    r.add_get(hook + "/messages/{mid}", get_message)
    r.add_patch(hook + "/messages/{mid}", edit_message)
    r.add_delete(hook + "/messages/{mid}", delete_message)
