"""Structural tests: the layers of docs/architecture.md import only what they may, and the
product's modules import each other without a cycle (lazy and type-checking imports count:
a cycle is a knot for the reader whether or not Python resolves it)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("bot", "cogs", "render")

FORBIDDEN = {
    "bot/game": {"discord", "aiosqlite", "asyncio", "PIL", "sqlite3", "render", "cogs",
                 "bot.ai", "bot.store", "bot.tables", "bot.i18n", "bot.config"},
    "bot/ai": {"discord", "aiosqlite", "asyncio", "render", "cogs", "bot.store",
               "bot.tables"},
    "render": {"discord", "aiosqlite", "asyncio", "sqlite3", "cogs", "bot.store",
               "bot.tables", "bot.ai"},
    "bot/store": {"discord", "cogs", "render", "bot.tables", "bot.ai"},
    "bot/tables": {"discord", "cogs", "render"},
    "bot/i18n": {"discord", "cogs", "render", "bot.store", "bot.tables"},
    "bot/config.py": {"discord", "cogs", "render", "bot.store", "bot.tables"},
    "cogs": {"bot.store", "sqlite3", "aiosqlite"},  # cogs ask the service
    # the web pages: a presentation layer like cogs/, without Discord
    "bot/web": {"discord", "cogs", "bot.store", "sqlite3", "aiosqlite", "bot.ai"},
}


def _files(rel: str) -> list[Path]:
    path = ROOT / rel
    return [path] if path.is_file() else sorted(path.rglob("*.py"))


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache  # each test reads every file: parse each once
def imports_of(path: Path) -> frozenset[str]:
    """Every module ``path`` imports (absolute names; ``from a import b`` gives a and a.b)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            out.add(base)
            out |= {f"{base}.{a.name}" for a in node.names}
    return frozenset(out)


def _hits(name: str, banned: set[str]) -> bool:
    return any(name == b or name.startswith(b + ".") for b in banned)


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports(layer: str) -> None:
    bad = {}
    for path in _files(layer):
        hits = sorted(n for n in imports_of(path) if _hits(n, FORBIDDEN[layer]))
        if hits:
            bad[str(path.relative_to(ROOT))] = hits
    assert not bad


def test_product_never_imports_the_tests() -> None:
    bad = [str(p.relative_to(ROOT)) for pkg in PRODUCT for p in _files(pkg)
           if any(_hits(n, {"tests"}) for n in imports_of(p))]
    assert not bad


def test_bot_reaches_cogs_and_render_only_from_the_entry_point() -> None:
    entry = ROOT / "bot" / "__main__.py"
    web = ROOT / "bot" / "web"  # the web pages draw with render (never cogs)
    bad = [str(p.relative_to(ROOT)) for p in _files("bot") if p != entry
           and any(_hits(n, {"cogs"} if web in p.parents else {"cogs", "render"})
                   for n in imports_of(p))]
    assert not bad


def test_discord_only_in_cogs_and_the_entry_point() -> None:
    bad = [str(p.relative_to(ROOT)) for pkg in ("bot", "render") for p in _files(pkg)
           if p != ROOT / "bot" / "__main__.py"
           and any(_hits(n, {"discord"}) for n in imports_of(p))]
    assert not bad


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for pkg in PRODUCT for p in _files(pkg)}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = {n for n in imports_of(path) if n in modules and n != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (modules in order), or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_cycles() -> None:
    cycle = find_cycle(_graph())
    assert cycle is None, " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
