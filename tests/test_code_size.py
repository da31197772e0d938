"""Rooms small enough to hold: no product module over 450 lines, no function over 60."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "render")
MAX_MODULE_LINES = 450
MAX_FUNCTION_LINES = 60
# The message catalogs are long lists of sentences, one per key and language.
CATALOG = re.compile(r"^bot/i18n/(rules_)?(en|pl|ru|uk|de)\.py$")


def product_modules() -> list[str]:
    """Every Python module of the product, relative to the root, except the catalogs."""
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if not CATALOG.match(name):
                names.append(name)
    return names


def test_the_catalogs_are_all_that_is_left_out() -> None:
    left_out = [path.relative_to(ROOT).as_posix() for package in PACKAGES
                for path in (ROOT / package).rglob("*.py")
                if CATALOG.match(path.relative_to(ROOT).as_posix())]
    assert len(left_out) == 10, left_out
    assert "bot/game/rules.py" in product_modules()


def test_no_module_over_the_limit() -> None:
    long = []
    for name in product_modules():
        lines = len((ROOT / name).read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE_LINES:
            long.append(f"{name}: {lines} lines")
    assert not long, f"modules over {MAX_MODULE_LINES} lines:\n" + "\n".join(long)


def long_functions(source: str) -> list[tuple[str, int, int]]:
    """The functions (and methods) of a module longer than the limit: name, line, length."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found.append((node.name, node.lineno, length))
    return found


def test_no_function_over_the_limit() -> None:
    long = [f"{name}:{line}: {function} is {length} lines"
            for name in product_modules()
            for function, line, length in long_functions(
                (ROOT / name).read_text(encoding="utf-8"))]
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(long)


def test_the_function_check_counts_from_def_to_the_last_line() -> None:
    body = "\n".join(f"    x = {i}" for i in range(MAX_FUNCTION_LINES - 1))
    fits = f"def f() -> None:\n{body}\n"
    assert long_functions(fits) == []
    assert long_functions(fits + "    x = 0\n") == [("f", 1, MAX_FUNCTION_LINES + 1)]
