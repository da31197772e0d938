"""Fixtures of the web tests: a seeded guild with its pages on (tests.helpers.web), and
headless Chromium (the system's) through Playwright."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, async_playwright

from tests.helpers.web import Site, close_site, open_site

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def _need_chromium() -> None:
    if not shutil.which(CHROMIUM) and not os.path.isfile(CHROMIUM):
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: run scripts/system-packages "
                    "(Debian: sudo apt-get install chromium), or set CHROMIUM to its path.")


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    _need_chromium()
    async with async_playwright() as pw:
        b = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        await b.close()


@pytest.fixture
def shots(tmp_path) -> Path:
    out = Path(os.environ.get("WEB_SHOTS") or tmp_path / "shots")
    out.mkdir(parents=True, exist_ok=True)
    return out


@pytest.fixture
async def site(tmp_path) -> AsyncIterator[Site]:
    s = await open_site(str(tmp_path / "web.db"), live=True)
    yield s
    await close_site(s)
