"""The repository as a reader meets it: it describes the product, not how it was made, and
its one version agrees everywhere it is written."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import bot

ROOT = Path(__file__).resolve().parents[1]

# A numbered work log and its references. The emulator is left out: a gateway session is
# Discord's own word there.
WORK_LOG = re.compile(r"\bsessions? [0-9]+|^#+ *Session\b|\bissues? #?[0-9]+",
                      re.IGNORECASE | re.MULTILINE)
EXEMPT = ("tests/fakediscord/",)


def tracked_files() -> list[str]:
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                                capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [name for name in listed.decode().split("\0")
            if name and not name.startswith(EXEMPT)]


def test_no_tracked_text_speaks_of_how_it_was_developed() -> None:
    found = []
    for name in tracked_files():
        path = ROOT / name
        if not path.is_file():  # deleted in the work tree, not yet committed
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # images, fonts
            continue
        for match in WORK_LOG.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append(f"{name}:{line}: {match.group(0)!r}")
    assert not found, "work-log references in tracked files:\n" + "\n".join(found)


def test_the_pattern_finds_what_it_is_meant_to() -> None:
    # numbers added here, so that this file does not match itself
    for text, number in (("as in session ", "4"), ("Sessions ", "3-14"),
                         ("## Session", " (2026-11-27)"), ("see issue ", "13"),
                         ("issues #", "17")):
        assert WORK_LOG.search(text + number), text + number
    for text in ("a gateway session", "the session's server", "a session fixture",
                 "no issue here", "issued 3 cards"):
        assert not WORK_LOG.search(text), text


def changelog_version() -> str:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", text, re.MULTILINE)
    assert released, "CHANGELOG.md has no released version (## [X.Y.Z] - YYYY-MM-DD)"
    return released[0]


def test_one_version_in_changelog_pyproject_and_package() -> None:
    with (ROOT / "pyproject.toml").open("rb") as f:
        declared = tomllib.load(f)["project"]["version"]
    assert changelog_version() == declared == bot.__version__


@pytest.mark.slow
def test_version_on_the_command_line() -> None:
    done = subprocess.run([sys.executable, "-m", "bot", "--version"], cwd=ROOT, check=False,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"python -m bot {changelog_version()}"


@pytest.mark.slow
async def test_the_start_up_log_line_names_the_version(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port nothing listens on: the bot logs, then gives up
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "LOG_LEVEL": "INFO", "DISCORD_TOKEN": "x",
           "DATABASE_PATH": str(tmp_path / "v.db"),
           "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
           "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/gateway"}
    env.pop("DATABASE_URL", None)
    env.pop("DEV_GUILD_ID", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=str(ROOT), env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(proc.communicate(), 60)
    output = out.decode()
    assert proc.returncode == 1, output
    assert f"tysiac-bot {changelog_version()} starting" in output, output


def test_no_two_classes_of_the_product_share_a_name() -> None:
    import ast
    from collections import defaultdict

    where: dict[str, list[str]] = defaultdict(list)
    for package in ("bot", "cogs", "render"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    where[node.name].append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}
