"""Structural test: the layers of docs/architecture.md import only what they may."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FORBIDDEN = {
    "bot/game": {"discord", "aiosqlite", "asyncio", "PIL", "sqlite3", "render", "cogs"},
    "bot/ai": {"discord", "aiosqlite", "asyncio", "render", "cogs"},
    "render": {"discord", "aiosqlite", "asyncio", "sqlite3", "cogs"},
    "bot/store": {"discord", "cogs"},
    "bot/tables": {"discord", "cogs"},
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layer_imports(package: str) -> None:
    folder = ROOT / package
    if not folder.exists():
        pytest.skip(f"{package} not built yet")
    bad = {}
    for path in folder.rglob("*.py"):
        hits = imported_roots(path) & FORBIDDEN[package]
        if hits:
            bad[str(path.relative_to(ROOT))] = sorted(hits)
    assert not bad


def test_discord_only_in_cogs_and_main() -> None:
    allowed = {"cogs", "tests"}
    bad = []
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT)
        if rel.parts[0] in allowed or rel.parts[0].startswith(".") or str(rel) == (
                "bot/__main__.py"):
            continue
        if "discord" in imported_roots(path):
            bad.append(str(rel))
    assert not bad
