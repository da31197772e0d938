"""The invite link asks a server for exactly the permissions the bot declares."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from cogs._invite import PERMISSIONS, client_id_of

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"https://discord\.com/oauth2/authorize\?\S*?permissions=(\d+)")
NEEDED = ["attach_files", "create_private_threads", "embed_links", "manage_threads",
          "read_message_history", "read_messages", "send_messages",
          "send_messages_in_threads"]  # read_messages: View Channels


def permission_names(value: int) -> list[str]:
    """The names of the permissions ``value`` grants, as discord.py spells them."""
    return sorted(name for name, on in discord.Permissions(value) if on)


def test_the_declared_permissions_are_what_the_bot_needs():
    assert permission_names(PERMISSIONS.value) == NEEDED


@pytest.mark.parametrize("doc", ["README.md", "docs/discord.md"])
def test_the_documented_link_grants_the_declared_permissions(doc):
    links = LINK.findall((ROOT / doc).read_text(encoding="utf-8"))
    assert links, f"no invite link with permissions=<int> in {doc}"
    for number in links:
        assert permission_names(int(number)) == permission_names(PERMISSIONS.value), doc


@pytest.mark.slow
def test_the_invite_command_prints_the_link():
    out = subprocess.run([sys.executable, "-m", "bot", "invite", "--client-id", "123"],
                         capture_output=True, text=True, timeout=60, check=False, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    link = out.stdout.strip()
    assert link.startswith("https://discord.com/oauth2/authorize?client_id=123&")
    assert "scope=bot+applications.commands" in link
    number = LINK.fullmatch(link)
    assert number is not None and permission_names(int(number[1])) == NEEDED


def test_the_application_id_is_read_from_the_token():
    assert client_id_of("MTIzNDU2Nzg5MDEyMzQ1Njc4.Gx1234.abcdef") == 123456789012345678
    assert client_id_of("not a token") is None
