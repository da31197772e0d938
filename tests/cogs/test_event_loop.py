"""The bot's event loop: uvloop where it is installed (less CPU per interaction), asyncio's
own loop otherwise."""

from __future__ import annotations

import asyncio
import sys

import pytest

from cogs._bot import use_fast_loop


def test_the_bot_runs_on_uvloop_where_installed() -> None:
    uvloop = pytest.importorskip("uvloop")
    before = asyncio.get_event_loop_policy()
    try:
        assert use_fast_loop() == "uvloop"
        loop = asyncio.new_event_loop()  # as asyncio.run makes the bot's loop
        try:
            assert isinstance(loop, uvloop.Loop)
        finally:
            loop.close()
    finally:
        asyncio.set_event_loop_policy(before)


def test_without_uvloop_the_bot_runs_on_asyncio_s_loop(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # as if not installed: import fails
    before = asyncio.get_event_loop_policy()
    try:
        assert use_fast_loop() == "asyncio's (uvloop is not installed)"
        assert asyncio.get_event_loop_policy() is before
    finally:
        asyncio.set_event_loop_policy(before)
