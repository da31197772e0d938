"""The bot's invite link: the permissions it asks a server for, declared once.

The bot answers interactions (no permission needed), posts and edits its own messages in
the table's channel or thread (the table message with its image, each hand's result, the
match summary), and deletes its own old table message (no permission needed for one's own
message); a tournament's tables play in private threads it creates, fills and closes.
docs/discord.md names each permission and why; the README's link is checked against this
value by the tests.
"""

from __future__ import annotations

import base64
import binascii

import discord

PERMISSIONS = discord.Permissions(
    view_channel=True,  # see the channel a table is opened in
    send_messages=True,  # the table message, results and summaries
    send_messages_in_threads=True,  # the same where the table is in a thread
    # a tournament's tables: one private thread each, closed to the other tables' players
    create_private_threads=True,
    # add the table's players to a thread they cannot widen (not invitable: a mention of a
    # player of another table does not pull him in), and lock it once the round has ended
    manage_threads=True,
    embed_links=True,  # the table, the score sheet and listings are embeds
    attach_files=True,  # the table and sheet images
    # not required by the API for the bot's own messages; asked so that a channel override
    # hiding the history cannot hide the table message the bot keeps editing
    read_message_history=True,
)
SCOPES = ("bot", "applications.commands")
PLACEHOLDER = "YOUR_APP_ID"


def invite_url(client_id: int | str = PLACEHOLDER) -> str:
    """The OAuth2 link that adds the bot with its commands and exactly ``PERMISSIONS``."""
    return ("https://discord.com/oauth2/authorize?"
            f"client_id={client_id}&scope={'+'.join(SCOPES)}&permissions={PERMISSIONS.value}")


def client_id_of(token: str) -> int | None:
    """The application id a bot token starts with (its first part is the id in base64)."""
    head = token.strip().split(".", 1)[0]
    try:
        text = base64.b64decode(head + "=" * (-len(head) % 4), validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None
